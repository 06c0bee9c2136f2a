"""Canonical stream events (from any format) -> Anthropic Messages stream events.

Anthropic streams one content block at a time, so the encoder keeps one *current* part:
its events go out as they come. A part that starts while another is open (parallel tool
calls of Chat, Responses or Gemini) is buffered, and only it, until the current block
closes; then it is sent in order. Parts map like :func:`~toolwire.formats.anthropic.encode_response`
maps them (same notes): text and refusals become ``text`` blocks (empty ones from other
formats are skipped, so a text block opens at its first character), reasoning becomes
``thinking`` / ``redacted_thinking`` only when its origin is Anthropic (the signature is
sent byte-exact in one ``signature_delta``), function calls become ``tool_use`` blocks with
``input: {}`` and their raw argument text as ``input_json_delta`` chunks (no chunk at all
means ``{}``; text that does not complete a JSON object is noted, never replaced by
``{}``), custom-tool input is sent as ``{"input": text}``, built-in tool parts only go back
to Anthropic. Blocks kept opaque by the decoder (``opaque_blocks``) are re-sent whole at
the end, for Anthropic only. ``StreamErrorEvent`` becomes an ``error`` event.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable
from typing import Any

from toolwire._args_check import TRIM, ArgumentsCheck, object_problem
from toolwire._json import dumps_leaf, dumps_str
from toolwire.formats._stream import HELD_PIECES, DeltaFraming, WireEvent, delta_text
from toolwire.formats._wire import child, emit_extra
from toolwire.formats.anthropic._encode_blocks import Ctx
from toolwire.formats.anthropic._stream_frames import (
    delta_frame,
    hot_delta,
)
from toolwire.formats.anthropic._stream_slots import Delta, Slot, delta_event, hold, plan
from toolwire.formats.anthropic._usage import encode_usage
from toolwire.formats.anthropic._util import OPAQUE
from toolwire.formats.anthropic.errors import encode_error
from toolwire.formats.anthropic.response import encode_stop_reason
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Usage
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

__all__ = ["StreamEncoder"]

_MISSING = object()
_MESSAGE_KEYS = frozenset({"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"})


class StreamEncoder(DeltaFraming):
    """Feed canonical stream events; get Anthropic stream events (SSE data dicts).

    Example:
        >>> enc = StreamEncoder()
        >>> wire = [w for event in ir_events for w in enc.feed(event)]  # doctest: +SKIP
        >>> wire += enc.close()                                         # doctest: +SKIP
    """

    def __init__(self, notes: Notes | None = None) -> None:
        self._notes = notes if notes is not None else Notes()
        self._ctx = Ctx(self._notes, False)
        self._start: ResponseStart | None = None
        self._done = False
        self._wire = 0
        self._current: Slot | None = None
        self._lent: Slot | None = None  # the slot lent to a decoder's hot path (``lend``)
        self._queue: dict[int, Slot] = {}
        self._order: list[int] = []  # a heap of the queue's indices: the next part to send in O(log n)
        self._skipped: set[int] = set()
        self._usage: Usage | None = None
        self._calls = False
        self.framing = False
        """Set by a translator while it frames this encoder's events (``StreamTranslator.feed_frames``):
        a call's held argument deltas are replayed as their SSE bytes (``_replay``)."""

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        """Encode one canonical event (zero or more wire events)."""
        slot = self._current
        if slot is not None and type(event) is slot.fast and event.index == slot.ir:  # type: ignore[union-attr]
            # The hot path: a text or argument delta of the open block, sent as the general
            # path (_feed) sends it.
            text = delta_text(event)  # type: ignore[arg-type]
            if not text:
                return self._feed(event)
            slot.sent += len(text)
            if slot.fast is ToolCallDelta:
                chunks = slot.chunks
                chunks.append(text)
                if len(chunks) >= TRIM and type(chunks) is ArgumentsCheck:
                    chunks.trim()
            return [hot_delta(slot, text)]
        return self._feed(event)

    def frame_delta(self, kind: type, index: int, text: str) -> bytes | None:
        """:meth:`feed` of a hot-path delta given as its parts, as SSE bytes (see ``FramingEncoder``)."""
        slot = self._current
        if slot is not None and kind is slot.fast and index == slot.ir:
            frame = slot.frame
            if frame is None:
                frame = slot.frame = delta_frame(slot)
            head, tail = frame
            if head:
                try:  # the bytes first: a lone surrogate declines to the general path
                    data = head + dumps_leaf(text) + tail
                except UnicodeEncodeError:
                    return None
                slot.sent += len(text)
                if kind is ToolCallDelta:
                    chunks = slot.chunks
                    chunks.append(text)
                    if len(chunks) >= TRIM and type(chunks) is ArgumentsCheck:
                        chunks.trim()
                return data
        elif kind is ToolCallDelta and self._start is not None and not self._done:
            queued = self._queue.get(index)
            if queued is not None and (slot is None or slot.ir != index):
                # A call waiting for the open block to end (``_on_delta``): held, no bytes yet.
                queued.pending.append(text)  # its text only: _replay sends it
                return b""
        return None

    def lend(self, kind: type, index: int) -> Slot | None:
        """The open block's slot for a decoder's hot path to write its deltas itself (see
        ``Lend``): what :meth:`frame_delta` writes from fixed bytes, until this encoder's next
        other event. A call's slot holds its argument check as ``held``, and is lent with an
        empty ``head`` (to the sink, which trims it) while that holds ``HELD_PIECES`` pieces."""
        slot = self._current
        if slot is None or kind is not slot.fast or index != slot.ir:
            return None
        frame = slot.frame
        if frame is None:
            frame = slot.frame = delta_frame(slot)
        head, tail = frame
        if not head:
            return None
        held = slot.held
        slot.head = head if held is None or len(held) < HELD_PIECES else b""
        slot.tail = tail
        self._lent = slot
        return slot

    def _feed(self, event: StreamEvent) -> list[WireEvent]:
        """The general path of :meth:`feed`: any event."""
        lent = self._lent
        if lent is not None:  # take back the slot ``lend`` lent (the event may change it)
            lent.head = b""
            self._lent = None
        if self._done:
            self._notes.info("$", "skipped", f"{type(event).__name__} after the end of the stream ignored")
            return []
        out: list[WireEvent] = []
        if self._start is None and not isinstance(event, (ResponseStart, StreamErrorEvent)):
            self._notes.add("$", "synthesized", "stream without a start: message_start synthesized")
            out += self._on_start(ResponseStart())
        out += _HANDLERS[type(event)](self, event)
        return out

    def close(self) -> list[WireEvent]:
        """End of input: an ``error`` event when the stream had no end (nothing otherwise)."""
        if self._lent is not None:
            self._lent.head = b""
            self._lent = None
        if self._done:
            return []
        self._notes.add("$", "synthesized", "stream ended without a terminal event: error event sent")
        self._done = True
        return [{"type": "error", "error": {"type": "api_error", "message": "incomplete stream"}}]

    # ---------------------------------------------------------------- message level

    def _on_start(self, event: ResponseStart) -> list[WireEvent]:
        if self._start is not None:
            self._notes.info("$", "skipped", "second response start ignored")
            return []
        self._start = event
        same = self._ctx.same = event.origin == "anthropic"
        if not same and event.id is None:
            self._notes.info("$", "synthesized", "response had no id; sent 'msg_unknown'", target="$.id")
        if not same and event.model is None:
            self._notes.info("$", "synthesized", "response had no model name; sent ''", target="$.model")
        message: dict[str, Any] = {
            "id": event.id if event.id is not None else "msg_unknown",
            "type": "message",
            "role": "assistant",
            "model": event.model if event.model is not None else "",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": encode_usage(event.usage, same, self._notes, "$.usage"),
        }
        if same:
            for key in event.extra.get("~absent", ()):
                if key != "content":
                    message.pop(key, None)
        emit_extra(message, _message_extra(event.extra), same, self._notes, "$")
        return [{"type": "message_start", "message": message}]

    def _on_usage(self, event: UsageUpdate) -> list[WireEvent]:
        self._usage = event.usage
        return []

    def _on_end(self, event: ResponseEnd) -> list[WireEvent]:
        out = self._flush()
        start = self._start or ResponseStart()
        same = self._ctx.same
        if same:
            out += self._opaque(event.extra.get(OPAQUE))
        usage = event.usage or self._usage or start.usage
        if usage is None and not same:
            self._notes.info("$", "synthesized", "response had no usage; sent zeros", target="$.usage")
        stop = encode_stop_reason(
            event.stop_reason, event.raw_stop_reason, same=same, has_calls=self._calls, notes=self._notes
        )
        delta: dict[str, Any] = {
            "stop_reason": stop,
            "stop_sequence": event.extra.get("stop_sequence") if same else None,
        }
        extra = {k: v for k, v in _message_extra(event.extra).items() if start.extra.get(k, _MISSING) != v}
        emit_extra(delta, extra, same, self._notes, "$")
        self._done = True
        return [
            *out,
            {
                "type": "message_delta",
                "delta": delta,
                "usage": encode_usage(usage, same, self._notes, "$.usage"),
            },
            {"type": "message_stop"},
        ]

    def _on_error(self, event: StreamErrorEvent) -> list[WireEvent]:
        self._done = True
        self._current = None  # nothing is sent after the end (and the hot path must not run)
        return [encode_error(event.error, self._notes)[1]]

    def _opaque(self, blocks: Any) -> list[WireEvent]:
        out: list[WireEvent] = []
        for index, block in blocks or ():
            if index != self._wire:
                self._notes.info(
                    f"$.content[{index}]", "approximated", f"opaque block sent at index {self._wire}"
                )
            out += [
                {"type": "content_block_start", "index": self._wire, "content_block": block},
                {"type": "content_block_stop", "index": self._wire},
            ]
            self._wire += 1
        return out

    # ---------------------------------------------------------------- parts

    def _on_part_start(self, event: PartStart) -> list[WireEvent]:
        slot = plan(self._ctx, event.index, event.part)
        if slot is None:
            self._skipped.add(event.index)
            return []
        self._calls = self._calls or slot.client_call
        if self._current is not None:
            if event.index not in self._queue:
                heapq.heappush(self._order, event.index)
            self._queue[event.index] = slot
            return []
        return self._open(slot)

    def _on_delta(self, event: Delta) -> list[WireEvent]:
        current = self._current
        if current is not None and current.ir == event.index:
            return self._emit(current, event)
        queued = self._queue.get(event.index)
        if queued is not None:
            queued.pending.append(event)
        elif event.index not in self._skipped:
            self._notes.add(f"$.parts[{event.index}]", "skipped", "delta for a part that never started")
        return []

    def _on_part_end(self, event: PartEnd) -> list[WireEvent]:
        current = self._current
        if current is not None and current.ir == event.index:
            current.final = event.part
            return self._finish(current) + self._drain()
        queued = self._queue.get(event.index)
        if queued is not None:
            queued.ended, queued.final = True, event.part
        return []

    def _flush(self) -> list[WireEvent]:
        """Close everything still open or buffered (the response is ending)."""
        out: list[WireEvent] = []
        while self._current is not None or self._queue:
            if self._current is None:
                out += self._drain()
                continue
            self._notes.info(
                self._current.path, "approximated", "part without an end closed with the response"
            )
            out += self._finish(self._current) + self._drain()
        return out

    def _drain(self) -> list[WireEvent]:
        """Send buffered parts in index order until one is still streaming."""
        out: list[WireEvent] = []
        while self._current is None and self._queue:
            slot = self._queue.pop(heapq.heappop(self._order))
            out += self._open(slot)
            if slot.ended:
                out += self._finish(slot)
        return out

    # ---------------------------------------------------------------- blocks

    def _begin(self, slot: Slot) -> list[WireEvent]:
        slot.wire = self._wire
        slot.fast = _FAST.get(slot.kind)
        self._wire += 1
        return [{"type": "content_block_start", "index": slot.wire, "content_block": slot.block}]

    def _open(self, slot: Slot) -> list[WireEvent]:
        """Make ``slot`` the current block: start it, send its skeleton's content and buffered deltas."""
        self._current = slot
        out = [] if slot.kind == "text" else self._begin(slot)
        part = slot.part
        if isinstance(part, (TextPart, RefusalPart)) and part.text:
            out += self._emit(slot, TextDelta(index=slot.ir, text=part.text))
        elif isinstance(part, ReasoningPart) and slot.kind == "thinking":
            out += self._emit(slot, ReasoningDelta(index=slot.ir, text=part.text, signature=part.signature))
        elif isinstance(part, ToolCall) and part.arguments:
            out += self._emit(slot, ToolCallDelta(index=slot.ir, arguments=part.arguments))
        if slot.pending:
            self._replay(slot, out)
        return out

    def _replay(self, slot: Slot, out: list[Any]) -> None:
        """Send the deltas buffered while another block streamed (what :meth:`_emit` sends for
        each; argument deltas of a call, the common case, inline: a ``str`` is the argument
        text ``frame_delta`` held). While :attr:`framing`, a call's argument delta goes into
        ``out`` as its SSE bytes (what ``frame_delta`` writes), not as a wire event."""
        call = slot.kind == "call"
        head = tail = b""
        if call and self.framing:
            frame = slot.frame if slot.frame is not None else delta_frame(slot)
            slot.frame = frame
            head, tail = frame
        for pending in slot.pending:
            if type(pending) is str:
                text = pending
            elif call and type(pending) is ToolCallDelta:
                text = pending.arguments
            else:
                out += self._emit(slot, pending)  # type: ignore[arg-type]
                continue
            if not call:
                out += self._emit(slot, ToolCallDelta(index=slot.ir, arguments=text))
            elif text:
                hold(slot.chunks, text)
                slot.sent += len(text)
                if head:
                    try:  # a lone surrogate: the event, whose framing raises toolwire's error
                        out.append(head + dumps_leaf(text) + tail)
                        continue
                    except UnicodeEncodeError:
                        pass
                out.append(delta_event(slot, {"type": "input_json_delta", "partial_json": text}))
        slot.pending.clear()

    def _emit(self, slot: Slot, event: Delta) -> list[WireEvent]:
        emit = _EMITTERS.get((slot.kind, type(event)))
        if emit is None:
            self._notes.add(slot.path, "skipped", f"{type(event).__name__} does not fit a {slot.kind} block")
            return []
        return emit(self, slot, event)

    def _emit_text(self, slot: Slot, event: Any) -> list[WireEvent]:
        if event.signature is not None:
            self._notes.add(slot.path, "dropped", "Gemini thought signature on a text part")
        if not event.text:
            return []
        out = self._begin(slot) if slot.wire is None else []
        slot.sent += len(event.text)
        return [*out, delta_event(slot, {"type": "text_delta", "text": event.text})]

    def _emit_thinking(self, slot: Slot, event: Any) -> list[WireEvent]:
        if event.signature:
            slot.signature.append(event.signature)
        if not event.text:
            return []
        slot.sent += len(event.text)
        return [delta_event(slot, {"type": "thinking_delta", "thinking": event.text})]

    def _emit_arguments(self, slot: Slot, event: Any) -> list[WireEvent]:
        if not event.arguments:
            return []
        hold(slot.chunks, event.arguments)
        slot.sent += len(event.arguments)
        if slot.kind == "custom":
            return []
        return [delta_event(slot, {"type": "input_json_delta", "partial_json": event.arguments})]

    def _finish(self, slot: Slot) -> list[WireEvent]:
        """Send what only the end of the part gives, then ``content_block_stop``."""
        self._current = None
        final = slot.final
        out: list[WireEvent] = []
        if final is not None and slot.kind != "whole":
            out += self._from_final(slot, final)
        tail = _TAILS.get(slot.kind)
        if tail is not None:
            out += tail(self, slot, final)
        if slot.wire is None:
            if not self._ctx.same:
                return out  # a text part that stayed empty: no block (Anthropic rejects empty text)
            out += self._begin(slot)
        return [*out, {"type": "content_block_stop", "index": slot.wire}]

    def _from_final(self, slot: Slot, final: Part) -> list[WireEvent]:
        """The final part wins (as in the accumulator): send what it has beyond the deltas."""
        if isinstance(final, (TextPart, RefusalPart)) and len(final.text) > slot.sent:
            return self._emit(slot, TextDelta(index=slot.ir, text=final.text[slot.sent :]))
        if isinstance(final, ReasoningPart) and final.text and len(final.text) > slot.sent:
            return self._emit(slot, ReasoningDelta(index=slot.ir, text=final.text[slot.sent :]))
        if isinstance(final, ToolCall) and len(final.arguments) > slot.sent:
            return self._emit(slot, ToolCallDelta(index=slot.ir, arguments=final.arguments[slot.sent :]))
        return []

    def _tail_text(self, slot: Slot, final: Part | None) -> list[WireEvent]:
        if not self._ctx.same or not isinstance(final, TextPart):
            return []
        cited = final.extra.get("citations")
        started = slot.block.get("citations") or []
        if type(cited) is not list or len(cited) <= len(started):
            return []
        out = self._begin(slot) if slot.wire is None else []
        return out + [
            delta_event(slot, {"type": "citations_delta", "citation": c}) for c in cited[len(started) :]
        ]

    def _tail_thinking(self, slot: Slot, final: Part | None) -> list[WireEvent]:
        if isinstance(final, ReasoningPart) and final.signature is not None:
            signature = final.signature
        else:
            signature = "".join(slot.signature)
        if not signature:
            return []
        return [delta_event(slot, {"type": "signature_delta", "signature": signature})]

    def _tail_call(self, slot: Slot, final: Part | None) -> list[WireEvent]:
        chunks = slot.chunks
        problem = chunks.problem() if isinstance(chunks, ArgumentsCheck) else object_problem("".join(chunks))
        if problem is not None:
            name = slot.block.get("name")
            self._notes.add(
                child(slot.path, "arguments"),
                "approximated",
                f"arguments of {name!r} are not a complete JSON object ({problem}); sent as received",
            )
        return []

    def _tail_custom(self, slot: Slot, final: Part | None) -> list[WireEvent]:
        self._notes.add(
            slot.path, "approximated", f"custom tool input of {slot.block.get('name')!r} sent as input.input"
        )
        assert isinstance(slot.chunks, list)  # a custom call's input is held whole
        wrapped = dumps_str({"input": "".join(slot.chunks)})
        return [delta_event(slot, {"type": "input_json_delta", "partial_json": wrapped})]


def _message_extra(extra: dict[str, Any]) -> dict[str, Any]:
    """The message-level fields of a response ``extra`` (no hints, no opaque blocks)."""
    return {k: v for k, v in extra.items() if k not in _MESSAGE_KEYS and k != OPAQUE}


_Emitter = Callable[[StreamEncoder, Slot, Any], list[WireEvent]]
_Tail = Callable[[StreamEncoder, Slot, "Part | None"], list[WireEvent]]

_HANDLERS: dict[type, Callable[[StreamEncoder, Any], list[WireEvent]]] = {
    ResponseStart: StreamEncoder._on_start,
    PartStart: StreamEncoder._on_part_start,
    TextDelta: StreamEncoder._on_delta,
    ReasoningDelta: StreamEncoder._on_delta,
    ToolCallDelta: StreamEncoder._on_delta,
    PartEnd: StreamEncoder._on_part_end,
    UsageUpdate: StreamEncoder._on_usage,
    ResponseEnd: StreamEncoder._on_end,
    StreamErrorEvent: StreamEncoder._on_error,
}


_EMITTERS: dict[tuple[str, type], _Emitter] = {
    ("text", TextDelta): StreamEncoder._emit_text,
    ("thinking", ReasoningDelta): StreamEncoder._emit_thinking,
    ("call", ToolCallDelta): StreamEncoder._emit_arguments,
    ("custom", ToolCallDelta): StreamEncoder._emit_arguments,
}

_FAST: dict[str, type] = {"text": TextDelta, "call": ToolCallDelta}
"""Block kind -> the IR delta :meth:`StreamEncoder.feed` sends by its hot path, once started."""

_TAILS: dict[str, _Tail] = {
    "text": StreamEncoder._tail_text,
    "thinking": StreamEncoder._tail_thinking,
    "call": StreamEncoder._tail_call,
    "custom": StreamEncoder._tail_custom,
}
