"""Sealing of opaque reasoning state in streams (the stream half of :mod:`toolwire.opaque`).

:class:`StreamSealer` sits between an upstream's stream decoder and the client's stream
encoder and rewrites IR stream events, so the client's stream carries the same envelopes as a
sealed non-streamed response:

=====================================  ==========================================================
upstream IR events                     client IR events
=====================================  ==========================================================
reasoning part of another origin       the same part retagged to the client's format; its text
                                       passes, its signature deltas are held back, and its end
                                       carries the sealed part (the client's encoder sends the
                                       envelope: Anthropic ``signature_delta``, Responses
                                       ``encrypted_content`` in ``output_item.done``, Gemini
                                       ``thoughtSignature``)
call with a Gemini signature           a carrier reasoning part (start and end) first, then the
                                       call without its signature
text with a Gemini signature on its    its start held until its first text (in the same batch of
start                                  events): a carrier part first (as in a sealed non-streamed
                                       response, so the client's turn still ends with its text),
                                       then the text without it
text with a late Gemini signature      the text without it; at the text's end (when it is known
(or no text in its first batch)        to be empty or not), a carrier held for the next part and
                                       sent before it; none follows: dropped, noted (Gemini
                                       validates no text signature; a carrier after the text
                                       would end the client's turn with reasoning)
=====================================  ==========================================================

Carriers take new indices, so the indices of the parts after them shift; the sealer maps
every index (hot-path deltas included, through :meth:`StreamSealer.lane`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec

from toolwire.ir.base import Format
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ReasoningDelta,
    ResponseEnd,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)
from toolwire.opaque import (
    ORIGIN_CODES,
    carrier,
    has_state,
    ordinal_kind,
    seal,
    sealed_reasoning,
    signed_envelope,
    slotted,
)

__all__ = ["StreamSealer", "seals"]


def seals(upstream: Format, client: Format, dialect: str | None = None) -> bool:
    """Whether a stream from ``upstream`` to ``client`` needs sealing (a Chat upstream's only
    when its provider is named: ``dialect``, whose reasoning goes back to it)."""
    known = upstream in ORIGIN_CODES and (upstream != "openai-chat" or dialect is not None)
    return upstream != client and known and slotted(client)


@dataclass(slots=True)
class _Held:
    """A reasoning part of another origin in flight: its skeleton, text and signature so far."""

    skeleton: ReasoningPart
    text: list[str] = field(default_factory=list)
    signature: list[str] = field(default_factory=list)

    def part(self) -> ReasoningPart:
        changes: dict[str, object] = {}
        if self.text:
            changes["text"] = (self.skeleton.text or "") + "".join(self.text)
        if self.signature:
            changes["signature"] = (self.skeleton.signature or "") + "".join(self.signature)
        return msgspec.structs.replace(self.skeleton, **changes) if changes else self.skeleton


class StreamSealer:
    """IR stream events of an upstream in, the same events with opaque state sealed out.

    Args:
        client: the client's format (one with a slot, see :func:`seals`).
    """

    def __init__(self, client: Format, notes: Notes | None = None) -> None:
        self._client = client
        self._notes = notes
        self._map: dict[int, int] = {}
        self._next = 0
        self._held: dict[int, _Held] = {}
        self._calls: dict[int, int] = {}  # upstream index of a client tool call -> its ordinal
        self._counts = {"c": 0, "t": 0}
        self._carried: set[int] = set()
        self._texts: dict[int, str | None] = {}  # open text part -> its signature so far
        self._written: set[int] = set()  # text parts that got some text
        self._pending: tuple[str, int] | None = None  # a late text signature's envelope, its text
        self._deferred: dict[int, PartStart] = {}  # signed text starts held for their first text

    def feed(self, events: list[StreamEvent]) -> list[StreamEvent]:
        """The client-side events for decoded upstream events."""
        out: list[StreamEvent] = []
        for event in events:
            handler = _HANDLERS.get(type(event))
            if handler is None:
                out.append(event)
            else:
                handler(self, event, out)
        if self._deferred:
            self._flush(out)
        return out

    def lane(self, lane: tuple[type, int, str]) -> tuple[type, int, str]:
        """A hot-path delta ``(kind, index, text)``: its index mapped, held text recorded."""
        kind, index, text = lane
        if text:
            if kind is TextDelta:
                self._written.add(index)
            elif kind is ReasoningDelta and index in self._held:
                self._held[index].text.append(text)
        return kind, self._index(index), text

    # ------------------------------------------------------------------------ helpers

    def _index(self, index: int) -> int:
        mapped = self._map.get(index)
        if mapped is None:
            mapped = self._map[index] = self._next
            self._next += 1
        return mapped

    def _carrier(self, envelope: str, out: list[StreamEvent]) -> None:
        index = self._next
        self._next += 1
        part = carrier(None, envelope, self._client)
        out.append(PartStart(index=index, part=ReasoningPart(text=part.text, origin=self._client)))
        out.append(PartEnd(index=index, part=part))

    def _signed_call(self, index: int, part: ToolCall, out: list[StreamEvent]) -> ToolCall:
        """``part`` without its Gemini signature, a carrier sent first (once per call)."""
        if part.thought_signature is None:
            return part
        if index not in self._carried and index in self._calls:
            self._carried.add(index)
            signed = signed_envelope(part, self._calls[index], self._client)
            if signed is not None:
                self._carrier(signed[0], out)
        return msgspec.structs.replace(part, thought_signature=None)

    def _retag(self, part: ReasoningPart) -> ReasoningPart:
        return ReasoningPart(text=part.text, summary=part.summary, origin=self._client)

    # ------------------------------------------------------------------------ events

    def _on_start(self, event: PartStart, out: list[StreamEvent]) -> None:
        if self._pending is not None:  # a late text signature: its carrier goes before this part
            self._carrier(self._pending[0], out)
            self._pending = None
        part = event.part
        if isinstance(part, ReasoningPart) and part.origin not in (None, self._client):
            self._held[event.index] = _Held(part)
            out.append(PartStart(index=self._index(event.index), part=self._retag(part)))
            return
        if isinstance(part, ToolCall):
            if ordinal_kind(part) == "c":
                self._calls[event.index] = self._counts["c"]
                self._counts["c"] += 1
            part = self._signed_call(event.index, part, out)
        elif isinstance(part, TextPart):  # counted at its end, when it is known to be empty or not
            self._texts[event.index] = part.thought_signature
            if part.text:
                self._written.add(event.index)
            if part.thought_signature is not None:
                part = msgspec.structs.replace(part, thought_signature=None)
                self._deferred[event.index] = PartStart(index=event.index, part=part)
                if part.text:
                    self._first_text(event.index, out)
                return
        out.append(PartStart(index=self._index(event.index), part=part))

    def _on_reasoning(self, event: ReasoningDelta, out: list[StreamEvent]) -> None:
        held = self._held.get(event.index)
        if held is None:
            out.append(self._moved(event))
            return
        if event.text:
            held.text.append(event.text)
        if event.signature:
            held.signature.append(event.signature)
        if event.text is not None or event.summary is not None:
            out.append(msgspec.structs.replace(event, index=self._index(event.index), signature=None))

    def _first_text(self, index: int, out: list[StreamEvent]) -> None:
        """A signed text gets its first text: the carrier goes first (as in a sealed non-streamed
        response, so the client's turn still ends with its text), then the held start."""
        start = self._deferred.pop(index)
        signature = self._texts[index]
        if signature is not None:
            self._carrier(seal({"t": self._counts["t"], "s": signature}, "gemini", self._client), out)
            self._texts[index] = None
            self._carried.add(index)
        out.append(PartStart(index=self._index(index), part=start.part))

    def _flush(self, out: list[StreamEvent]) -> None:
        """Held starts whose text did not come in the same batch go out as they are (the
        signature then waits for the text's end, like a late one)."""
        for index in list(self._deferred):
            out.append(PartStart(index=self._index(index), part=self._deferred.pop(index).part))

    def _on_text(self, event: TextDelta, out: list[StreamEvent]) -> None:
        if event.text and event.index in self._deferred:
            self._first_text(event.index, out)
        if event.text:
            self._written.add(event.index)
        if event.signature is not None:
            self._texts[event.index] = event.signature
            event = TextDelta(index=event.index, text=event.text)
        out.append(self._moved(event))

    def _on_response_end(self, event: ResponseEnd, out: list[StreamEvent]) -> None:
        """A late signature on the turn's last text is dropped, noted: a carrier after the text
        would end the client's turn with reasoning (an Anthropic turn never does; Claude Code
        reports the last block), and Gemini validates no signature on text, only on calls."""
        if self._pending is not None:
            if self._notes is not None:
                where = _CLIENT_PARTS[self._client].format(self._pending[1])
                self._notes.add(where, "dropped", "Gemini thought signature after the turn's last text")
            self._pending = None
        out.append(event)

    def _on_call_delta(self, event: ToolCallDelta, out: list[StreamEvent]) -> None:
        out.append(self._moved(event))

    def _moved(self, event: TextDelta | ToolCallDelta | ReasoningDelta) -> StreamEvent:
        """``event`` at its client index (the same object while no carrier shifted it)."""
        index = self._index(event.index)
        return event if index == event.index else msgspec.structs.replace(event, index=index)

    def _end_text(self, index: int, final: TextPart | None, out: list[StreamEvent]) -> TextPart | None:
        """A text part ends: counted when it has text; its signature, if any, goes in a carrier."""
        signature = self._texts.pop(index, None)
        if final is not None and final.thought_signature is not None and index not in self._carried:
            signature = final.thought_signature
        written = bool(final.text) if final is not None else index in self._written
        self._written.discard(index)
        if signature is not None:
            if written:
                content: dict[str, object] = {"t": self._counts["t"], "s": signature}
            else:  # clients drop empty text: the carrier stands for the whole part
                content = {"p": msgspec.to_builtins(TextPart(text="", thought_signature=signature))}
            self._pending = (seal(content, "gemini", self._client), self._index(index))
        if written:
            self._counts["t"] += 1
        if final is not None and final.thought_signature is not None:
            return msgspec.structs.replace(final, thought_signature=None)
        return final

    def _on_end(self, event: PartEnd, out: list[StreamEvent]) -> None:
        if event.index in self._deferred:  # signed and still empty: the start goes out as it is
            self._flush(out)
        held = self._held.pop(event.index, None)
        final = event.part
        if held is not None:
            whole = final if isinstance(final, ReasoningPart) else held.part()
            final = sealed_reasoning(whole, self._client) if has_state(whole) else self._retag(whole)
        elif event.index in self._texts:
            final = self._end_text(event.index, final if isinstance(final, TextPart) else None, out)
        elif isinstance(final, ToolCall):
            final = self._signed_call(event.index, final, out)
        out.append(PartEnd(index=self._index(event.index), part=final))


_CLIENT_PARTS: dict[Format, str] = {
    "anthropic": "$.content[{}]",
    "openai-responses": "$.output[{}]",
    "gemini": "$.candidates[0].content.parts[{}]",
}
"""Client format -> the JSON path of its k-th part (where a dropped text signature is noted)."""

_Handler = Callable[[StreamSealer, StreamEvent, list[StreamEvent]], None]

_HANDLERS: dict[type, _Handler] = {
    PartStart: StreamSealer._on_start,  # type: ignore[dict-item]
    ReasoningDelta: StreamSealer._on_reasoning,  # type: ignore[dict-item]
    TextDelta: StreamSealer._on_text,  # type: ignore[dict-item]
    ToolCallDelta: StreamSealer._on_call_delta,  # type: ignore[dict-item]
    ResponseEnd: StreamSealer._on_response_end,  # type: ignore[dict-item]
    PartEnd: StreamSealer._on_end,  # type: ignore[dict-item]
}
"""IR event type -> its handler; other events (start, usage, end, error) pass unchanged."""
