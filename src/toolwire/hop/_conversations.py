"""The Conversations API answered from the shell's store, and a ``conversation``'s items for a
Responses request (:func:`load_items`). Sans-IO: every store access is a
:class:`~toolwire.hop._stateful.StoreCall` step.

=========================================  ====================================================
route                                      answer
=========================================  ====================================================
``POST /v1/conversations``                 a new ``conversation`` object (``items``: its first
                                           items, up to 20; ``metadata``: up to 16 pairs)
``GET /v1/conversations/{id}``             the ``conversation`` object
``POST /v1/conversations/{id}``            the ``conversation`` object, its ``metadata``
                                           replaced (``metadata`` required)
``DELETE /v1/conversations/{id}``          ``{"id", "object": "conversation.deleted",
                                           "deleted": true}``
``GET .../{id}/items``                     a list page (``order`` default ``desc``, ``limit``
                                           1..100, ``after``)
``POST .../{id}/items``                    the added items, a list (``items``: up to 20)
``GET .../{id}/items/{item_id}``           that item
``DELETE .../{id}/items/{item_id}``        the ``conversation`` object (the item is gone)
=========================================  ====================================================

An unknown conversation or item is a 404 worded as the API words it. Items without an id get one
(``msg_...``, derived from the conversation and a fresh token, as ``input_items`` lists them).
The item routes take ``include`` (``include[]=...``, values of the API's list); a reasoning
item's ``encrypted_content`` is kept but shown only with ``include=reasoning.encrypted_content``,
as the API shows it. The operations take a clock, an endpoint and the request, so the gateway's
hop and the emulator answer alike (:func:`drive_conversation` performs one on a store).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Generator
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError, ToolwireError
from toolwire.hop._stateful import StoreCall

if TYPE_CHECKING:
    from toolwire.hop._call import InboundRequest
    from toolwire.hop._routes import Endpoint
    from toolwire.hop.core import Reply, ReplyStream

__all__ = ["CONVERSATION_OPERATIONS", "INCLUDE", "conversation_id", "drive_conversation", "load_items"]

MAX_ITEMS = 20
"""The most items one create or add request may carry (the API's limit)."""
MAX_METADATA = 16
INCLUDE = (
    "file_search_call.results",
    "web_search_call.results",
    "web_search_call.action.sources",
    "message.input_image.image_url",
    "computer_call_output.output.image_url",
    "code_interpreter_call.outputs",
    "reasoning.encrypted_content",
    "message.output_text.logprobs",
)
"""The values ``include`` takes (the API's list)."""
_Steps = Generator[Any, Any, "Reply | ReplyStream"]
_Clock = Callable[[], float]


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


def _no_item(item: str | None) -> Reply:
    return _error(404, f"Item with id '{item}' not found.")


def _include(query: str) -> frozenset[str]:
    """The ``include`` values of a query (``include`` or ``include[]``, repeated).

    Raises:
        PayloadError: a value the API does not take (path ``include``).
    """
    values = [value for name, value in parse_qsl(query) if name in ("include", "include[]")]
    for value in values:
        if value not in INCLUDE:
            supported = ", ".join(f"'{v}'" for v in INCLUDE)
            raise PayloadError(
                f"Invalid value: '{value}'. Supported values are: {supported}.", path="include"
            )
    return frozenset(values)


def _shown(item: dict[str, Any], include: frozenset[str]) -> dict[str, Any]:
    """``item`` as the API shows it: a reasoning item's ``encrypted_content`` only when asked."""
    if item.get("type") != "reasoning" or "encrypted_content" not in item:
        return item
    if "reasoning.encrypted_content" in include:
        return item
    return {key: value for key, value in item.items() if key != "encrypted_content"}


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


def _list(
    items: list[dict[str, Any]], has_more: bool = False, include: frozenset[str] = frozenset()
) -> dict[str, Any]:
    first = items[0]["id"] if items else None
    last = items[-1]["id"] if items else None
    data = [_shown(item, include) for item in items]
    return {"object": "list", "data": data, "first_id": first, "last_id": last, "has_more": has_more}


def _create(clock: _Clock, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    from toolwire.store import ConversationRecord

    body = _body(inbound)
    items, metadata = _items(body, required=False), _metadata(body)
    record = ConversationRecord(id=f"conv_{uuid.uuid4().hex}", created_at=int(clock()), metadata=metadata)
    try:
        yield StoreCall("create_conversation", (record, items))
    except ToolwireError as exc:
        return _unavailable(exc)
    return _reply(_conversation(record))


def _get(clock: _Clock, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    ident = endpoint.ident or ""
    try:
        record = yield StoreCall("get_conversation", (ident,))
    except ToolwireError as exc:
        return _unavailable(exc)
    return _not_found(ident) if record is None else _reply(_conversation(record))


def _update(clock: _Clock, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    ident = endpoint.ident or ""
    body = _body(inbound)
    if "metadata" not in body:
        raise PayloadError("Missing required parameter: 'metadata'.", path="metadata")
    metadata = _metadata(body)
    try:
        record = yield StoreCall("update_conversation", (ident, metadata))
    except ToolwireError as exc:
        return _unavailable(exc)
    return _not_found(ident) if record is None else _reply(_conversation(record))


def _delete(clock: _Clock, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    ident = endpoint.ident or ""
    try:
        deleted = yield StoreCall("delete_conversation", (ident,))
    except ToolwireError as exc:
        return _unavailable(exc)
    if not deleted:
        return _not_found(ident)
    return _reply({"id": ident, "object": "conversation.deleted", "deleted": True})


def _list_items(clock: _Clock, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    from toolwire.store import StoreNotFoundError
    from toolwire.store.pages import page_query

    ident = endpoint.ident or ""
    try:
        query = page_query(dict(parse_qsl(inbound.query)))
        include = _include(inbound.query)
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
    return _reply(_list(page.items, page.has_more, include))


def _add_items(clock: _Clock, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    from toolwire.store import StoreNotFoundError

    ident = endpoint.ident or ""
    try:
        include = _include(inbound.query)
    except PayloadError as exc:
        return _error(400, exc.message, param=exc.path)
    items = _items(_body(inbound), required=True)
    try:
        yield StoreCall("append_items", (ident, items))
    except StoreNotFoundError:
        return _not_found(ident)
    except ToolwireError as exc:
        return _unavailable(exc)
    return _reply(_list(items, include=include))


def _item(clock: _Clock, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    from toolwire.store import StoreNotFoundError

    ident = endpoint.ident or ""
    try:
        include = _include(inbound.query)
    except PayloadError as exc:
        return _error(400, exc.message, param=exc.path)
    try:
        found = yield StoreCall("get_item", (ident, endpoint.item or ""))
    except StoreNotFoundError:
        return _not_found(ident)
    except ToolwireError as exc:
        return _unavailable(exc)
    return _no_item(endpoint.item) if found is None else _reply(_shown(found, include))


def _delete_item(clock: _Clock, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
    from toolwire.store import StoreNotFoundError

    ident = endpoint.ident or ""
    try:
        record = yield StoreCall("delete_item", (ident, endpoint.item or ""))
    except StoreNotFoundError:
        return _not_found(ident)
    except ToolwireError as exc:
        return _unavailable(exc)
    return _no_item(endpoint.item) if record is None else _reply(_conversation(record))


CONVERSATION_OPERATIONS: dict[str, Callable[[_Clock, Endpoint, InboundRequest], _Steps]] = {
    "conv_create": _create,
    "conv_get": _get,
    "conv_update": _update,
    "conv_delete": _delete,
    "conv_items": _list_items,
    "conv_add": _add_items,
    "conv_item": _item,
    "conv_item_delete": _delete_item,
}
"""The Conversations API operations by name: ``(clock, endpoint, request)`` -> steps."""


async def drive_conversation(
    operation: str,
    endpoint: Endpoint,
    inbound: InboundRequest,
    call: Callable[[StoreCall], Awaitable[Any]],
    clock: _Clock,
) -> Reply:
    """Answer a Conversations API request, performing its store steps with ``call`` (the
    emulator's shell; the gateway's hop yields them to its own). A bad body is the API's 400."""
    from toolwire.hop.core import Reply

    steps = CONVERSATION_OPERATIONS[operation](clock, endpoint, inbound)
    result: Any = None
    failure: ToolwireError | None = None
    try:
        while True:
            step = steps.send(result) if failure is None else steps.throw(failure)
            result, failure = None, None
            try:
                result = await call(step)
            except ToolwireError as exc:
                failure = exc
    except StopIteration as stop:
        answer = stop.value
    except PayloadError as exc:
        return _error(400, exc.message, param=exc.path)
    assert isinstance(answer, Reply)
    return answer
