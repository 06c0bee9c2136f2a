"""The Conversations API answered from the shell's store, and a ``conversation``'s items for a
Responses request (:func:`load_items`). Sans-IO: every store access is a
:class:`~toolwire.hop._stateful.StoreCall` step.

=========================================  ====================================================
route                                      answer
=========================================  ====================================================
``POST /v1/conversations``                 a new ``conversation`` object (``items``: its first
                                           items, up to 20; ``metadata``: up to 16 pairs)
``GET /v1/conversations/{id}``             the ``conversation`` object
``DELETE /v1/conversations/{id}``          ``{"id", "object": "conversation.deleted",
                                           "deleted": true}``
``GET .../{id}/items``                     a list page (``order`` default ``desc``, ``limit``
                                           1..100, ``after``)
``POST .../{id}/items``                    the added items, a list (``items``: up to 20)
``GET .../{id}/items/{item_id}``           that item
=========================================  ====================================================

An unknown conversation or item is a 404 worded as the API words it. Items without an id get one
(``msg_...``, derived from the conversation and a fresh token, as ``input_items`` lists them).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError, ToolwireError
from toolwire.hop._stateful import StoreCall

if TYPE_CHECKING:
    from toolwire.hop._call import InboundRequest
    from toolwire.hop._routes import Endpoint
    from toolwire.hop.core import Hop, Reply, ReplyStream

__all__ = ["CONVERSATION_OPERATIONS", "conversation_id", "load_items"]

MAX_ITEMS = 20
"""The most items one create or add request may carry (the API's limit)."""
MAX_METADATA = 16
_Steps = Generator[Any, Any, "Reply | ReplyStream"]


def _error(status: int, message: str, *, param: str | None = None) -> Reply:
    from toolwire.hop.core import client_error

    return client_error("openai-responses", status, message, type="invalid_request_error", param=param)


def _reply(body: Any) -> Reply:
    from toolwire.hop.core import Reply

    return Reply(200, {"content-type": "application/json"}, dumps(body))


def _unavailable(exc: ToolwireError) -> Reply:
    return _error(503, f"The conversation store is unavailable: {exc.message}")


def _not_found(ident: str) -> Reply:
    return _error(404, f"Conversation with id '{ident}' not found.")


def conversation_id(value: Any) -> str:
    """The id a request's ``conversation`` names (an id, or ``{"id": ...}``).

    Raises:
        PayloadError: neither.
    """
    if isinstance(value, dict):
        value = value.get("id")
    if not isinstance(value, str) or not value:
        raise PayloadError(
            "Invalid 'conversation': expected an id or an object with an 'id'.", path="conversation"
        )
    return value


def load_items(ident: str) -> Generator[StoreCall, Any, list[dict[str, Any]] | Reply]:
    """Every item of conversation ``ident``, oldest first (a 404 when it is unknown)."""
    from toolwire.store import StoreNotFoundError

    items: list[dict[str, Any]] = []
    after: str | None = None
    while True:
        try:
            page = yield StoreCall("list_items", (ident,), {"after": after, "limit": 100, "order": "asc"})
        except StoreNotFoundError:
            return _not_found(ident)
        except ToolwireError as exc:
            return _unavailable(exc)
        items += page.items
        if not page.has_more:
            return items
        after = page.last_id


def _conversation(record: Any) -> dict[str, Any]:
    return {
        "id": record.id,
        "object": "conversation",
        "created_at": record.created_at,
        "metadata": record.metadata,
    }


def _body(inbound: InboundRequest) -> dict[str, Any]:
    body = loads(inbound.body) if inbound.body.strip() else {}
    if not isinstance(body, dict):
        raise PayloadError("The request body must be a JSON object.", path="$")
    return body


def _items(body: dict[str, Any], *, required: bool) -> list[dict[str, Any]]:
    items = body.get("items")
    if items is None and not required:
        return []
    if not isinstance(items, list) or not all(isinstance(item, dict) for item in items):
        raise PayloadError("Invalid 'items': expected an array of items.", path="items")
    if len(items) > MAX_ITEMS:
        raise PayloadError(
            f"Invalid 'items': expected at most {MAX_ITEMS} items, got {len(items)}.", path="items"
        )
    from toolwire.store.responses import listed_item

    owner = uuid.uuid4().hex
    return [listed_item(item, owner, n) for n, item in enumerate(items)]


def _metadata(body: dict[str, Any]) -> dict[str, Any]:
    metadata = body.get("metadata") or {}
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise PayloadError("Invalid 'metadata': expected an object of strings.", path="metadata")
    if len(metadata) > MAX_METADATA:
        raise PayloadError(f"Invalid 'metadata': expected at most {MAX_METADATA} pairs.", path="metadata")
    return metadata


def _list(items: list[dict[str, Any]], has_more: bool = False) -> dict[str, Any]:
    first = items[0]["id"] if items else None
    last = items[-1]["id"] if items else None
    return {"object": "list", "data": items, "first_id": first, "last_id": last, "has_more": has_more}


def _create(hop: Hop, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    from toolwire.store import ConversationRecord

    body = _body(inbound)
    items, metadata = _items(body, required=False), _metadata(body)
    record = ConversationRecord(
        id=f"conv_{uuid.uuid4().hex}", created_at=int(hop._clock()), metadata=metadata
    )
    try:
        yield StoreCall("create_conversation", (record, items))
    except ToolwireError as exc:
        return _unavailable(exc)
    return _reply(_conversation(record))


def _get(hop: Hop, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    ident = endpoint.ident or ""
    try:
        record = yield StoreCall("get_conversation", (ident,))
    except ToolwireError as exc:
        return _unavailable(exc)
    return _not_found(ident) if record is None else _reply(_conversation(record))


def _delete(hop: Hop, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    ident = endpoint.ident or ""
    try:
        deleted = yield StoreCall("delete_conversation", (ident,))
    except ToolwireError as exc:
        return _unavailable(exc)
    if not deleted:
        return _not_found(ident)
    return _reply({"id": ident, "object": "conversation.deleted", "deleted": True})


def _list_items(hop: Hop, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    from toolwire.store import StoreNotFoundError
    from toolwire.store.pages import page_query

    ident = endpoint.ident or ""
    try:
        query = page_query(dict(parse_qsl(inbound.query)))
    except PayloadError as exc:
        return _error(400, exc.message, param=exc.path)
    try:
        page = yield StoreCall(
            "list_items", (ident,), {"after": query.after, "limit": query.limit, "order": query.order}
        )
    except StoreNotFoundError:
        return _not_found(ident)
    except ToolwireError as exc:
        return _unavailable(exc)
    return _reply(_list(page.items, page.has_more))


def _add_items(hop: Hop, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    from toolwire.store import StoreNotFoundError

    ident = endpoint.ident or ""
    items = _items(_body(inbound), required=True)
    try:
        yield StoreCall("append_items", (ident, items))
    except StoreNotFoundError:
        return _not_found(ident)
    except ToolwireError as exc:
        return _unavailable(exc)
    return _reply(_list(items))


def _item(hop: Hop, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    items = yield from load_items(endpoint.ident or "")
    if not isinstance(items, list):
        return items
    found = next((item for item in items if item.get("id") == endpoint.item), None)
    if found is None:
        return _error(404, f"Item with id '{endpoint.item}' not found.")
    return _reply(found)


CONVERSATION_OPERATIONS: dict[str, Callable[[Hop, Endpoint, InboundRequest], _Steps]] = {
    "conv_create": _create,
    "conv_get": _get,
    "conv_delete": _delete,
    "conv_items": _list_items,
    "conv_add": _add_items,
    "conv_item": _item,
}
"""The Conversations API operations by name."""
