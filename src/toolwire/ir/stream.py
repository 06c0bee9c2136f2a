"""Stream events in the canonical model.

A stream is: one :class:`ResponseStart`; then for each output part a
:class:`PartStart`, any number of deltas for that part's kind, and a
:class:`PartEnd` (parts may interleave, e.g. parallel tool calls); optional
:class:`UsageUpdate`; finally :class:`ResponseEnd` or :class:`StreamErrorEvent`.
``index`` is the position of the part in the final :class:`~toolwire.ir.Response`.
"""

from __future__ import annotations

import msgspec

from toolwire.ir.base import Extra, Format, IRStruct
from toolwire.ir.content import Part
from toolwire.ir.response import ErrorInfo, StopReason, Usage

__all__ = [
    "PartEnd",
    "PartStart",
    "ReasoningDelta",
    "ResponseEnd",
    "ResponseStart",
    "StreamErrorEvent",
    "StreamEvent",
    "TextDelta",
    "ToolCallDelta",
    "UsageUpdate",
]


class ResponseStart(IRStruct, frozen=True, tag="response_start"):
    """The stream began: response id and model as far as known, and the source format."""

    id: str | None = None
    origin: Format | None = None
    model: str | None = None
    created: int | None = None
    usage: Usage | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class PartStart(IRStruct, frozen=True, tag="part_start"):
    """A part begins. ``part`` is its skeleton: empty text, or a tool call with id and name."""

    index: int
    part: Part


class TextDelta(IRStruct, frozen=True, tag="text_delta"):
    """More text (or refusal text) for the part at ``index``.

    ``signature`` is a Gemini ``thoughtSignature`` of the text part that arrived after the
    part started (Gemini usually signs a text run on its last chunk); the part's
    ``thought_signature`` becomes it. Encoders of other formats drop it, noted.
    """

    index: int
    text: str
    signature: str | None = None


class ReasoningDelta(IRStruct, frozen=True, tag="reasoning_delta"):
    """More reasoning for the part at ``index``: text, a summary chunk, or signature."""

    index: int
    text: str | None = None
    summary: str | None = None
    summary_index: int | None = None
    signature: str | None = None


class ToolCallDelta(IRStruct, frozen=True, tag="tool_call_delta"):
    """More raw argument text for the tool call at ``index``."""

    index: int
    arguments: str


class PartEnd(IRStruct, frozen=True, tag="part_end"):
    """The part at ``index`` is complete; ``part`` is its final value when known."""

    index: int
    part: Part | None = None


class UsageUpdate(IRStruct, frozen=True, tag="usage"):
    """Usage reported mid-stream or at the end."""

    usage: Usage


class ResponseEnd(IRStruct, frozen=True, tag="response_end"):
    """The stream finished normally."""

    stop_reason: StopReason | None = None
    raw_stop_reason: str | None = None
    usage: Usage | None = None
    status: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class StreamErrorEvent(IRStruct, frozen=True, tag="error"):
    """The stream failed: an upstream error event, a malformed event, or a missing terminal event."""

    error: ErrorInfo


StreamEvent = (
    ResponseStart
    | PartStart
    | TextDelta
    | ReasoningDelta
    | ToolCallDelta
    | PartEnd
    | UsageUpdate
    | ResponseEnd
    | StreamErrorEvent
)
"""Any canonical stream event."""
