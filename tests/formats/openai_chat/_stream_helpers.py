"""Helpers for the Chat stream tests: IR event synthesis, raw expectations, SSE feeding."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import msgspec

from toolwire.formats._stream import DONE, WireEvent
from toolwire.formats.openai_chat import StreamDecoder, StreamEncoder
from toolwire.framing import SSEDecoder, encode_sse
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ReasoningDelta,
    ResponseEnd,
    ResponseStart,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageUpdate,
)

EXTRA_CALL = ToolCall(name="extra_tool", arguments='{"k": [1, 2], "s": "x"}', id="call_extra")


def chop(text: str, pieces: int) -> list[str]:
    """``text`` cut into up to ``pieces`` non-empty consecutive chunks."""
    if not text:
        return []
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _part_events(index: int, part: Part, pieces: int, whole: bool) -> list[StreamEvent]:
    """PartStart, deltas and PartEnd for one part (``whole``: the full part, no deltas)."""
    if whole or not isinstance(part, (TextPart, RefusalPart, ReasoningPart, ToolCall)):
        return [PartStart(index=index, part=part), PartEnd(index=index)]
    events: list[StreamEvent] = []
    if isinstance(part, (TextPart, RefusalPart)):
        events.append(PartStart(index=index, part=msgspec.structs.replace(part, text="")))
        events += [TextDelta(index=index, text=t) for t in chop(part.text, pieces)]
    elif isinstance(part, ToolCall):
        events.append(PartStart(index=index, part=msgspec.structs.replace(part, arguments="")))
        events += [ToolCallDelta(index=index, arguments=a) for a in chop(part.arguments, pieces)]
    else:
        skeleton = msgspec.structs.replace(part, text=None, summary=(), signature=None)
        events.append(PartStart(index=index, part=skeleton))
        events += [ReasoningDelta(index=index, text=t) for t in chop(part.text or "", pieces)]
        for at, summary in enumerate(part.summary):
            events += [
                ReasoningDelta(index=index, summary=s, summary_index=at) for s in chop(summary, pieces)
            ]
        if part.signature:
            events.append(ReasoningDelta(index=index, signature=part.signature))
    events.append(PartEnd(index=index))
    return events


def _interleave(a: list[StreamEvent], b: list[StreamEvent]) -> list[StreamEvent]:
    """Both event lists merged alternately (each keeps its order)."""
    out: list[StreamEvent] = []
    for i in range(max(len(a), len(b))):
        out += a[i : i + 1] + b[i : i + 1]
    return out


def synthesize(
    resp: Response, *, pieces: int = 3, interleave: bool = False, whole: bool = False
) -> list[StreamEvent]:
    """An IR event stream that accumulates to ``resp``'s parts.

    ``interleave``: the first two tool calls (a second one is added when there is only one)
    stream their events alternately. ``whole``: every part arrives whole, as from Gemini.
    """
    parts = list(resp.parts)
    calls = [i for i, p in enumerate(parts) if isinstance(p, ToolCall)]
    if interleave and len(calls) == 1:
        parts.append(EXTRA_CALL)
        calls.append(len(parts) - 1)
    per_part = [_part_events(i, p, pieces, whole) for i, p in enumerate(parts)]
    if interleave and len(calls) >= 2:
        first, second = calls[:2]
        per_part[first] = _interleave(per_part[first], per_part[second])
        per_part[second] = []
    events: list[StreamEvent] = [
        ResponseStart(id=resp.id, origin=resp.origin, model=resp.model, created=resp.created)
    ]
    for chunk in per_part:
        events += chunk
    if resp.usage is not None:
        events.append(UsageUpdate(usage=resp.usage))
    events.append(
        ResponseEnd(stop_reason=resp.stop_reason, raw_stop_reason=resp.raw_stop_reason, status=resp.status)
    )
    return events


def with_parts(resp: Response, interleave: bool) -> Response:
    """``resp`` with the part :func:`synthesize` adds for ``interleave``."""
    if interleave and len(resp.tool_calls) == 1:
        return msgspec.structs.replace(resp, parts=(*resp.parts, EXTRA_CALL))
    return resp


@dataclass(frozen=True)
class Expected:
    """What a Chat client must end up with: tool calls (id, name, arguments) and text."""

    calls: list[tuple[str | None, str, str]]
    text: str
    refusal: str


def expected_after_chat(resp: Response) -> Expected:
    """What encoding ``resp`` to a Chat stream keeps, following ``encode_response``'s rules."""
    same = resp.origin == "openai-chat"
    calls: list[tuple[str | None, str, str]] = []
    for call in resp.tool_calls:
        if call.kind == "builtin":
            continue
        arguments = call.arguments if (same or call.arguments or call.kind == "custom") else "{}"
        if same and call.id is None and call.extra.get("~legacy"):
            calls.append((None, call.name, arguments))  # legacy function_call: no id on the wire
            continue
        position = sum(1 for c in calls if c[0] is not None)
        calls.append((call.id or f"call_0_{position}", call.name, arguments))
    refusal = "".join(p.text for p in resp.parts if isinstance(p, RefusalPart))
    return Expected(calls, resp.text, refusal)


def observed(resp: Response) -> Expected:
    """The same view of a response accumulated from a decoded stream."""
    calls: list[tuple[str | None, str, str]] = [(c.id, c.name, c.arguments) for c in resp.tool_calls]
    refusal = "".join(p.text for p in resp.parts if isinstance(p, RefusalPart))
    return Expected(calls, resp.text, refusal)


def encode_all(events: Iterable[StreamEvent], notes: Notes | None = None, **options: Any) -> list[WireEvent]:
    """Every wire event a fresh :class:`StreamEncoder` makes of ``events`` (close included)."""
    encoder = StreamEncoder(notes if notes is not None else Notes("drop"), **options)
    out: list[WireEvent] = []
    for event in events:
        out += encoder.feed(event)
    return out + encoder.close()


def decode_all(wire: Iterable[WireEvent], notes: Notes | None = None) -> list[StreamEvent]:
    """Every IR event a fresh :class:`StreamDecoder` makes of ``wire`` (close included)."""
    decoder = StreamDecoder(notes if notes is not None else Notes("drop"))
    out: list[StreamEvent] = []
    for event in wire:
        out += decoder.feed(event)
    return out + decoder.close()


def roundtrip(events: list[StreamEvent], **options: Any) -> tuple[list[WireEvent], Response]:
    """Encode IR events to Chat, then decode and accumulate them again."""
    wire = encode_all(events, **options)
    return wire, accumulate(decode_all(wire))


def to_sse(events: Iterable[WireEvent]) -> bytes:
    """The SSE bytes a Chat server sends for ``events`` (unnamed events, JSON data)."""
    return b"".join(encode_sse(None, e if e == DONE else json.dumps(e)) for e in events)


def from_sse_bytewise(raw: bytes) -> list[WireEvent]:
    """Parse SSE ``raw`` fed one byte at a time; data parsed as JSON except ``[DONE]``."""
    decoder = SSEDecoder()
    events = []
    for i in range(len(raw)):
        events += decoder.feed(raw[i : i + 1])
    events += decoder.close()
    return [e.data if e.data == DONE else json.loads(e.data) for e in events]


def raw_expectations(events: Iterable[WireEvent]) -> Expected:
    """Tool calls and text of choice 0, read straight from recorded chunks (independent of the codec)."""
    calls: dict[int, dict[str, Any]] = {}
    text: list[str] = []
    refusal: list[str] = []
    for event in events:
        if not isinstance(event, dict):
            continue
        for choice in event.get("choices") or []:
            if choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            text.append(delta.get("content") or "")
            refusal.append(delta.get("refusal") or "")
            for fragment in delta.get("tool_calls") or []:
                call = calls.setdefault(fragment["index"], {"id": None, "name": None, "args": ""})
                function = fragment.get("function") or {}
                call["id"] = call["id"] or fragment.get("id")
                call["name"] = call["name"] or function.get("name")
                call["args"] += function.get("arguments") or ""
    ordered = [calls[i] for i in sorted(calls)]
    return Expected([(c["id"], c["name"], c["args"]) for c in ordered], "".join(text), "".join(refusal))
