"""Canonical stream events -> Gemini ``streamGenerateContent`` chunks.

Text (and Gemini thought text) is sent as it arrives, one ``parts`` entry per delta; a
function call is sent whole in one chunk when its part ends (Gemini needs ``args`` as an
object, so streamed argument text is buffered until then); media and other parts are
sent when they end. Parts go out in the order they started: a part that ends while an
earlier one is still open (interleaved parallel tool calls) waits for it.

``thoughtSignature`` is sent only for a stream whose origin is ``gemini``, and on reasoning
parts tagged ``gemini`` in another format's stream (the envelopes of :mod:`toolwire.opaque`);
reasoning of other formats has no Gemini form and is dropped (noted), as in
``encode_response``. The
last chunk carries ``finishReason`` and ``usageMetadata``; every chunk carries
``modelVersion`` and ``responseId`` when known. A :class:`~toolwire.ir.StreamErrorEvent`
becomes an ``{"error": {...}}`` chunk; ``close()`` before the end sends one too.

``finishReason`` is what makes a Gemini stream complete. It is the raw one for a ``gemini``
stream, else mapped from ``stop_reason``. A :class:`~toolwire.ir.ResponseEnd` without
``stop_reason`` gets none (the stream stays incomplete, as the source said) when it is a
``gemini`` stream (re-encoded as it came) or carries a raw reason or status (the source
reported itself unfinished, e.g. a queued Responses response). Otherwise another format's
stream ended normally without saying why (a Chat stream ending with ``[DONE]`` and no
``finish_reason``): it gets ``STOP``, which Gemini also uses after function calls, noted as
synthesized.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

import msgspec

from toolwire._json import dumps_leaf
from toolwire.formats._stream import HOLE, DeltaFraming, Lent, WireEvent, frame_halves
from toolwire.formats.gemini._encode_parts import _ENCODERS, Ctx
from toolwire.formats.gemini._keys import emit
from toolwire.formats.gemini._usage import encode_usage
from toolwire.formats.gemini.errors import encode_error
from toolwire.formats.gemini.response import _CREATED_AT, _WIRE_REASONS, _format_time
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, Usage
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

_CANDIDATE = "$.candidates[0]"


class _Slot(Lent):
    """One IR part being encoded (``sent``: characters of text already sent; ``head`` and
    ``tail``: its text chunk's SSE bytes while lent to a decoder, ``lend``, else ``b""``). A
    plain class (see ``Lent``)."""

    __slots__ = ("chunks", "done", "index", "part", "plain", "signatures", "signed", "waiting")

    def __init__(self, index: int, part: Part) -> None:
        super().__init__()
        self.index = index
        self.part = part  # the skeleton from PartStart
        self.chunks: list[str] = []  # buffered argument / refusal text
        self.signatures: list[str] = []  # reasoning signature deltas
        self.signed = False  # the signature went out
        self.waiting: list[dict[str, Any]] = []  # held until this slot is first
        self.done = False
        self.plain = False  # a text part with no signature still to send: text deltas take the hot path


def _path(index: int) -> str:
    """The IR path of part ``index`` (notes map it to the event that started the part)."""
    return f"$.parts[{index}]"


class StreamEncoder(DeltaFraming):
    """Encode canonical stream events as Gemini stream chunks (``GenerateContentResponse``).

    Args:
        notes: collects what the Gemini stream cannot carry.
    """

    def __init__(self, notes: Notes | None = None) -> None:
        self._notes = notes if notes is not None else Notes()
        self._ctx = Ctx(False, self._notes)
        self._meta: dict[str, Any] = {}
        self._frame: tuple[bytes, bytes] | None = None  # a hot-path text chunk's SSE bytes, cut at its text
        self._lent: _Slot | None = None  # the slot lent to a decoder's hot path (``lend``)
        self._slots: dict[int, _Slot] = {}
        self._order: deque[int] = deque()
        self._closed: set[int] = set()  # indexes of parts already sent
        self._parts: list[dict[str, Any]] = []
        self._usage: Usage | None = None
        self._ended = False

    @property
    def _same(self) -> bool:
        return self._ctx.same

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        """Encode one canonical event (zero or more chunks)."""
        order = self._order
        if type(event) is TextDelta and order and order[0] == event.index and not self._ended:
            # The hot path: text of the plain text part that streams first, one chunk as the
            # general path (_feed) builds it.
            slot = self._slots[event.index]
            text = event.text
            if slot.plain and text and event.signature is None:
                slot.sent += len(text)
                return [self._chunk([{"text": text}])]
        return self._feed(event)

    def frame_delta(self, kind: type, index: int, text: str) -> bytes | None:
        """:meth:`feed` of a hot-path delta given as its parts, as SSE bytes (see ``FramingEncoder``)."""
        order = self._order
        if kind is TextDelta and order and order[0] == index and not self._ended:
            slot = self._slots[index]
            if slot.plain:
                frame = self._frame
                if frame is None:
                    frame = self._frame = self._halves()
                head, tail = frame
                if head:
                    slot.sent += len(text)
                    try:  # a lone surrogate: nothing written, nothing counted (the general path raises)
                        return head + dumps_leaf(text) + tail
                    except UnicodeEncodeError:
                        slot.sent -= len(text)
                        return None
        elif kind is ToolCallDelta and not self._ended:
            call = self._slots.get(index)
            if call is not None:  # held until the call ends (Gemini sends whole calls): no bytes
                self._hold(call, text)
                return b""
        return None

    def lend(self, kind: type, index: int) -> _Slot | None:
        """The plain text part ``index`` for a decoder's hot path to write its deltas itself (see
        ``Lend``): what :meth:`frame_delta` writes from fixed bytes, until this encoder's next
        other event."""
        order = self._order
        if kind is not TextDelta or not order or order[0] != index or self._ended:
            return None
        slot = self._slots[index]
        frame = self._frame
        if frame is None:
            frame = self._frame = self._halves()
        head, tail = frame
        if not slot.plain or not head:
            return None
        slot.head, slot.tail = head, tail
        self._lent = slot
        return slot

    def _halves(self) -> tuple[bytes, bytes]:
        """A hot-path text chunk's SSE bytes cut at its text's JSON (``frame_halves``)."""
        return frame_halves("gemini", self._chunk([{"text": HOLE}]))

    def _feed(self, event: StreamEvent) -> list[WireEvent]:
        """The general path of :meth:`feed`: any event."""
        lent = self._lent
        if lent is not None:  # take back the slot ``lend`` lent (the event may change it)
            lent.head = b""
            self._lent = None
        if self._ended:
            return []
        handler = _HANDLERS.get(type(event))
        extra = handler(self, event) if handler is not None else []
        out: list[WireEvent] = []
        if self._parts:
            out.append(self._chunk(self._parts))
            self._parts = []
        out.extend(extra)
        return out

    def close(self) -> list[WireEvent]:
        """End of input: an error chunk when the stream did not end (nothing otherwise)."""
        if self._ended:
            return []
        info = ErrorInfo(message="stream ended before the response was complete", status=500, type="INTERNAL")
        return self.feed(StreamErrorEvent(info))

    # --- events -------------------------------------------------------------------------------

    def _on_start(self, event: ResponseStart) -> list[WireEvent]:
        self._frame = None  # a new head
        self._ctx = Ctx(event.origin == "gemini", self._notes)
        if event.model is not None:
            self._meta["modelVersion"] = event.model
        if event.id is not None:
            self._meta["responseId"] = event.id
        if event.usage is not None:
            self._usage = event.usage
        if event.created is not None and event.origin == "gemini":  # Vertex's; AI Studio has none
            self._meta["createTime"] = _format_time(event.created)
        elif event.created is not None and (where := _CREATED_AT.get(event.origin or "")) is not None:
            self._notes.info(where, "dropped", "creation time: a Gemini API response has no field for it")
        return []

    def _on_part_start(self, event: PartStart) -> list[WireEvent]:
        slot = self._slots[event.index] = _Slot(event.index, event.part)
        self._order.append(event.index)
        part = event.part
        if type(part) is TextPart:
            self._send_text(slot, part.text, False)
        elif type(part) is ReasoningPart and self._gemini_reasoning(part):
            self._send_text(slot, part.text or "", True)
        return []

    def _on_text(self, event: TextDelta) -> list[WireEvent]:
        slot = self._slot(event.index, TextPart(text=""))
        signature = event.signature
        if signature is not None and not self._same:
            self._notes.add(_path(slot.index), "dropped", "thought signature of another format")
            signature = None
        if type(slot.part) is TextPart:
            self._send_text(slot, event.text, False, signature)
        else:
            slot.chunks.append(event.text)
        return []

    def _on_reasoning(self, event: ReasoningDelta) -> list[WireEvent]:
        slot = self._slot(event.index, ReasoningPart())
        part = slot.part
        if type(part) is ReasoningPart and self._gemini_reasoning(part):
            if event.text:
                self._send_text(slot, event.text, True)
            if event.signature:
                slot.signatures.append(event.signature)
        return []

    def _on_tool_delta(self, event: ToolCallDelta) -> list[WireEvent]:
        slot = self._slots.get(event.index)
        if slot is None:  # a delta without a start: start a call now
            slot = self._slot(event.index, ToolCall(name=""))
        self._hold(slot, event.arguments)
        return []

    def _hold(self, slot: _Slot, arguments: str) -> None:
        """Hold a call's argument text (``frame_delta`` takes this path without an IR event)."""
        chunks = slot.chunks
        chunks.append(arguments)
        if len(chunks) >= _PACK:  # one string per _PACK deltas: about 1x the text, not 60 B a delta
            chunks[:] = ["".join(chunks)]

    def _on_part_end(self, event: PartEnd) -> list[WireEvent]:
        if event.index in self._closed:
            return []  # a repeated end
        slot = self._slot(event.index, event.part or TextPart(text=""))
        self._finish(slot, event.part)
        self._advance()
        return []

    def _on_usage(self, event: UsageUpdate) -> list[WireEvent]:
        self._usage = event.usage
        return []

    def _on_end(self, event: ResponseEnd) -> list[WireEvent]:
        for index in list(self._order):
            slot = self._slots[index]
            if not slot.done:
                self._finish(slot, None)
        self._advance()
        self._ended = True
        chunk = self._chunk(self._parts, event)
        self._parts = []
        return [chunk]

    def _on_error(self, event: StreamErrorEvent) -> list[WireEvent]:
        self._ended = True
        _, body = encode_error(event.error, self._notes)
        return [body[0] if type(body) is list else body]

    # --- parts --------------------------------------------------------------------------------

    def _slot(self, index: int, skeleton: Part) -> _Slot:
        slot = self._slots.get(index)
        if slot is None:  # a delta or end without a start: start the part now
            self._on_part_start(PartStart(index, skeleton))
            slot = self._slots[index]
        return slot

    def _gemini_reasoning(self, part: ReasoningPart) -> bool:
        return part.origin == "gemini"

    def _emit(self, slot: _Slot, wire: dict[str, Any]) -> None:
        if self._order and self._order[0] == slot.index:
            self._parts.append(wire)
        else:
            slot.waiting.append(wire)

    def _send_text(self, slot: _Slot, text: str, thought: bool, signature: str | None = None) -> None:
        if signature is None and not slot.signed:
            signature = _skeleton_signature(slot.part) if self._same else None
        if not text and signature is None:
            return
        wire: dict[str, Any] = {"text": text}
        if thought:
            wire["thought"] = True
        if signature is not None and not slot.signed:
            wire["thoughtSignature"] = signature
            slot.signed = True
        slot.plain = type(slot.part) is TextPart and not slot.done
        slot.sent += len(text)
        self._emit(slot, wire)

    def _finish(self, slot: _Slot, final: Part | None) -> None:
        slot.done = True
        part = slot.part
        if type(part) is TextPart:
            text = final if type(final) is TextPart else part
            if text.extra and not self._same:
                emit({}, text.extra, False, self._notes, _path(slot.index))
            self._finish_text(slot, text.text, text.thought_signature, False)
        elif type(part) is ReasoningPart:
            self._finish_reasoning(slot, final if type(final) is ReasoningPart else None)
        else:
            self._encode_whole(slot, final if final is not None else _built(slot))

    def _finish_text(self, slot: _Slot, text: str, signature: str | None, thought: bool) -> None:
        if signature is not None and not self._same and not thought:
            self._notes.add(_path(slot.index), "dropped", "thought signature of another format")
            signature = None
        rest = text[slot.sent :] if len(text) > slot.sent else ""
        self._send_text(slot, rest, thought, None if slot.signed else signature)

    def _finish_reasoning(self, slot: _Slot, final: ReasoningPart | None) -> None:
        skeleton = slot.part
        assert type(skeleton) is ReasoningPart
        if not self._gemini_reasoning(skeleton):
            what = skeleton.origin or "unknown origin"
            self._notes.add(_path(slot.index), "dropped", f"reasoning of {what} has no Gemini stream form")
            return
        if final is not None and final.text is None and final.extra.get("~bare"):
            self._encode_whole(slot, final)
            return
        signature = final.signature if final is not None else None
        if signature is None and slot.signatures:
            signature = "".join(slot.signatures)
        text = (final.text or "") if final is not None else ""
        self._finish_text(slot, text, signature, True)

    def _encode_whole(self, slot: _Slot, part: Part) -> None:
        out: list[dict[str, Any]] = []
        _ENCODERS[type(part)](part, self._ctx, out, _path(slot.index))
        for wire in out:
            self._emit(slot, wire)

    def _advance(self) -> None:
        """Send what waited behind parts that are now done, in start order."""
        while self._order:
            head = self._slots[self._order[0]]
            self._parts.extend(head.waiting)
            head.waiting.clear()
            if not head.done:
                return
            self._order.popleft()
            del self._slots[head.index]
            self._closed.add(head.index)

    # --- chunks -------------------------------------------------------------------------------

    def _chunk(self, parts: list[dict[str, Any]], end: ResponseEnd | None = None) -> dict[str, Any]:
        candidate: dict[str, Any] = {}
        if parts:
            candidate["content"] = {"role": "model", "parts": parts}
        out: dict[str, Any] = {}
        if end is None:
            out["candidates"] = [candidate]
            out.update(self._meta)
            return out
        hints = end.extra if self._same else {}
        shape = hints.get("~candidates")
        if parts or shape is None:
            finish = self._finish_reason(end)
            if finish is not None:
                candidate["finishReason"] = finish
            out["candidates"] = [emit(candidate, hints.get("~candidate", {}), True, self._notes, _CANDIDATE)]
        elif shape == "empty":
            out["candidates"] = []
        usage = end.usage or self._usage
        if usage is not None:
            out["usageMetadata"] = encode_usage(usage, self._same, self._notes)
        out.update(self._meta)
        if "~createTime" in hints:
            out["createTime"] = hints["~createTime"]
        return emit(out, end.extra, self._same, self._notes, "$")

    def _finish_reason(self, end: ResponseEnd) -> str | None:
        """The wire ``finishReason``; ``None`` leaves the stream incomplete (see the module doc)."""
        if self._same and end.raw_stop_reason is not None:
            return end.raw_stop_reason
        if end.stop_reason is not None:
            return _WIRE_REASONS.get(end.stop_reason)
        if self._same or end.raw_stop_reason is not None or end.status is not None:
            return None  # a Gemini chunk without one, or a source that said it is unfinished
        self._notes.info(f"{_CANDIDATE}.finishReason", "synthesized", "no stop reason; finishReason 'STOP'")
        return "STOP"


def _skeleton_signature(part: Part) -> str | None:
    if type(part) is TextPart:
        return part.thought_signature
    if type(part) is ReasoningPart:
        return part.signature
    return None


_PACK = 64
"""Buffered argument deltas joined into one string (Gemini sends a call whole, so it holds it)."""


def _built(slot: _Slot) -> Part:
    """A part from its skeleton and the deltas buffered for it."""
    part = slot.part
    if not slot.chunks:
        return part
    if type(part) is ToolCall:
        return msgspec.structs.replace(part, arguments=part.arguments + "".join(slot.chunks))
    if type(part) is RefusalPart:
        return msgspec.structs.replace(part, text=part.text + "".join(slot.chunks))
    return part


_HANDLERS: dict[type, Callable[[StreamEncoder, Any], list[WireEvent]]] = {
    ResponseStart: StreamEncoder._on_start,
    PartStart: StreamEncoder._on_part_start,
    TextDelta: StreamEncoder._on_text,
    ReasoningDelta: StreamEncoder._on_reasoning,
    ToolCallDelta: StreamEncoder._on_tool_delta,
    PartEnd: StreamEncoder._on_part_end,
    UsageUpdate: StreamEncoder._on_usage,
    ResponseEnd: StreamEncoder._on_end,
    StreamErrorEvent: StreamEncoder._on_error,
}
