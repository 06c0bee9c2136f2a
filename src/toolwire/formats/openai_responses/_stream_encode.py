"""Canonical stream events -> Responses stream events (see :class:`StreamEncoder`).

Items are streamed one at a time in the order their parts start: a part that starts while
another is streaming (interleaved parallel tool calls) is buffered until the streaming one
ends. Consecutive text and refusal parts share one ``message`` item, which stays open until a
part of another kind starts or the response ends (exactly as :func:`encode_response` groups
them). Every wire item is built by the same item encoders as :func:`encode_response`, with
one shared id counter, so ``output_item.done`` items and ids equal the items of the final
response object, which is ``encode_response`` of the accumulated response. Three exceptions:
items closed before an ``incomplete`` end keep status ``completed`` in their done event; a
response without id gets one derived from model and creation time at the start (the
``response.created`` event needs it); and an item whose final part has another id than its
start (GitHub Copilot rotates ids) keeps the id it was added with, in the final response too.

Errors: a :class:`StreamErrorEvent` becomes a top-level ``error`` event followed, once the
response was created, by ``response.failed`` carrying the error and the items finished so far,
which is what the API itself sends. The ``error`` event has the spec's flat ``code`` (the
error's code, else its type) / ``message`` / ``param``; an error decoded from this format's
nested shape (which the API sends) also gets its ``error`` object back.
"""

from __future__ import annotations

from typing import Any, cast

import msgspec

from toolwire.formats._stream import WireEvent, delta_text
from toolwire.formats.openai_responses._encode_items import Built, Ctx
from toolwire.formats.openai_responses._extra import FORMAT
from toolwire.formats.openai_responses._ids import derived_id, id_seed
from toolwire.formats.openai_responses._stream_final import final_snapshot
from toolwire.formats.openai_responses._stream_items import ItemEvents
from toolwire.formats.openai_responses._stream_parts import (
    PACK_EVERY,
    Live,
    OpenMessage,
    add_reasoning,
    advance,
    delta_event,
    delta_head,
    in_progress,
    is_content,
    pack,
    sent_delta,
    skeleton_for,
)
from toolwire.formats.openai_responses._stream_skeletons import (
    created_snapshot,
    plain_call,
    plain_content,
    plain_start,
)
from toolwire.ir.content import (
    Part,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from toolwire.ir.response import ErrorInfo, Response
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

_TERMINAL = {"incomplete": "response.incomplete", "failed": "response.failed"}
_CALL_DELTA = {
    "function": "response.function_call_arguments.delta",
    "custom": "response.custom_tool_call_input.delta",
}
"""Tool call kind -> the wire type of its argument deltas."""

_START, _ERROR, _END, _ROUTED, _OTHER = range(5)
_ROUTED_TYPES = (PartStart, PartEnd, TextDelta, ToolCallDelta, ReasoningDelta)
_KINDS: dict[type, int] = {
    ResponseStart: _START,
    StreamErrorEvent: _ERROR,
    ResponseEnd: _END,
    **dict.fromkeys(_ROUTED_TYPES, _ROUTED),
    UsageUpdate: _OTHER,
}
"""What the general path does with an IR event, by its exact type (an ``isinstance`` chain costs
about a thousand instructions per test, compiled)."""


def _kind(event: StreamEvent) -> int:
    """The ``_KINDS`` entry of a subclass of an IR event."""
    for base, kind in _KINDS.items():
        if isinstance(event, base):
            return kind
    return _OTHER


class StreamEncoder(ItemEvents):
    """Encode canonical stream events (from any format) as a Responses event stream.

    Wire events are dicts (the SSE ``data``; the SSE event name is their ``type``). Every event
    has a ``sequence_number`` counting from 0; deltas carry no ``obfuscation``.
    """

    # ------------------------------------------------------------------ public

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        """Encode one canonical event as zero or more Responses events."""
        live = self._live
        if live is not None and type(event) is live.fast and live.index == event.index:  # type: ignore[union-attr]
            return self._fast_delta(live, event)  # type: ignore[arg-type]
        return cast("list[WireEvent]", self._feed(event))

    def _fast_delta(self, live: Live, event: TextDelta | ToolCallDelta) -> list[WireEvent]:
        """The hot path: a delta of the streaming text part or tool call, sent as is.

        Gives what the general path (:meth:`_text_delta`, :meth:`_arguments_delta`) gives. The
        accumulator is not fed: the part's final value reaches it at its end (:meth:`_on_live`).
        """
        text = delta_text(event)
        if not text:
            return cast("list[WireEvent]", self._feed(event))
        return [delta_event(live, text, self._advance(live, text))]

    def frame_delta(self, kind: type, index: int, text: str) -> bytes | None:
        """:meth:`frame` of a delta given as its parts (see ``FramingEncoder``)."""
        live = self._live
        if live is not None and kind is live.fast and live.index == index:
            if not live.cut:
                live.head, live.cut = delta_head(live), True
            head = live.head
            if head:  # what _advance records, inline
                seq = self._seq
                try:  # the bytes first: a lone surrogate declines to the general path
                    data = self._dumps(text)
                except UnicodeEncodeError:
                    return None
                # delta_bytes, inline (no call per delta, pure; one allocation, compiled)
                if live.content:
                    data = b'%b%b,"logprobs":[],"sequence_number":%d}\n\n' % (head, data, seq)
                else:
                    data = b'%b%b,"sequence_number":%d}\n\n' % (head, data, seq)
                live.chunks.append(text)
                live.sent.append(text)
                self._seq = seq + 1
                if not seq % PACK_EVERY:
                    pack(live)
                return data
        elif kind is ToolCallDelta and index in self._waiting and self._waits(live, index):
            # A call waiting for the streaming part to end (``_route``): recorded, no bytes yet.
            delta = ToolCallDelta(index=index, arguments=text)
            self._acc.feed(delta)
            self._waiting[index].append(delta)
            return b""
        return None

    def _waits(self, live: Live | None, index: int) -> bool:
        """Whether a delta of waiting part ``index`` would just be recorded by ``_feed``."""
        return self._start is not None and not self._ended and (live is None or live.index != index)

    def _advance(self, live: Live, text: str) -> int:
        """Record a hot-path delta of ``live``; its sequence number."""
        live.chunks.append(text)
        live.sent.append(text)
        seq = self._seq
        self._seq = seq + 1
        if not seq % PACK_EVERY:
            pack(live)
        return seq

    def close(self) -> list[WireEvent]:
        """End of input: a stream left unfinished fails with ``incomplete_stream``."""
        if self._ended or self._start is None:
            return []
        error = ErrorInfo(
            message="the canonical stream ended without a terminal event", code="incomplete_stream"
        )
        return [*self._fail(error)]

    def _feed(self, event: StreamEvent) -> list[dict[str, Any]]:
        """The general path of :meth:`feed` (which gives the same for deltas, faster)."""
        if self._ended:
            return []
        kind = _KINDS.get(type(event))
        if kind is None:  # a subclass of an IR event
            kind = _kind(event)
        if kind == _START:
            return self._begin(cast("ResponseStart", event)) if self._start is None else []
        if kind == _ERROR:
            return self._fail(cast("StreamErrorEvent", event).error)
        out: list[dict[str, Any]] = []
        if self._start is None:
            out.extend(self._begin(ResponseStart()))
        self._acc.feed(event)
        if kind == _END:
            out.extend(self._end())
        elif kind == _ROUTED:
            out.extend(self._route(event))
        return out

    # ------------------------------------------------------------------ lifecycle

    def _begin(self, start: ResponseStart) -> list[dict[str, Any]]:
        if start.id is None:
            new_id = derived_id("resp", f"{start.model}\x00{start.created}\x00{start.origin}")
            self.notes.add("$.id", "synthesized", f"response without id; using {new_id!r}")
            start = msgspec.structs.replace(start, id=new_id)
        self._start = start
        self._acc.feed(start)
        self._same = start.origin == FORMAT
        seed = str(start.id)
        self._ctx = Ctx(
            notes=self._scratch, same=self._same, output=True, seed=seed, memo={}, head=id_seed(seed)
        )
        self._built = Built(self._ctx, self._finished)
        snapshot = created_snapshot(start) if plain_start(start) else self._start_snapshot(start)
        return [
            self._event("response.created", response=snapshot),
            self._event("response.in_progress", response=snapshot),
        ]

    def _start_snapshot(self, start: ResponseStart) -> dict[str, Any]:
        """The in-progress snapshot of a start that is not :func:`plain_start`, encoded."""
        resp = Response(
            id=start.id, model=start.model, created=start.created, origin=start.origin, extra=start.extra
        )
        if self._same:
            resp = msgspec.structs.replace(resp, status="in_progress")
        return self._snapshot(resp, "in_progress")

    def _flush(self) -> list[dict[str, Any]]:
        """End the streaming part and every buffered one, then close the open message."""
        out: list[dict[str, Any]] = []
        while self._live is not None or self._waiting:
            if self._live is None:
                out.extend(self._drain())
                continue
            out.extend(self._route(PartEnd(index=self._live.index)))
        out.extend(self._close_message())
        return out

    def _end(self) -> list[dict[str, Any]]:
        out = self._flush()
        resp = self._acc.response()
        built = final_snapshot(resp, self.notes, self._built)  # the general snapshot's, directly
        final = self._keep_ids(built if built is not None else self._snapshot(resp))
        self._ended = True
        kind = _TERMINAL.get(final.get("status", ""), "response.completed")
        out.append(self._event(kind, response=final))
        return out

    def _fail(self, error: ErrorInfo) -> list[dict[str, Any]]:
        self._ended = True
        self._live = None  # nothing is encoded after the end (and the hot path must not run)
        code = error.code if error.code is not None else error.type
        body: dict[str, Any] = {"code": code, "message": error.message, "param": error.param}
        if error.origin == FORMAT and error.extra.get("~nested"):
            body["error"] = {"type": error.type, **body}
        out = [self._event("error", **body)]
        if self._start is None:
            return out
        self._acc.feed(StreamErrorEvent(error=error))
        resp = msgspec.structs.replace(self._acc.response(), parts=tuple(self._finished), status="failed")
        out.append(self._event("response.failed", response=self._keep_ids(self._snapshot(resp))))
        return out

    # ------------------------------------------------------------------ routing

    def _route(self, event: StreamEvent) -> list[dict[str, Any]]:
        index: int = event.index  # type: ignore[union-attr]
        live = self._live
        if live is not None and live.index == index:
            return self._on_live(live, event)
        if index in self._waiting:
            self._waiting[index].append(event)
            return []
        if not isinstance(event, PartStart):  # no start seen: start a skeleton of the right kind
            skeleton = skeleton_for(event)
            if skeleton is None:
                return []
            return self._route(PartStart(index=index, part=skeleton)) + self._route(event)
        if live is not None:
            self._waiting[index] = [event]
            return []
        return self._open(event.index, event.part)

    def _drain(self) -> list[dict[str, Any]]:
        """Replay the events of the part that has waited longest."""
        index = next(iter(self._waiting))
        out: list[dict[str, Any]] = []
        for event in self._waiting.pop(index):
            live = self._live
            if live is not None and type(event) is live.fast and live.index == event.index:  # type: ignore[union-attr]
                text = delta_text(event)  # type: ignore[arg-type]
                if text:  # what _route gives a delta of the streaming part, as _fast_delta builds it
                    out.append(delta_event(live, text, self._advance(live, text)))
                    continue
            out.extend(self._route(event))
        return out

    def _replay_waiting(self, out: list[dict[str, Any]]) -> None:
        """Replay waiting parts until one stays open (a method: ``self._live`` is read afresh
        after each replay, where a narrowed ``None`` would be wrong, and mypyc checks it)."""
        while self._live is None and self._waiting:
            out.extend(self._drain())

    def _on_live(self, live: Live, event: StreamEvent) -> list[dict[str, Any]]:
        if isinstance(event, PartStart):
            return []  # a repeated start changes nothing
        if isinstance(event, PartEnd):
            final = event.part if event.part is not None else live.now()
            if live.fast is not None:  # hot-path deltas skipped the accumulator: give it the part
                self._acc.feed(event if event.part is not None else PartEnd(index=live.index, part=final))
            out = self._end_content(live, final) if live.content else self._end_item(live, final)
            self._live = None
            self._replay_waiting(out)
            return out
        if isinstance(event, TextDelta):
            if event.signature is not None:
                self.notes.add(f"$.parts[{live.index}]", "dropped", "Gemini thought signature of a text part")
            live.chunks.append(event.text)
            if live.content and isinstance(live.part, (TextPart, RefusalPart)):
                return self._text_delta(live, event.text)
        elif isinstance(event, ToolCallDelta):
            live.chunks.append(event.arguments)
            if live.added and isinstance(live.part, ToolCall) and live.part.kind != "builtin":
                return self._arguments_delta(live, live.part, event.arguments)
        elif isinstance(event, ReasoningDelta):
            add_reasoning(live, event)
        return self._sync(live, live.now())

    def _text_delta(self, live: Live, text: str) -> list[dict[str, Any]]:
        """A text delta of the open content part, sent as is (O(1): nothing re-joined)."""
        if live.silent or not text:
            return []
        sent_delta(live, text)
        fields = {**self._ids(live), "content_index": live.content_index, "delta": text}
        if isinstance(live.part, RefusalPart):
            return [self._event("response.refusal.delta", **fields)]
        return [self._event("response.output_text.delta", **fields, logprobs=[])]

    def _arguments_delta(self, live: Live, call: ToolCall, text: str) -> list[dict[str, Any]]:
        """An argument delta of the open tool call, sent as is (O(1))."""
        if not text:
            return []
        sent_delta(live, text)
        return [self._event(_CALL_DELTA[call.kind], **self._ids(live), delta=text)]

    # ------------------------------------------------------------------ items

    def _open(self, index: int, part: Part) -> list[dict[str, Any]]:
        if is_content(part):
            return self._open_content(index, part)
        out = self._close_message()
        live = self._live = Live(index, part)
        out.extend(self._sync(live, part))
        return out

    def _try_add(self, live: Live, now: Part) -> list[dict[str, Any]]:
        """``output_item.added`` once the part encodes to an item (reasoning of another origin
        becomes one only when it has text or a summary)."""
        if type(now) is ToolCall and not self._same and plain_call(now):  # what the probe gives
            item = self._call_skeleton(now)
        else:
            items = self._probe((now,), live.index)
            if not items:
                return []
            item = in_progress(items[0], self._same)
        live.item_id = item.get("id")
        live.output_index = self._next_output
        live.added = True
        if isinstance(now, ToolCall) and now.kind in _CALL_DELTA:
            live.fast, live.fast_type = ToolCallDelta, _CALL_DELTA[now.kind]
        self._next_output += 1
        return [self._event("response.output_item.added", output_index=live.output_index, item=item)]

    def _sync(self, live: Live, now: Part) -> list[dict[str, Any]]:
        """Deltas that bring the wire state of the live part up to ``now``."""
        if live.content:
            return [] if live.silent else self._text_sync(live, now)
        out: list[dict[str, Any]] = []
        if not live.added:
            out.extend(self._try_add(live, now))
            if not live.added:
                return out
        if isinstance(now, ToolCall) and now.kind != "builtin":
            delta = advance(live, now.arguments)
            if delta:
                out.append(self._event(_CALL_DELTA[now.kind], **self._ids(live), delta=delta))
        elif isinstance(now, ReasoningPart):
            out.extend(self._reasoning_sync(live, now))
        return out

    def _end_item(self, live: Live, final: Part) -> list[dict[str, Any]]:
        out = self._sync(live, final)
        if live.added:
            out.extend(self._item_done_events(live, final))
        items = self._encode_done((final,), live.index)
        if items and live.added:
            out.append(self._item_done(live.output_index, live.item_id, items[0]))
        self._finished.append(final)
        return out

    # ------------------------------------------------------------------ messages

    def _open_content(self, index: int, part: Part) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        hint = part.extra.get("~msg") if self._same else None
        if self._message is None or hint is not None:
            out.extend(self._close_message())
            out.extend(self._open_message(index, part))
        msg = self._message
        assert msg is not None
        live = self._live = Live(index, part, content=True, item_id=msg.id, output_index=msg.output_index)
        wire = self._wire_part(part, index, empty=True)
        if wire is None:
            live.silent = True
            return out
        live.content_index = msg.count
        msg.count += 1
        if isinstance(part, TextPart):
            live.fast, live.fast_type = TextDelta, "response.output_text.delta"
        event = {
            "type": "response.content_part.added",
            "item_id": live.item_id,
            "output_index": live.output_index,
            "content_index": live.content_index,
            "part": wire,
            "sequence_number": self._seq,
        }
        self._seq += 1
        out.append(event)  # what _event gives, built inline
        if isinstance(part, (TextPart, RefusalPart)) and part.text:  # else _sync sends nothing
            out.extend(self._sync(live, part))
        return out

    def _open_message(self, index: int, skeleton: Part) -> list[dict[str, Any]]:
        if plain_content(skeleton) and not self._same:  # what the probe gives, without encoding
            item = self._message_skeleton()
        else:
            item = in_progress(self._probe((skeleton,), index)[0], self._same)
        self._message = OpenMessage(id=item.get("id"), output_index=self._next_output)
        self._next_output += 1
        return [self._event("response.output_item.added", output_index=self._message.output_index, item=item)]

    def _close_message(self) -> list[dict[str, Any]]:
        msg = self._message
        if msg is None:
            return []
        self._message = None
        self._finished.extend(msg.parts)
        items = self._encode_done(tuple(msg.parts), len(self._finished))
        if not items:
            return []
        return [self._item_done(msg.output_index, msg.id, items[0])]

    def _text_sync(self, live: Live, now: Part) -> list[dict[str, Any]]:
        if not isinstance(now, (TextPart, RefusalPart)):
            return []
        delta = advance(live, now.text)
        if not delta:
            return []
        fields = {**self._ids(live), "content_index": live.content_index, "delta": delta}
        if isinstance(now, RefusalPart):
            return [self._event("response.refusal.delta", **fields)]
        return [self._event("response.output_text.delta", **fields, logprobs=[])]

    def _end_content(self, live: Live, final: Part) -> list[dict[str, Any]]:
        msg = self._message
        assert msg is not None
        msg.parts.append(final)
        if live.silent:
            return []
        out = self._sync(live, final)
        wire = self._wire_part(final, live.index, empty=False) or {}
        ids = {
            "item_id": live.item_id,
            "output_index": live.output_index,
            "content_index": live.content_index,
        }
        seq = self._seq  # the events _event gives, built inline
        if isinstance(final, TextPart):
            logprobs = wire.get("logprobs", [])
            done = {"type": "response.output_text.done", **ids, "text": final.text, "logprobs": logprobs}
            done["sequence_number"] = seq
            out.append(done)
            seq += 1
        elif isinstance(final, RefusalPart):
            out.append(
                {"type": "response.refusal.done", **ids, "refusal": final.text, "sequence_number": seq}
            )
            seq += 1
        out.append({"type": "response.content_part.done", **ids, "part": wire, "sequence_number": seq})
        self._seq = seq + 1
        return out
