"""Configuration of the emulator."""

from __future__ import annotations

from dataclasses import dataclass

from toolwire.emulator.script import Script

__all__ = ["DEFAULT_MODELS", "EmulatorConfig"]

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
    """

    api_keys: tuple[str, ...] = ()
    script: Script | None = None
    faults: str | None = None
    secret: bytes = b"toolwire-emulator"
    max_parallel: int = 4
    chunk_size: int = 12
    models: tuple[str, ...] = DEFAULT_MODELS
    validate: bool = True
