"""The official ``openai`` SDK against the emulator: Chat Completions and Responses."""

from __future__ import annotations

import json
from typing import Any

import openai
import pytest

from tests.emulator.tools import chat_tools, expected_args, responses_tools, result_for

USER = "What is the weather in Paris?"
BOTH = "Weather and time, please."


def client(url: str, **kw: Any) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key=kw.pop("api_key", "k"), max_retries=0, **kw)


def chat_turn(c: openai.OpenAI, messages: list[dict[str, Any]], stream: bool, **kw: Any) -> Any:
    if not stream:
        return (
            c.chat.completions.create(model="gpt-4o", messages=messages, tools=chat_tools(), **kw)
            .choices[0]
            .message
        )  # type: ignore[arg-type]
    with c.chat.completions.stream(model="gpt-4o", messages=messages, tools=chat_tools(), **kw) as s:  # type: ignore[arg-type]
        for _ in s:
            pass
        return s.get_final_completion().choices[0].message


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(("text", "expected"), [(USER, ["get_weather"]), (BOTH, ["get_weather", "get_time"])])
def test_chat_tool_loop(url: str, stream: bool, text: str, expected: list[str]) -> None:
    c = client(url)
    messages: list[dict[str, Any]] = [{"role": "user", "content": text}]
    first = chat_turn(c, messages, stream)
    calls = first.tool_calls or []
    assert [tc.function.name for tc in calls] == expected
    assert all(json.loads(tc.function.arguments) == expected_args(tc.function.name, text) for tc in calls)
    assert len({tc.id for tc in calls}) == len(calls)
    messages.append({"role": "assistant", "content": None, "tool_calls": [tc.model_dump() for tc in calls]})
    for tc in calls:
        messages.append({"role": "tool", "tool_call_id": tc.id, "content": result_for(tc.function.name)})
    second = chat_turn(c, messages, stream)
    assert not second.tool_calls
    quoted = "; ".join(f"{n} -> {result_for(n)}" for n in expected)
    assert second.content == f"Results: {quoted}"


def test_chat_parallel_off_and_tool_choice(url: str) -> None:
    c = client(url)
    messages: list[dict[str, Any]] = [{"role": "user", "content": BOTH}]
    one = chat_turn(c, messages, False, parallel_tool_calls=False)
    assert [tc.function.name for tc in one.tool_calls] == ["get_weather"]
    named = chat_turn(c, messages, False, tool_choice={"type": "function", "function": {"name": "get_time"}})
    assert [tc.function.name for tc in named.tool_calls] == ["get_time"]
    none = chat_turn(c, messages, False, tool_choice="none")
    assert none.tool_calls is None and none.content == f"You said: {BOTH}"


def responses_turn(c: openai.OpenAI, items: list[Any], stream: bool, **kw: Any) -> Any:
    args: dict[str, Any] = {"model": "gpt-5", "input": items, "tools": responses_tools(), **kw}
    if not stream:
        return c.responses.create(**args)
    with c.responses.stream(**args) as s:
        for _ in s:
            pass
        return s.get_final_response()


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("text", [USER, BOTH])
def test_responses_tool_loop_with_reasoning(url: str, stream: bool, text: str) -> None:
    c = client(url)
    items: list[Any] = [{"role": "user", "content": text}]
    first = responses_turn(
        c,
        items,
        stream,
        reasoning={"effort": "low", "summary": "auto"},
        include=["reasoning.encrypted_content"],
    )
    reasoning = [o for o in first.output if o.type == "reasoning"]
    calls = [o for o in first.output if o.type == "function_call"]
    assert len(reasoning) == 1 and reasoning[0].encrypted_content
    assert [json.loads(o.arguments) for o in calls] == [expected_args(o.name, text) for o in calls]
    items += [o.model_dump(exclude_none=True) for o in first.output]
    items += [
        {"type": "function_call_output", "call_id": o.call_id, "output": result_for(o.name)} for o in calls
    ]
    second = responses_turn(c, items, stream, reasoning={"effort": "low"})
    assert second.output_text == "Results: " + "; ".join(f"{o.name} -> {result_for(o.name)}" for o in calls)


def test_responses_tampered_reasoning_is_rejected(url: str) -> None:
    c = client(url)
    items: list[Any] = [{"role": "user", "content": USER}]
    encrypted = ["reasoning.encrypted_content"]
    first = responses_turn(c, items, False, reasoning={"effort": "low"}, include=encrypted, store=False)
    output = [o.model_dump(exclude_none=True) for o in first.output]
    call = next(o for o in output if o["type"] == "function_call")
    follow = [{"type": "function_call_output", "call_id": call["call_id"], "output": "{}"}]
    for item in output:
        if item["type"] == "reasoning":
            item["encrypted_content"] = item["encrypted_content"][:-8] + "AAAAAAA="
    with pytest.raises(openai.BadRequestError) as info:
        responses_turn(c, [*items, *output, *follow], False, reasoning={"effort": "low"})
    assert info.value.status_code == 400
    assert "could not be verified" in info.value.message
    for item in output:
        item.pop("encrypted_content", None)
    with pytest.raises(openai.BadRequestError, match="not found"):
        responses_turn(c, [*items, *output, *follow], False, reasoning={"effort": "low"})


def test_openai_auth(keyed_url: str) -> None:
    from tests.emulator.conftest import API_KEY

    assert chat_turn(
        client(keyed_url, api_key=API_KEY), [{"role": "user", "content": USER}], False
    ).tool_calls
    with pytest.raises(openai.AuthenticationError) as info:
        chat_turn(client(keyed_url, api_key="sk-wrong-key-12345"), [{"role": "user", "content": USER}], False)
    assert info.value.status_code == 401
    assert info.value.code == "invalid_api_key"
    assert "Incorrect API key provided" in info.value.message


def test_chat_bad_request_body(url: str) -> None:
    c = client(url)
    with pytest.raises(openai.BadRequestError) as info:
        c.chat.completions.create(model="gpt-4o", messages="not a list")  # type: ignore[arg-type]
    body = info.value.body
    assert isinstance(body, dict) and body["type"] == "invalid_request_error" and body["message"]


def test_chat_stream_usage_only_when_asked(url: str) -> None:
    c = client(url)
    messages: list[Any] = [{"role": "user", "content": USER}]
    plain = list(c.chat.completions.create(model="gpt-4o", messages=messages, stream=True))
    assert all(chunk.usage is None for chunk in plain)
    asked = list(
        c.chat.completions.create(
            model="gpt-4o", messages=messages, stream=True, stream_options={"include_usage": True}
        )
    )
    assert asked[-1].usage is not None and asked[-1].usage.total_tokens > 0


def test_responses_custom_tool_takes_the_quoted_text(url: str) -> None:
    c = client(url)
    tools: list[Any] = [{"type": "custom", "name": "shell", "description": "Run a shell command."}]
    first = c.responses.create(model="gpt-5", input='run "ls -la" please', tools=tools)
    call = first.output[0]
    assert call.type == "custom_tool_call" and call.input == "ls -la"
    items: list[Any] = [
        {"role": "user", "content": 'run "ls -la" please'},
        call.model_dump(exclude_none=True),
        {"type": "custom_tool_call_output", "call_id": call.call_id, "output": "total 0"},
    ]
    assert (
        c.responses.create(model="gpt-5", input=items, tools=tools).output_text == "Results: shell -> total 0"
    )
