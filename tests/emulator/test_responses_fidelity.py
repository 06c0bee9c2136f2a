"""The Responses surface as the real API answers it: the facts the Open Responses compliance
suite checks (README, "Open Responses compliance"), reasoning ``encrypted_content`` only on
request, and ``POST /v1/responses/compact``.

Each test states the fact in its name; the wire bodies go over loopback HTTP to the emulator,
and the compact answers are also read by the official SDK.
"""

from __future__ import annotations

from typing import Any

import httpx
import openai
import pytest

from tests.emulator.test_shapes import _check, _events
from tests.emulator.tools import WEATHER_SCHEMA
from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.emulator.script import Script, ScriptedCall, Turn

WEATHER = {"type": "function", "name": "get_weather", "parameters": WEATHER_SCHEMA}
ENCRYPTED = ["reasoning.encrypted_content"]
USER_PARIS = "What is the weather in Paris?"

NULL_UNLESS_GIVEN = (
    "previous_response_id",
    "max_output_tokens",
    "max_tool_calls",
    "prompt_cache_key",
    "prompt_cache_retention",
    "safety_identifier",
)


def _post(url: str, body: dict[str, Any], path: str = "/v1/responses") -> httpx.Response:
    return httpx.post(url + path, json=body)


def _ok(url: str, body: dict[str, Any], path: str = "/v1/responses") -> dict[str, Any]:
    reply = _post(url, body, path)
    assert reply.status_code == 200, reply.text
    payload: dict[str, Any] = reply.json()
    return payload


def test_every_echoed_field_is_present_null_or_zero_when_not_given(url: str) -> None:
    body = _ok(url, {"model": "gpt-5", "input": "hi"})
    assert {k: body[k] for k in NULL_UNLESS_GIVEN} == dict.fromkeys(NULL_UNLESS_GIVEN)
    assert (body["presence_penalty"], body["frequency_penalty"]) == (0.0, 0.0)
    assert "user" not in body  # the spec's `user` is a string: null would not validate


def test_echoed_fields_take_the_request_values(url: str) -> None:
    given = {
        "max_output_tokens": 64,
        "prompt_cache_key": "k1",
        "safety_identifier": "u1",
        "max_tool_calls": 2,
    }
    body = _ok(url, {"model": "gpt-5", "input": "hi", **given})
    assert {k: body[k] for k in given} == given


@pytest.mark.parametrize(
    ("parameters", "strict"),
    [(WEATHER_SCHEMA, True), ({"type": "object", "properties": {"anything": {}}}, False)],
    ids=["strict-compatible", "untyped-property"],
)
def test_function_tools_are_echoed_with_description_and_strict(
    url: str, parameters: dict[str, Any], strict: bool
) -> None:
    tool = {"type": "function", "name": "f", "parameters": parameters}
    (echoed,) = _ok(url, {"model": "gpt-5", "input": "hi", "tools": [tool]})["tools"]
    assert echoed == {**tool, "description": None, "strict": strict}
    given = _ok(url, {"model": "gpt-5", "input": "hi", "tools": [{**tool, "strict": False}]})["tools"]
    assert given[0]["strict"] is False


def test_unfinished_stream_responses_have_null_usage(url: str) -> None:
    reply = _post(url, {"model": "gpt-5", "input": "hi", "stream": True})
    events = _events(reply.text)
    usage = {e["type"]: e["response"].get("usage", "absent") for e in events if "response" in e}
    assert usage["response.created"] is None and usage["response.in_progress"] is None
    assert usage["response.completed"]["total_tokens"] > 0


def test_assistant_phase_history_is_accepted(url: str) -> None:
    history = [
        {"type": "message", "role": "assistant", "phase": "commentary", "content": "Thinking aloud."},
        {"type": "message", "role": "assistant", "phase": "final_answer", "content": "Four."},
        {"type": "message", "role": "user", "content": "Repeat it."},
    ]
    assert _ok(url, {"model": "gpt-5", "input": history})["status"] == "completed"


def _reasoning_items(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in body["output"] if o["type"] == "reasoning"]


@pytest.mark.parametrize("store", [True, False])
def test_encrypted_content_only_when_included(url: str, store: bool) -> None:
    base = {"model": "gpt-5", "input": "hi", "reasoning": {"effort": "low"}, "store": store}
    (plain,) = _reasoning_items(_ok(url, base))
    assert "encrypted_content" not in plain
    (sealed,) = _reasoning_items(_ok(url, {**base, "include": ENCRYPTED}))
    assert sealed["encrypted_content"]
    events = _events(_post(url, {**base, "stream": True}).text)
    streamed = [e["item"] for e in events if e["type"].startswith("response.output_item")]
    streamed += _reasoning_items(events[-1]["response"])
    assert [i for i in streamed if i["type"] == "reasoning" and "encrypted_content" in i] == []
    events = _events(_post(url, {**base, "stream": True, "include": ENCRYPTED}).text)
    assert _reasoning_items(events[-1]["response"])[0]["encrypted_content"]


def _tool_turn(url: str, **extra: Any) -> tuple[dict[str, Any], list[dict[str, Any]], str]:
    """A first tool turn with reasoning (no ``include``): the request, the replayed history
    (answer included) and the first response's id."""
    body = {
        "model": "gpt-5",
        "input": "weather in Paris?",
        "tools": [WEATHER],
        "reasoning": {"effort": "low"},
    }
    first = _ok(url, {**body, **extra})
    call = next(o for o in first["output"] if o["type"] == "function_call")
    answer = {"type": "function_call_output", "call_id": call["call_id"], "output": "sunny"}
    return body, [{"role": "user", "content": "weather in Paris?"}, *first["output"], answer], first["id"]


def test_stored_reasoning_is_replayed_by_id(url: str) -> None:
    body, replay, _ = _tool_turn(url)
    assert "encrypted_content" not in next(i for i in replay if i.get("type") == "reasoning")
    assert _ok(url, {**body, "input": replay})["status"] == "completed"


def _not_found(reply: httpx.Response, item: str) -> None:
    assert reply.status_code == 400
    message = reply.json()["error"]["message"]
    assert message.startswith(f"Item with id '{item}' not found. Items are not persisted when `store`")


def test_unstored_reasoning_without_content_is_not_found(url: str) -> None:
    body, replay, _ = _tool_turn(url, store=False)
    item = next(i["id"] for i in replay if i.get("type") == "reasoning")
    _not_found(_post(url, {**body, "input": replay}), item)
    flip = {"0": "1"}
    forged = [
        {**i, "id": i["id"][:-1] + flip.get(i["id"][-1], "0")} if i.get("type") == "reasoning" else i
        for i in _tool_turn(url)[1]
    ]
    forged_id = next(i["id"] for i in forged if i.get("type") == "reasoning")
    _not_found(_post(url, {**body, "input": forged}), forged_id)


CONVERSATION = [
    {"role": "user", "content": "We launch on Tuesday."},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Noted."}]},
    {"role": "user", "content": "Notify support first."},
]


def test_compact_keeps_user_messages_and_folds_the_rest(url: str) -> None:
    body = _ok(url, {"model": "gpt-5", "input": CONVERSATION}, "/v1/responses/compact")
    _check("openai-responses", "CompactResource", body)
    assert body["object"] == "response.compaction" and body["id"].startswith("resp_")
    *users, folded = body["output"]
    assert [u["content"] for u in users] == [
        [{"type": "input_text", "text": "We launch on Tuesday."}],
        [{"type": "input_text", "text": "Notify support first."}],
    ]
    assert all(u["status"] == "completed" and u["id"].startswith("msg_") for u in users)
    assert folded["type"] == "compaction" and folded["id"].startswith("cmp_") and folded["encrypted_content"]
    usage = body["usage"]
    assert usage["total_tokens"] == usage["input_tokens"] + usage["output_tokens"] > 0


def test_compacted_window_continues_a_new_chain(url: str) -> None:
    window = _ok(url, {"model": "gpt-5", "input": CONVERSATION}, "/v1/responses/compact")["output"]
    follow = [*window, {"role": "user", "content": "Continue."}]
    assert _ok(url, {"model": "gpt-5", "input": follow, "store": False})["status"] == "completed"
    tampered = [dict(i) for i in window]
    tampered[-1]["encrypted_content"] = tampered[-1]["encrypted_content"][:-6] + "AAAAA="
    reply = _post(url, {"model": "gpt-5", "input": [*tampered, follow[-1]]})
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert error["message"] == f"The encrypted content for item {window[-1]['id']} could not be verified."
    assert error["param"] == f"input[{len(window) - 1}].encrypted_content"


def test_compact_continues_a_stored_response(url: str) -> None:
    first = _ok(url, {"model": "gpt-5", "input": "Remember: papaya."})
    body = _ok(url, {"model": "gpt-5", "previous_response_id": first["id"]}, "/v1/responses/compact")
    *users, folded = body["output"]
    assert [u["content"][0]["text"] for u in users] == ["Remember: papaya."]
    assert folded["type"] == "compaction"


@pytest.mark.parametrize(
    ("body", "message", "param"),
    [
        ({"input": "x"}, "Missing required parameter: 'model'.", "model"),
        ({"model": "gpt-5", "input": "x", "tools": []}, "Unknown parameter: 'tools'.", "tools"),
        (
            {"model": "gpt-5", "previous_response_id": "resp_nope"},
            "Previous response with id 'resp_nope' not found.",
            "previous_response_id",
        ),
    ],
    ids=["no-model", "unknown-field", "unknown-previous"],
)
def test_compact_refusals(url: str, body: dict[str, Any], message: str, param: str) -> None:
    reply = _post(url, body, "/v1/responses/compact")
    assert reply.status_code == 400
    assert (reply.json()["error"]["message"], reply.json()["error"]["param"]) == (message, param)


def test_sdk_reads_the_compacted_response(url: str) -> None:
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=0)
    compacted = client.responses.compact(model="gpt-5", input=CONVERSATION)  # type: ignore[arg-type]
    assert compacted.object == "response.compaction"
    assert [o.type for o in compacted.output] == ["message", "message", "compaction"]


def test_item_status_as_streamed_and_answered(url: str) -> None:
    body = {"model": "gpt-5", "input": USER_PARIS, "tools": [WEATHER], "reasoning": {"effort": "low"}}
    events = _events(_post(url, {**body, "stream": True}).text)
    added = {
        e["item"]["type"]: e["item"].get("status")
        for e in events
        if e["type"] == "response.output_item.added"
    }
    done = {
        e["item"]["type"]: e["item"].get("status") for e in events if e["type"] == "response.output_item.done"
    }
    assert added == {"reasoning": None, "function_call": "in_progress"}
    assert done == {"reasoning": None, "function_call": "completed"}
    whole = _ok(url, {**body, "input": "hello", "tool_choice": "none"})
    assert {o["type"]: o.get("status") for o in whole["output"]} == {
        "reasoning": None,
        "message": "completed",
    }


_PREAMBLE = Script(
    (
        Turn(text="Checking the weather.", tool_calls=(ScriptedCall("get_weather", '{"city": "Paris"}'),)),
        Turn(text="It is sunny."),
    )
)


@pytest.mark.parametrize(
    ("model", "phases"),
    [
        ("gpt-5.5", ["commentary", "final_answer"]),
        ("gpt-5.3-codex", ["commentary", "final_answer"]),
        ("gpt-5", []),
    ],
)
def test_message_phase_for_the_models_that_send_it(model: str, phases: list[str]) -> None:
    """A message followed by tool calls is ``commentary``; the last answer ``final_answer``."""
    with serve(create_app(EmulatorConfig(script=_PREAMBLE)), log_level="critical") as url:
        first = _ok(url, {"model": model, "input": "weather?", "tools": [WEATHER]})
        call = next(o for o in first["output"] if o["type"] == "function_call")
        answer = {"type": "function_call_output", "call_id": call["call_id"], "output": "sunny"}
        second = _ok(url, {"model": model, "previous_response_id": first["id"], "input": [answer]})
        said = [o.get("phase") for r in (first, second) for o in r["output"] if o["type"] == "message"]
        assert [p for p in said if p] == phases
        events = _events(_post(url, {"model": model, "input": "weather?", "stream": True}).text)
        items = [e["item"] for e in events if e["type"].startswith("response.output_item")]
        streamed = [i.get("phase") for i in items if i["type"] == "message"]
        assert streamed == (["commentary"] * 2 if phases else [None] * 2)
        final = [o.get("phase") for o in events[-1]["response"]["output"] if o["type"] == "message"]
        assert final == (["commentary"] if phases else [None])
