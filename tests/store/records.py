"""Records for the store tests: awkward JSON that must come back identical."""

from __future__ import annotations

from typing import Any

from toolwire.store import ConversationRecord, ResponseRecord
from toolwire.trace import TraceBody, TraceEvent, TraceLatency, TraceNote, TraceRecord

ENCRYPTED = "gAAAAABo" + "x/+=" * 4000
"""A long opaque reasoning blob (base64 alphabet, as the API sends it)."""

AWKWARD: dict[str, Any] = {
    "zeta": 1,
    "alpha": [0.1, 1e-7, 1.0, -0.0, 123456789012345678901234567890, 2**63, -(2**63) - 1],
    "text": 'quote " backslash \\ nul \u0000 tab \t emoji 🧰 é 中文 \u2028',
    "empty": {"": "", "null": None, "t": True, "f": False, "list": []},
}
"""Key order not sorted, floats, integers beyond 64 bits, escapes, non-ASCII."""


def item(n: int, conv: str = "c", **extra: Any) -> dict[str, Any]:
    """A message item with a unique id."""
    return {
        "id": f"msg_{conv}_{n}",
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": f"turn {n}"}],
        **extra,
    }


def response(key: str = "resp_1", *, items: int = 3, **fields: Any) -> ResponseRecord:
    """A response record with reasoning state, awkward request params and ``items`` input items."""
    output = [
        {"id": "rs_1", "type": "reasoning", "summary": [], "encrypted_content": ENCRYPTED},
        {"id": "fc_1", "type": "function_call", "call_id": "call_1", "name": "f", "arguments": '{"a": 1.50}'},
    ]
    values: dict[str, Any] = {
        "id": key,
        "created_at": 1_750_000_000,
        "status": "completed",
        "request": {"model": "gpt-5", "tools": [], "instructions": "Be brief.", "extra": AWKWARD},
        "input_items": [item(n, key) for n in range(items)],
        "output_items": output,
        "response": {"id": key, "object": "response", "output": output, "usage": {"input_tokens": 3}},
        **fields,
    }
    return ResponseRecord(**values)


def conversation(key: str = "conv_1", **metadata: str) -> ConversationRecord:
    return ConversationRecord(id=key, created_at=1_750_000_000, metadata=metadata or {"topic": "tests"})


def trace(key: str = "tr_1", created_at: float = 1_750_000_000.0, **fields: Any) -> TraceRecord:
    """A streamed chat->anthropic trace with bodies, events and one loss note."""
    values: dict[str, Any] = {
        "id": key,
        "created_at": created_at,
        "method": "POST",
        "path": "/v1/chat/completions",
        "status": 200,
        "client_format": "openai_chat",
        "upstream": "claude",
        "upstream_format": "anthropic",
        "client_model": "gpt-5",
        "upstream_model": "claude-sonnet-4-5",
        "stream": True,
        "latency": TraceLatency(total=12.5, upstream=10.0, first_byte=3.25),
        "input_tokens": 11,
        "output_tokens": 7,
        "client_request": TraceBody(text='{"model":"gpt-5","messages":[]}', size=31),
        "upstream_request": TraceBody(text='{"model":"claude"', size=4000, truncated=True),
        "events": [
            TraceEvent(t_ms=3.25, side="upstream_response", name="message_start", kind="first_byte"),
            TraceEvent(t_ms=4.0, side="client_response", name="data", kind="text", data=AWKWARD["text"]),
        ],
        "notes": [
            TraceNote(
                side="client_request",
                path="$.messages[0]",
                kind="dropped",
                message="logprobs has no Anthropic field",
                target_side="upstream_request",
                target="$.messages",
            )
        ],
        **fields,
    }
    return TraceRecord(**values)
