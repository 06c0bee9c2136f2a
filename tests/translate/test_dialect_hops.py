"""Reasoning of a Chat-compatible provider through a stateless hop: a client of another format
echoes it (sealed in its own reasoning slot), and it goes back to the provider that wrote it,
byte-exact, and to no other provider."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.corpus import samples
from tests.translate.hop_loop import Client, client_stream_body
from toolwire import validate
from toolwire.translate import Exchange

CLIENTS = ("anthropic", "openai-responses", "gemini")
DEEPSEEK = (
    "pydantic-ai/openai-chat-compatible/test_deepseek_deferred_capability_with_thinking.yaml#0/response"
)


def _recorded(sample_id: str) -> dict[str, Any]:
    found = [s for s in samples("openai-chat", "response", dialect="deepseek") if s.id == sample_id]
    if not found:
        pytest.skip("fixture corpus missing")
    return copy.deepcopy(found[0].payload)


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value (keys aside)."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return [s for item in items for s in _strings(item)]


def _turn(client: Client, upstream_dialect: str) -> dict[str, Any]:
    ex = Exchange(client.fmt, "openai-chat", upstream_dialect=upstream_dialect, policy="drop")
    out = ex.request(client.request(), model="m")
    assert validate(out, format="openai-chat", dialect=upstream_dialect) == []
    return out


def _loop(client_fmt: str, upstream_dialect: str, answer: dict[str, Any]) -> Client:
    """One turn through a hop to ``upstream_dialect`` answered by ``answer``; the client echoes
    the response and answers its calls."""
    client = Client(client_fmt)
    client.say("My guess is 4")
    ex = Exchange(client_fmt, "openai-chat", upstream_dialect=upstream_dialect, policy="drop")
    ex.request(client.request(), model="m")
    client.answer(client.take(ex.response(answer)))
    return client


def _assistants(body: dict[str, Any]) -> list[dict[str, Any]]:
    return [m for m in body["messages"] if m["role"] == "assistant"]


@pytest.mark.parametrize("client_fmt", CLIENTS)
def test_deepseek_reasoning_returns_to_deepseek(client_fmt: str) -> None:
    answer = _recorded(DEEPSEEK)
    recorded = answer["choices"][0]["message"]
    client = _loop(client_fmt, "deepseek", answer)
    assert recorded["reasoning_content"] in _strings(client.history)  # the client shows it
    [assistant] = _assistants(_turn(client, "deepseek"))
    assert assistant["reasoning_content"] == recorded["reasoning_content"]
    assert [c["id"] for c in assistant["tool_calls"]] == [c["id"] for c in recorded["tool_calls"]]


@pytest.mark.parametrize("client_fmt", CLIENTS)
@pytest.mark.parametrize("other", ["mistral", "openrouter", "xai"])
def test_deepseek_reasoning_goes_to_no_other_provider(client_fmt: str, other: str) -> None:
    answer = _recorded(DEEPSEEK)
    recorded = answer["choices"][0]["message"]["reasoning_content"]
    client = _loop(client_fmt, "deepseek", answer)
    body = _turn(client, other)
    assert recorded not in _strings(body)
    assert all(k not in m for m in _assistants(body) for k in ("reasoning_content", "reasoning"))
    ex = Exchange(client_fmt, "anthropic", policy="drop")
    assert recorded not in _strings(ex.request(client.request(), model="m"))


def test_deepseek_reasoning_of_earlier_turns_stays_out() -> None:
    """DeepSeek takes reasoning back within the tool loop of the current turn only."""
    client = _loop("anthropic", "deepseek", _recorded(DEEPSEEK))
    client.say("and again?")
    [assistant] = _assistants(_turn(client, "deepseek"))
    assert "reasoning_content" not in assistant


DETAILS = [
    {"type": "reasoning.text", "text": "We need", "index": 0, "format": None},
    {
        "type": "reasoning.encrypted",
        "data": "c2lnbmVkLW9wYXF1ZQ==",
        "id": "rs_9",
        "index": 1,
        "format": "x-v1",
    },
]


def _openrouter_answer() -> dict[str, Any]:
    message = {
        "role": "assistant",
        "content": "",
        "reasoning": "We need",
        "reasoning_details": DETAILS,
        "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read", "arguments": "{}"}}],
    }
    return {
        "id": "gen-1",
        "object": "chat.completion",
        "created": 1,
        "model": "minimax/minimax-m2",
        "choices": [{"index": 0, "finish_reason": "tool_calls", "message": message}],
    }


@pytest.mark.parametrize("client_fmt", CLIENTS)
def test_openrouter_reasoning_details_return_byte_exact_to_openrouter_only(client_fmt: str) -> None:
    client = _loop(client_fmt, "openrouter", _openrouter_answer())
    [assistant] = _assistants(_turn(client, "openrouter"))
    assert assistant["reasoning_details"] == DETAILS and assistant["reasoning"] == "We need"
    for other in ("deepseek", "mistral", "openai"):
        body = _turn(client, other)
        assert "c2lnbmVkLW9wYXF1ZQ==" not in _strings(body) and "We need" not in _strings(body)


def _streamed_turn(client_fmt: str) -> tuple[Client, str]:
    """The recorded DeepSeek tool-call stream relayed to a client of ``client_fmt``; the client
    echoes what it accumulated and answers the call. Also the reasoning text the stream carried."""
    found = [
        s
        for s in samples("openai-chat", "stream", dialect="deepseek")
        if s.id.endswith("deepseek-tool-call.chunks.txt")
    ]
    if not found:
        pytest.skip("fixture corpus missing")
    chunks = [item.data for item in found[0].payload]
    reasoning = "".join(
        c["choices"][0]["delta"].get("reasoning_content") or "" for c in chunks if c.get("choices")
    )
    client = Client(client_fmt)
    client.say("weather?")
    ex = Exchange(client_fmt, "openai-chat", upstream_dialect="deepseek", policy="drop")
    ex.request({**client.request(), "stream": True}, model="m")
    events = [e for chunk in chunks for e in ex.stream(chunk)] + ex.stream_close()
    client.answer(client.take(client_stream_body(client_fmt, events)))
    return client, reasoning


@pytest.mark.parametrize("client_fmt", CLIENTS)
def test_streamed_deepseek_reasoning_returns_to_deepseek_only(client_fmt: str) -> None:
    client, reasoning = _streamed_turn(client_fmt)
    assert reasoning and reasoning in _strings(client.history)
    [assistant] = _assistants(_turn(client, "deepseek"))
    assert assistant["reasoning_content"] == reasoning
    assert reasoning not in _strings(_turn(client, "mistral"))
