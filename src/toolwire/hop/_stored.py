"""The stored-response operations of a Responses client, and the steps that keep its state.

Where the default route's upstream speaks Responses itself, these operations go to it as they
came (it keeps the state); otherwise the hop answers them from the shell's store
(:mod:`toolwire.hop._stateful` has the table). Answers and errors are worded as the API words them.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl

from toolwire._json import dumps
from toolwire.errors import PayloadError, ToolwireError
from toolwire.hop._call import InboundRequest
from toolwire.hop._routes import Endpoint
from toolwire.hop._stateful import ResponsesFacade, StoreCall
from toolwire.ir.base import Format

if TYPE_CHECKING:
    from toolwire.hop.core import Hop, Reply, ReplyStream

__all__ = ["STORED_OPERATIONS", "open_facade", "save_calls"]

_JSON = {"content-type": "application/json"}
_EXCLUSIVE = (
    "Mutually exclusive parameters: Ensure you are only providing one of: "
    "'previous_response_id' or 'conversation'."
)
_Steps = Generator[Any, Any, "Reply | ReplyStream"]


def _error(status: int, message: str, *, code: str | None = None, param: str | None = None) -> Reply:
    from toolwire.hop.core import client_error

    return client_error(
        "openai-responses", status, message, type="invalid_request_error", code=code, param=param
    )


def _reply(body: Any, status: int = 200) -> Reply:
    from toolwire.hop.core import Reply

    return Reply(status, dict(_JSON), dumps(body))


def open_facade(fmt: Format, payload: dict[str, Any]) -> Generator[StoreCall, Any, ResponsesFacade | Reply]:
    """The state handling of one Responses request; a ``previous_response_id`` is loaded (an
    unknown one is the API's 400, ``previous_response_not_found``), or a ``conversation``'s items
    (an unknown one is a 404)."""
    from toolwire.hop._conversations import conversation_id, load_items
    from toolwire.store.responses import history, response_record

    facade = ResponsesFacade(payload, make_record=response_record)
    previous_id = payload.get("previous_response_id")
    if "conversation" in payload and payload["conversation"] is not None:
        if previous_id is not None:
            return _error(400, _EXCLUSIVE, param="conversation")
        facade.conversation = conversation_id(payload["conversation"])
        items = yield from load_items(facade.conversation)
        if not isinstance(items, list):
            return items
        facade.body = facade.resolved_body(items)
        return facade
    if previous_id is None:
        facade.body = facade.resolved_body([])
        return facade
    if not isinstance(previous_id, str):
        return _error(
            400, "Invalid type for 'previous_response_id': expected a string.", param="previous_response_id"
        )
    try:
        previous = yield StoreCall("get_response", (previous_id,))
    except ToolwireError as exc:
        return _error(503, f"The response store is unavailable: {exc.message}")
    if previous is None:
        message = f"Previous response with id '{previous_id}' not found."
        return _error(400, message, code="previous_response_not_found", param="previous_response_id")
    facade.previous = previous
    facade.body = facade.resolved_body(history(previous))
    return facade


def save_calls(fmt: Format, calls: list[StoreCall]) -> Generator[StoreCall, Any, Reply | None]:
    """Perform ``calls``; a store failure is a 500 (the response was not kept, so it is not
    acknowledged)."""
    for call in calls:
        try:
            yield call
        except ToolwireError as exc:
            return _error(500, f"The response could not be stored: {exc.message}")
    return None


def _upstream_keeps_state(hop: Hop) -> bool:
    default = hop.config.default
    return default is not None and hop.config.upstream(default).format == "openai-responses"


def _forward(hop: Hop, inbound: InboundRequest) -> _Steps:
    """The operation sent as it came to the default upstream (a Responses API)."""
    from toolwire.hop.core import Reply

    default = hop.config.default
    assert default is not None
    upstream = hop.config.upstream(default)
    path = inbound.path + (f"?{inbound.query}" if inbound.query else "")
    headers = {"accept": "application/json", "content-type": "application/json"}
    send = hop._send(upstream, path, headers, inbound.body, False, method=inbound.method)
    received = yield from hop._call("openai-responses", send)
    if isinstance(received, Reply):
        return received
    headers = {**_JSON, **hop._headers(upstream.format, "openai-responses", received)}
    return Reply(received.status, headers, received.body)


def _load(ident: str) -> Generator[StoreCall, Any, Any]:
    try:
        record = yield StoreCall("get_response", (ident,))
    except ToolwireError as exc:
        return _error(503, f"The response store is unavailable: {exc.message}")
    if record is None:
        return _error(404, f"Response with id '{ident}' not found.")
    return record


def _stored(
    operation: Callable[[Any, InboundRequest], _Steps],
) -> Callable[[Hop, Endpoint, InboundRequest], _Steps]:
    def run(hop: Hop, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
        if _upstream_keeps_state(hop):
            return (yield from _forward(hop, inbound))
        from toolwire.hop.core import Reply

        record = yield from _load(endpoint.ident or "")
        if isinstance(record, Reply):
            return record
        return (yield from operation(record, inbound))

    return run


def _retrieve(record: Any, inbound: InboundRequest) -> _Steps:
    return _reply(record.response)
    yield


def _delete(record: Any, inbound: InboundRequest) -> _Steps:
    try:
        yield StoreCall("delete_response", (record.id,))
    except ToolwireError as exc:
        return _error(503, f"The response store is unavailable: {exc.message}")
    return _reply({"id": record.id, "object": "response.deleted", "deleted": True})


def _input_items(record: Any, inbound: InboundRequest) -> _Steps:
    from toolwire.store.pages import list_page, page_query

    try:
        query = page_query(dict(parse_qsl(inbound.query)))
    except PayloadError as exc:
        return _error(400, exc.message, param=exc.path)
    return _reply(list_page(record.input_items, after=query.after, limit=query.limit, order=query.order))
    yield


def _cancel(record: Any, inbound: InboundRequest) -> _Steps:
    # Only background responses can be cancelled; the gateway answers every request in the
    # foreground, so a kept response is always finished (the API's answer for those).
    return _error(400, "Only responses created with background=true can be cancelled.")
    yield


def _conversation_operations() -> dict[str, Callable[[Hop, Endpoint, InboundRequest], _Steps]]:
    from toolwire.hop._conversations import CONVERSATION_OPERATIONS

    def forwarding(operation: Callable[[Callable[[], float], Endpoint, InboundRequest], _Steps]) -> Any:
        def run(hop: Hop, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
            if _upstream_keeps_state(hop):
                return (yield from _forward(hop, inbound))
            return (yield from operation(hop._clock, endpoint, inbound))

        return run

    return {name: forwarding(op) for name, op in CONVERSATION_OPERATIONS.items()}


STORED_OPERATIONS: dict[str, Callable[[Hop, Endpoint, InboundRequest], _Steps]] = {
    "retrieve": _stored(_retrieve),
    "delete": _stored(_delete),
    "input_items": _stored(_input_items),
    "cancel": _stored(_cancel),
    **_conversation_operations(),
}
"""The stored-response operations by name."""
