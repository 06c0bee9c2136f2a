"""Chat Completions stream chunks -> canonical stream events (wire -> IR).

Decisions, all chosen to agree with :func:`~toolwire.formats.openai_chat.decode_response`:

* Choice 0 is the assistant turn; other choices (``n > 1``) are noted once each as dropped.
* IR part indexes follow first appearance in the stream. Text, refusal and each reasoning
  field (``reasoning_content``, ``reasoning``) are *flowing* parts: the open one ends when
  another kind of part begins (a later resumption opens a new part). Tool calls stay open until
  choice 0 finishes, because parallel calls may interleave by ``index``.
* A text or refusal part opens on its first non-empty fragment (the role chunk's ``""``
  opens nothing). A tool call opens once its name is known; argument text that came earlier
  is sent right after its :class:`PartStart`. ``arguments: null`` counts as ``""``.
* A repeated ``id``/``name`` in a later fragment (some providers repeat them) is ignored; a
  *different* id at the same ``index`` starts a new call; a fragment without ``index``
  belongs to the last call (or starts one when it brings a new id).
* The response ends at ``[DONE]``. A stream whose choice 0 got a ``finish_reason`` but no
  ``[DONE]`` is complete too (:meth:`StreamDecoder.close` ends it normally): several
  recordings are cut that way. A stream that ended with neither is ``incomplete_stream``.
* Leading chunks without choices, usage or id (Azure's prompt filter results) are kept for
  :attr:`ResponseStart.extra`; later chunk fields the first chunk lacked (``moderation``) and
  unknown fields of choice 0's finishing choice (``native_finish_reason``) go to
  :attr:`ResponseEnd.extra`, the latter with the ``~lifted`` hint the response codec uses.
  Per-chunk data without an IR event (``logprobs``, per-chunk ``content_filter_results``,
  unknown delta fields) is noted once per field as dropped.
"""

from __future__ import annotations

from typing import Any

from toolwire._json import dumps_leaf
from toolwire.errors import ToolwireError
from toolwire.formats._stream import (
    DONE,
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
from toolwire.formats._wire import (
    as_dict,
    child,
    fail,
    json_type,
    opt_dict,
    opt_int,
    opt_list,
    opt_str,
    req_str,
)
from toolwire.formats.openai_chat._content import thinking_text
from toolwire.formats.openai_chat._stream_chunks import (
    ARG_KEYS,
    CALL_KINDS,
    CHOICE_KNOWN,
    CHUNK_TOP_KNOWN,
    DELTA_KNOWN,
    PER_CHUNK,
    TEXT_FIELDS,
    THINKING,
    StreamedCall,
    delta_event,
    hot_choice,
    non_empty,
    skeleton,
    wire_index,
)
from toolwire.formats.openai_chat.dialects import get_dialect
from toolwire.formats.openai_chat.errors import decode_error
from toolwire.formats.openai_chat.response import FINISH_REASONS, decode_usage
from toolwire.ir.base import Extra
from toolwire.ir.content import ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, Usage
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
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
    """Decode Chat Completions stream events (chunk dicts or ``"[DONE]"``) into IR stream events.

    Args:
        notes: collects what the stream carried that IR events cannot (other choices,
            logprobs...). Defaults to a fresh ``Notes()``.
        dialect: the provider streaming (see ``dialects``): its reasoning parts name it
            (origin ``openai-chat``, ``~dialect``), so that they go back only to it.

    Example:
        >>> dec = StreamDecoder()
        >>> events = [e for chunk in chunks for e in dec.feed(chunk)] + dec.close()  # doctest: +SKIP
    """

    def __init__(self, notes: Notes | None = None, *, dialect: str | None = None) -> None:
        self._dialect = None if dialect is None else get_dialect(dialect).name
        self.notes = notes if notes is not None else Notes()
        self._seen = 0
        self._out: list[StreamEvent] = []
        self._started = False
        self._ended = False
        self._start_keys: frozenset[str] = frozenset()
        self._pre_extra: Extra = {}
        self._end_extra: Extra = {}
        self._finished = False
        self._finish: str | None = None
        self._usage: Usage | None = None
        self._next_index = 0
        self._flow: tuple[str, int] | None = None
        self._flow_lent: Lent | None = None  # the encoder's part the flow's text is written to (``borrow``)
        self.lend: Lend | None = None
        """The target encoder's ``lend``, set by a translator whose hot-path sink is that
        encoder's ``frame_delta`` (see ``Lend``)."""
        self._calls: dict[int, StreamedCall] = {}
        self._open_calls: list[StreamedCall] = []
        self._last_wire: int | None = None
        self._legacy: StreamedCall | None = None
        self._noted: set[str] = set()
        self._hot = False  # started, not finished: mid-stream chunks may take the hot path

    # ------------------------------------------------------------ entry points

    def feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """Decode one wire event: a parsed chunk, an ``{"error": ...}`` object or ``"[DONE]"``."""
        lane = self.hot_frame(event, None)
        return hot_events(lane) if type(lane) is tuple else self._feed(event)

    def hot(self, event: ParsedEvent) -> tuple[type, int, str] | None:
        """:meth:`hot_frame` with no sink (see ``HotFrames``)."""
        lane = self.hot_frame(event, None)
        return lane if type(lane) is tuple else None

    def hot_frame(self, event: ParsedEvent, sink: DeltaSink | None) -> HotLane:
        """The hot path: a plain text or argument chunk in mid-stream, as its IR delta type, IR
        index and text ("": no IR event), with exactly the state change of the general path,
        :meth:`_feed`; ``None`` for any other event (no state change: decode it with ``feed``).
        """
        if not self._hot:
            return None
        # Subscripts, not ``.get`` (cheaper), for the keys a hot chunk has; a missing one declines,
        # and so does a chunk or choice that is not an object (its subscript raises TypeError).
        # The declared types cost under 1% interpreted; compiled, they make the subscripts a dict's
        # own lookup (a value of another type raises the TypeError that declines).
        body: dict[str, Any]
        choice: dict[str, Any]
        try:
            body = event
            choices = body["choices"]
            if type(choices) is not list or len(choices) != 1:
                return None
            choice = choices[0]
            index = choice["index"]
            delta = choice["delta"]
            if len(choice) == 4:  # the common choice: exactly index, delta and both null (no set built)
                if choice["finish_reason"] is not None or choice["logprobs"] is not None:
                    return None
            elif not hot_choice(choice):
                return None
        except (KeyError, TypeError):
            return None
        if type(index) is not int or index or type(delta) is not dict or len(delta) != 1:
            return None
        plain = len(body) == 5 and "id" in body and "object" in body and "created" in body
        if not (plain and "model" in body) and (  # the five fields of a plain chunk: no set built
            not self._start_keys.issuperset(body)  # body.keys() <= start keys (a set built)
            or ("usage" in body and body["usage"] is not None)
            or ("error" in body and body["error"] is not None)
        ):
            return None
        text = delta.get("content")
        if type(text) is str:  # text of the open content part, inline (the common chunk)
            flow = self._flow
            if not text or flow is None or flow[0] != "content":
                return None
            self._seen += 1
            if sink is not None:
                lent = self._flow_lent
                if lent is not None:  # the encoder's part, written here (see ``Lend``)
                    head = lent.head
                    if head:
                        lent.sent += len(text)
                        try:  # a lone surrogate: nothing written, nothing counted (the general path raises)
                            return head + dumps_leaf(text) + lent.tail
                        except UnicodeEncodeError:
                            lent.sent -= len(text)
                            return TextDelta, flow[1], text
                data = sink(TextDelta, flow[1], text)
                if data is not None:
                    if lent is not NO_LEND:
                        self._flow_lent = borrow(self.lend, TextDelta, flow[1])
                    return data
            return TextDelta, flow[1], text
        found = self._hot_call(delta)
        if found is None:
            return None
        self._seen += 1
        call, index, arguments = found
        if sink is not None and arguments:
            lent = call.lent
            if lent is not None:
                head = lent.head
                if head:
                    try:  # a lone surrogate: nothing written, nothing counted (the general path raises)
                        written = head + dumps_leaf(arguments) + lent.tail
                    except UnicodeEncodeError:
                        return ToolCallDelta, index, arguments
                    lent.sent += len(arguments)
                    if lent.held is not None:  # the text the encoder checks (see ``Lend``)
                        lent.hold(arguments)
                    return written
            data = sink(ToolCallDelta, index, arguments)
            if data is not None:
                if lent is not NO_LEND:
                    call.lent = borrow(self.lend, ToolCallDelta, index)
                return data
        return ToolCallDelta, index, arguments

    def _hot_call(self, delta: dict[str, Any]) -> tuple[StreamedCall, int, str] | None:
        """:meth:`hot` of a delta that is not text: one argument fragment of a started call."""
        calls = delta.get("tool_calls")
        if type(calls) is not list or len(calls) != 1:
            return None
        fragment = calls[0]
        if type(fragment) is not dict or len(fragment) != 2:
            return None
        inner = fragment.get("function")
        wire = fragment.get("index")
        call = self._calls.get(wire) if type(wire) is int else None
        if call is None or call.index is None or type(inner) is not dict or len(inner) != 1:
            return None
        arguments = inner.get("arguments")
        if type(arguments) is not str or call.kind != "function":
            return None
        self._last_wire = wire
        return call, call.index, arguments

    def _feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """The general path of :meth:`feed`: any event, checked field by field."""
        path = f"$[{self._seen}]"
        self._seen += 1
        if self._ended:
            self._note_once("after-end", path, "skipped", "event after the end of the stream ignored")
            return []
        self._out = []
        try:
            self._dispatch(event, path)
        except ToolwireError as exc:
            self._fail(ErrorInfo(message=str(exc), code="malformed_event", type="stream_error"))
        self._hot = self._started and not self._finished and not self._ended
        return self._out

    def close(self) -> list[StreamEvent]:
        """End of input: ends a stream whose choice 0 finished; otherwise ``incomplete_stream``."""
        if self._ended:
            return []
        self._out = []
        self._hot = False
        if self._finished:
            try:
                self._end()
            except ToolwireError as exc:
                self._fail(ErrorInfo(message=str(exc), code="malformed_event", type="stream_error"))
        else:
            message = f"stream ended after {self._seen} events without finish_reason or [DONE]"
            self._fail(ErrorInfo(message=message, code="incomplete_stream", type="stream_error"))
        return self._out

    # ------------------------------------------------------------ events

    def _dispatch(self, event: ParsedEvent, path: str) -> None:
        if event == DONE:
            self._end()
        elif type(event) is not dict:
            fail(path, f"expected a chunk object or '[DONE]', got {json_type(event)}")
        elif event.get("error") is not None:
            self._upstream_error(event, path)
        else:
            self._chunk(event, path)

    def _upstream_error(self, event: dict[str, Any], path: str) -> None:
        try:
            info = decode_error(event, None, self.notes)
        except ToolwireError as exc:
            fail(path, f"unreadable error event: {exc}")
        self._fail(info)

    def _chunk(self, chunk: dict[str, Any], path: str) -> None:
        choices = opt_list(chunk, "choices", path)
        if choices is None:
            fail(child(path, "choices"), "missing required field 'choices'")
        usage = chunk.get("usage")
        if not self._started:
            if not choices and usage is None and not chunk.get("id"):
                self._pre_extra.update(non_empty(chunk, CHUNK_TOP_KNOWN | PER_CHUNK))
                return
            self._start(chunk, path)
        else:
            self._end_extra.update(non_empty(chunk, self._start_keys))
        for position, choice in enumerate(choices):
            self._choice(
                as_dict(choice, f"{path}.choices[{position}]"), position, f"{path}.choices[{position}]"
            )
        if usage is not None:
            self._usage = decode_usage(usage, child(path, "usage"))
            self._out.append(UsageUpdate(usage=self._usage))

    def _start(self, chunk: dict[str, Any], path: str) -> None:
        extra = {**self._pre_extra, **non_empty(chunk, CHUNK_TOP_KNOWN | PER_CHUNK)}
        self._start_keys = CHUNK_TOP_KNOWN | PER_CHUNK | frozenset(extra)
        self._started = True
        self._out.append(
            ResponseStart(
                id=opt_str(chunk, "id", path) or None,
                origin="openai-chat",
                model=opt_str(chunk, "model", path) or None,
                created=opt_int(chunk, "created", path) or None,
                extra=extra,
            )
        )

    def _choice(self, choice: dict[str, Any], position: int, path: str) -> None:
        index = opt_int(choice, "index", path)
        if (position if index is None else index) != 0:
            self._note_once(f"choice{index}", path, "dropped", f"choice {index}: only choice 0 is decoded")
            return
        delta = opt_dict(choice, "delta", path)
        if delta is not None and not self._finished:
            self._delta(delta, child(path, "delta"))
        finish = opt_str(choice, "finish_reason", path)
        rest = non_empty(choice, CHOICE_KNOWN)
        if finish is not None and not self._finished:
            self._finish_choice(finish, rest)
        else:
            for key in rest:
                self._note_once(key, child(path, key), "dropped", f"per-chunk field '{key}' is not carried")

    def _finish_choice(self, finish: str, rest: Extra) -> None:
        self._finished = True
        self._finish = finish
        if rest:
            self._end_extra.update(rest)
            self._end_extra["~lifted"] = dict.fromkeys(rest, "choice")
        self._close_parts()

    def _end(self) -> None:
        if not self._started:
            self._out.append(ResponseStart(origin="openai-chat", extra=self._pre_extra))
            self._started = True
        self._close_parts()
        self._ended = True
        finish = self._finish
        self._out.append(
            ResponseEnd(
                stop_reason=None if finish is None else FINISH_REASONS.get(finish, "other"),
                raw_stop_reason=finish,
                usage=self._usage,
                extra=self._end_extra,
            )
        )

    def _fail(self, info: ErrorInfo) -> None:
        self._ended = True
        self._out.append(StreamErrorEvent(error=info))

    # ------------------------------------------------------------ deltas

    def _delta(self, delta: dict[str, Any], path: str) -> None:
        opt_str(delta, "role", path)
        for kind in TEXT_FIELDS:
            value = delta.get(kind)
            if value is None:  # absent or null: no text (what opt_str gives)
                continue
            if kind == "content" and type(value) is list:
                self._chunks(value, child(path, "content"))
                continue
            text = opt_str(delta, kind, path)
            if text:
                self._flowing(kind, text)
        calls = opt_list(delta, "tool_calls", path)
        for position, fragment in enumerate(calls or ()):
            frag_path = f"{path}.tool_calls[{position}]"
            self._tool_fragment(as_dict(fragment, frag_path), frag_path)
        legacy = opt_dict(delta, "function_call", path)
        if legacy is not None:
            self._legacy_fragment(legacy, child(path, "function_call"))
        for key in non_empty(delta, DELTA_KNOWN):
            self._note_once(key, child(path, key), "dropped", f"delta field '{key}' is not carried")

    def _chunks(self, chunks: list[Any], path: str) -> None:
        """Mistral's content chunks in a delta: ``text``, and ``thinking`` (reasoning text chunks)."""
        for position, chunk in enumerate(chunks):
            where = f"{path}[{position}]"
            chunk = as_dict(chunk, where)
            kind = chunk.get("type")
            if kind == "text":
                text = req_str(chunk, "text", where)
                if text:
                    self._flowing("content", text)
            elif kind == THINKING:
                text = thinking_text(chunk, where)
                if text:
                    self._flowing(THINKING, text)
            else:
                self._note_once(f"chunk-{kind}", child(where, "type"), "dropped", f"content chunk {kind!r}")

    def _new_index(self) -> int:
        index = self._next_index
        self._next_index += 1
        return index

    def _flowing(self, kind: str, text: str) -> None:
        flow = self._flow
        if flow is None or flow[0] != kind:
            self._end_flow()
            flow = self._flow = (kind, self._new_index())
            self._flow_lent = None
            self.notes.origins[("parts", flow[1])] = (self._seen - 1,)  # the chunk that started it
            self._out.append(PartStart(index=flow[1], part=skeleton(kind, self._dialect)))
        self._out.append(delta_event(kind, flow[1], text))

    def _end_flow(self) -> None:
        if self._flow is not None:
            self._out.append(PartEnd(index=self._flow[1]))
            self._flow = None
            self._flow_lent = None

    def _close_parts(self) -> None:
        self._end_flow()
        for call in self._open_calls:
            if call.index is None:
                fail("$", f"tool call {call.id or ''!r} ended without a name")
            self._out.append(PartEnd(index=call.index))
        self._open_calls = []
        self._calls = {}

    # ------------------------------------------------------------ tool calls

    def _tool_fragment(self, fragment: dict[str, Any], path: str) -> None:
        call_id = opt_str(fragment, "id", path)
        wire = wire_index(self._calls, self._last_wire, fragment, call_id, path)
        self._last_wire = wire
        type_ = opt_str(fragment, "type", path)
        if type_ is None:
            type_ = "custom" if "custom" in fragment else "function"
        kind = CALL_KINDS.get(type_)
        if kind is None:
            fail(child(path, "type"), f"unknown tool call type {type_!r}; expected 'function' or 'custom'")
        call = self._calls.get(wire)
        if call is None or (call_id is not None and call.id is not None and call_id != call.id):
            call = self._calls[wire] = StreamedCall(kind=kind)
            self._open_calls.append(call)
        inner = opt_dict(fragment, type_, path) or {}
        self._update(call, call_id, inner, ARG_KEYS[type_], child(path, type_))

    def _legacy_fragment(self, fragment: dict[str, Any], path: str) -> None:
        call = self._legacy
        if call is None:
            call = self._legacy = StreamedCall(kind="function", legacy=True)
            self._open_calls.append(call)
        self._update(call, None, fragment, "arguments", path)

    def _update(
        self, call: StreamedCall, call_id: str | None, inner: dict[str, Any], arg_key: str, path: str
    ) -> None:
        name = opt_str(inner, "name", path)
        arguments = opt_str(inner, arg_key, path) or ""
        if call.index is None:
            call.id = call.id or call_id
            call.name = call.name or name
            if arguments:
                call.pending.append(arguments)
            if call.name:
                self._start_call(call)
            return
        if call_id is not None and call.id is None:
            self._note_once("late-id", path, "dropped", f"call id {call_id!r} came after the call started")
        if name and name != call.name:
            self._note_once("renamed", path, "dropped", f"later name {name!r} of call {call.name!r} ignored")
        if arguments:
            self._out.append(ToolCallDelta(index=call.index, arguments=arguments))

    def _start_call(self, call: StreamedCall) -> None:
        self._end_flow()
        call.index = index = self._new_index()
        extra: Extra = {"~legacy": True} if call.legacy else {}
        part = ToolCall(name=call.name or "", id=call.id, kind=call.kind, extra=extra)
        self.notes.origins[("parts", index)] = (self._seen - 1,)  # the chunk that started it
        self._out.append(PartStart(index=index, part=part))
        if call.pending:
            self._out.append(ToolCallDelta(index=index, arguments="".join(call.pending)))
            call.pending = []

    # ------------------------------------------------------------ notes

    def _note_once(self, key: str, path: str, kind: Any, message: str) -> None:
        if key not in self._noted:
            self._noted.add(key)
            self.notes.add(path, kind, message)
