"""ConverseStream events -> canonical stream events.

The wire grammar (one assistant message per stream; each event ``{"<type>": {...}}``, see
:mod:`._stream_frames`)::

    messageStart (contentBlockStart? contentBlockDelta* contentBlockStop)* messageStop metadata
    # an exception (throttlingException, validationException...) ends the stream

Text and reasoning blocks have no ``contentBlockStart``: their first delta opens them, and its
kind (``text``, ``reasoningContent``, ``toolUse``) says what the block is. A ``toolUse`` block
starts with its id and name; its ``input`` streams as JSON text, kept byte-exact (no delta at
all, or only empty ones, mean ``{}``). ``reasoningContent`` deltas carry ``text``, the block's
``signature`` or its ``redactedContent`` (opaque, base64), each kept byte-exact with origin
``bedrock-converse``.

``stopReason`` (``messageStop``) and ``usage`` (``metadata``, which Bedrock sends after
``messageStop``) end the stream together: :class:`~toolwire.ir.ResponseEnd` goes out at the
later of the two, or at ``close`` when ``metadata`` never came. The other members of both events
(``additionalModelResponseFields``, ``trace``, ``performanceConfig``, ``serviceTier``) go into
``ResponseEnd.extra`` under their own names, as in a whole Converse response, and ``metrics`` into
the hint ``~metrics`` (returned to Bedrock only, dropped elsewhere without a note).

Leniencies, all from SDK recordings: ``messageStart`` may be missing, blocks may interleave or
never get their ``contentBlockStop`` (closed at ``messageStop``), ``metadata`` may come before
``messageStop`` or not at all, and a ``contentBlockStart`` may have an empty ``start``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolwire.errors import PayloadError
from toolwire.formats._stream import DeltaSink, HotFrames, HotLane, ParsedEvent, hot_events
from toolwire.formats._wire import as_dict, fail, opt_str, req_dict, req_name, req_str
from toolwire.formats.bedrock_converse._keys import ERROR_STATUS, decode_stop, decode_usage
from toolwire.formats.bedrock_converse._stream_frames import EXCEPTION_TYPES
from toolwire.ir.base import Format
from toolwire.ir.content import Part, ReasoningPart, TextPart, ToolCall
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
)

__all__ = ["END_KEYS", "StreamDecoder"]

FORMAT: Format = "bedrock-converse"
PADDING = "p"
"""The member Bedrock pads every event payload with (random length, no meaning): ignored."""

END_KEYS: dict[str, frozenset[str]] = {
    "messageStop": frozenset({"additionalModelResponseFields"}),
    "metadata": frozenset({"trace", "performanceConfig", "serviceTier"}),
}
"""Members of the two closing events kept in ``ResponseEnd.extra`` (the encoder puts them back).
``metrics`` is kept as the hint ``~metrics`` (a measurement, not content: like a whole response)."""

_CALL_KEYS = frozenset({"toolUseId", "name", "type"})
_IGNORED = frozenset({"stopReason", "usage", PADDING})


@dataclass(slots=True)
class _Block:
    """One open content block: its kind (text, reasoning, call), IR index and held state."""

    kind: str
    ir: int
    part: Part
    chunks: list[str] = field(default_factory=list)
    signature: str | None = None
    redacted: list[str] = field(default_factory=list)


class _Malformed(Exception):
    """An event that breaks the grammar (not its shape): reported as ``malformed_event``."""


class StreamDecoder(HotFrames):
    """Feed ConverseStream events (one-key dicts); get canonical stream events."""

    def __init__(self, notes: Notes | None = None) -> None:
        self._notes = notes if notes is not None else Notes()
        self._count = 0
        self._started = False
        self._finished = False
        self._ignored = False
        self._blocks: dict[int, _Block] = {}
        self._done: set[int] = set()
        self._pending: set[int] = set()  # started with an empty ``start``: kind still unknown
        self._next_ir = 0
        self._stop: dict[str, Any] | None = None
        self._metadata: dict[str, Any] | None = None

    @property
    def _at(self) -> str:
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
        """The hot path: a text or ``toolUse`` delta of an open block of that kind, as (IR delta
        type, IR index, text), with the state change of :meth:`_feed`; ``None`` for any other
        event, with no state change."""
        # Subscripts, not ``.get`` (cheaper): a missing key declines, and so does an event or a
        # body that is not an object (its subscript raises TypeError).
        try:
            if len(event) != 1:
                return None
            body = event["contentBlockDelta"]
            delta = body["delta"]
            index = body["contentBlockIndex"]
        except (KeyError, TypeError):
            return None
        block = self._blocks.get(index) if type(index) is int else None
        if block is None or type(delta) is not dict or len(delta) != 1:
            return None
        if block.kind == "text":
            text = delta.get("text")
            if type(text) is not str:
                return None
            self._count += 1
            if sink is not None and text:
                data = sink(TextDelta, block.ir, text)
                if data is not None:
                    return data
            return TextDelta, block.ir, text
        use = delta.get("toolUse")
        if block.kind != "call" or type(use) is not dict:
            return None
        text = use.get("input")
        if type(text) is not str:
            return None
        self._count += 1
        block.chunks.append(text)
        if sink is not None and text:
            data = sink(ToolCallDelta, block.ir, text)
            if data is not None:
                return data
        return ToolCallDelta, block.ir, text

    def _feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """The general path of :meth:`feed`: any event, checked field by field."""
        self._count += 1
        at = self._at
        if self._finished:
            if not self._ignored:
                self._notes.info(at, "skipped", "events after the end of the stream ignored")
                self._ignored = True
            return []
        try:
            body = as_dict(event, "$")
            if len(body) != 1:
                fail("$", f"a ConverseStream event has exactly one member, got {len(body)}")
            ((name, payload),) = body.items()
            handler = _HANDLERS.get(name)
            if handler is None:
                if name in EXCEPTION_TYPES or name.endswith("Exception"):
                    return self._fail(_error(name, as_dict(payload, f"$.{name}")))
                self._notes.info(at, "skipped", f"unknown stream event {name!r} ignored")
                return []
            out = [] if self._started or name == "messageStart" else self._start()
            return out + handler(self, as_dict(payload, f"$.{name}"), f"$.{name}")
        except PayloadError as exc:
            path = at + (exc.path or "$")[1:]
            return self._fail(ErrorInfo(message=f"{path}: {exc.message}", code="malformed_event", param=path))
        except _Malformed as exc:
            return self._fail(ErrorInfo(message=f"{at}: {exc}", code="malformed_event", param=at))

    def close(self) -> list[StreamEvent]:
        """End of input: the held end when ``metadata`` never came, else an incomplete-stream error."""
        if self._finished:
            return []
        if self._stop is not None:
            return self._end()
        where = "before any event" if not self._started else "without messageStop"
        return self._fail(ErrorInfo(message=f"stream ended {where}", code="incomplete_stream"))

    def _fail(self, error: ErrorInfo) -> list[StreamEvent]:
        self._finished = True
        self._blocks.clear()
        return [StreamErrorEvent(error=error)]

    # ---------------------------------------------------------------- message level

    def _start(self) -> list[StreamEvent]:
        self._started = True
        # A stream has no id (nor a body to derive one from, as a whole response does): one is
        # made up, with the prefix of the derived ids, for clients whose formats require one.
        return [ResponseStart(id=f"bedrock_{uuid.uuid4().hex}", origin=FORMAT)]

    def _on_message_start(self, body: dict[str, Any], path: str) -> list[StreamEvent]:
        if self._started:
            raise _Malformed("messageStart inside a message")
        role = opt_str(body, "role", path)
        if role not in (None, "assistant"):
            fail(f"{path}.role", f"expected 'assistant', got {role!r}")
        return self._start()

    def _on_message_stop(self, body: dict[str, Any], path: str) -> list[StreamEvent]:
        if self._stop is not None:
            raise _Malformed("a second messageStop")
        req_str(body, "stopReason", path)
        self._stop = body
        out: list[StreamEvent] = []
        for index in sorted(self._blocks):
            self._notes.info(self._at, "skipped", f"content block {index} closed by messageStop")
            out += self._close(index)
        if self._metadata is not None:
            out += self._end()
        return out

    def _on_metadata(self, body: dict[str, Any], path: str) -> list[StreamEvent]:
        if self._metadata is not None:
            raise _Malformed("a second metadata event")
        if "usage" in body:
            decode_usage(body["usage"], f"{path}.usage")  # checked now, reported at the end
        self._metadata = body
        return self._end() if self._stop is not None else []

    def _end(self) -> list[StreamEvent]:
        stop = self._stop or {}
        metadata = self._metadata or {}
        extra: dict[str, Any] = {}
        for source, name in ((stop, "messageStop"), (metadata, "metadata")):
            known = END_KEYS[name]
            for key, value in source.items():
                if key in known:
                    extra[key] = value
                elif key == "metrics" and name == "metadata":
                    extra["~metrics"] = value
                elif key not in _IGNORED:
                    extra.setdefault("~" + name, {})[key] = value
        usage = decode_usage(metadata["usage"], "$.usage") if "usage" in metadata else None
        raw = stop.get("stopReason")
        self._finished = True
        return [ResponseEnd(stop_reason=decode_stop(raw), raw_stop_reason=raw, usage=usage, extra=extra)]

    # ---------------------------------------------------------------- blocks

    def _index(self, body: dict[str, Any], path: str) -> int:
        index = body.get("contentBlockIndex")
        if type(index) is not int or index < 0:
            fail(f"{path}.contentBlockIndex", f"expected a block index, got {index!r}")
        if index in self._done:
            raise _Malformed(f"content block {index} already stopped")
        if self._stop is not None:
            raise _Malformed("a content block event after messageStop")
        return index

    def _on_block_start(self, body: dict[str, Any], path: str) -> list[StreamEvent]:
        index = self._index(body, path)
        if index in self._blocks or index in self._pending:
            raise _Malformed(f"content block {index} started twice")
        start = req_dict(body, "start", path)
        use = start.get("toolUse")
        if use is None:
            if start:
                self._notes.info(self._at, "skipped", f"block start {sorted(start)} has no IR part; ignored")
            self._pending.add(index)
            return []
        use = as_dict(use, f"{path}.start.toolUse")
        call = ToolCall(
            name=req_name(use, "name", f"{path}.start.toolUse"),
            id=req_str(use, "toolUseId", f"{path}.start.toolUse"),
            kind="builtin" if use.get("type") == "server_tool_use" else "function",
            extra={k: v for k, v in use.items() if k not in _CALL_KEYS or k == "type"},
        )
        return self._open(index, "call", call)

    def _open(self, index: int, kind: str, part: Part) -> list[StreamEvent]:
        self._pending.discard(index)
        self._blocks[index] = _Block(kind, self._next_ir, part)
        self._notes.origins[("parts", self._next_ir)] = (self._count - 1,)  # the event that started it
        self._next_ir += 1
        return [PartStart(index=self._next_ir - 1, part=part)]

    def _on_block_delta(self, body: dict[str, Any], path: str) -> list[StreamEvent]:
        index = self._index(body, path)
        delta = req_dict(body, "delta", path)
        if len(delta) != 1:
            fail(f"{path}.delta", f"a delta has exactly one member, got {sorted(delta)}")
        ((kind, value),) = delta.items()
        handler = _DELTAS.get(kind)
        if handler is None:
            self._notes.info(self._at, "skipped", f"{kind!r} delta has no IR part; ignored")
            return []
        return handler(self, index, value, f"{path}.delta.{kind}")

    def _block(self, index: int, kind: str, part: Part, out: list[StreamEvent]) -> _Block:
        """The open block ``index`` (opened now when this is its first delta) of kind ``kind``."""
        block = self._blocks.get(index)
        if block is None:
            out += self._open(index, kind, part)
            block = self._blocks[index]
        elif block.kind != kind:
            raise _Malformed(f"a {kind} delta in {block.kind} block {index}")
        return block

    def _text_delta(self, index: int, value: Any, path: str) -> list[StreamEvent]:
        if type(value) is not str:
            fail(path, "expected a string")
        out: list[StreamEvent] = []
        block = self._block(index, "text", TextPart(text=""), out)
        if value:
            out.append(TextDelta(index=block.ir, text=value))
        return out

    def _call_delta(self, index: int, value: Any, path: str) -> list[StreamEvent]:
        text = req_str(as_dict(value, path), "input", path)
        block = self._blocks.get(index)
        if block is None or block.kind != "call":
            raise _Malformed(f"a toolUse delta in block {index}, which is no started toolUse block")
        block.chunks.append(text)
        return [ToolCallDelta(index=block.ir, arguments=text)] if text else []

    def _reasoning_delta(self, index: int, value: Any, path: str) -> list[StreamEvent]:
        body = as_dict(value, path)
        out: list[StreamEvent] = []
        block = self._block(index, "reasoning", ReasoningPart(origin=FORMAT), out)
        for key, item in body.items():
            if type(item) is not str:
                fail(f"{path}.{key}", "expected a string")
            if key == "text":
                if item:
                    out.append(ReasoningDelta(index=block.ir, text=item))
            elif key == "signature":
                block.signature = item
                out.append(ReasoningDelta(index=block.ir, signature=item))
            elif key == "redactedContent":
                block.redacted.append(item)
            else:
                self._notes.info(self._at, "skipped", f"reasoning delta member {key!r} ignored")
        return out

    def _on_block_stop(self, body: dict[str, Any], path: str) -> list[StreamEvent]:
        index = self._index(body, path)
        if index in self._pending:
            self._pending.discard(index)
            self._done.add(index)
            return []
        if index not in self._blocks:
            raise _Malformed(f"contentBlockStop of block {index}, which never started")
        return self._close(index)

    def _close(self, index: int) -> list[StreamEvent]:
        block = self._blocks.pop(index)
        self._done.add(index)
        part: Part | None = None
        out: list[StreamEvent] = []
        if block.kind == "call":
            raw = "".join(block.chunks)
            if not raw:
                raw = "{}"
                out.append(ToolCallDelta(index=block.ir, arguments=raw))
            assert isinstance(block.part, ToolCall)
            part = ToolCall(
                name=block.part.name,
                arguments=raw,
                id=block.part.id,
                kind=block.part.kind,
                extra=block.part.extra,
            )
        elif block.redacted:
            part = ReasoningPart(redacted="".join(block.redacted), signature=block.signature, origin=FORMAT)
        out.append(PartEnd(index=block.ir, part=part))
        return out


def _error(name: str, body: dict[str, Any]) -> ErrorInfo:
    """The error of an exception event (``throttlingException``: ``ThrottlingException``, 429)."""
    kind = name[:1].upper() + name[1:]
    message = body.get("message")
    extra = {k: v for k, v in body.items() if k not in ("message", PADDING)}
    return ErrorInfo(
        message=message if type(message) is str else kind,
        status=ERROR_STATUS.get(kind, 500),
        type=kind,
        origin=FORMAT,
        extra=extra,
    )


_Handler = Callable[[StreamDecoder, dict[str, Any], str], list[StreamEvent]]
_Delta = Callable[[StreamDecoder, int, Any, str], list[StreamEvent]]

_HANDLERS: dict[str, _Handler] = {
    "messageStart": StreamDecoder._on_message_start,
    "contentBlockStart": StreamDecoder._on_block_start,
    "contentBlockDelta": StreamDecoder._on_block_delta,
    "contentBlockStop": StreamDecoder._on_block_stop,
    "messageStop": StreamDecoder._on_message_stop,
    "metadata": StreamDecoder._on_metadata,
}

_DELTAS: dict[str, _Delta] = {
    "text": StreamDecoder._text_delta,
    "toolUse": StreamDecoder._call_delta,
    "reasoningContent": StreamDecoder._reasoning_delta,
}
