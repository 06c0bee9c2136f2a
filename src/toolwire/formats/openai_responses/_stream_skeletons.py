"""Items and snapshots the Responses stream encoder builds directly, without the general
encoders, for plain parts of another format (each what the general encoder gives them: see
``tests/streaming/test_responses_message_skeleton.py``)."""

from __future__ import annotations

from typing import Any

from toolwire.formats.openai_responses._extra import FORMAT
from toolwire.formats.openai_responses.response import echo_defaults
from toolwire.ir.content import Part, RefusalPart, TextPart, ToolCall
from toolwire.ir.stream import ResponseStart

__all__ = [
    "ID_PREFIX",
    "call_item",
    "content_wire",
    "created_snapshot",
    "plain_call",
    "plain_content",
    "plain_start",
]

_CALL_KINDS = frozenset({"function", "custom"})


def plain_content(part: Part) -> bool:
    """Whether ``part`` is text or a refusal that encodes with no note (nothing to drop or keep)."""
    if type(part) is TextPart:
        return part.thought_signature is None and not part.extra
    return type(part) is RefusalPart and not part.extra


def content_wire(part: Part, *, empty: bool = False) -> dict[str, Any]:
    """What ``encode_part`` gives a :func:`plain_content` part of an output message of another
    format (``empty``: with its text emptied, as ``content_part.added`` sends it)."""
    text = "" if empty or not isinstance(part, (TextPart, RefusalPart)) else part.text
    if type(part) is TextPart:
        return {"type": "output_text", "text": text, "annotations": [], "logprobs": []}
    return {"type": "refusal", "refusal": text}


def plain_start(start: ResponseStart) -> bool:
    """Whether :func:`created_snapshot` gives ``start``'s in-progress snapshot: another format's start
    with an id and no extra fields."""
    return start.origin != FORMAT and start.id is not None and not start.extra


def created_snapshot(start: ResponseStart) -> dict[str, Any]:
    """The snapshot of ``response.created`` for a :func:`plain_start`, built directly: what
    ``_snapshot`` makes of ``encode_response`` of the start (no parts, stop reason, usage or
    error; the echo fields at their neutral values; ``usage`` last, set by ``_snapshot``)."""
    return {
        "id": start.id,
        "object": "response",
        "created_at": start.created if start.created is not None else 0,
        "status": "in_progress",
        "incomplete_details": None,
        "error": None,
        "model": start.model if start.model is not None else "",
        "output": [],
        **echo_defaults(),
        "usage": None,
    }


def plain_call(call: ToolCall) -> bool:
    """Whether ``call`` encodes with no note and no synthesized call id: a function or custom
    call with an id, no thought signature and no extra fields."""
    return (
        call.kind in _CALL_KINDS and call.id is not None and call.thought_signature is None and not call.extra
    )


ID_PREFIX = {"function": "fc", "custom": "ctc"}
"""A :func:`plain_call`'s kind -> the prefix of its derived item id (as ``_call``)."""


def call_item(call: ToolCall, arguments: str, item_id: str, status: str) -> dict[str, Any]:
    """The item ``_call`` encodes for another format's :func:`plain_call` (key order included),
    with ``arguments``, ``item_id`` and ``status``."""
    custom = call.kind == "custom"
    item: dict[str, Any] = {
        "type": "custom_tool_call" if custom else "function_call",
        "call_id": call.id,
        "name": call.name,
        "input" if custom else "arguments": arguments,
        "id": item_id,
    }
    if call.namespace is not None:
        item["namespace"] = call.namespace
    item["status"] = status
    return item
