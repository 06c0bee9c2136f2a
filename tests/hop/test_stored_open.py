"""Opening a stateful Responses request: the client's error for each way its state cannot be
loaded (a non-string ``previous_response_id``, a store that fails), worded as OpenAI words them."""

from __future__ import annotations

import json
from typing import Any

from toolwire.hop._stateful import ResponsesFacade, StoreCall
from toolwire.hop._stored import open_facade
from toolwire.hop.core import Reply
from toolwire.store.base import StoreError


def _open(payload: dict[str, Any], store_fails: bool = False) -> tuple[list[StoreCall], Any]:
    steps = open_facade("openai-responses", payload)
    calls: list[StoreCall] = []
    try:
        step = next(steps)
        while True:
            calls.append(step)
            step = steps.throw(StoreError("disk on fire")) if store_fails else steps.send(None)
    except StopIteration as stop:
        return calls, stop.value


def _error(reply: Any) -> tuple[int, dict[str, Any]]:
    assert isinstance(reply, Reply)
    return reply.status, json.loads(reply.body)["error"]


def test_a_previous_response_id_must_be_a_string() -> None:
    calls, reply = _open({"model": "m", "input": "hi", "previous_response_id": 7})
    assert calls == []
    status, error = _error(reply)
    assert status == 400
    assert error["message"] == "Invalid type for 'previous_response_id': expected a string."
    assert error["param"] == "previous_response_id"


def test_a_failing_store_is_a_503_that_says_why() -> None:
    calls, reply = _open({"model": "m", "input": "hi", "previous_response_id": "resp_1"}, store_fails=True)
    assert calls == [StoreCall("get_response", ("resp_1",))]
    status, error = _error(reply)
    assert status == 503
    assert error["message"] == "The response store is unavailable: disk on fire"


def test_an_unknown_previous_response_is_the_apis_400() -> None:
    _, reply = _open({"model": "m", "input": "hi", "previous_response_id": "resp_404"})
    status, error = _error(reply)
    assert status == 400 and error["code"] == "previous_response_not_found"
    assert error["message"] == "Previous response with id 'resp_404' not found."


def test_without_state_the_input_is_the_whole_body() -> None:
    calls, facade = _open({"model": "m", "input": "hi", "store": True})
    assert calls == [] and isinstance(facade, ResponsesFacade)
    assert facade.body["input"] == [{"role": "user", "content": "hi"}]
    assert "previous_response_id" not in facade.body
