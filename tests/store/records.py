"""Records for the store tests: awkward JSON that must come back identical."""

from __future__ import annotations

from typing import Any

from toolwire.store import ConversationRecord, ResponseRecord

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
