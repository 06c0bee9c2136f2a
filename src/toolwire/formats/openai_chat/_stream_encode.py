"""Canonical stream events -> Chat Completions stream chunks (IR -> wire).

The grammar produced: chunks of ``chat.completion.chunk`` for choice 0; ``role`` in the first
delta only; each tool call gets a wire ``index`` (0, 1, ... in order of its start) and its
``id``/``type``/``name`` only in its first fragment, later fragments carry ``index`` and
argument text (interleaved calls stay interleaved: Chat allows it); one chunk with the
``finish_reason``; a usage chunk (``choices: []``) when usage is known and ``include_usage``;
then ``"[DONE]"``. A :class:`~toolwire.ir.StreamErrorEvent` becomes ``{"error": {...}}`` and
ends the stream without ``[DONE]``.

Mapping follows :func:`~toolwire.formats.openai_chat.encode_response`: stop reasons and
usage by the same tables, ``""`` arguments of a foreign call sent as ``"{}"``, built-in calls
dropped, reasoning dropped unless it came from a Chat reasoning field (or ``reasoning_field``
is set), opaque reasoning state (signatures, encrypted content) never sent. Memory per stream
is constant: only counters per open part are kept.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from toolwire._json import dumps_leaf
from toolwire.formats._stream import (
    DONE,
    HOLE,
    NO_HALVES,
    DeltaFraming,
    WireEvent,
    delta_text,
    frame_halves,
)
from toolwire.formats._wire import emit_extra
from toolwire.formats.openai_chat._content import thinking_chunk
from toolwire.formats.openai_chat._encode_messages import _note_call_state
from toolwire.formats.openai_chat._extra import emit_wrapped
from toolwire.formats.openai_chat._ids import synthesized_call_id
from toolwire.formats.openai_chat._stream_out import (
    Out,
    choice_halves,
    final_text,
    hot_choices,
    initial_text,
)
from toolwire.formats.openai_chat.errors import encode_error
from toolwire.formats.openai_chat.response import encode_finish_reason, encode_usage, foreign_usage
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

_T = TypeVar("_T")
_OBJECT = "chat.completion.chunk"
_ONCE = frozenset({"prompt_filter_results"})  # same-format extras sent on the first chunk only
_CHUNK = "~chunk"  # the reasoning "field" of Mistral thinking chunks (sent in ``content``)


class StreamEncoder(DeltaFraming):
    """Encode canonical stream events (from any format) as Chat Completions stream events.

    Args:
        notes: collects what the Chat stream cannot carry. Defaults to a fresh ``Notes()``.
        include_usage: send a final ``choices: []`` usage chunk when usage is known (what
            ``stream_options.include_usage`` asks for).
        reasoning_field: when set (``"reasoning_content"`` or ``"reasoning"``), reasoning text
            and summaries of any origin are streamed in that delta field, as DeepSeek-style
            servers do; by default only reasoning that came from such a field is.
    """

    def __init__(
        self, notes: Notes | None = None, *, include_usage: bool = True, reasoning_field: str | None = None
    ) -> None:
        self.notes = notes if notes is not None else Notes()
        self.include_usage = include_usage
        self.reasoning_field = reasoning_field
        self._head: dict[str, Any] | None = None
        self._around: tuple[bytes, bytes] | None = None  # a chunk's SSE bytes around its choices
        self._first_extra: dict[str, Any] = {}
        self._same = False
        self._role_sent = False
        self._hot = False  # the first chunk was sent and the stream has not ended: see _delta
        self._parts: dict[int, Out] = {}
        self._lent: list[Out] = []  # parts lent to a decoder's hot path (``lend``)
        self._calls = 0
        self._usage: Usage | None = None
        self._done = False
        self._noted: set[str] = set()

    # ------------------------------------------------------------ entry points

    def feed(self, event: StreamEvent) -> list[WireEvent]:
        """Encode one canonical event as zero or more Chat stream events."""
        if self._hot and type(event) in _DELTAS:
            out = self._parts.get(event.index)  # type: ignore[union-attr]
            if out is not None:
                return self._delta(out, event)  # type: ignore[arg-type]
        return self._feed(event)

    def frame_delta(self, kind: type, index: int, text: str) -> bytes | None:
        """:meth:`frame` of a delta given as its parts (see ``FramingEncoder``)."""
        if self._hot and kind in _DELTAS:
            out = self._parts.get(index)
            if out is not None:
                frame = out.frame
                if frame is None:
                    frame = out.frame = self._halves(out)
                head, tail = frame
                if head:
                    out.sent += len(text)
                    try:  # a lone surrogate: nothing written, nothing counted (the general path raises)
                        return head + dumps_leaf(text) + tail
                    except UnicodeEncodeError:
                        out.sent -= len(text)
                        return None
        return None

    def lend(self, kind: type, index: int) -> Out | None:
        """The part ``index`` for a decoder's hot path to write its deltas itself (see ``Lend``):
        what :meth:`frame_delta` writes from fixed bytes, until this encoder's next other event."""
        out = self._parts.get(index) if self._hot and kind in _DELTAS else None
        if out is None:
            return None
        frame = out.frame
        if frame is None:
            frame = out.frame = self._halves(out)
        head, tail = frame
        if head and not out.head:
            out.head, out.tail = head, tail
            self._lent.append(out)
        return out if head else None

    def _unlend(self) -> None:
        """Take back the parts :meth:`lend` lent (before any event that may change them)."""
        for out in self._lent:
            out.head = b""
        self._lent = []

    def _feed(self, event: StreamEvent) -> list[WireEvent]:
        """The general path of :meth:`feed` (which gives the same for deltas, faster)."""
        if self._lent:
            self._unlend()
        if self._done:
            self._note_once("after-end", "$", "skipped", f"{type(event).__name__} after the end ignored")
            return []
        if self._head is None and not isinstance(event, (ResponseStart, StreamErrorEvent)):
            self._on_start(ResponseStart())
        return _HANDLERS[type(event)](self, event)

    def close(self) -> list[WireEvent]:
        """End of input: a stream that never ended gets an ``incomplete_stream`` error event."""
        if self._lent:
            self._unlend()
        if self._done or self._head is None:
            return []
        message = "the source stream ended before it finished"
        info = ErrorInfo(message=message, type="server_error", code="incomplete_stream")
        return self._on_error(StreamErrorEvent(error=info))

    # ------------------------------------------------------------ chunks

    def _chunk(self, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        if not self._role_sent:
            self._role_sent = self._hot = True
            delta = {"role": "assistant", **delta}
            delta.setdefault("content", None)
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
        return self._envelope([choice])

    def _envelope(self, choices: list[dict[str, Any]]) -> dict[str, Any]:
        assert self._head is not None
        chunk = {**self._head, "choices": choices}
        if self._first_extra:
            chunk.update(self._first_extra)
            self._first_extra = {}
        return chunk

    # ------------------------------------------------------------ response

    def _on_start(self, event: ResponseStart) -> list[WireEvent]:
        self._same = event.origin == "openai-chat"
        for out in self._parts.values():
            out.frame = None  # a new head
        self._around = None
        self._head = {
            "id": event.id or self._synthesized("id", f"chatcmpl-{uuid.uuid4().hex[:24]}"),
            "object": _OBJECT,
            "created": event.created if event.created is not None else self._synthesized("created", 0),
            "model": event.model if event.model is not None else self._synthesized("model", ""),
        }
        if self._same:
            for key, value in event.extra.items():
                if key[:1] != "~":
                    (self._first_extra if key in _ONCE else self._head)[key] = value
        else:
            emit_extra({}, event.extra, False, self.notes, "$")
        if event.usage is not None:
            self._usage = event.usage
        return []

    def _synthesized(self, what: str, value: _T) -> _T:
        """A stand-in for a required chunk field the source lacked (harmless: noted, never raises)."""
        self.notes.info("$", "synthesized", f"response has no {what}; using {value!r}", target=f"$.{what}")
        return value

    def _on_usage(self, event: UsageUpdate) -> list[WireEvent]:
        self._usage = event.usage
        return []

    def _on_end(self, event: ResponseEnd) -> list[WireEvent]:
        out: list[WireEvent] = []
        for index in sorted(self._parts):
            out.extend(self._on_part_end(PartEnd(index=index)))
        if not self._role_sent:
            out.append(self._chunk({"content": ""}))
        if self._same:  # _finish_reason, with no Response to build
            finish = event.raw_stop_reason
        else:
            finish = encode_finish_reason(
                event.stop_reason, event.raw_stop_reason, self._calls > 0, self.notes
            )
        if event.status not in (None, "completed"):
            self.notes.add("$.status", "dropped", f"response status {event.status!r}")
        final = self._chunk({}, finish)
        top = self._end_extra(event, final["choices"][0])
        if finish is not None:
            out.append(final)
        usage = event.usage or self._usage
        if usage is not None and self.include_usage:
            tail = self._envelope([])
            tail["usage"] = self._usage_field(usage)
            out.append({**tail, **top})
        elif top:
            out.append({**self._envelope([]), **top})
        self._done = True
        self._hot = False
        out.append(DONE)
        return out

    def _usage_field(self, usage: Usage) -> dict[str, Any]:
        """The ``usage`` of the usage chunk: ``foreign_usage`` when ``encode_usage`` would note
        nothing (another format's usage with both counts and no extra fields), which writes the
        same without its checks."""
        if self._same or usage.input_tokens is None or usage.output_tokens is None or usage.extra:
            return encode_usage(usage, self.notes, same=self._same)
        return foreign_usage(usage)

    def _end_extra(self, event: ResponseEnd, choice: dict[str, Any]) -> dict[str, Any]:
        """Same-format end extras: lifted choice fields into ``choice``, the rest returned."""
        if not self._same:
            emit_extra({}, event.extra, False, self.notes, "$")
            return {}
        lifted: dict[str, str] = event.extra.get("~lifted") or {}
        top: dict[str, Any] = {}
        for key, value in event.extra.items():
            if key[:1] != "~":
                (choice if lifted.get(key) == "choice" else top)[key] = value
        return top

    def _on_error(self, event: StreamErrorEvent) -> list[WireEvent]:
        self._done = True
        self._hot = False
        _, body = encode_error(event.error, self.notes)
        if not isinstance(body.get("error"), dict):
            err = event.error
            body = {"error": {"message": err.message, "type": err.type, "code": err.code, "param": err.param}}
        return [body]

    # ------------------------------------------------------------ parts

    def _on_part_start(self, event: PartStart) -> list[WireEvent]:
        part = event.part
        out = self._open(part, f"$.parts[{event.index}]")
        self._parts[event.index] = out
        if out.kind in ("call", "legacy"):
            assert isinstance(part, ToolCall)
            return [self._call_header(part, out, f"$.parts[{event.index}]")]
        initial = initial_text(part)
        return self._text(out, initial) if initial else []

    def _open(self, part: Part, path: str) -> Out:
        if isinstance(part, TextPart):
            if not self._same:
                if part.thought_signature is not None:
                    self.notes.add(path, "dropped", "Gemini thought signature of a text part")
                emit_extra({}, part.extra, False, self.notes, path)
            return Out("content")
        if isinstance(part, RefusalPart):
            return Out("refusal")
        if isinstance(part, ReasoningPart):
            return self._open_reasoning(part, path)
        if isinstance(part, ToolCall):
            return self._open_call(part, path)
        self.notes.add(path, "dropped", f"{type(part).__name__} cannot appear in a Chat assistant message")
        return Out("drop")

    def _open_reasoning(self, part: ReasoningPart, path: str) -> Out:
        if self._same and part.extra.get("~chunk") is not None:  # Mistral thinking chunks
            return Out("reasoning", field=_CHUNK)
        field = part.extra.get("~field") if self._same else None
        field = field or self.reasoning_field
        if not self._same and (part.signature or part.redacted or part.encrypted):
            self.notes.add(path, "dropped", f"opaque reasoning state of origin {part.origin!r}")
        if field is None:
            self.notes.add(path, "dropped", "reasoning: Chat messages have no reasoning field")
            return Out("drop")
        return Out("reasoning", field=field)

    def _open_call(self, call: ToolCall, path: str) -> Out:
        if call.kind == "builtin":
            self.notes.add(path, "dropped", f"built-in tool call {call.name!r} has no Chat equivalent")
            return Out("drop")
        if self._same and call.id is None and call.extra.get("~legacy"):
            return Out("legacy")
        out = Out("call", wire=self._calls, custom=call.kind == "custom")
        self._calls += 1
        return out

    def _call_header(self, call: ToolCall, out: Out, path: str) -> dict[str, Any]:
        out.sent = len(call.arguments)
        if out.kind == "legacy":
            return self._chunk({"function_call": {"name": call.name, "arguments": call.arguments}})
        call_id = call.id
        if call_id is None or (not call_id and not self._same):  # Chat clients need a non-empty id
            call_id = synthesized_call_id(0, out.wire)
            what = "no id" if call.id is None else "an empty id"
            self.notes.info(path, "synthesized", f"tool call {call.name!r} had {what}; using {call_id!r}")
        key, arg_key = ("custom", "input") if out.custom else ("function", "arguments")
        inner = {"name": call.name, arg_key: call.arguments}
        header: dict[str, Any] = {"index": out.wire, "id": call_id, "type": key, key: inner}
        if call.extra:
            emit_wrapped(header, inner, call.extra, self._same, self.notes, path)
        if not self._same:
            _note_call_state(call, self.notes, path)
        return self._chunk({"tool_calls": [header]})

    def _delta(self, out: Out, event: TextDelta | ToolCallDelta) -> list[WireEvent]:
        """The hot path: a text or argument delta of an open part, after the first chunk.

        Gives what :meth:`_on_text` / :meth:`_on_tool_delta` give, with the chunk built inline.
        """
        text = delta_text(event)
        if not text:
            return self._feed(event)
        chunk = self._hot_chunk(out, text)
        if chunk is None:
            return self._text(out, text)  # reasoning, legacy and custom calls: the general path
        out.sent += len(text)
        return [chunk]

    def _hot_chunk(self, out: Out, text: str) -> dict[str, Any] | None:
        """The chunk of a hot-path delta of ``out`` (None: its kind takes the general path)."""
        choices = hot_choices(out, text)
        if choices is None:
            return None
        chunk = self._head.copy()  # type: ignore[union-attr]
        chunk["choices"] = choices
        return chunk

    def _halves(self, out: Out) -> tuple[bytes, bytes]:
        """``out``'s delta chunk (:meth:`_hot_chunk`) as SSE bytes cut at its text's JSON
        (``frame_halves``; ``NO_HALVES``: :meth:`frame` declines): the stream's chunk around its
        ``choices`` (``frame_halves``, once per head) around the part's ``choices``
        (``value_halves``, the same bytes in every stream: once per process)."""
        halves = choice_halves(out)
        around = self._around
        if around is None:
            assert self._head is not None  # a delta after the first chunk (``_hot``)
            around = self._around = frame_halves("openai-chat", {**self._head, "choices": HOLE})
        if not halves[0] or not around[0]:
            return NO_HALVES
        return around[0] + halves[0], halves[1] + around[1]

    def _text(self, out: Out, text: str) -> list[WireEvent]:
        """A delta carrying ``text`` for the part ``out`` ([] when the part is dropped)."""
        out.sent += len(text)
        kind = out.kind
        if kind in ("content", "refusal"):
            return [self._chunk({kind: text})]
        if kind == "reasoning":
            assert out.field is not None
            if out.field == _CHUNK:
                return [self._chunk({"content": [thinking_chunk(text)]})]
            return [self._chunk({out.field: text})]
        if kind == "legacy":
            return [self._chunk({"function_call": {"arguments": text}})]
        if kind == "call":
            key, arg_key = ("custom", "input") if out.custom else ("function", "arguments")
            return [self._chunk({"tool_calls": [{"index": out.wire, key: {arg_key: text}}]})]
        return []

    def _part(self, index: int, default: str) -> Out:
        out = self._parts.get(index)
        if out is None:  # a delta without a start: be lenient, like the accumulator
            out = self._parts[index] = Out(default)
        return out

    def _on_text(self, event: TextDelta) -> list[WireEvent]:
        if event.signature is not None:
            where = f"$.parts[{event.index}]"
            self._note_once(f"tsig{event.index}", where, "dropped", "Gemini thought signature of a text part")
        return self._text(self._part(event.index, "content"), event.text) if event.text else []

    def _on_tool_delta(self, event: ToolCallDelta) -> list[WireEvent]:
        out = self._parts.get(event.index)
        if out is None:
            self._note_once("orphan-args", "$", "dropped", "argument text for a tool call that never started")
            return []
        return self._text(out, event.arguments) if event.arguments else []

    def _on_reasoning(self, event: ReasoningDelta) -> list[WireEvent]:
        out = self._part(event.index, "drop")
        if event.signature and not self._same:
            self._note_once(f"sig{event.index}", f"$.parts[{event.index}]", "dropped", "reasoning signature")
        text = event.text
        if event.summary is not None and not self._same:
            at = event.summary_index if event.summary_index is not None else out.summary or 0
            text = (text or "") + ("\n\n" if out.summary is not None and at != out.summary else "")
            text += event.summary
            out.summary = at
        return self._text(out, text) if text else []

    def _on_part_end(self, event: PartEnd) -> list[WireEvent]:
        out = self._parts.pop(event.index, None)
        if out is None:
            return []
        final = event.part
        rest = ""
        if final is not None and out.kind != "reasoning":  # reasoning deltas need not add up to text
            rest = final_text(final)[out.sent :]
        if rest:
            return self._text(out, rest)
        if out.kind == "call" and out.sent == 0 and not out.custom and not self._same:
            return self._text(out, "{}")  # "" means {} in Chat; send what encode_response sends
        return []

    # ------------------------------------------------------------ notes

    def _note_once(self, key: str, path: str, kind: Any, message: str) -> None:
        if key not in self._noted:
            self._noted.add(key)
            self.notes.add(path, kind, message)


_DELTAS = frozenset({TextDelta, ToolCallDelta})
"""The IR events of the hot path (:meth:`StreamEncoder._delta`)."""

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
