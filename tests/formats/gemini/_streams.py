"""Helpers for the Gemini stream tests: independent oracles over raw chunks, IR synthesis.

- :func:`merge_chunks` folds raw stream chunks into one ``GenerateContentResponse`` body the
  simple way (text runs joined, streamed function calls assembled from their JSON paths,
  other fields last-wins), so ``decode_response`` of it is what a stream must add up to.
- :func:`raw_calls` lists the function calls a recording makes, straight from the chunks.
- :func:`synth_events` turns an IR response into a canonical event stream, text and
  arguments chopped into several deltas, optionally with the tool calls interleaved.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from toolwire.ir.content import Part, ReasoningPart, TextPart, ToolCall
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

_TEXT_KEYS = {"text", "thought", "thoughtSignature"}
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _set(root: dict[str, Any], json_path: str, value: Any, append: bool) -> None:
    steps = [int(i) if i else k for k, i in _STEP.findall(json_path[1:])]
    node: Any = root
    for step, nxt in zip(steps, [*steps[1:], None], strict=True):
        if nxt is None:
            break
        if isinstance(step, int) and step == len(node):
            node.append([] if isinstance(nxt, int) else {})
        elif isinstance(step, str) and step not in node:
            node[step] = [] if isinstance(nxt, int) else {}
        node = node[step]
    last = steps[-1]
    if isinstance(last, int) and last == len(node):
        node.append(value)
    elif append:
        node[last] += value
    else:
        node[last] = value


def _partial(call: dict[str, Any], state: dict[str, Any]) -> None:
    """Apply one streamed ``functionCall`` fragment to ``state`` (args + open string path)."""
    for arg in call.get("partialArgs", ()):
        key = next(k for k in ("stringValue", "numberValue", "boolValue", "nullValue") if k in arg)
        value = None if key == "nullValue" else arg[key]
        cont = key == "stringValue" and state.get("open") == arg["jsonPath"]
        _set(state["args"], arg["jsonPath"], value, cont)
        state["open"] = arg["jsonPath"] if key == "stringValue" and arg.get("willContinue") else None


def _text_kind(part: dict[str, Any]) -> str | None:
    """``text`` or ``thought`` for a part a text run may hold, else ``None``."""
    if "text" not in part or set(part) - _TEXT_KEYS:
        return None
    thought = part.get("thought")
    return "thought" if thought is True else "text" if thought is None else None


def _mergeable(prev: dict[str, Any], part: dict[str, Any]) -> bool:
    kind = _text_kind(part)
    if kind is None or kind != _text_kind(prev):
        return False
    return "thoughtSignature" not in prev or "thoughtSignature" not in part


def _plain_empty(part: dict[str, Any]) -> bool:
    return part.get("text") == "" and set(part) == {"text"}


def merge_chunks(chunks: list[dict[str, Any]]) -> dict[str, Any]:
    """One response body equivalent to the stream ``chunks`` (no error chunks)."""
    top: dict[str, Any] = {}
    candidate: dict[str, Any] = {}
    parts: list[dict[str, Any]] = []
    streamed: dict[str, Any] | None = None
    seen_candidate = False
    for chunk in chunks:
        top.update({k: v for k, v in chunk.items() if k != "candidates"})
        if not chunk.get("candidates"):
            continue
        seen_candidate = True
        cand = chunk["candidates"][0]
        candidate.update({k: v for k, v in cand.items() if k != "content"})
        for part in (cand.get("content") or {}).get("parts", ()):
            call = part.get("functionCall")
            if streamed is not None or (
                call is not None and ("willContinue" in call or "partialArgs" in call)
            ):
                if streamed is None:
                    streamed = {"part": part, "args": {}, "open": None}
                _partial(call, streamed)
                if not call.get("willContinue"):
                    head = streamed["part"]
                    fc = {k: v for k, v in head["functionCall"].items() if k in ("name", "id")}
                    parts.append({**head, "functionCall": {**fc, "args": streamed["args"]}})
                    streamed = None
            elif parts and _mergeable(parts[-1], part):
                merged = dict(parts[-1])
                merged["text"] += part["text"]
                if "thoughtSignature" in part:
                    merged["thoughtSignature"] = part["thoughtSignature"]
                parts[-1] = merged
            else:
                parts.append(dict(part))
    body = dict(top)
    if seen_candidate:
        content = {"role": "model", "parts": [p for p in parts if not _plain_empty(p)]}
        body["candidates"] = [{**candidate, "content": content}]
    return body


def raw_calls(chunks: list[Any]) -> list[tuple[str | None, str, Any]]:
    """``(id, name, args)`` of every function call in raw chunks (streamed ones assembled)."""
    merged = merge_chunks([c for c in chunks if isinstance(c, dict) and "error" not in c])
    out = []
    for cand in merged.get("candidates", ())[:1]:
        for part in cand["content"]["parts"]:
            call = part.get("functionCall")
            if call is not None:
                out.append((call.get("id"), call["name"], call.get("args", {})))
    return out


# --- IR -> canonical events ------------------------------------------------------------------


def _chop(text: str, pieces: int) -> list[str]:
    if not text:
        return []
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _part_events(index: int, part: Part, pieces: int) -> list[StreamEvent]:
    replace = msgspec.structs.replace
    start: Part
    if isinstance(part, TextPart):
        deltas: list[StreamEvent] = [TextDelta(index, t) for t in _chop(part.text, pieces)]
        start = replace(part, text="")
    elif isinstance(part, ReasoningPart):
        deltas = [ReasoningDelta(index, text=t) for t in _chop(part.text or "", pieces)]
        deltas += [ReasoningDelta(index, signature=s) for s in _chop(part.signature or "", 2)]
        start = replace(part, text=None, signature=None)
    elif isinstance(part, ToolCall) and part.kind != "builtin":
        deltas = [ToolCallDelta(index, t) for t in _chop(part.arguments, pieces)]
        start = replace(part, arguments="")
    else:
        return [PartStart(index, part), PartEnd(index, part)]
    return [PartStart(index, start), *deltas, PartEnd(index, part)]


def _interleave(groups: list[list[StreamEvent]]) -> list[StreamEvent]:
    """Starts in order, deltas round-robin, ends in reverse order."""
    starts = [g[0] for g in groups]
    middles = [g[1:-1] for g in groups]
    ends = [g[-1] for g in reversed(groups)]
    mixed: list[StreamEvent] = []
    for step in range(max((len(m) for m in middles), default=0)):
        mixed.extend(m[step] for m in middles if step < len(m))
    return [*starts, *mixed, *ends]


def synth_events(resp: Response, *, pieces: int = 3, interleave: bool = False) -> list[StreamEvent]:
    """A canonical event stream for ``resp``; ``interleave`` mixes the events of its tool calls."""
    events: list[StreamEvent] = [
        ResponseStart(id=resp.id, origin=resp.origin, model=resp.model, created=resp.created)
    ]
    groups = [_part_events(i, p, pieces) for i, p in enumerate(resp.parts)]
    calls = [g for g, p in zip(groups, resp.parts, strict=True) if isinstance(p, ToolCall)]
    for group, part in zip(groups, resp.parts, strict=True):
        if not (interleave and isinstance(part, ToolCall)):
            events.extend(group)
        elif group is calls[0]:
            events.extend(_interleave(calls))
    if resp.usage is not None:
        events.append(UsageUpdate(resp.usage))
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


def expected_calls(resp: Response) -> list[tuple[str, Any]]:
    """``(name, args object)`` Gemini must carry for the non-builtin calls of ``resp``."""
    out = []
    for call in resp.tool_calls:
        if call.kind == "builtin":
            continue
        if call.kind == "custom":
            out.append((call.name, {"input": call.arguments}))
            continue
        try:
            args = json.loads(call.arguments) if call.arguments else {}
        except ValueError:
            args = {}
        out.append((call.name, args if isinstance(args, dict) else {}))
    return out


def expected_text(resp: Response) -> str:
    """The plain text Gemini must carry for ``resp`` (refusals become text)."""
    from toolwire.ir.content import RefusalPart

    return "".join(p.text for p in resp.parts if isinstance(p, (TextPart, RefusalPart)))
