"""An in-memory Responses store: ``store``, ``previous_response_id`` and ``/v1/responses/{id}``.

A bounded dict keyed by response id, one per app (the oldest response is dropped first once
``EmulatorConfig.store_size`` are kept). A response is kept when its request does not set
``store: false`` (``true`` is the API's default), with its input resolved: the stored
conversation it continued, then its own input items. A later request with
``previous_response_id`` continues ``resolved input + output`` of that response; its
``instructions`` are not carried over, as the API documents. (The gateway's persistent store is
another component; this one lives as long as the emulator.)

=============================================  ============================================
route                                          answer
=============================================  ============================================
``GET /v1/responses/{id}``                     the response object as it was answered
``DELETE /v1/responses/{id}``                  ``{"id", "object": "response.deleted",
                                               "deleted": true}``
``GET /v1/responses/{id}/input_items``         the resolved input items with ids, a list
                                               page (``order`` default ``desc``, ``limit``
                                               default 20, ``after``)
unknown id                                     404 ``Response with id '…' not found.``;
                                               as ``previous_response_id``: 400, code
                                               ``previous_response_not_found``, param
                                               ``previous_response_id`` (as Codex users
                                               quote the real API's answer)
=============================================  ============================================
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

__all__ = ["ResponseStore", "Stored", "input_items", "listed_item"]

_STATUS = frozenset(
    {"message", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output"}
)
"""Listed item types whose ``status`` the API always returns (``completed`` for given input)."""
_ID_PREFIX = {"message": "msg_", "function_call_output": "fco_", "custom_tool_call_output": "ctco_"}


@dataclass(frozen=True, slots=True)
class Stored:
    """One kept response: the answered object, its resolved input items (as sent), and the same
    items as ``input_items`` lists them (ids given once, by the response that first took them)."""

    response: dict[str, Any]
    items: tuple[Any, ...]
    listed: tuple[dict[str, Any], ...] = ()

    def conversation(self) -> list[Any]:
        """What a request continuing this response prepends: its input items, then its output."""
        return [*self.items, *self.response.get("output", [])]


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


class ResponseStore:
    """Responses by id, at most ``size`` (the oldest dropped first).

    Args:
        size: the most responses kept (``0`` keeps none).
    """

    def __init__(self, size: int) -> None:
        self.size = max(0, size)
        self._kept: OrderedDict[str, Stored] = OrderedDict()

    def put(self, response: dict[str, Any], items: list[Any], previous: str | None = None) -> None:
        """Keep ``response``, answered to the resolved input ``items`` (which start with the
        conversation of the kept response ``previous``, when given)."""
        key = response.get("id")
        if not isinstance(key, str) or self.size == 0:
            return
        base = self._kept.get(previous) if previous is not None else None
        head = [*base.listed, *base.response.get("output", [])] if base is not None else []
        own = [listed_item(item, key, i) for i, item in enumerate(items[len(head) :])]
        self._kept.pop(key, None)
        self._kept[key] = Stored(response, tuple(items), (*head, *own))
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)

    def get(self, key: str) -> Stored | None:
        """The kept response ``key``, or ``None``."""
        return self._kept.get(key)

    def delete(self, key: str) -> bool:
        """Forget ``key``; whether it was kept."""
        return self._kept.pop(key, None) is not None

    def page(
        self, key: str, *, order: str = "desc", limit: int = 20, after: str | None = None
    ) -> dict[str, Any]:
        """The ``input_items`` list page of kept response ``key`` (which must be kept)."""
        items = list(self._kept[key].listed)
        if order != "asc":
            items.reverse()
        if after is not None:
            ids = [i["id"] for i in items]
            items = items[ids.index(after) + 1 :] if after in ids else []
        data = items[: max(1, min(limit, 100))]
        return {
            "object": "list",
            "data": data,
            "first_id": data[0]["id"] if data else None,
            "last_id": data[-1]["id"] if data else None,
            "has_more": len(items) > len(data),
        }
