"""Test helper: turn an IR :class:`~toolwire.ir.Response` into a canonical event stream.

Text, arguments and reasoning are chopped into several deltas; ``whole=True`` sends every
part whole instead (PartStart with the full part, then PartEnd, as Gemini does);
``interleave=True`` interleaves the first two tool calls' starts, deltas and ends.
"""

from __future__ import annotations

from itertools import zip_longest

import msgspec

from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall
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
)


def chop(text: str, pieces: int = 3) -> list[str]:
    """``text`` cut into up to ``pieces`` non-empty chunks (none for an empty text)."""
    if not text:
        return []
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _skeleton(part: Part) -> Part:
    if isinstance(part, (TextPart, RefusalPart)):
        return msgspec.structs.replace(part, text="")
    if isinstance(part, ToolCall) and part.kind != "builtin":
        return msgspec.structs.replace(part, arguments="")
    if isinstance(part, ReasoningPart):
        return msgspec.structs.replace(part, text=None if part.text is None else "", summary=())
    return part


def _deltas(index: int, part: Part) -> list[StreamEvent]:
    if isinstance(part, (TextPart, RefusalPart)):
        return [TextDelta(index=index, text=c) for c in chop(part.text)]
    if isinstance(part, ToolCall) and part.kind != "builtin":
        return [ToolCallDelta(index=index, arguments=c) for c in chop(part.arguments)]
    if isinstance(part, ReasoningPart):
        out: list[StreamEvent] = []
        for at, summary in enumerate(part.summary):
            out.append(ReasoningDelta(index=index, summary="", summary_index=at))
            out.extend(ReasoningDelta(index=index, summary=c, summary_index=at) for c in chop(summary))
        out.extend(ReasoningDelta(index=index, text=c) for c in chop(part.text or ""))
        return out
    return []


def _part_events(index: int, part: Part, whole: bool, final: bool) -> list[list[StreamEvent]]:
    """[start], [deltas...], [end] of one part."""
    if whole:
        return [[PartStart(index=index, part=part)], [], [PartEnd(index=index, part=part)]]
    end = PartEnd(index=index, part=part if final else None)
    return [[PartStart(index=index, part=_skeleton(part))], _deltas(index, part), [end]]


def synthesize(
    resp: Response, *, whole: bool = False, interleave: bool = False, final: bool = True
) -> list[StreamEvent]:
    """The canonical stream that accumulates to ``resp`` (``final``: PartEnd carries the part)."""
    events: list[StreamEvent] = [
        ResponseStart(id=resp.id, origin=resp.origin, model=resp.model, created=resp.created)
    ]
    calls = [i for i, p in enumerate(resp.parts) if isinstance(p, ToolCall) and p.kind != "builtin"]
    pair = calls[:2] if interleave and len(calls) >= 2 and calls[1] == calls[0] + 1 else []
    for index, part in enumerate(resp.parts):
        if index in pair[1:]:
            continue
        if index in pair:
            a = _part_events(index, part, whole, final)
            b = _part_events(index + 1, resp.parts[index + 1], whole, final)
            events += a[0] + b[0]
            for x, y in zip_longest(a[1], b[1]):
                events += [e for e in (x, y) if e is not None]
            events += a[2] + b[2]
            continue
        for chunk in _part_events(index, part, whole, final):
            events += chunk
    events.append(
        ResponseEnd(
            stop_reason=resp.stop_reason,
            raw_stop_reason=resp.raw_stop_reason,
            usage=resp.usage,
            status=resp.status,
            extra=resp.extra,
        )
    )
    return events
