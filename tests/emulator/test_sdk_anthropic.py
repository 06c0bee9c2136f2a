"""The official ``anthropic`` SDK against the emulator: Messages, thinking signatures, errors."""

from __future__ import annotations

from typing import Any

import anthropic
import pytest

from tests.emulator.conftest import API_KEY
from tests.emulator.tools import EXPECTED_ARGS, anthropic_tools, result_for

MODEL = "claude-sonnet-4-6"
THINKING = {"type": "enabled", "budget_tokens": 1024}


def client(url: str, **kw: Any) -> anthropic.Anthropic:
    return anthropic.Anthropic(base_url=url, api_key=kw.pop("api_key", "k"), max_retries=0, **kw)


def turn(c: anthropic.Anthropic, messages: list[dict[str, Any]], stream: bool, **kw: Any) -> Any:
    args: dict[str, Any] = {
        "model": MODEL,
        "max_tokens": 2048,
        "messages": messages,
        "tools": anthropic_tools(),
    }
    args.update(kw)
    if not stream:
        return c.messages.create(**args)
    with c.messages.stream(**args) as s:
        for _ in s:
            pass
        return s.get_final_message()


def assistant(message: Any) -> dict[str, Any]:
    return {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in message.content]}


def results(message: Any) -> dict[str, Any]:
    uses = [b for b in message.content if b.type == "tool_use"]
    content = [{"type": "tool_result", "tool_use_id": b.id, "content": result_for(b.name)} for b in uses]
    return {"role": "user", "content": content}


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("text", "expected"), [("Weather?", ["get_weather"]), ("weather and time", ["get_weather", "get_time"])]
)
def test_tool_loop_with_thinking(url: str, stream: bool, text: str, expected: list[str]) -> None:
    c = client(url)
    messages: list[dict[str, Any]] = [{"role": "user", "content": text}]
    first = turn(c, messages, stream, thinking=THINKING)
    assert first.stop_reason == "tool_use"
    assert first.content[0].type == "thinking" and first.content[0].signature
    uses = [b for b in first.content if b.type == "tool_use"]
    assert [(b.name, b.input) for b in uses] == [(n, EXPECTED_ARGS[n]) for n in expected]
    messages += [assistant(first), results(first)]
    second = turn(c, messages, stream, thinking=THINKING)
    assert second.stop_reason == "end_turn"
    texts = [b.text for b in second.content if b.type == "text"]
    assert texts == ["Results: " + "; ".join(f"{n} -> {result_for(n)}" for n in expected)]


def test_disable_parallel_and_named_choice(url: str) -> None:
    c = client(url)
    messages = [{"role": "user", "content": "weather and time"}]
    one = turn(c, messages, False, tool_choice={"type": "auto", "disable_parallel_tool_use": True})
    assert [b.name for b in one.content if b.type == "tool_use"] == ["get_weather"]
    named = turn(c, messages, False, tool_choice={"type": "tool", "name": "get_time"})
    assert [b.name for b in named.content if b.type == "tool_use"] == ["get_time"]


def test_tampered_and_missing_thinking_are_rejected(url: str) -> None:
    c = client(url)
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Weather?"}]
    first = turn(c, messages, False, thinking=THINKING)
    tampered = assistant(first)
    tampered["content"][0]["thinking"] += " (edited)"
    with pytest.raises(anthropic.BadRequestError) as info:
        turn(c, [*messages, tampered, results(first)], False, thinking=THINKING)
    assert info.value.status_code == 400
    assert "Invalid `signature` in `thinking` block" in str(info.value.message)
    body = info.value.body
    assert isinstance(body, dict) and body["type"] == "error"
    assert body["error"]["type"] == "invalid_request_error"
    missing = assistant(first)
    missing["content"] = missing["content"][1:]
    with pytest.raises(anthropic.BadRequestError, match="must start with a thinking block"):
        turn(c, [*messages, missing, results(first)], False, thinking=THINKING)


def test_beta_route_and_count_tokens(url: str) -> None:
    c = client(url)
    message = c.beta.messages.create(model=MODEL, max_tokens=64, messages=[{"role": "user", "content": "hi"}])
    assert [b.text for b in message.content if b.type == "text"] == ["You said: hi"]
    count = c.messages.count_tokens(model=MODEL, messages=[{"role": "user", "content": "hello " * 40}])
    assert count.input_tokens > 10


def test_auth_styles(keyed_url: str) -> None:
    ok = client(keyed_url, api_key=API_KEY)
    assert turn(ok, [{"role": "user", "content": "hi"}], False).content
    bearer = anthropic.Anthropic(base_url=keyed_url, auth_token=API_KEY, api_key=None, max_retries=0)
    assert turn(bearer, [{"role": "user", "content": "hi"}], False).content
    with pytest.raises(anthropic.AuthenticationError) as info:
        turn(client(keyed_url, api_key="wrong"), [{"role": "user", "content": "hi"}], False)
    assert info.value.status_code == 401
    assert info.value.body == {
        "type": "error",
        "error": {"type": "authentication_error", "message": "invalid x-api-key"},
    }


def test_missing_max_tokens_is_a_400(url: str) -> None:
    import httpx

    reply = httpx.post(
        f"{url}/v1/messages", json={"model": MODEL, "messages": [{"role": "user", "content": "x"}]}
    )
    assert reply.status_code == 400
    body = reply.json()
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    assert "max_tokens" in body["error"]["message"]
