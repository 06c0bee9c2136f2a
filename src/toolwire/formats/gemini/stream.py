"""Gemini ``streamGenerateContent`` chunks <-> canonical stream events.

A Gemini stream is a series of ``GenerateContentResponse`` chunks (SSE data with
``alt=sse``, else the elements of one JSON array), with no terminator. Consecutive text
chunks extend one IR text part; consecutive thought chunks one reasoning part; every other
part (function call, media, code execution) is a part of its own. A function call streamed
with ``partialArgs`` / ``willContinue`` becomes argument text deltas as its values arrive
(see ``_stream_args``); a call cut off before it closes is reported, never completed.

A chunk's ``finishReason`` does not end the stream (some endpoints put ``STOP`` on every
chunk), so :class:`StreamDecoder` emits :class:`~toolwire.ir.ResponseEnd` on ``close()``:
the stream is complete when a chunk carried a ``finishReason`` (or the prompt was blocked,
``promptFeedback.blockReason``); otherwise ``close()`` reports ``incomplete_stream``. An
``{"error": {...}}`` chunk becomes a :class:`~toolwire.ir.StreamErrorEvent`.

The accumulated response equals :func:`~toolwire.formats.gemini.decode_response` of the
chunks merged into one body (text runs joined, streamed calls assembled, ``usageMetadata``
and other fields last-wins). Empty text without a signature makes no part. Function
calls keep the ids the wire gives (``None`` when absent, as in the non-stream decoder).

Memory: text and thought runs are not held however long they get. Their ``PartEnd`` has
no part; the accumulator builds it from the start (origin, extra, a signature that came on
the first chunk) and the deltas: text, then a signature that came later (Gemini usually signs
a text run on its last chunk, with empty text) as ``TextDelta(signature=...)`` or
``ReasoningDelta(signature=...)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

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
from toolwire.formats._wire import as_dict, as_list, child, fail, opt_dict, opt_str, req_name
from toolwire.formats.gemini._decode_parts import decode_part
from toolwire.formats.gemini._keys import camel, rebase, split
from toolwire.formats.gemini._stream_args import ArgsWriter
from toolwire.formats.gemini._stream_calls import PlainCall, plain_calls
from toolwire.formats.gemini._stream_check import check_stream
from toolwire.formats.gemini._stream_encoder import StreamEncoder
from toolwire.formats.gemini._usage import decode_usage
from toolwire.formats.gemini.errors import decode_error
from toolwire.formats.gemini.response import FINISH_REASONS, _created
from toolwire.ir.content import Part, ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, StopReason, Usage
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

__all__ = ["StreamDecoder", "StreamEncoder", "check_stream"]

_TOP_KNOWN = frozenset({"candidates", "usageMetadata", "modelVersion", "responseId", "createTime"})
_CHUNK_KEYS = frozenset({"candidates", "promptFeedback", "usageMetadata"})
_CANDIDATE_KNOWN = frozenset({"content", "finishReason"})
_CANDIDATE = "$.candidates[0]"
_CONTENT = f"{_CANDIDATE}.content"
_PARTS = f"{_CONTENT}.parts"


@dataclass(slots=True)
class _Run:
    """An open text or thought part that later chunks may extend (its text is not held)."""

    index: int
    thought: bool
    extra: dict[str, Any]
    signature: str | None = None
    texted: bool = False  # some text went out as deltas
    lent: Lent | None = None  # the encoder's part its deltas are written to (``borrow``; None: not asked)

    def skeleton(self) -> Part:
        if self.thought:
            return ReasoningPart(origin="gemini", extra=self.extra)
        return TextPart(text="", thought_signature=self.signature, extra=self.extra)

    def final(self) -> Part | None:
        """The part for ``PartEnd``: ``None`` when the start and the deltas make it."""
        if self.thought and not self.texted:  # no text delta: the start says text=None
            return ReasoningPart(text="", signature=self.signature, origin="gemini", extra=self.extra)
        return None


@dataclass(slots=True)
class _Call:
    """A function call whose arguments arrive as ``partialArgs``."""

    index: int
    skeleton: ToolCall
    args: ArgsWriter = field(default_factory=ArgsWriter)
    text: list[str] = field(default_factory=list)  # the argument text sent so far

    def send(self, text: str, out: list[StreamEvent]) -> None:
        if text:
            self.text.append(text)
            out.append(ToolCallDelta(self.index, text))


_HOT_TOP = frozenset({"candidates", "modelVersion", "responseId"})
"""The top-level fields a chunk on the decoder's hot path may have (none null)."""


def _hot_top(event: Any) -> bool:
    """Whether a chunk (of other than one or three fields) has only those of ``_HOT_TOP``, none null."""
    return type(event) is dict and _HOT_TOP.issuperset(event) and None not in event.values()


def _malformed(count: int, exc: PayloadError) -> StreamErrorEvent:
    where = f"$[{count}]" + (exc.path or "$")[1:]
    return StreamErrorEvent(
        ErrorInfo(message=f"{where}: {exc.message}", code="malformed_event", origin="gemini")
    )


class StreamDecoder(HotFrames):
    """Decode Gemini stream chunks (parsed JSON) into canonical stream events.

    Args:
        notes: collects what could not be carried (extra candidates, opaque parts).
    """

    def __init__(self, notes: Notes | None = None) -> None:
        self._notes = notes if notes is not None else Notes()
        self._count = 0
        self._started = False
        self._done = False  # closed, or failed with an error event
        self._run: _Run | None = None
        self._hot: _Run | None = None  # the run the hot path extends (see ``_feed``)
        self._call: _Call | None = None
        self.lend: Lend | None = None
        """The target encoder's ``lend``, set by a translator whose hot-path sink is that
        encoder's ``frame_delta`` (see ``Lend``)."""
        self._next = 0
        self._has_calls = False
        self._finish: str | None = None
        self._blocked: str | None = None
        self._candidates = False
        self._more = False  # further candidates were seen (and dropped)
        self._usage_raw: Any = None
        self._usage: Usage | None = None
        self._top: dict[str, Any] = {}
        self._candidate: dict[str, Any] = {}

    def feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """Decode one chunk."""
        lane = self.hot_frame(event, None)
        return hot_events(lane) if type(lane) is tuple else self._feed(event)

    def hot(self, event: ParsedEvent) -> tuple[type, int, str] | None:
        """:meth:`hot_frame` with no sink (see ``HotFrames``)."""
        lane = self.hot_frame(event, None)
        return lane if type(lane) is tuple else None

    def hot_frame(self, event: ParsedEvent, sink: DeltaSink | None) -> HotLane:
        """The hot path: a chunk of one plain text (or thought) part that extends the open run,
        as its IR delta type, IR index and text (never ""), with exactly the state change of the
        general path, :meth:`_feed`; ``None`` for any other chunk (no state change).
        """
        run = self._hot
        if run is None:
            return None
        # Subscripts and unpacking, no type tests: a missing key declines (KeyError), and so does a
        # value of another JSON type (its subscript or unpacking raises TypeError or ValueError; only
        # an object takes a str subscript); the top level has "candidates" and at most the two
        # fields the start took, none null (``_hot_top``), the candidate only "content", the part
        # only "text" (and "thought": true). The declared types cost nothing interpreted;
        # compiled, they make the subscripts a dict's own lookup (a value of another type
        # raises the TypeError that declines).
        body: dict[str, Any]
        candidate: dict[str, Any]
        part: dict[str, Any]
        try:
            body = event
            size = len(body)
            if size == 3:
                if body["modelVersion"] is None or body["responseId"] is None:
                    return None
            elif size != 1 and not _hot_top(body):
                return None
            (candidate,) = body["candidates"]
            if len(candidate) != 1:
                return None
            (part,) = candidate["content"]["parts"]
            thought = run.thought
            if len(part) != (2 if thought else 1) or (thought and part["thought"] is not True):
                return None
            text = part["text"]
        except (KeyError, TypeError, ValueError):
            return None
        if type(text) is not str or not text:
            return None
        self._count += 1
        run.texted = True
        if sink is not None:
            lent = run.lent
            if lent is not None:  # the encoder's part, written here (see ``Lend``)
                head = lent.head
                if head:
                    lent.sent += len(text)
                    try:  # a lone surrogate: nothing written, nothing counted (the general path raises)
                        return head + dumps_leaf(text) + lent.tail
                    except UnicodeEncodeError:
                        lent.sent -= len(text)
                        return ReasoningDelta if thought else TextDelta, run.index, text
            kind = ReasoningDelta if thought else TextDelta
            data = sink(kind, run.index, text)
            if data is not None:
                if lent is not NO_LEND:
                    run.lent = borrow(self.lend, kind, run.index)
                return data
            return kind, run.index, text
        return ReasoningDelta if thought else TextDelta, run.index, text

    def _feed(self, event: ParsedEvent) -> list[StreamEvent]:
        """The general path of :meth:`feed`: any chunk, checked field by field."""
        out = self._general(event)
        run = self._run  # the run the hot path extends: a plain one, while no streamed call is open
        plain = run is not None and not self._done and self._call is None and not run.extra
        self._hot = run if plain else None
        return out

    def _general(self, event: ParsedEvent) -> list[StreamEvent]:
        count = self._count
        self._count += 1
        if self._done:
            return []
        if self._started and self._call is None and type(event) is dict:
            calls = plain_calls(event)
            if calls is not None:  # what _chunk decodes such a chunk to, directly
                return self._plain_calls(calls)
        out: list[StreamEvent] = []
        try:
            if type(event) is not dict:
                fail("$", f"expected a GenerateContentResponse object, got {event!r:.40}")
            if "error" in event and _CHUNK_KEYS.isdisjoint(event):
                self._done = True
                return [StreamErrorEvent(decode_error(event, None, self._notes))]
            self._chunk(event, out)
        except PayloadError as exc:
            self._done = True
            out.append(_malformed(count, exc))
        return out

    def close(self) -> list[StreamEvent]:
        """End of input: close the open part and end the response, or report truncation."""
        if self._done:
            return []
        self._done = True
        self._hot = None
        if self._call is not None:
            name = self._call.skeleton.name
            message = f"stream ended inside the streamed arguments of function call {name!r}"
            return [StreamErrorEvent(ErrorInfo(message=message, code="incomplete_stream", origin="gemini"))]
        if self._finish is None and self._blocked is None:
            message = "stream ended without a chunk carrying finishReason"
            return [StreamErrorEvent(ErrorInfo(message=message, code="incomplete_stream", origin="gemini"))]
        out: list[StreamEvent] = []
        self._end_run(out)
        out.append(self._response_end())
        return out

    # --- chunks -------------------------------------------------------------------------------

    def _chunk(self, body: dict[str, Any], out: list[StreamEvent]) -> None:
        if _CHUNK_KEYS.isdisjoint(body):
            fail("$", "not a GenerateContentResponse chunk (no candidates, promptFeedback or usageMetadata)")
        if not self._started:
            self._started = True
            out.append(self._start(body))
        self._top.update(split(body, _TOP_KNOWN))
        created = opt_str(body, "createTime", "$")
        if created is not None:
            self._top["~createTime"] = created
        candidates = body.get("candidates")
        if candidates:
            items = as_list(candidates, "$.candidates")
            if len(items) > 1 and not self._more:
                self._more = True
                self._notes.add("$.candidates[1]", "dropped", "streamed candidates after the first")
            self._candidates = True
            self._candidate_chunk(as_dict(items[0], _CANDIDATE), out)
        elif candidates is not None:
            as_list(candidates, "$.candidates")
        feedback = opt_dict(body, "promptFeedback", "$")
        if feedback is not None:
            self._blocked = opt_str(feedback, "blockReason", "$.promptFeedback") or self._blocked
        usage = body.get("usageMetadata")
        if usage is not None and usage != self._usage_raw:
            self._usage_raw = usage
            self._usage = decode_usage(usage)
            out.append(UsageUpdate(self._usage))

    def _start(self, body: dict[str, Any]) -> ResponseStart:
        return ResponseStart(
            id=opt_str(body, "responseId", "$"),
            origin="gemini",
            model=opt_str(body, "modelVersion", "$"),
            created=_created(opt_str(body, "createTime", "$")),
        )

    def _candidate_chunk(self, candidate: dict[str, Any], out: list[StreamEvent]) -> None:
        self._candidate.update(split(candidate, _CANDIDATE_KNOWN))
        content = candidate.get("content")
        if content is not None:
            content = as_dict(content, _CONTENT)
            parts = content.get("parts")
            if parts is not None:
                for index, raw in enumerate(as_list(parts, _PARTS)):
                    self._part(raw, f"{_PARTS}[{index}]", out)
        finish = opt_str(candidate, "finishReason", _CANDIDATE)
        if finish is not None:
            if self._call is not None:
                fail(child(_CANDIDATE, "finishReason"), "finishReason while a streamed function call is open")
            self._finish = finish

    # --- parts --------------------------------------------------------------------------------

    def _part(self, raw: Any, path: str, out: list[StreamEvent]) -> None:
        wire, _ = camel(as_dict(raw, path))
        call = wire.get("functionCall")
        if self._call is not None or (type(call) is dict and _streams(call)):
            self._streamed_call(wire, path, out)
            return
        try:
            part = decode_part(raw)
        except PayloadError as exc:
            raise rebase(exc, path) from None
        if part is None:
            self._notes.add(path, "dropped", "a part with no known data field")
        elif type(part) is TextPart and not part.extra:
            self._text(part.text, False, part.thought_signature, part.extra, out)
        elif type(part) is ReasoningPart and part.text is not None:
            self._text(part.text, True, part.signature, part.extra, out)
        else:
            self._whole(part, out)

    def _text(
        self, text: str, thought: bool, sig: str | None, extra: dict[str, Any], out: list[StreamEvent]
    ) -> None:
        run = self._run
        extends = run is not None and run.thought == thought and run.extra == extra
        if not (extends and (sig is None or run is None or run.signature is None)):
            self._end_run(out)
            if not thought and not text and sig is None and not extra:
                return  # empty text makes no part
            run = self._run = _Run(self._next, thought, extra, sig if not thought else None)
            self._next += 1
            self._notes.origins[("parts", run.index)] = (self._count - 1,)  # the chunk that started it
            out.append(PartStart(run.index, run.skeleton()))
        assert run is not None
        if text:
            run.texted = True
            out.append(ReasoningDelta(run.index, text=text) if thought else TextDelta(run.index, text))
        if sig is not None and run.signature is None:  # a late signature (else: on the start)
            run.signature = sig
            out.append(ReasoningDelta(run.index, signature=sig) if thought else TextDelta(run.index, "", sig))

    def _end_run(self, out: list[StreamEvent]) -> None:
        if self._run is not None:
            out.append(PartEnd(self._run.index, self._run.final()))
            self._run = None

    def _whole(self, part: Part, out: list[StreamEvent]) -> None:
        self._end_run(out)
        index = self._next
        self._next += 1
        self._notes.origins[("parts", index)] = (self._count - 1,)  # the chunk that holds it
        if type(part) is ToolCall:
            self._has_calls = self._has_calls or part.kind != "builtin"
            if part.kind != "builtin":
                out.append(PartStart(index, _skeleton(part)))
                if part.arguments:
                    out.append(ToolCallDelta(index, part.arguments))
                out.append(PartEnd(index, part))
                return
        out.append(PartStart(index, part))
        out.append(PartEnd(index, part))

    def _plain_calls(self, calls: list[PlainCall]) -> list[StreamEvent]:
        """The events of a chunk of plain calls (``plain_calls``), as ``_whole`` gives each."""
        out: list[StreamEvent] = []
        self._end_run(out)
        self._candidates = self._has_calls = True
        origins = self._notes.origins
        where = (self._count - 1,)  # the chunk that holds them
        for name, arguments, call_id in calls:
            index = self._next
            self._next = index + 1
            origins[("parts", index)] = where
            out.append(PartStart(index, ToolCall(name=name, id=call_id)))
            if arguments:
                out.append(ToolCallDelta(index, arguments))
            out.append(PartEnd(index, ToolCall(name=name, arguments=arguments, id=call_id)))
        return out

    def _streamed_call(self, wire: dict[str, Any], path: str, out: list[StreamEvent]) -> None:
        """A part of a function call streamed with ``partialArgs`` / ``willContinue``."""
        if "functionCall" not in wire:
            fail(path, "a part other than functionCall while a streamed function call is open")
        ipath = child(path, "functionCall")
        inner, _ = camel(as_dict(wire["functionCall"], ipath))
        if self._call is None:
            self._end_run(out)
            skeleton = ToolCall(
                name=req_name(inner, "name", ipath),
                id=opt_str(inner, "id", ipath),
                thought_signature=opt_str(wire, "thoughtSignature", path),
            )
            self._call = _Call(self._next, skeleton)
            self._notes.origins[("parts", self._next)] = (self._count - 1,)  # the chunk that started it
            self._next += 1
            self._has_calls = True
            out.append(PartStart(self._call.index, skeleton))
        elif "name" in inner:
            fail(ipath, "a new function call while a streamed function call is open")
        call = self._call
        if inner.get("partialArgs") is not None:
            call.send(call.args.apply(inner["partialArgs"], child(ipath, "partialArgs")), out)
        if inner.get("willContinue") is not True:
            call.send(call.args.finish(ipath), out)
            final = msgspec.structs.replace(call.skeleton, arguments="".join(call.text))
            out.append(PartEnd(call.index, final))
            self._call = None

    # --- end ----------------------------------------------------------------------------------

    def _response_end(self) -> ResponseEnd:
        raw = self._finish if self._candidates else self._blocked
        stop: StopReason | None
        if not self._candidates:
            stop = "content_filter" if raw is not None else None
        else:
            stop = _stop_reason(raw, self._has_calls)
        extra = dict(self._top)
        if self._candidate:
            extra["~candidate"] = dict(self._candidate)
        if not self._candidates:
            extra["~candidates"] = "absent"
        return ResponseEnd(stop_reason=stop, raw_stop_reason=raw, usage=self._usage, extra=extra)


def _streams(call: dict[str, Any]) -> bool:
    """Whether a ``functionCall`` opens a call whose arguments will be streamed."""
    inner, _ = camel(call)
    return inner.get("willContinue") is True or inner.get("partialArgs") is not None


def _skeleton(call: ToolCall) -> ToolCall:
    return ToolCall(
        name=call.name,
        id=call.id,
        kind=call.kind,
        thought_signature=call.thought_signature,
        extra=call.extra,
    )


def _stop_reason(raw: str | None, has_calls: bool) -> StopReason | None:
    if raw is None:
        return None
    reason = FINISH_REASONS.get(raw, "other")
    return "tool_calls" if reason == "end_turn" and has_calls else reason
