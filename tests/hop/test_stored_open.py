"""Opening a stateful Responses request: the client's error for each way its state cannot be
loaded (a non-string ``previous_response_id``, a store that fails), worded as OpenAI words them."""

from __future__ import annotations

import json
from typing import Any

from toolwire.hop._stateful import ResponsesFacade, StoreCall
from toolwire.hop._stored import open_facade
from toolwire.hop.core import Reply
from toolwire.store import ResponseRecord, StoreNotFoundError
from toolwire.store.base import ItemPage, StoreError


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
    assert error["param"] == "previous_response_id"
    assert error["message"] == "Previous response with id 'resp_404' not found."


def test_without_state_the_input_is_the_whole_body() -> None:
    calls, facade = _open({"model": "m", "input": "hi", "store": True})
    assert calls == [] and isinstance(facade, ResponsesFacade)
    assert facade.body["input"] == [{"role": "user", "content": "hi"}]
    assert "previous_response_id" not in facade.body


def _open_with(payload: dict[str, Any], answer: Any) -> tuple[list[StoreCall], Any]:
    """``open_facade`` with each store call answered by ``answer(call)`` (an exception is thrown)."""
    steps = open_facade("openai-responses", payload)
    calls: list[StoreCall] = []
    try:
        step = next(steps)
        while True:
            calls.append(step)
            result = answer(step)
            step = steps.throw(result) if isinstance(result, Exception) else steps.send(result)
    except StopIteration as stop:
        return calls, stop.value


CONVERSATION = [
    {"id": "msg_a", "type": "message", "role": "user", "content": [{"type": "input_text", "text": "a"}]},
    {
        "id": "msg_b",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "output_text", "text": "b"}],
    },
]


def test_a_conversation_and_a_previous_response_are_mutually_exclusive() -> None:
    payload = {"model": "m", "input": "hi", "conversation": "conv_1", "previous_response_id": "resp_1"}
    calls, reply = _open_with(payload, lambda call: None)
    assert calls == []
    status, error = _error(reply)
    assert status == 400 and error["param"] == "conversation"
    assert error["message"] == (
        "Mutually exclusive parameters: Ensure you are only providing one of: "
        "'previous_response_id' or 'conversation'."
    )


def test_a_conversations_items_come_before_the_new_input() -> None:
    page = ItemPage(items=CONVERSATION, has_more=False, first_id="msg_a", last_id="msg_b")
    calls, facade = _open_with(
        {"model": "m", "input": "c", "conversation": {"id": "conv_1"}}, lambda call: page
    )
    assert [(c.method, c.args) for c in calls] == [("list_items", ("conv_1",))]
    assert isinstance(facade, ResponsesFacade) and facade.conversation == "conv_1"
    assert facade.body["input"] == [*CONVERSATION, {"role": "user", "content": "c"}]
    assert "conversation" not in facade.body


def test_an_unknown_conversation_is_a_404() -> None:
    calls, reply = _open_with(
        {"model": "m", "input": "c", "conversation": "conv_404"}, lambda call: StoreNotFoundError("conv_404")
    )
    assert len(calls) == 1
    status, _ = _error(reply)
    assert status == 404


def test_a_null_conversation_is_no_conversation() -> None:
    calls, facade = _open_with({"model": "m", "input": "c", "conversation": None}, lambda call: None)
    assert calls == [] and isinstance(facade, ResponsesFacade) and facade.conversation is None
    assert facade.body["input"] == [{"role": "user", "content": "c"}]


def test_a_previous_responses_history_comes_before_the_new_input() -> None:
    previous = ResponseRecord(
        id="resp_1",
        created_at=0,
        input_items=CONVERSATION[:1],
        output_items=CONVERSATION[1:],
        request={"instructions": "not carried over"},
    )
    payload = {"model": "m", "input": "c", "previous_response_id": "resp_1"}
    calls, facade = _open_with(payload, lambda call: previous)
    assert calls == [StoreCall("get_response", ("resp_1",))]
    assert isinstance(facade, ResponsesFacade) and facade.previous is previous
    assert facade.body["input"] == [*CONVERSATION, {"role": "user", "content": "c"}]
    assert "previous_response_id" not in facade.body
