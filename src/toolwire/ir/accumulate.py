"""Accumulate a canonical event stream into the final :class:`~toolwire.ir.Response`.

Pure and format-independent: every format's stream decoder emits the same events, so one
accumulator serves them all. The result equals what decoding the non-streamed response gives,
as far as the stream carries the same information.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall
from toolwire.ir.response import ErrorInfo, Response, StopReason, Usage
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ReasoningDelta,
    ResponseEnd,
    ResponseStart,
    StreamErrorEvent,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageUpdate,
)

__all__ = ["Accumulator", "accumulate"]


@dataclass(slots=True)
class _Open:
    """A part under construction: its skeleton and the chunks seen so far."""

    part: Part
    chunks: list[str] = field(default_factory=list)
    summary: list[list[str]] = field(default_factory=list)
    signature: list[str] = field(default_factory=list)
    final: Part | None = None
    text_signature: str | None = None  # a text part's late Gemini signature (TextDelta.signature)

    def build(self) -> Part:
        if self.final is not None:
            return self.final
        part = self.part
        if isinstance(part, TextPart) and self.text_signature is not None:
            part = msgspec.structs.replace(part, thought_signature=self.text_signature)
        if not self.chunks and not isinstance(part, ReasoningPart):
            return part
        if isinstance(part, (TextPart, RefusalPart)):
            return msgspec.structs.replace(part, text=part.text + "".join(self.chunks))
        if isinstance(part, ToolCall):
            return msgspec.structs.replace(part, arguments=part.arguments + "".join(self.chunks))
        if isinstance(part, ReasoningPart):
            return _build_reasoning(part, self)
        return part


def _build_reasoning(part: ReasoningPart, state: _Open) -> ReasoningPart:
    changes: dict[str, object] = {}
    if state.chunks:
        changes["text"] = (part.text or "") + "".join(state.chunks)
    if state.summary:
        changes["summary"] = (*part.summary, *("".join(s) for s in state.summary))
    if state.signature:
        changes["signature"] = (part.signature or "") + "".join(state.signature)
    return msgspec.structs.replace(part, **changes) if changes else part


class Accumulator:
    """Feed canonical stream events; :meth:`response` gives the response so far.

    Example:
        >>> acc = Accumulator()
        >>> for event in events:            # doctest: +SKIP
        ...     acc.feed(event)
        >>> acc.response().tool_calls       # doctest: +SKIP
    """

    def __init__(self) -> None:
        self._start = ResponseStart()
        self._end: ResponseEnd | None = None
        self._parts: dict[int, _Open] = {}
        self._usage: Usage | None = None
        self._error: ErrorInfo | None = None

    @property
    def done(self) -> bool:
        """Whether the stream ended, normally or with an error."""
        return self._end is not None or self._error is not None

    @property
    def error(self) -> ErrorInfo | None:
        """The stream error, when the stream failed."""
        return self._error

    def feed(self, event: StreamEvent) -> None:
        """Apply one event."""
        handler = _HANDLERS.get(type(event))
        if handler is not None:
            handler(self, event)

    def _on_start(self, event: ResponseStart) -> None:
        self._start = event
        if event.usage is not None:
            self._usage = event.usage

    def _on_part_start(self, event: PartStart) -> None:
        self._parts[event.index] = _Open(event.part)

    def _open(self, index: int, skeleton: Part) -> _Open:
        state = self._parts.get(index)
        if state is None:  # a delta without a start: be lenient, start an empty part
            state = self._parts[index] = _Open(skeleton)
        return state

    def _on_text(self, event: TextDelta) -> None:
        state = self._open(event.index, TextPart(text=""))
        state.chunks.append(event.text)
        if event.signature is not None:
            state.text_signature = event.signature

    def _on_tool_delta(self, event: ToolCallDelta) -> None:
        self._open(event.index, ToolCall(name="")).chunks.append(event.arguments)

    def _on_reasoning(self, event: ReasoningDelta) -> None:
        state = self._open(event.index, ReasoningPart())
        if event.text is not None:
            state.chunks.append(event.text)
        if event.summary is not None:
            at = event.summary_index if event.summary_index is not None else max(len(state.summary) - 1, 0)
            while len(state.summary) <= at:
                state.summary.append([])
            state.summary[at].append(event.summary)
        if event.signature is not None:
            state.signature.append(event.signature)

    def _on_part_end(self, event: PartEnd) -> None:
        if event.part is not None:
            self._open(event.index, event.part).final = event.part

    def _on_usage(self, event: UsageUpdate) -> None:
        self._usage = event.usage

    def _on_end(self, event: ResponseEnd) -> None:
        self._end = event
        if event.usage is not None:
            self._usage = event.usage

    def _on_error(self, event: StreamErrorEvent) -> None:
        self._error = event.error

    def response(self) -> Response:
        """The response built from the events fed so far."""
        start, end = self._start, self._end
        stop: StopReason | None = end.stop_reason if end is not None else None
        if stop is None and self._error is not None:
            stop = "error"
        extra = {**start.extra, **(end.extra if end is not None else {})}
        return Response(
            parts=tuple(self._parts[i].build() for i in sorted(self._parts)),
            id=start.id,
            model=start.model,
            stop_reason=stop,
            raw_stop_reason=end.raw_stop_reason if end is not None else None,
            usage=self._usage,
            created=start.created,
            status=end.status if end is not None else None,
            error=self._error,
            origin=start.origin,
            extra=extra,
        )


_HANDLERS: dict[type, Callable[[Accumulator, Any], None]] = {
    ResponseStart: Accumulator._on_start,
    PartStart: Accumulator._on_part_start,
    TextDelta: Accumulator._on_text,
    ReasoningDelta: Accumulator._on_reasoning,
    ToolCallDelta: Accumulator._on_tool_delta,
    PartEnd: Accumulator._on_part_end,
    UsageUpdate: Accumulator._on_usage,
    ResponseEnd: Accumulator._on_end,
    StreamErrorEvent: Accumulator._on_error,
}


def accumulate(events: list[StreamEvent]) -> Response:
    """The response a whole list of canonical stream events adds up to."""
    acc = Accumulator()
    for event in events:
        acc.feed(event)
    return acc.response()
