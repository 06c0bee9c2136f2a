"""What an :class:`~toolwire.translate.Exchange` maps back from the upstream to its client.

For every upstream tool call, in responses and in streams alike:

==============  ===========================================================================
name            sanitized name -> the client's name (:class:`~toolwire.names.NameMap`)
kind            a custom tool sent as a function -> ``custom`` again, its ``{"input": text}``
                arguments -> the text (streamed as text deltas, see :mod:`toolwire._input_text`)
namespace       a flattened name -> namespace and name (:mod:`toolwire._shims`)
id              an escaped id -> the original (:mod:`toolwire._callids`); a missing id
                (Gemini) -> one derived from the response id and the call's part index,
                so ids never repeat across turns; with no response id, from a hash of
                the response body (non-streamed) or of the first stream event
==============  ===========================================================================
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import msgspec

from toolwire._callids import ID_PREFIXES, restore_call_id, synthesized_call_id
from toolwire._input_text import InputText
from toolwire._json import dumps
from toolwire._shims import ToolShims
from toolwire.ir.content import Part, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response
from toolwire.ir.stream import PartEnd, PartStart, ResponseStart, StreamEvent, ToolCallDelta
from toolwire.names import NameMap

__all__ = ["Restorer", "StreamRestore"]


@dataclass(slots=True)
class Restorer:
    """The way back of one exchange.

    Attributes:
        client: the client's format (the prefix of synthesized ids).
        names: the exchange's name map, when names were sanitized.
        shims: the exchange's tool approximations, when any.
    """

    client: str
    names: NameMap | None = None
    shims: ToolShims | None = None

    def _unsanitize(self, name: str) -> str:
        return self.names.to_original(name) if self.names is not None else name

    def call(self, call: ToolCall, seed: str | None, index: int, notes: Notes, path: str) -> ToolCall:
        """An upstream tool call (part ``index`` of the response ``seed``) in the client's terms.

        Without a ``seed`` a call without an id keeps none.
        """
        if call.kind == "builtin":
            return call
        if self.shims is not None:
            call = self.shims.restore_call(call, self._unsanitize, notes, path)
        else:
            name = self._unsanitize(call.name)
            if name != call.name:
                call = msgspec.structs.replace(call, name=name)
        if call.id is None:
            if seed is None:
                return call
            new = synthesized_call_id(ID_PREFIXES.get(self.client, "call_"), seed, index)
            notes.info(f"{path}.id", "synthesized", f"tool call {call.name!r} had no id; sent {new!r}")
            return msgspec.structs.replace(call, id=new)
        original = restore_call_id(call.id)
        return call if original == call.id else msgspec.structs.replace(call, id=original)

    def response(self, ir: Response, payload: object, notes: Notes) -> Response:
        """``ir`` (decoded from ``payload``) with every tool call in the client's terms.

        With ``payload`` ``None``, calls without an id keep none.
        """
        seed = ir.id if ir.id is not None else (None if payload is None else _digest(payload))
        parts: list[Part] = []
        for index, part in enumerate(ir.parts):
            if isinstance(part, ToolCall):
                part = self.call(part, seed, index, notes, f"$.parts[{index}]")
            parts.append(part)
        new = tuple(parts)
        return ir if new == ir.parts else msgspec.structs.replace(ir, parts=new)

    def stream(self, notes: Notes) -> StreamRestore:
        """A restorer for one streamed response."""
        return StreamRestore(self, notes)


def _digest(payload: object) -> str:
    return hashlib.blake2s(dumps(payload), digest_size=16).hexdigest()


@dataclass(slots=True)
class StreamRestore:
    """:class:`Restorer` for a stream: IR events in, IR events out.

    ``custom`` holds the part indexes of calls restored to custom calls: their argument deltas
    are rewritten (:meth:`event`), so a stream translator sends them here, not down a hot path.
    """

    restorer: Restorer
    notes: Notes
    seed: str | None = None
    custom: dict[int, InputText] = field(default_factory=dict)
    ids: dict[int, str] = field(default_factory=dict)

    def first(self, wire_event: object) -> None:
        """See the first upstream wire event (the id seed when the stream names no response id)."""
        if self.seed is None:
            self.seed = _digest(wire_event)

    def event(self, event: StreamEvent) -> list[StreamEvent]:
        """The client's events for one upstream IR event."""
        kind = type(event)
        if kind is ResponseStart:
            assert isinstance(event, ResponseStart)
            if event.id is not None:
                self.seed = event.id
            return [event]
        if kind is ToolCallDelta:
            assert isinstance(event, ToolCallDelta)
            text = self.custom.get(event.index)
            if text is None:
                return [event]
            out = text.feed(event.arguments)
            return [ToolCallDelta(event.index, out)] if out else []
        if kind is PartStart or kind is PartEnd:
            return self._part(event)  # type: ignore[arg-type]
        return [event]

    def _part(self, event: PartStart | PartEnd) -> list[StreamEvent]:
        part = event.part
        if not isinstance(part, ToolCall) or part.kind == "builtin":
            return [event]
        index = event.index
        if part.id is None and index in self.ids:
            part = msgspec.structs.replace(part, id=self.ids[index])
        seed = self.seed or "stream"
        start = type(event) is PartStart
        call = self.restorer.call(part, seed, index, self.notes, f"$.parts[{index}]")
        self.ids[index] = call.id or ""
        restored = msgspec.structs.replace(event, part=call)
        if start:
            return self._start(restored, part)  # type: ignore[arg-type]
        self.custom.pop(index, None)  # the client's encoder sends any text the deltas did not
        return [restored]  # carry (arguments of another spelling, which InputText gives up on)

    def _start(self, event: PartStart, upstream: ToolCall) -> list[StreamEvent]:
        call = event.part
        assert isinstance(call, ToolCall)
        if call.kind != "custom" or upstream.kind == "custom":
            return [event]
        text = self.custom[event.index] = InputText()
        bare = msgspec.structs.replace(call, arguments="")
        out: list[StreamEvent] = [msgspec.structs.replace(event, part=bare)]
        if upstream.arguments:
            first = text.feed(upstream.arguments)
            if first:
                out.append(ToolCallDelta(event.index, first))
        return out
