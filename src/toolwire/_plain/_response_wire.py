"""Typed schemas of plain responses: a response reader's shape checks made by msgspec, in C.

``msgspec.convert(payload, Schema)`` checks a decoded response against the shape a reader takes
(every key known, each value of its type) about three times faster than the reader's own Python
checks, and hands the reader typed fields. A reader tries its schema first and, when msgspec
refuses the payload, runs its own checks (which take more shapes: other usages, for one): a
schema takes a subset of what the reader takes, never more, and the reader makes the same
:class:`~toolwire._plain._response_form.PlainResponse` of it either way (tests pin both).

Kept Python (``pyproject``'s mypyc ``exclude``): msgspec Structs are not mypyc classes. A count
typed ``int`` that defaults to ``None`` is one the wire may leave out but not send as ``null``
(which the codec's decoder keeps as a hint: the reader's own checks take it).
"""

from __future__ import annotations

from typing import Any, Literal

from msgspec import Struct

__all__ = ["AnthropicMessage", "AnthropicText", "AnthropicToolUse", "AnthropicUsage"]


class AnthropicText(Struct, tag="text", tag_field="type", forbid_unknown_fields=True):
    """An Anthropic ``text`` block (no citations)."""

    text: str


class AnthropicToolUse(Struct, tag="tool_use", tag_field="type", forbid_unknown_fields=True):
    """An Anthropic ``tool_use`` block."""

    id: str
    name: str
    input: dict[str, Any]


class AnthropicUsage(Struct, forbid_unknown_fields=True):
    """An Anthropic ``usage`` of integer counts only (each may be left out, none ``null``)."""

    input_tokens: int = None  # type: ignore[assignment]
    output_tokens: int = None  # type: ignore[assignment]
    cache_creation_input_tokens: int = None  # type: ignore[assignment]
    cache_read_input_tokens: int = None  # type: ignore[assignment]


class AnthropicMessage(Struct, forbid_unknown_fields=True):
    """An Anthropic ``message`` of every field, text and ``tool_use`` blocks, no stop sequence
    (its ``type`` a field, not a tag: a tag may be left out)."""

    id: str
    type: Literal["message"]
    role: Literal["assistant"]
    model: str
    content: list[AnthropicText | AnthropicToolUse]
    stop_reason: str
    stop_sequence: None
    usage: AnthropicUsage
