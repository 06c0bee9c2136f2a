"""The stored-response operations of a Responses client, as the hop answers them without I/O:
from the shell's store in front of a stateless upstream (a live background stream's headers,
each store failure's status and wording, a bad page query), or sent as they came to a Responses
upstream, which keeps the state itself."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.hop.cases import ANTHROPIC_ANSWER
from tests.hop.driving import CLOCK, drive, make_hop
from toolwire.hop import InboundRequest
from toolwire.hop._config import HopConfig
from toolwire.hop._steps import ReplyFollow
from toolwire.hop.core import Hop, Received, Reply
from toolwire.store import ResponseRecord
from toolwire.store.background import StoreCall
from toolwire.store.base import StoreError

BACKGROUND_STREAM = ResponseRecord(
    id="resp_bg",
    created_at=int(CLOCK),
    status="completed",
    request={"model": "gpt-x", "background": True, "stream": True},
    input_items=[{"id": "msg_in", "type": "message", "role": "user", "content": "hi"}],
    response={"id": "resp_bg", "object": "response", "status": "completed", "output": []},
)
RUNNING = ResponseRecord(
    id="resp_run",
    created_at=int(CLOCK),
    status="in_progress",
    request={"model": "gpt-x", "background": True},
    response={"id": "resp_run", "object": "response", "status": "in_progress", "output": []},
)
FOREGROUND = ResponseRecord(
    id="resp_fg",
    created_at=int(CLOCK),
    request={"model": "gpt-x"},
    input_items=[{"id": f"msg_{n}", "type": "message", "role": "user", "content": str(n)} for n in range(3)],
    response={"id": "resp_fg", "object": "response", "status": "completed", "output": []},
)


def _config(upstream: str = "anthropic") -> HopConfig:
    return HopConfig.single(upstream, "https://up.example")


def _run(
    hop: Hop, method: str, path: str, query: str = "", store: Callable[[StoreCall], Any] | None = None
) -> Any:
    """The hop's answer to one bodiless call; its store calls go to ``store`` (which may raise)."""
    store = store if store is not None else _records(BACKGROUND_STREAM, RUNNING, FOREGROUND)
    steps = hop.steps(InboundRequest(method, path, query, {}, b""))
    try:
        step = next(steps)
        while True:
            assert isinstance(step, StoreCall), step
            try:
                result = store(step)
            except StoreError as exc:
                step = steps.throw(exc)
            else:
                step = steps.send(result)
    except StopIteration as stop:
        return stop.value


def _records(*records: ResponseRecord) -> Callable[[StoreCall], Any]:
    kept = {r.id: r for r in records}

    def answer(step: StoreCall) -> Any:
        if step.method == "get_response":
            return kept.get(step.args[0])
        raise StoreError("disk on fire")

    return answer


def _failing(step: StoreCall) -> Any:
    raise StoreError("disk on fire")


def _error(reply: Any) -> tuple[int, dict[str, Any]]:
    assert isinstance(reply, Reply), reply
    return reply.status, json.loads(reply.body)["error"]


def test_a_background_stream_is_followed_as_an_uncached_event_stream() -> None:
    hop = Hop(_config(), env={}, clock=lambda: CLOCK, background=True)
    reply = _run(hop, "GET", "/v1/responses/resp_bg", "stream=true&starting_after=2")
    assert isinstance(reply, ReplyFollow) and reply.status == 200
    assert reply.headers == {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}


def test_following_a_stream_needs_the_gateway_server() -> None:
    status, error = _error(_run(make_hop(_config()), "GET", "/v1/responses/resp_bg", "stream=true"))
    assert status == 400
    assert error["message"] == "Streaming a stored response needs the gateway server (toolwire serve)."


@pytest.mark.parametrize(
    ("method", "path", "query"),
    [
        ("GET", "/v1/responses/resp_fg/input_items", "limit=0"),
        ("GET", "/v1/responses/resp_fg/input_items", "order=sideways"),
        ("GET", "/v1/responses/resp_bg", "stream=true&starting_after=x"),
    ],
)
def test_a_bad_query_is_a_400_naming_its_parameter(method: str, path: str, query: str) -> None:
    status, error = _error(_run(make_hop(_config()), method, path, query))
    assert status == 400 and error["type"] == "invalid_request_error"
    assert error["param"] == query.split("&")[-1].split("=")[0]


def test_input_items_are_a_page_of_the_resolved_input() -> None:
    reply = _run(make_hop(_config()), "GET", "/v1/responses/resp_fg/input_items", "limit=2&order=asc")
    page = json.loads(reply.body)
    assert reply.status == 200 and page["object"] == "list" and page["has_more"] is True
    assert [item["id"] for item in page["data"]] == ["msg_0", "msg_1"]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/v1/responses/resp_bg"),
        ("DELETE", "/v1/responses/resp_bg"),
        ("GET", "/v1/responses/resp_bg/input_items"),
        ("POST", "/v1/responses/resp_bg/cancel"),
    ],
)
def test_a_store_that_cannot_be_read_is_a_503_that_says_why(method: str, path: str) -> None:
    status, error = _error(_run(make_hop(_config()), method, path, store=_failing))
    assert status == 503
    assert error["message"] == "The response store is unavailable: disk on fire"


@pytest.mark.parametrize(
    ("method", "path"), [("DELETE", "/v1/responses/resp_bg"), ("POST", "/v1/responses/resp_run/cancel")]
)
def test_a_store_that_fails_to_change_a_response_is_a_503(method: str, path: str) -> None:
    status, error = _error(_run(make_hop(_config()), method, path))
    assert status == 503
    assert error["message"] == "The response store is unavailable: disk on fire"


def test_an_unknown_response_is_the_apis_404() -> None:
    status, error = _error(_run(make_hop(_config()), "GET", "/v1/responses/resp_nope"))
    assert status == 404 and error["message"] == "Response with id 'resp_nope' not found."


def test_a_response_the_store_cannot_keep_is_a_500_not_an_answer() -> None:
    body = json.dumps({"model": "gpt-x", "input": "hi"}).encode()
    steps = make_hop(_config()).steps(InboundRequest("POST", "/v1/responses", "", {}, body))
    step = next(steps)
    step = steps.send(
        Received(200, {"content-type": "application/json"}, json.dumps(ANTHROPIC_ANSWER).encode())
    )
    assert isinstance(step, StoreCall) and step.method == "put_response"
    try:
        steps.throw(StoreError("disk full"))
    except StopIteration as stop:
        reply = stop.value
    status, error = _error(reply)
    assert status == 500 and error["message"] == "The response could not be stored: disk full"


# -- a Responses upstream keeps its own state ---------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path", "query"),
    [
        ("GET", "/v1/responses/resp_up", "include[]=reasoning.encrypted_content"),
        ("DELETE", "/v1/responses/resp_up", ""),
        ("GET", "/v1/responses/resp_up/input_items", "limit=5"),
        ("POST", "/v1/responses/resp_up/cancel", ""),
    ],
)
def test_stored_operations_go_to_a_responses_upstream_as_they_came(
    method: str, path: str, query: str
) -> None:
    answer = Received(418, {"content-type": "application/json"}, b'{"upstream": "said so"}')
    sends, reply = drive(
        make_hop(_config("openai-responses")), InboundRequest(method, path, query, {}, b""), [answer]
    )
    (send,) = sends
    assert send.method == method
    assert send.url == "https://up.example" + path.removeprefix("/v1") + (f"?{query}" if query else "")
    assert send.headers["accept"] == "application/json"
    assert send.headers["content-type"] == "application/json"
    assert isinstance(reply, Reply) and reply.status == 418 and reply.body == b'{"upstream": "said so"}'
    assert reply.headers["content-type"] == "application/json"


def test_a_continuation_goes_to_a_responses_upstream_untouched() -> None:
    body = {"model": "gpt-x", "input": "and then?", "previous_response_id": "resp_up"}
    request = InboundRequest("POST", "/v1/responses", "", {}, json.dumps(body).encode())
    answer = {
        "id": "resp_up2",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "gpt-x",
        "output": [],
        "previous_response_id": "resp_up",
    }
    sends, reply = drive(
        make_hop(_config("openai-responses")), request, [Received(200, {}, json.dumps(answer).encode())]
    )
    (send,) = sends  # no store call: the upstream knows its own responses
    assert json.loads(send.body)["previous_response_id"] == "resp_up"
    assert isinstance(reply, Reply) and reply.status == 200
    out = json.loads(reply.body)
    assert out["id"] == "resp_up2" and out["previous_response_id"] == "resp_up"


class Kept:
    """A store of response records that performs every call and remembers them."""

    def __init__(self, *records: ResponseRecord) -> None:
        self.responses = {r.id: r for r in records}
        self.calls: list[str] = []

    def __call__(self, step: StoreCall) -> Any:
        self.calls.append(step.method)
        if step.method == "get_response":
            return self.responses.get(step.args[0])
        if step.method == "put_response":
            self.responses[step.args[0].id] = step.args[0]
        if step.method == "delete_response":
            return self.responses.pop(step.args[0], None) is not None
        return None


def test_a_deleted_response_is_gone_and_acknowledged() -> None:
    kept = Kept(FOREGROUND)
    reply = _run(make_hop(_config()), "DELETE", "/v1/responses/resp_fg", store=kept)
    assert reply.status == 200
    assert json.loads(reply.body) == {"id": "resp_fg", "object": "response.deleted", "deleted": True}
    assert kept.responses == {}


def test_a_cancelled_background_response_is_answered_and_kept_cancelled() -> None:
    kept = Kept(RUNNING)
    reply = _run(make_hop(_config()), "POST", "/v1/responses/resp_run/cancel", store=kept)
    assert reply.status == 200 and json.loads(reply.body)["status"] == "cancelled"
    assert kept.responses["resp_run"].status == "cancelled"


def test_a_response_not_streamed_in_the_background_cannot_be_followed() -> None:
    hop = Hop(_config(), env={}, clock=lambda: CLOCK, background=True)
    status, error = _error(_run(hop, "GET", "/v1/responses/resp_fg", "stream=true"))
    assert status == 400 and error["param"] == "stream"
    assert error["message"] == "Only responses created with background=true and stream=true can be streamed."
