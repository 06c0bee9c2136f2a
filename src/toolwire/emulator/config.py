"""Configuration of the emulator."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from toolwire.emulator.script import Script

__all__ = ["DEFAULT_MODELS", "RULES", "EmulatorConfig", "RuleMode"]

RuleMode = Literal["lenient", "provider"]
RULES: tuple[RuleMode, ...] = ("lenient", "provider")
"""The emulator's rule modes: ``lenient`` (default) or ``provider`` (the replay rules real
providers enforce on history, see :mod:`toolwire.emulator.rules`)."""

DEFAULT_MODELS: tuple[str, ...] = (
    "gpt-4o",
    "gpt-5",
    "claude-sonnet-4-6",
    "gemini-2.5-flash",
)
"""Model names listed by ``GET /v1/models`` (any model name is accepted in requests)."""


@dataclass(frozen=True, slots=True)
class EmulatorConfig:
    """How the emulator behaves.

    Attributes:
        api_keys: accepted API keys; empty means no authentication.
        script: exact turns to play (see :mod:`toolwire.emulator.script`).
        faults: a fault spec applied to every request (see :mod:`toolwire.emulator.faults`).
        secret: key of the reasoning-state signatures.
        max_parallel: the most tool calls in one turn.
        chunk_size: characters per text/argument delta when streaming.
        models: names listed by the model-list endpoints.
        validate: check requests with :func:`toolwire.validate.validate` when it is available.
        rules: ``provider`` enforces the providers' replay rules on history
            (:mod:`toolwire.emulator.rules`); ``lenient`` does not.
        store_size: the most Responses kept for ``previous_response_id`` and
            ``GET /v1/responses/{id}`` in memory (the oldest is dropped first).
        store: where Responses are kept: ``memory://`` (default, bounded by ``store_size``),
            ``sqlite:///path.db`` or ``redis://host:port/db`` (:func:`toolwire.store.open_store`).
    """

    api_keys: tuple[str, ...] = ()
    script: Script | None = None
    faults: str | None = None
    secret: bytes = b"toolwire-emulator"
    max_parallel: int = 4
    chunk_size: int = 12
    models: tuple[str, ...] = DEFAULT_MODELS
    validate: bool = True
    rules: RuleMode = "lenient"
    store_size: int = 1000
    store: str = "memory://"
