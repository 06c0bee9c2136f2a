"""Anthropic Messages stream events -> canonical stream events.

The wire grammar (one message per stream)::

    message_start (content_block_start content_block_delta* content_block_stop)*
    message_delta message_stop            # ping anywhere, error ends the stream

Blocks are strictly sequential. Each block is rebuilt as it streams (argument chunks,
citations, signature) and decoded at ``content_block_stop`` with the same block decoders as
:func:`~toolwire.formats.anthropic.decode_response`, so ``PartEnd.part`` equals what the
non-streamed message gives, except that tool-call arguments stay the raw ``partial_json``
text, byte-exact. Text and thinking are not held (memory stays constant however long they
get): their ``PartEnd`` has no part, the accumulator builds it from the start and the deltas
(Anthropic sends one ``signature_delta`` per thinking block). Only a text block whose start
announces ``citations`` keeps its text, to decode the cited block whole. Blocks the IR
cannot hold (``compaction``, ``fallback``...) get no IR index; they end up under
``opaque_blocks`` in ``ResponseEnd.extra`` with their wire index, as in a decoded response.

Leniencies, all from real recordings: ``message_start`` may already carry whole content
blocks and a stop reason (programmatic tool calling), ``message_stop`` may come without
``message_delta``, and ``message_delta`` may cut an open block short (``max_tokens`` in the
middle of a tool call: the truncated argument text is kept as is and noted, never turned
into ``{}``). A repeated identical ``message_start`` before any block is ignored (noted).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from toolwire._args_check import ArgumentsCheck
from toolwire._json import dumps_leaf
from toolwire.errors import PayloadError
from toolwire.formats._stream import (
    NO_LEND,
    DeltaSink,
    HotFrames,
    HotLane,
    Lend,
    ParsedEvent,
    borrow,
    hot_events,
)
from toolwire.formats._wire import as_dict, fail, req_dict, req_list, req_str
from toolwire.formats.anthropic._decode_blocks import decode_block
from toolwire.formats.anthropic._stream_blocks import (
    CALL_BLOCKS,
    DELTA_BLOCKS,
    FAST_DELTAS,
    TRIM_MASK,
    UNHELD,
    Malformed,
    OpenBlock,
)
from toolwire.formats.anthropic._usage import decode_usage
from toolwire.formats.anthropic._util import OPAQUE, compact, parse_object
from toolwire.formats.anthropic.errors import decode_error
from toolwire.formats.anthropic.response import decode_response
from toolwire.ir.content import Part, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo
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

__all__ = ["StreamDecoder"]


class StreamDecoder(HotFrames):
    """Feed Anthropic stream events (parsed SSE data); get canonical stream events.

    Example:
        >>> dec = StreamDecoder()
        >>> events = [e for wire in wire_events for e in dec.feed(wire)]  # doctest: +SKIP
        >>> events += dec.close()                                        # doctest: +SKIP
    """

    def __init__(self, notes: Notes | None = None) -> None:
        self._notes = notes if notes is not None else Notes()
        self._count = 0
        self._started = False
        self._finished = False
        self._ignored = False
        self._message: dict[str, Any] = {}
        self._usage: dict[str, Any] = {}
        self._next_wire = 0
        self._next_ir = 0
        self._block: OpenBlock | None = None
        self._opaque: list[list[Any]] = []
        self._dumps: Callable[[Any], bytes] = dumps_leaf  # per delta: an attribute, not a module global
        self.lend: Lend | None = None
        """The target encoder's ``lend``, set by a translator whose hot-path sink is that
        encoder's ``frame_delta`` (see ``Lend``)."""
        self.hold_calls = True
        """``False``: a tool call's arguments are held only up to ``HELD`` characters (and checked
        in bounded memory beyond), and a longer call ends with ``PartEnd(part=None)``: for a
        consumer that builds its calls from the deltas (``StreamTranslator`` to Chat, Anthropic
        or Gemini), so that memory stays flat however many argument deltas arrive."""

    @property
    def _at(self) -> str:
        """JSON path of the event being decoded (built only when a note or error needs it)."""
        return f"$[{self._count - 1}]"

    def feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """Decode one wire event."""
        lane = self.hot_frame(event, None)
        return hot_events(lane) if type(lane) is tuple else self._feed(event)

    def hot(self, event: ParsedEvent) -> tuple[type, int, str] | None:
        """:meth:`hot_frame` with no sink (see ``HotFrames``)."""
        lane = self.hot_frame(event, None)
        return lane if type(lane) is tuple else None

    def hot_frame(self, event: ParsedEvent, sink: DeltaSink | None) -> HotLane:
        """The hot path: a well-formed delta of the open block's own kind, as its IR delta type,
        IR index and text ("": no IR event), with exactly the state change of the general path,
        :meth:`_feed`; ``None`` for any other event (no state change: decode it with ``feed``).
        """
        block = self._block
        if block is None:
            return None
        fast = block.fast
        if fast is None:
            return None
        # Subscripts, not ``.get`` (cheaper); "type" first, so that no event of a well-formed
        # stream raises (a block's stop has no "delta"); a missing key declines, and so does an
        # event or a delta that is not an object (its subscript raises TypeError: no type test).
        # The annotated locals: compiled, the subscripts become a dict's own lookup and the
        # comparisons a string's or an int's, and a value of another type raises the TypeError
        # that declines (a text delta 4,042 -> 2,808 instructions); interpreted they cost ~2.5%
        # (5,998 -> 6,150), kept for the compiled build's gain.
        try:
            body: dict[str, Any] = event
            name: str = body["type"]
            if name != "content_block_delta":
                return None
            delta: dict[str, Any] = body["delta"]
            name = delta["type"]
            if name != fast:
                return None
            wire: int = body["index"]  # compiled: a float index raises TypeError (declines)
            if wire != block.wire:
                return None
            text = delta[block.fast_field]
        except (KeyError, TypeError):
            return None
        if type(text) is not str:
            return None
        count = self._count = self._count + 1
        kind = block.fast_event
        if text:
            if block.fast_args:
                block.chunks.append(text)
                if not count & TRIM_MASK and type(block.chunks) is ArgumentsCheck:
                    block.chunks.trim()
            else:
                block.dropped = True
            if sink is not None:
                lent = block.lent
                if lent is not None:  # the encoder's part, written here (see ``Lend``)
                    head = lent.head
                    if head:
                        try:  # a lone surrogate: nothing written, nothing counted (the general path raises)
                            written = head + self._dumps(text) + lent.tail
                        except UnicodeEncodeError:
                            return kind, block.ir, text  # type: ignore[return-value]
                        lent.sent += len(text)
                        if lent.held is not None:  # the text the encoder checks (see ``Lend``)
                            lent.hold(text)
                        return written
                data = sink(kind, block.ir, text)  # type: ignore[arg-type]
                if data is not None:
                    if lent is not NO_LEND:
                        block.lent = borrow(self.lend, kind, block.ir)  # type: ignore[arg-type]
                    return data
        return kind, block.ir, text  # type: ignore[return-value]

    def _feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """The general path of :meth:`feed`: any event, checked field by field."""
        self._count += 1
        if self._finished:
            if not self._ignored and not (type(event) is dict and event.get("type") == "ping"):
                self._notes.info(self._at, "skipped", "events after the end of the stream ignored")
                self._ignored = True
            return []
        try:
            body = as_dict(event, "$")
            handler = _HANDLERS.get(req_str(body, "type", "$"))
            if handler is None:
                self._notes.info(self._at, "skipped", f"unknown stream event {body['type']!r} ignored")
                return []
            return handler(self, body)
        except PayloadError as exc:
            path = self._at + (exc.path or "$")[1:]
            return self._fail(ErrorInfo(message=f"{path}: {exc.message}", code="malformed_event", param=path))
        except Malformed as exc:
            at = self._at
            return self._fail(ErrorInfo(message=f"{at}: {exc}", code="malformed_event", param=at))

    def close(self) -> list[StreamEvent]:
        """End of input: an ``incomplete_stream`` error unless the stream ended properly."""
        if self._finished:
            return []
        where = "before message_start" if not self._started else "without message_stop"
        return self._fail(ErrorInfo(message=f"stream ended {where}", code="incomplete_stream"))

    def _fail(self, error: ErrorInfo) -> list[StreamEvent]:
        self._finished = True
        self._block = None  # nothing is decoded after the end (and the hot path must not run)
        return [StreamErrorEvent(error=error)]

    # ---------------------------------------------------------------- message level

    def _on_message_start(self, body: dict[str, Any]) -> list[StreamEvent]:
        message = req_dict(body, "message", "$")
        content = req_list(message, "content", "$.message")
        if self._started:
            if self._next_wire == 0 and not content and message.get("id") == self._message.get("id"):
                self._notes.info(self._at, "skipped", "repeated message_start ignored")
                return []
            raise Malformed("message_start inside a message (a second message spliced into the stream)")
        self._started = True
        self._message = {k: v for k, v in message.items() if k != "content"}
        usage = self._message.get("usage")
        self._usage = dict(as_dict(usage, "$.message.usage")) if usage is not None else {}
        head = decode_response(message if not content else {**self._message, "content": []}, self._notes)
        out: list[StreamEvent] = [
            ResponseStart(
                id=head.id, origin="anthropic", model=head.model, usage=head.usage, extra=head.extra
            )
        ]
        for index, block in enumerate(content):
            out += self._open(block, f"$.message.content[{index}]")
            out += self._close()
        return out

    def _on_message_delta(self, body: dict[str, Any]) -> list[StreamEvent]:
        self._need_message("message_delta")
        delta = req_dict(body, "delta", "$")
        usage = req_dict(body, "usage", "$")
        out = self._cut_short("message_delta") if self._block is not None else []
        for key, value in delta.items():
            if value is not None or key in ("stop_reason", "stop_sequence") or key not in self._message:
                self._message[key] = value
        for key, value in usage.items():  # cumulative counts: overwrite, keep omitted ones
            if value is not None or key not in self._usage:
                self._usage[key] = value
        self._message["usage"] = self._usage
        out.append(UsageUpdate(usage=decode_usage(self._usage, "$.usage")))
        return out

    def _on_message_stop(self, body: dict[str, Any]) -> list[StreamEvent]:
        self._need_message("message_stop")
        out = self._cut_short("message_stop") if self._block is not None else []
        tail = decode_response({**self._message, "content": []}, self._notes)
        extra = dict(tail.extra)
        if self._opaque:
            extra[OPAQUE] = self._opaque
        out.append(
            ResponseEnd(
                stop_reason=tail.stop_reason,
                raw_stop_reason=tail.raw_stop_reason,
                usage=tail.usage,
                extra=extra,
            )
        )
        self._finished = True
        return out

    def _on_ping(self, body: dict[str, Any]) -> list[StreamEvent]:
        return []

    def _on_error(self, body: dict[str, Any]) -> list[StreamEvent]:
        return self._fail(decode_error(body, None, self._notes))

    def _need_message(self, kind: str) -> None:
        if not self._started:
            raise Malformed(f"{kind} before message_start")

    def _cut_short(self, by: str) -> list[StreamEvent]:
        block = self._block
        assert block is not None
        self._notes.info(
            self._at, "skipped", f"content block {block.wire} closed by {by} (no content_block_stop)"
        )
        return self._close()

    # ---------------------------------------------------------------- blocks

    def _on_block_start(self, body: dict[str, Any]) -> list[StreamEvent]:
        self._need_message("content_block_start")
        if self._block is not None:
            raise Malformed(f"content_block_start while block {self._block.wire} is open")
        index = body.get("index")
        if index != self._next_wire or type(index) is not int:
            fail("$.index", f"expected {self._next_wire}, got {index!r}")
        return self._open(req_dict(body, "content_block", "$"), "$.content_block")

    def _on_block_delta(self, body: dict[str, Any]) -> list[StreamEvent]:
        block = self._current(body, "content_block_delta")
        delta = req_dict(body, "delta", "$")
        kind = req_str(delta, "type", "$.delta")
        allowed = DELTA_BLOCKS.get(kind)
        if allowed is None:
            if block.ir is None:  # an opaque block: keep what the delta says
                block.merged.update((k, v) for k, v in delta.items() if k != "type")
            else:
                self._notes.info(self._at, "skipped", f"unknown delta type {kind!r} ignored")
            return []
        if block.kind not in allowed:
            fail("$.delta.type", f"{kind} cannot extend a {block.kind} block")
        return _DELTAS[kind](self, block, delta)

    def _on_block_stop(self, body: dict[str, Any]) -> list[StreamEvent]:
        self._current(body, "content_block_stop")
        return self._close()

    def _current(self, body: dict[str, Any], kind: str) -> OpenBlock:
        block = self._block
        if block is None:
            raise Malformed(f"{kind} without an open content block")
        if body.get("index") != block.wire:
            fail("$.index", f"expected {block.wire} (the open block), got {body.get('index')!r}")
        return block

    def _open(self, start: Any, path: str) -> list[StreamEvent]:
        part = decode_block(start, path)
        kind = start["type"]
        if part is None:
            self._block = OpenBlock(self._next_wire, start, kind, None, merged=dict(start))
            self._next_wire += 1
            return []
        if isinstance(part, ToolCall):
            part = msgspec.structs.replace(part, arguments="")
        keep = kind not in UNHELD or "citations" in start
        self._block = OpenBlock(self._next_wire, start, kind, self._next_ir, keep=keep)
        if isinstance(part, ToolCall):
            if not self.hold_calls:
                self._block.chunks = ArgumentsCheck()
            if kind == "tool_use":
                self._block.call = part
        if kind in CALL_BLOCKS or not keep:
            block = self._block
            block.fast, block.fast_field, block.fast_event = FAST_DELTAS[kind]
            block.fast_args = block.fast_event is ToolCallDelta
        self._next_wire += 1
        self._next_ir += 1
        self._notes.origins[("parts", self._next_ir - 1)] = (self._count - 1,)  # the event that started it
        return [PartStart(index=self._next_ir - 1, part=part)]

    def _close(self) -> list[StreamEvent]:
        block = self._block
        assert block is not None
        self._block = None
        if block.ir is None:
            self._opaque.append([block.wire, block.merged])
            return []
        out: list[StreamEvent] = []
        finish = _FINISH.get(block.kind)
        final = (
            finish(self, block, out) if finish is not None else decode_block(block.start, "$.content_block")
        )
        out.append(PartEnd(index=block.ir, part=final))
        return out

    # ---------------------------------------------------------------- deltas

    def _text_delta(self, block: OpenBlock, delta: dict[str, Any]) -> list[StreamEvent]:
        text = req_str(delta, "text", "$.delta")
        if block.keep:
            block.chunks.append(text)
        else:
            block.dropped = block.dropped or bool(text)
        return [TextDelta(index=block.ir, text=text)] if text and block.ir is not None else []

    def _citations_delta(self, block: OpenBlock, delta: dict[str, Any]) -> list[StreamEvent]:
        block.citations.append(req_dict(delta, "citation", "$.delta"))
        block.keep = True  # text from here on is kept to decode the cited block
        block.fast = None
        return []

    def _input_delta(self, block: OpenBlock, delta: dict[str, Any]) -> list[StreamEvent]:
        text = req_str(delta, "partial_json", "$.delta")
        block.chunks.append(text)
        if not self._count & TRIM_MASK and type(block.chunks) is ArgumentsCheck:
            block.chunks.trim()
        return [ToolCallDelta(index=block.ir, arguments=text)] if text and block.ir is not None else []

    def _thinking_delta(self, block: OpenBlock, delta: dict[str, Any]) -> list[StreamEvent]:
        text = req_str(delta, "thinking", "$.delta")
        block.dropped = block.dropped or bool(text)
        return [ReasoningDelta(index=block.ir, text=text)] if text and block.ir is not None else []

    def _signature_delta(self, block: OpenBlock, delta: dict[str, Any]) -> list[StreamEvent]:
        if block.signature is not None and block.dropped:
            self._notes.add(self._at, "approximated", "a second signature_delta in one block is appended")
        block.signature = req_str(delta, "signature", "$.delta")
        return [ReasoningDelta(index=block.ir, signature=block.signature)] if block.ir is not None else []

    def _compaction_delta(self, block: OpenBlock, delta: dict[str, Any]) -> list[StreamEvent]:
        block.merged.update((k, v) for k, v in delta.items() if k != "type")
        return []

    # ---------------------------------------------------------------- finished blocks

    def _finish_text(self, block: OpenBlock, out: list[StreamEvent]) -> Part | None:
        if block.dropped:  # streamed without being held: the accumulator builds the part
            if block.citations:
                self._notes.add(
                    self._at,
                    "dropped",
                    f"citations of block {block.wire} came after its text (not announced)",
                )
            return None
        merged = {**block.start, "text": block.start.get("text", "") + _held(block)}
        if block.citations:
            merged["citations"] = [*(block.start.get("citations") or ()), *block.citations]
        return decode_block(merged, "$.content_block")

    def _finish_thinking(self, block: OpenBlock, out: list[StreamEvent]) -> Part | None:
        if block.dropped:  # streamed without being held: the accumulator builds the part
            return None
        merged = {**block.start, "thinking": block.start.get("thinking", "") + _held(block)}
        if block.signature is not None:
            merged["signature"] = block.signature
        return decode_block(merged, "$.content_block")

    def _finish_call(self, block: OpenBlock, out: list[StreamEvent]) -> Part | None:
        chunks = block.chunks
        held = chunks.text() if isinstance(chunks, ArgumentsCheck) else "".join(chunks)
        if held is None:  # longer than HELD and not held: the consumer has every delta
            assert isinstance(chunks, ArgumentsCheck)
            self._note_incomplete(block, chunks.problem())
            return None
        raw = held
        start_input = block.start.get("input")
        merged = block.start
        if not raw:  # nothing streamed: the start's input is the whole input ({} when empty)
            raw = compact(start_input, "$.content_block.input") if type(start_input) is dict else "{}"
            assert block.ir is not None
            out.append(ToolCallDelta(index=block.ir, arguments=raw))
        else:
            parsed = parse_object(raw)
            if isinstance(parsed, str):
                self._note_incomplete(block, parsed)
            elif block.call is None:
                merged = {**block.start, "input": parsed}
        if block.call is not None:  # decode_block(merged) but for its arguments: no second decode
            return msgspec.structs.replace(block.call, arguments=raw)
        part = decode_block(merged, "$.content_block")
        assert isinstance(part, ToolCall)
        return msgspec.structs.replace(part, arguments=raw)

    def _note_incomplete(self, block: OpenBlock, problem: str | None) -> None:
        if problem is not None:
            self._notes.info(
                self._at,
                "skipped",
                f"tool call {block.start.get('name')!r} ended with incomplete arguments ({problem});"
                " kept as received",
            )


def _held(block: OpenBlock) -> str:
    """The text a text or thinking block held (never an ``ArgumentsCheck``: calls only)."""
    assert isinstance(block.chunks, list)
    return "".join(block.chunks)


_Handler = Callable[[StreamDecoder, dict[str, Any]], list[StreamEvent]]
_DeltaHandler = Callable[[StreamDecoder, OpenBlock, dict[str, Any]], list[StreamEvent]]
_Finisher = Callable[[StreamDecoder, OpenBlock, list[StreamEvent]], Part | None]

_HANDLERS: dict[str, _Handler] = {
    "message_start": StreamDecoder._on_message_start,
    "content_block_start": StreamDecoder._on_block_start,
    "content_block_delta": StreamDecoder._on_block_delta,
    "content_block_stop": StreamDecoder._on_block_stop,
    "message_delta": StreamDecoder._on_message_delta,
    "message_stop": StreamDecoder._on_message_stop,
    "ping": StreamDecoder._on_ping,
    "error": StreamDecoder._on_error,
}

_DELTAS: dict[str, _DeltaHandler] = {
    "text_delta": StreamDecoder._text_delta,
    "citations_delta": StreamDecoder._citations_delta,
    "input_json_delta": StreamDecoder._input_delta,
    "thinking_delta": StreamDecoder._thinking_delta,
    "signature_delta": StreamDecoder._signature_delta,
    "compaction_delta": StreamDecoder._compaction_delta,
}

_FINISH: dict[str, _Finisher] = {
    "text": StreamDecoder._finish_text,
    "thinking": StreamDecoder._finish_thinking,
    **dict.fromkeys(CALL_BLOCKS, StreamDecoder._finish_call),
}
