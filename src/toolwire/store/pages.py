"""List pages as the OpenAI API pages them: ``after``, ``limit``, ``order``; pure.

``GET /v1/responses/{id}/input_items`` and ``GET /v1/conversations/{id}/items`` answer::

    {"object": "list", "data": [...], "first_id": "...", "last_id": "...", "has_more": false}

=========  ==========================================================  =====================
query      meaning                                                     refused (400, param)
=========  ==========================================================  =====================
``order``  ``asc`` (oldest first) or ``desc`` (newest first; the       any other value
           default of ``input_items``)
``limit``  items per page, 1 to 100 (default 20)                       not an integer in
                                                                       1..100
``after``  an item id: the page starts after it, in ``order``; an      --
           id not in the list gives an empty page
=========  ==========================================================  =====================

The gateway and the emulator call :func:`page_query` on the query string, then :func:`list_page`
on a record's items (or :meth:`~toolwire.store.Store.list_items` for a conversation), so both
answer alike. Items are JSON objects with a string ``id``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from toolwire.errors import PayloadError
from toolwire.store.base import ItemPage, Order

__all__ = ["MAX_LIMIT", "PageQuery", "list_object", "list_page", "page_of", "page_query"]

MAX_LIMIT = 100
"""The most items one page holds."""
_ORDERS: tuple[Order, ...] = ("asc", "desc")
_INTEGER = re.compile(r"-?[0-9]{1,9}")


@dataclass(frozen=True, slots=True)
class PageQuery:
    """A checked page request."""

    after: str | None = None
    limit: int = 20
    order: Order = "desc"


def page_query(query: Mapping[str, str], *, order: Order = "desc") -> PageQuery:
    """The page a query string asks for (``order``: the default when it names none).

    Raises:
        PayloadError: ``order`` or ``limit`` is invalid; the error's ``path`` is the parameter's
            name (``limit``), which a shell reports as the API's ``param``.
    """
    chosen = query.get("order", order)
    if chosen not in _ORDERS:
        raise PayloadError(f"Invalid 'order': expected 'asc' or 'desc', got {chosen!r}.", path="order")
    text = query.get("limit", "20")
    limit = int(text) if _INTEGER.fullmatch(text) else None
    if limit is None or not 1 <= limit <= MAX_LIMIT:
        raise PayloadError(
            f"Invalid 'limit': expected an integer from 1 to {MAX_LIMIT}, got {text!r}.", path="limit"
        )
    after = query.get("after") or None
    return PageQuery(after=after, limit=limit, order=chosen)


def page_of(
    items: Sequence[dict[str, Any]], *, after: str | None = None, limit: int = 20, order: Order = "desc"
) -> ItemPage:
    """The page of ``items`` (oldest first) that ``after``/``limit``/``order`` select."""
    ordered = list(items) if order == "asc" else list(reversed(items))
    if after is not None:
        start = next((n + 1 for n, item in enumerate(ordered) if item.get("id") == after), len(ordered))
        ordered = ordered[start:]
    data = ordered[: max(1, limit)]
    first = data[0].get("id") if data else None
    last = data[-1].get("id") if data else None
    return ItemPage(items=data, has_more=len(ordered) > len(data), first_id=first, last_id=last)


def list_page(
    items: Sequence[dict[str, Any]], *, after: str | None = None, limit: int = 20, order: Order = "desc"
) -> dict[str, Any]:
    """The API's list object for one page of ``items`` (oldest first).

    >>> list_page([{"id": "a"}, {"id": "b"}, {"id": "c"}], limit=2)
    {'object': 'list', 'data': [{'id': 'c'}, {'id': 'b'}], 'first_id': 'c', 'last_id': 'b', 'has_more': True}
    """
    return list_object(page_of(items, after=after, limit=limit, order=order))


def list_object(page: ItemPage) -> dict[str, Any]:
    """An :class:`ItemPage` in the API's list shape."""
    return {
        "object": "list",
        "data": page.items,
        "first_id": page.first_id,
        "last_id": page.last_id,
        "has_more": page.has_more,
    }
