"""Helpers for the Anthropic stream tests: recordings, SSE bytes, synthesized IR streams, oracles."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pydantic
from anthropic.lib.streaming._beta_messages import accumulate_event as beta_accumulate_event
from anthropic.lib.streaming._messages import accumulate_event
from anthropic.types import RawMessageStreamEvent

from toolwire.formats._stream import WireEvent
from toolwire.framing import SSEDecoder, encode_sse
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
    UsageUpdate,
)

CALL_BLOCKS = ("tool_use", "server_tool_use", "mcp_tool_use")
_EVENT = pydantic.TypeAdapter(RawMessageStreamEvent)


# ---------------------------------------------------------------- recordings


def messages(items: list[Any]) -> list[list[WireEvent]]:
    """The streams of a recording: some fixtures concatenate several HTTP responses."""
    streams: list[list[WireEvent]] = [[]]
    for item in items:
        data = item.data
        if type(data) is dict and data.get("type") == "message_start" and _stopped(streams[-1]):
            streams.append([])
        streams[-1].append(data)
    return streams


def _stopped(events: list[WireEvent]) -> bool:
    return any(type(e) is dict and e.get("type") == "message_stop" for e in events)


def sse_bytes(events: list[WireEvent]) -> bytes:
    """The events as named SSE events (``event:`` = the data's type), like the API sends them."""
    return b"".join(encode_sse(e["type"] if type(e) is dict else None, json.dumps(e)) for e in events)


def from_sse(raw: bytes, step: int) -> list[WireEvent]:
    """Parse SSE bytes fed ``step`` bytes at a time back into wire events."""
    dec = SSEDecoder()
    out = []
    for at in range(0, len(raw), step):
        out += dec.feed(raw[at : at + step])
    out += dec.close()
    return [json.loads(ev.data) for ev in out]


def raw_tool_calls(events: list[WireEvent]) -> list[tuple[str, str, Any]]:
    """(id, name, input) of every tool-use block, computed straight from the wire events."""
    starts: dict[int, dict[str, Any]] = {}
    chunks: dict[int, str] = {}
    order: list[int] = []
    for e in events:
        assert type(e) is dict
        if e["type"] == "message_start":
            for i, block in enumerate(e["message"]["content"]):
                starts[-1 - i] = block
                order.append(-1 - i)
        elif e["type"] == "content_block_start":
            starts[e["index"]] = e["content_block"]
            order.append(e["index"])
        elif e["type"] == "content_block_delta" and e["delta"]["type"] == "input_json_delta":
            chunks[e["index"]] = chunks.get(e["index"], "") + e["delta"]["partial_json"]
    out = []
    for i in order:
        block = starts[i]
        if block["type"] in CALL_BLOCKS:
            text = chunks.get(i, "")
            out.append((block["id"], block["name"], _loads(text) if text else block["input"]))
    return out


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text  # truncated: compared as the raw text


def ir_tool_calls(resp: Response) -> list[tuple[str | None, str, Any]]:
    """(id, name, parsed arguments) of an IR response's tool calls."""
    return [(c.id, c.name, _loads(c.arguments) if c.arguments else {}) for c in resp.tool_calls]


def raw_message(events: list[WireEvent]) -> dict[str, Any]:
    """The non-streamed ``Message`` the wire events add up to, rebuilt simply and independently."""
    message: dict[str, Any] = {}
    content: list[dict[str, Any]] = []
    buffers: dict[int, str] = {}
    for e in events:
        assert type(e) is dict
        kind = e["type"]
        if kind == "message_start":
            message = {**e["message"], "usage": dict(e["message"]["usage"])}
            content = [dict(b) for b in message["content"]]
        elif kind == "content_block_start":
            content.append(dict(e["content_block"]))
        elif kind == "content_block_delta":
            _apply(content[e["index"]], e["delta"], buffers, e["index"])
        elif kind == "message_delta":
            message.update((k, v) for k, v in e["delta"].items() if v is not None or k.startswith("stop_"))
            message["usage"].update((k, v) for k, v in e["usage"].items() if v is not None)
    for index, text in buffers.items():
        parsed = _loads(text)
        if type(parsed) is dict:
            content[index]["input"] = parsed
    return {**message, "content": content}


def _apply(block: dict[str, Any], delta: dict[str, Any], buffers: dict[int, str], index: int) -> None:
    kind = delta["type"]
    if kind == "text_delta":
        block["text"] += delta["text"]
    elif kind == "thinking_delta":
        block["thinking"] += delta["thinking"]
    elif kind == "signature_delta":
        block["signature"] = delta["signature"]
    elif kind == "citations_delta":
        block["citations"] = [*(block.get("citations") or []), delta["citation"]]
    elif kind == "input_json_delta":
        buffers[index] = buffers.get(index, "") + delta["partial_json"]
    else:
        block.update((k, v) for k, v in delta.items() if k != "type")


# ---------------------------------------------------------------- synthesized IR streams


def chop(text: str, pieces: int) -> list[str]:
    """``text`` in ``pieces`` consecutive chunks (fewer when it is short)."""
    size = max(1, -(-len(text) // pieces))
    return [text[i : i + size] for i in range(0, len(text), size)]


def _part_events(index: int, part: Part, pieces: int, whole: bool) -> list[StreamEvent]:
    if whole:
        return [PartStart(index=index, part=part), PartEnd(index=index)]
    replace = msgspec.structs.replace
    if isinstance(part, (TextPart, RefusalPart)):
        deltas: list[StreamEvent] = [TextDelta(index=index, text=t) for t in chop(part.text, pieces)]
        skeleton: Part = replace(part, text="")
    elif isinstance(part, ToolCall):
        deltas = [ToolCallDelta(index=index, arguments=t) for t in chop(part.arguments, pieces)]
        skeleton = replace(part, arguments="")
    elif isinstance(part, ReasoningPart) and part.redacted is None:
        deltas = [ReasoningDelta(index=index, text=t) for t in chop(part.text or "", pieces)]
        if part.signature:
            deltas.append(ReasoningDelta(index=index, signature=part.signature))
        skeleton = replace(part, text="" if part.text is not None else None, signature=None)
    else:
        return [PartStart(index=index, part=part), PartEnd(index=index, part=part)]
    return [PartStart(index=index, part=skeleton), *deltas, PartEnd(index=index, part=part)]


def synthesize(
    resp: Response, *, pieces: int = 3, whole: bool = False, interleave: bool = False
) -> list[StreamEvent]:
    """An IR event stream for ``resp``: parts chopped into deltas (or whole, Gemini-style).

    ``interleave`` mixes the events of the first two tool calls, as parallel calls of Chat,
    Responses or Gemini arrive.
    """
    per_part = [_part_events(i, p, pieces, whole) for i, p in enumerate(resp.parts)]
    calls = [i for i, p in enumerate(resp.parts) if isinstance(p, ToolCall)]
    if interleave and len(calls) >= 2:
        a, b = per_part[calls[0]], per_part[calls[1]]
        mixed = [e for pair in zip(a, b, strict=False) for e in pair]
        mixed += a[len(b) :] + b[len(a) :]
        per_part[calls[0]], per_part[calls[1]] = mixed, []
    out: list[StreamEvent] = [
        ResponseStart(id=resp.id, origin=resp.origin, model=resp.model, created=resp.created)
    ]
    out += [e for events in per_part for e in events]
    if resp.usage is not None:
        out.append(UsageUpdate(usage=resp.usage))
    out.append(
        ResponseEnd(
            stop_reason=resp.stop_reason,
            raw_stop_reason=resp.raw_stop_reason,
            usage=resp.usage,
            status=resp.status,
            extra=resp.extra,
        )
    )
    return out


# ---------------------------------------------------------------- the SDK oracle


def sdk_message(events: list[WireEvent]) -> Any:
    """The message the official SDK's stream accumulator builds from ``events``.

    Streams of plain blocks are parsed as ``RawMessageStreamEvent`` first (validated: the
    SDK's own types) and accumulated by the Messages accumulator; streams with server-tool or
    other beta blocks, which those types do not describe, go as dicts to the beta accumulator.
    """
    snapshot = None
    json_bufs: dict[int, bytes] = {}
    validate = plain(events)
    for e in events:
        if type(e) is dict and e.get("type") in ("ping", "error"):
            continue
        if validate:
            snapshot = accumulate_event(
                event=_EVENT.validate_python(e), current_snapshot=snapshot, json_bufs=json_bufs
            )
        else:
            snapshot = beta_accumulate_event(
                event=e,  # type: ignore[arg-type]
                current_snapshot=snapshot,
                json_bufs=json_bufs,
                request_headers=None,  # type: ignore[arg-type]
            )
    return snapshot


def plain(events: list[WireEvent]) -> bool:
    """Whether every block is of a type the SDK's (non-beta) event types describe fully."""
    known = {"text", "thinking", "redacted_thinking", "tool_use"}
    return all(e["content_block"]["type"] in known for e in events if e["type"] == "content_block_start")  # type: ignore[index]


def blocks_of(content: list[Any]) -> tuple[list[tuple[str, str, Any]], str]:
    """(id, name, input) of the tool-use blocks and the joined text of wire content (dicts)."""
    calls = [(b["id"], b["name"], b.get("input", {})) for b in content if b["type"] in CALL_BLOCKS]
    return calls, "".join(b["text"] for b in content if b["type"] == "text")
