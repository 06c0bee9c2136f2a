"""Trace records the page tests render: a cross-format call with notes, a stream, a hostile one."""

from __future__ import annotations

import json
from typing import Any

from toolwire.trace import TraceBody, TraceEvent, TraceLatency, TraceNote, TraceRecord

HOSTILE = "</script><img src=x onerror=alert(1)>"
"""Text that would run script if a page wrote it unescaped."""


def body(value: Any) -> TraceBody:
    text = json.dumps(value)
    return TraceBody(text=text, size=len(text.encode()))


CHAT_REQUEST = {
    "model": "to-anthropic",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
    ],
    "tools": [{"type": "function", "function": {"name": "get_weather", "strict": True, "parameters": {}}}],
    "logprobs": True,
}
ANTHROPIC_REQUEST = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 4096,
    "system": "Be brief.",
    "messages": [{"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]}],
    "tools": [{"name": "get_weather", "input_schema": {"type": "object"}}],
}
ANTHROPIC_RESPONSE = {
    "id": "msg_1",
    "type": "message",
    "content": [{"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}],
    "stop_reason": "tool_use",
}
CHAT_RESPONSE = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "tool_calls": [
                    {
                        "id": "toolu_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    }
                ],
            },
            "finish_reason": "tool_calls",
        }
    ],
}
NOTES = [
    TraceNote(
        side="client_request", path="$.logprobs", kind="dropped", message="logprobs has no Anthropic field"
    ),
    TraceNote(
        side="client_request",
        path="$.messages[0]",
        kind="moved",
        message="system message hoisted",
        loss=False,
        target_side="upstream_request",
        target="$.system",
    ),
    TraceNote(
        side="client_request",
        path="$.tools[0].function.strict",
        kind="approximated",
        message="strict is not enforced",
        target_side="upstream_request",
        target="$.tools[0].strict",
    ),
]


def record(trace_id: str = "req_plain", **changes: Any) -> TraceRecord:
    """A non-streamed openai-chat -> anthropic call with three notes."""
    fields: dict[str, Any] = {
        "id": trace_id,
        "created_at": 1_790_000_000.0,
        "method": "POST",
        "path": "/v1/chat/completions",
        "status": 200,
        "client_format": "openai-chat",
        "upstream": "anthropic",
        "upstream_format": "anthropic",
        "client_model": "to-anthropic",
        "upstream_model": "claude-sonnet-4-5",
        "latency": TraceLatency(total=12.5, upstream=10.0, first_byte=12.0),
        "input_tokens": 11,
        "output_tokens": 7,
        "client_request": body(CHAT_REQUEST),
        "upstream_request": body(ANTHROPIC_REQUEST),
        "upstream_response": body(ANTHROPIC_RESPONSE),
        "client_response": body(CHAT_RESPONSE),
        "notes": NOTES,
    }
    fields.update(changes)
    return TraceRecord(**fields)


def stream_record(trace_id: str = "req_stream", **changes: Any) -> TraceRecord:
    """A streamed call: two tool calls on each side, first byte and end."""
    events = []
    for side, offset in (("upstream_response", 0.0), ("client_response", 0.5)):
        marks = [
            (5.0, "message_start", "first_byte", None),
            (6.0, "content_block_start", "tool_call_start", 0),
            (9.0, "content_block_stop", "tool_call_end", 0),
            (10.0, "content_block_start", "tool_call_start", 1),
            (14.0, "content_block_stop", "tool_call_end", 1),
            (15.0, "message_stop", "end", None),
        ]
        events += [
            TraceEvent(t_ms=t + offset, side=side, name=name, kind=kind, index=index)  # type: ignore[arg-type]
            for t, name, kind, index in marks
        ]
    events.sort(key=lambda e: e.t_ms)
    return record(
        trace_id,
        stream=True,
        upstream_response=None,
        client_response=None,
        events=events,
        created_at=1_790_000_100.0,
        **changes,
    )
