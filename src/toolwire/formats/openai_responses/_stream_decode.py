"""Responses stream events -> canonical stream events (see :class:`StreamDecoder`).

Mapping (``n`` counts parts in the order they start, which is their order in the final
response: a message item gives one part per content part, every other item one part):

================================================  ==========================================
wire event                                        canonical events
================================================  ==========================================
``response.created`` (or the first lifecycle)     :class:`ResponseStart`
``response.output_item.added``                    :class:`PartStart` (messages: none; their
                                                  parts start at ``content_part.added``)
``response.content_part.added``                   :class:`PartStart` (text or refusal)
``response.output_text.delta`` / ``refusal.delta``  :class:`TextDelta`
``response.function_call_arguments.delta``,       :class:`ToolCallDelta`
``response.custom_tool_call_input.delta``
``response.reasoning_summary_part.added``,        :class:`ReasoningDelta` (``summary`` with
``response.reasoning_summary_text.delta``         ``summary_index``)
``response.reasoning_text.delta``                 :class:`ReasoningDelta` (``text``)
``response.output_item.done``                     :class:`PartEnd` with the final part(s)
``response.completed`` / ``response.incomplete``  :class:`PartEnd` for items the stream left
                                                  open, then :class:`ResponseEnd`
``response.failed``, ``error``                    :class:`StreamErrorEvent` (the API sends
                                                  ``error`` then ``response.failed``: one error)
================================================  ==========================================

Anything after the terminal (or error) event is ignored with a note. A malformed event gives a
``malformed_event`` error naming its JSON path (``$[7].delta``) and ends decoding; input that
stops before a terminal event gives ``incomplete_stream`` on :meth:`StreamDecoder.close`, and
tool calls keep exactly the argument text received. An ``output_item.done`` whose item decodes
to parts that differ in number or kind from the parts streamed (a message with a content part
type we do not know becomes one opaque item) ends the streamed parts as they were sent and adds
its own parts as new ones, so a part never ends as a different kind than it started.

``*.done`` events of content, arguments and summaries, annotation events and the progress
events of built-in tools (``web_search_call.searching``...) carry nothing the final item of
``output_item.done`` does not, so they produce no canonical event (the first of each
progress event type is noted).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._json import dumps_leaf
from toolwire.errors import PayloadError
from toolwire.formats._stream import (
    NO_LEND,
    DeltaSink,
    HotFrames,
    HotLane,
    Lend,
    Lent,
    ParsedEvent,
    borrow,
    hot_events,
)
from toolwire.formats._wire import as_dict, opt_dict, opt_str, req_dict, req_str
from toolwire.formats.openai_responses._content import decode_content
from toolwire.formats.openai_responses._decode_items import decode_item
from toolwire.formats.openai_responses._extra import FORMAT, QUIET, split_fields
from toolwire.formats.openai_responses._stream_read import (
    ERROR_KNOWN,
    IN_PROGRESS,
    LIFECYCLE_EVENTS,
    QUIET_EVENTS,
    OpenItem,
    int_field,
)
from toolwire.formats.openai_responses.response import decode_response
from toolwire.ir.content import Part, TextPart, ToolCall
from toolwire.ir.notes import Notes
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
)

__all__ = ["StreamDecoder"]


class StreamDecoder(HotFrames):
    """Decode a Responses event stream (parsed SSE data dicts) into canonical stream events.

    Example:
        >>> dec = StreamDecoder()
        >>> for data in events:              # doctest: +SKIP
        ...     ir_events = dec.feed(data)
        >>> dec.close()                      # doctest: +SKIP
    """

    def __init__(self, notes: Notes | None = None) -> None:
        self.notes = notes if notes is not None else Notes()
        self._count = 0
        self._started = False
        self._finished = False
        self._items: dict[int, OpenItem] = {}
        # What the hot path reads per delta: attributes, not module globals (cheaper, compiled).
        self._hot_types: dict[str, type] = _HOT
        self._call_type: type = ToolCallDelta
        self._dumps: Callable[[Any], bytes] = dumps_leaf
        self.lend: Lend | None = None
        """The target encoder's ``lend``, set by a translator whose hot-path sink is that
        encoder's ``frame_delta`` (see ``Lend``)."""
        self._lent: Lent | None = None  # the encoder's part of IR index _lent_at (``borrow``)
        self._lent_at = -1
        self._lent_kind: type | None = None
        self._next = 0
        self._shapes: dict[int, tuple[type, str | None]] = {}  # canonical index -> _shape of its start
        self._has_calls = False
        self._noted: set[str] = set()
        self._done: dict[int, Any] = {}
        """The items of ``output_item.done`` by output index, decoded already: the terminal
        event's ``output`` repeats them (see :meth:`_final`)."""

    # ------------------------------------------------------------------ public

    def feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """Decode one wire event (a parsed SSE ``data`` object)."""
        lane = self.hot_frame(event, None)
        return hot_events(lane) if type(lane) is tuple else self._feed(event)

    def hot(self, event: ParsedEvent) -> tuple[type, int, str] | None:
        """:meth:`hot_frame` with no sink (see ``HotFrames``)."""
        lane = self.hot_frame(event, None)
        return lane if type(lane) is tuple else None

    def hot_frame(self, event: ParsedEvent, sink: DeltaSink | None) -> HotLane:
        """The hot path: a text or argument delta of an open item, as its IR delta type, IR
        index and text (never ""), with exactly the state change of the general path,
        :meth:`_feed`; ``None`` for any other event (no state change: decode it with ``feed``).
        """
        if self._finished:
            return None
        # Subscripts, not ``.get`` (cheaper): every event has a "type", and a delta event its
        # "delta", "output_index" (and "content_index"); a missing key declines, and so do an
        # event that is not an object and an unhashable type (their TypeError). The annotated
        # local costs under 1% interpreted; compiled, it makes the subscripts a dict's own lookup
        # (an event of another type raises the TypeError that declines).
        try:
            body: dict[str, Any] = event
            hot = self._hot_types.get(body["type"])
            if hot is None:
                return None
            delta = body["delta"]
            output_index = body["output_index"]
            if type(delta) is not str or not delta or type(output_index) is not int:
                return None
            item = self._items.get(output_index)
            if item is None:
                return None
            slot = body["content_index"] if hot is not self._call_type else -1
        except (KeyError, TypeError):
            return None
        index = item.parts.get(slot) if type(slot) is int else None
        if index is not None and (hot is self._call_type or item.kind == "message"):
            self._count += 1
            if sink is not None:
                lent = self._lent if self._lent_at == index and self._lent_kind is hot else None
                if lent is not None:  # the encoder's part, written here (see ``Lend``)
                    head = lent.head
                    if head:
                        try:  # a lone surrogate: nothing written, nothing counted (the general path raises)
                            written = head + self._dumps(delta) + lent.tail
                        except UnicodeEncodeError:
                            return hot, index, delta
                        lent.sent += len(delta)
                        if lent.held is not None:  # the text the encoder checks (see ``Lend``)
                            lent.hold(delta)
                        return written
                data = sink(hot, index, delta)
                if data is not None:
                    if lent is not NO_LEND:
                        self._lent = borrow(self.lend, hot, index)
                        self._lent_at, self._lent_kind = index, hot
                    return data
            return hot, index, delta
        return None

    def _feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """The general path of :meth:`feed`: any event, checked field by field."""
        position = self._count
        self._count += 1
        if self._finished:
            self.notes.info(f"$[{position}]", "skipped", "event after the end of the stream ignored")
            return []
        if event == "[DONE]":
            return []
        try:
            data = as_dict(event, "$")
            kind = req_str(data, "type", "$")
            handler = _HANDLERS.get(kind)
            if handler is None:
                return self._other(kind, data, position)
            return handler(self, data)
        except PayloadError as exc:
            self._finished = True
            where = (exc.path or "$").replace("$", f"$[{position}]", 1)
            return [_error("malformed_event", f"{where}: {exc.message}")]

    def close(self) -> list[StreamEvent]:
        """End of input: an ``incomplete_stream`` error when no terminal event was seen."""
        if self._finished:
            return []
        self._finished = True
        return [_error("incomplete_stream", "the Responses stream ended without a terminal event")]

    # ------------------------------------------------------------------ helpers

    def _start(self, response: dict[str, Any] | None) -> list[StreamEvent]:
        if self._started:
            return []
        self._started = True
        if response is None:
            return [ResponseStart(origin=FORMAT)]
        resp = _decode_response(response)
        extra = dict(resp.extra)
        quiet = {k: v for k, v in extra.pop(QUIET, {}).items() if k not in IN_PROGRESS}
        if quiet:
            extra[QUIET] = quiet
        return [ResponseStart(id=resp.id, origin=FORMAT, model=resp.model, created=resp.created, extra=extra)]

    def _new_part(self, part: Part) -> tuple[int, PartStart]:
        index = self._next
        self._next += 1
        self._shapes[index] = _shape(part)
        self.notes.origins[("parts", index)] = (self._count - 1,)  # the event that started it
        return index, PartStart(index=index, part=part)

    def _item(self, data: dict[str, Any]) -> OpenItem:
        output_index = int_field(data, "output_index")
        item = self._items.get(output_index)
        if item is None:
            raise PayloadError(f"no open output item at output_index {output_index}", path="$.output_index")
        return item

    def _other(self, kind: str, data: dict[str, Any], position: int) -> list[StreamEvent]:
        if kind not in QUIET_EVENTS and kind not in self._noted:
            self._noted.add(kind)
            self.notes.info(
                f"$[{position}]",
                "dropped",
                f"{kind!r} events have no canonical form; the item's final state is kept",
            )
        return []  # nothing to take from it (check_stream judges its shape and place)

    # ------------------------------------------------------------------ lifecycle

    def _lifecycle(self, data: dict[str, Any]) -> list[StreamEvent]:
        return self._start(req_dict(data, "response", "$"))

    def _terminal(self, data: dict[str, Any]) -> list[StreamEvent]:
        response = req_dict(data, "response", "$")
        out = self._start(response)
        resp = self._final(response)
        out.extend(self._backfill(response))
        self._finished = True
        if data["type"] == "response.failed":
            info = resp.error or ErrorInfo(message="the response failed", code="failed", origin=FORMAT)
            out.append(StreamErrorEvent(error=info))
            return out
        stop = resp.stop_reason
        if stop == "end_turn" and self._has_calls:
            stop = "tool_calls"
        out.append(
            ResponseEnd(
                stop_reason=stop,
                raw_stop_reason=resp.raw_stop_reason,
                usage=resp.usage,
                status=resp.status,
                extra=resp.extra,
            )
        )
        return out

    def _final(self, response: dict[str, Any]) -> Response:
        """The terminal ``response`` decoded; its ``output`` items decoded again only when they
        are not the items of ``output_item.done`` (decoded then): what :meth:`_terminal` takes
        from it (stop reason, usage, status, error, extra) does not depend on them otherwise,
        the stop reason's calls being counted in ``_has_calls`` (a third of a stream's
        structural cost, ~13 µs of 19 for a message and two calls)."""
        output = response.get("output")
        done, self._done = self._done, {}
        if type(output) is not list or not output or len(output) != len(done):
            return _decode_response(response)
        for position, item in enumerate(output):
            if done.get(position, _NOT_DONE) != item:
                return _decode_response(response)
        resp = _decode_response({**response, "output": []})
        quiet = resp.extra.get(QUIET)
        if quiet is not None:  # "output": [] is quiet (split_fields); the real one is not
            quiet.pop("output", None)
            if not quiet:
                del resp.extra[QUIET]
        return resp

    def _backfill(self, response: dict[str, Any]) -> list[StreamEvent]:
        """End the items the stream left open with their state in the final ``output``."""
        output = response.get("output")
        if type(output) is not list or not self._items:
            return []
        out: list[StreamEvent] = []
        for output_index in sorted(self._items):
            if output_index < len(output):
                out.extend(
                    self._finish(output_index, output[output_index], f"$.response.output[{output_index}]")
                )
        return out

    def _error(self, data: dict[str, Any]) -> list[StreamEvent]:
        body = opt_dict(data, "error", "$")
        path = "$.error" if body is not None else "$"
        body = body if body is not None else data
        code = body.get("code")
        extra = split_fields(body, ERROR_KNOWN)
        if body is not data:
            extra["~nested"] = True
        info = ErrorInfo(
            message=opt_str(body, "message", path) or "",
            type=opt_str(body, "type", path) if body is not data else None,
            code=None if code is None else str(code),
            param=opt_str(body, "param", path),
            origin=FORMAT,
            extra=extra,
        )
        self._finished = True
        return [StreamErrorEvent(error=info)]

    # ------------------------------------------------------------------ items

    def _item_added(self, data: dict[str, Any]) -> list[StreamEvent]:
        out = self._start(None)
        output_index = int_field(data, "output_index")
        if output_index in self._items:
            raise PayloadError(f"output_index {output_index} was already added", path="$.output_index")
        item = req_dict(data, "item", "$")
        kind = req_str(item, "type", "$.item")
        opt_str(item, "id", "$.item")  # the id every later event of the item repeats: a string
        state = self._items[output_index] = OpenItem(kind, item)
        if kind == "message":
            return out
        part = _decode_parts(item, "$.item")[0]  # a call without a name raises (``req_name``)
        index, start = self._new_part(part)
        state.parts[-1] = index
        out.append(start)
        return out

    def _content_added(self, data: dict[str, Any]) -> list[StreamEvent]:
        item = self._item(data)
        if item.kind != "message":
            raise PayloadError(f"content part for a {item.kind!r} item", path="$.output_index")
        slot = int_field(data, "content_index")
        parts, _ = decode_content([req_dict(data, "part", "$")], "$.part", "output_text")
        skeleton: Part = parts[0] if parts else TextPart(text="")
        if not item.parts:
            fields = {key: value for key, value in item.item.items() if key != "content"}
            skeleton.extra["~msg"] = fields
        index, start = self._new_part(skeleton)
        item.parts[slot] = index
        return [start]

    def _text_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        item = self._item(data)
        if item.kind != "message":
            raise PayloadError(f"text delta for a {item.kind!r} item", path="$.output_index")
        slot = int_field(data, "content_index")
        delta = req_str(data, "delta", "$")
        out: list[StreamEvent] = []
        index = item.parts.get(slot)
        if index is None:  # a delta without content_part.added: start a text part
            index, start = self._new_part(TextPart(text=""))
            item.parts[slot] = index
            out.append(start)
        out.append(TextDelta(index=index, text=delta))
        return out

    def _args_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        item = self._item(data)
        delta = req_str(data, "delta", "$")
        if -1 not in item.parts:
            raise PayloadError("argument delta for an item that is not a tool call", path="$.output_index")
        return [ToolCallDelta(index=item.parts[-1], arguments=delta)]

    def _reasoning_index(self, data: dict[str, Any]) -> int:
        item = self._item(data)
        if item.kind != "reasoning":
            raise PayloadError(f"reasoning event for a {item.kind!r} item", path="$.output_index")
        return item.parts[-1]

    def _summary_added(self, data: dict[str, Any]) -> list[StreamEvent]:
        index = self._reasoning_index(data)
        slot = int_field(data, "summary_index")
        return [ReasoningDelta(index=index, summary="", summary_index=slot)]

    def _summary_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        index = self._reasoning_index(data)
        slot = int_field(data, "summary_index")
        return [ReasoningDelta(index=index, summary=req_str(data, "delta", "$"), summary_index=slot)]

    def _reasoning_text_delta(self, data: dict[str, Any]) -> list[StreamEvent]:
        index = self._reasoning_index(data)
        item = self._items[data["output_index"]]
        slot = int_field(data, "content_index")
        delta = req_str(data, "delta", "$")
        if item.text_slot is not None and slot != item.text_slot:
            delta = "\n" + delta  # the codec joins reasoning_text entries with newlines
        item.text_slot = slot
        return [ReasoningDelta(index=index, text=delta)]

    def _item_done(self, data: dict[str, Any]) -> list[StreamEvent]:
        out = self._start(None)
        output_index = int_field(data, "output_index")
        item = req_dict(data, "item", "$")
        req_str(item, "type", "$.item")
        out.extend(self._finish(output_index, item, "$.item"))
        self._done[output_index] = item
        return out

    def _finish(self, output_index: int, item: Any, path: str) -> list[StreamEvent]:
        """PartEnd (and PartStart for parts never started) for the final state of an item."""
        state = self._items.pop(output_index, None)
        finals = _decode_parts(item, path)
        self._has_calls = self._has_calls or any(type(p) is ToolCall and p.kind != "builtin" for p in finals)
        started = [state.parts[slot] for slot in sorted(state.parts)] if state is not None else []
        shapes = [self._shapes.pop(index) for index in started]
        out: list[StreamEvent] = []
        if shapes != [_shape(part) for part in finals]:  # shapes disagree: end what started, add the rest
            out.extend(PartEnd(index=index) for index in started)
            started = []
        for position, part in enumerate(finals):
            if position < len(started):
                out.append(PartEnd(index=started[position], part=part))
            else:
                index, start = self._new_part(part)
                out.extend((start, PartEnd(index=index, part=part)))
        return out


_NOT_DONE = object()
"""No ``output_item.done`` item at an output index (:meth:`StreamDecoder._final`)."""


def _shape(part: Part) -> tuple[type, str | None]:
    """What a part's final must keep: its type and, for a tool call, its kind."""
    return type(part), part.kind if type(part) is ToolCall else None


def _decode_parts(item: Any, path: str) -> list[Part]:
    """The IR parts of one output item (as ``decode_response`` makes them)."""
    kind, got = decode_item(item, path, output=True)
    if kind == "assistant":
        return list(got)  # type: ignore[arg-type]
    return [got]  # type: ignore[list-item]


def _decode_response(response: dict[str, Any]) -> Response:
    """``decode_response`` with error paths under the event's ``response`` field."""
    try:
        return decode_response(response, Notes("drop"))
    except PayloadError as exc:
        raise PayloadError(exc.message, path=(exc.path or "$").replace("$", "$.response", 1)) from None


def _error(code: str, message: str) -> StreamErrorEvent:
    return StreamErrorEvent(error=ErrorInfo(message=message, code=code, origin=FORMAT))


_HOT: dict[str, type] = {
    "response.output_text.delta": TextDelta,
    "response.refusal.delta": TextDelta,
    "response.function_call_arguments.delta": ToolCallDelta,
    "response.custom_tool_call_input.delta": ToolCallDelta,
}
"""Wire delta types decoded by the hot path of :meth:`StreamDecoder.feed`, and their IR event."""

_Handler = Callable[[StreamDecoder, dict[str, Any]], list[StreamEvent]]
_HANDLERS: dict[str, _Handler] = {
    **dict.fromkeys(LIFECYCLE_EVENTS, StreamDecoder._lifecycle),
    "response.completed": StreamDecoder._terminal,
    "response.incomplete": StreamDecoder._terminal,
    "response.failed": StreamDecoder._terminal,
    "error": StreamDecoder._error,
    "response.output_item.added": StreamDecoder._item_added,
    "response.output_item.done": StreamDecoder._item_done,
    "response.content_part.added": StreamDecoder._content_added,
    "response.output_text.delta": StreamDecoder._text_delta,
    "response.refusal.delta": StreamDecoder._text_delta,
    "response.function_call_arguments.delta": StreamDecoder._args_delta,
    "response.custom_tool_call_input.delta": StreamDecoder._args_delta,
    "response.reasoning_summary_part.added": StreamDecoder._summary_added,
    "response.reasoning_summary_text.delta": StreamDecoder._summary_delta,
    "response.reasoning_text.delta": StreamDecoder._reasoning_text_delta,
}
