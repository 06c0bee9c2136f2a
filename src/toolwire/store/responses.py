"""Responses state as the API keeps it: ``store``, ``previous_response_id``, ``/v1/responses/{id}``.

Pure record building, shared by the emulator and the gateway (:mod:`toolwire.hop._stored`),
which keep the records in a :class:`toolwire.store.Store`. The emulator's
(``EmulatorConfig.store``) is by default a
:class:`~toolwire.store.MemoryStore` per app holding at most ``EmulatorConfig.store_size``
responses (the oldest dropped first); ``toolwire emulate --store sqlite:///path.db`` (or
``redis://...``) keeps them across restarts and processes. A response is kept when its request
does not set ``store: false`` (``true`` is the API's default) as a
:class:`~toolwire.store.ResponseRecord` whose ``input_items`` are the resolved input as
``input_items`` lists it: the history of the response it continued, then its own input items
(typed, with ids derived from the response id and position when the request gave none). A later
request with ``previous_response_id`` continues ``input_items + output_items`` of that record;
its ``instructions`` are not carried over, as the API documents.

=============================================  ============================================
route                                          answer
=============================================  ============================================
``GET /v1/responses/{id}``                     the response object as it was answered
``DELETE /v1/responses/{id}``                  ``{"id", "object": "response.deleted",
                                               "deleted": true}``
``GET /v1/responses/{id}/input_items``         the resolved input items with ids, a list
                                               page (:mod:`toolwire.store.pages`: ``order``
                                               default ``desc``, ``limit`` 1..100, default
                                               20, ``after``)
``POST /v1/responses/{id}/cancel``,            background responses (``background: true``):
``GET /v1/responses/{id}?stream=true``         :mod:`toolwire.store.background`
unknown id                                     404 ``Response with id '…' not found.``;
                                               as ``previous_response_id``: 400, code
                                               ``previous_response_not_found``, param
                                               ``previous_response_id`` (as Codex users
                                               quote the real API's answer)
=============================================  ============================================
"""

from __future__ import annotations

import hashlib
from typing import Any

from toolwire.store.base import STATUSES, ResponseRecord

__all__ = ["history", "input_items", "listed_item", "response_record"]

_STATUS = frozenset(
    {"message", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output"}
)
"""Listed item types whose ``status`` the API always returns (``completed`` for given input)."""
_ID_PREFIX = {"message": "msg_", "function_call_output": "fco_", "custom_tool_call_output": "ctco_"}


def input_items(value: Any) -> list[Any]:
    """A request's ``input`` as a list of items (a string is one user message)."""
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    return list(value) if isinstance(value, list) else []


def _content(item: dict[str, Any]) -> list[Any]:
    content = item.get("content")
    if isinstance(content, str):
        kind = "output_text" if item.get("role") == "assistant" else "input_text"
        return [{"type": kind, "text": content}]
    return list(content) if isinstance(content, list) else []


def listed_item(item: Any, owner: str, index: int) -> dict[str, Any]:
    """An input item as ``input_items`` lists it: typed, with an id (derived from the response
    id and position when the request gave none), a ``status`` and message content as a part list."""
    out: dict[str, Any] = {**item} if isinstance(item, dict) else {"type": "message", "content": []}
    kind = out.setdefault("type", "message")
    if kind == "message":
        out["content"] = _content(out)
    if kind in _STATUS:
        out.setdefault("status", "completed")
    if not isinstance(out.get("id"), str):
        digest = hashlib.sha256(f"{owner}:{index}".encode()).hexdigest()[:24]
        out["id"] = f"{_ID_PREFIX.get(kind, 'item_')}{digest}"
    return out


def history(record: ResponseRecord) -> list[dict[str, Any]]:
    """What a request continuing ``record`` prepends: its input items, then its output."""
    return [*record.input_items, *record.output_items]


def response_record(
    response: dict[str, Any], request: dict[str, Any], previous: ResponseRecord | None
) -> ResponseRecord | None:
    """The record that keeps ``response``, answered to the wire ``request`` (which continued
    ``previous``, when given); ``None`` when the response has no id."""
    key = response.get("id")
    if not isinstance(key, str):
        return None
    own = [listed_item(item, key, n) for n, item in enumerate(input_items(request.get("input")))]
    created = response.get("created_at")
    status = response.get("status")
    output = response.get("output")
    return ResponseRecord(
        id=key,
        created_at=created if isinstance(created, int) else 0,
        status=status if status in STATUSES else "completed",
        request={k: v for k, v in request.items() if k != "input"},
        input_items=[*(history(previous) if previous is not None else []), *own],
        output_items=[o for o in output if isinstance(o, dict)] if isinstance(output, list) else [],
        response=response,
        previous_response_id=previous.id if previous is not None else None,
    )
