"""Shared pieces of the canonical model: the base struct, format names, extras."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

__all__ = ["FORMATS", "FORMAT_ALIASES", "Extra", "Format", "FormatAlias", "FormatName", "IRStruct"]

Format = Literal["openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse"]
"""A wire format toolwire speaks, by its canonical name (what IR ``origin`` fields hold)."""

FormatAlias = Literal["chat", "openai", "responses", "claude", "google", "bedrock"]
"""A short name that public functions accept for a :data:`Format` (see :data:`FORMAT_ALIASES`)."""

FormatName = Literal[Format, FormatAlias]
"""What a public ``format=`` / ``source=`` / ``target=`` parameter accepts: a format or an alias.

Type checkers reject a misspelt name (``"antropic"``); at run time an unknown name raises
:class:`~toolwire.errors.ToolwireError` with a suggestion.
"""

FORMATS: tuple[Format, ...] = ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse")

FORMAT_ALIASES: dict[str, Format] = {
    "chat": "openai-chat",
    "openai": "openai-chat",
    "responses": "openai-responses",
    "claude": "anthropic",
    "google": "gemini",
    "bedrock": "bedrock-converse",
}
"""Each alias (a :data:`FormatAlias`) and the format it names."""

Extra = dict[str, Any]
"""Fields of the source format that the model does not name.

Kept so that decoding then encoding to the *same* format reproduces the payload.
Keys that start with ``"~"`` are codec layout hints (for example whether a Chat
``content`` was a string or a list of parts); they are never emitted as fields.
"""


class IRStruct(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, forbid_unknown_fields=True):
    """Base class of every canonical-model struct: immutable, keyword-only."""
