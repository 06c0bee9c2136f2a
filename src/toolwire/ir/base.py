"""Shared pieces of the canonical model: the base struct, format names, extras."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

__all__ = ["FORMATS", "Extra", "Format", "IRStruct"]

Format = Literal["openai-chat", "openai-responses", "anthropic", "gemini"]
"""A wire format toolwire speaks."""

FORMATS: tuple[Format, ...] = ("openai-chat", "openai-responses", "anthropic", "gemini")

Extra = dict[str, Any]
"""Fields of the source format that the model does not name.

Kept so that decoding then encoding to the *same* format reproduces the payload.
Keys that start with ``"~"`` are codec layout hints (for example whether a Chat
``content`` was a string or a list of parts); they are never emitted as fields.
"""


class IRStruct(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """Base class of every canonical-model struct: immutable, keyword-only."""
