"""A Chat client's opaque reasoning state kept through the gateway's store, with the ``openai``
SDK in front of the emulator: Anthropic thinking signatures and Gemini thought signatures come
back to the upstream byte-exact on the next tool turn (whole and streamed answers), per tenant,
across two gateway instances sharing a SQLite file or a Redis server."""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from tests.gateway.shells import GATEWAY_KEY, ROUTE_MODELS
from tests.gateway.stateful import Recorder, open_gateway
from tests.redis_server import RedisServer, redis_server
from toolwire.gateway import GatewayKey, HopConfig

__all__ = ["redis_server"]

OTHER_KEY = "gw-test-key-other-tenant"
WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}
QUESTION = {"role": "user", "content": "What is the weather in Paris?"}


@dataclass
class Capture(Recorder):
    """A :class:`Recorder` that also keeps each upstream answer's whole body."""

    answers: list[bytes] = field(default_factory=list)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        body = response.read()
        self.answers.append(body)
        return httpx.Response(response.status_code, headers=response.headers, content=body)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        body = await response.aread()
        self.answers.append(body)
        return httpx.Response(response.status_code, headers=response.headers, content=body)


@pytest.fixture
def config(config: HopConfig) -> HopConfig:
    """The gateway's config with two unrestricted keys: two tenants."""
    return dataclasses.replace(config, keys=(GatewayKey(GATEWAY_KEY), GatewayKey(OTHER_KEY)))


def _sse(body: bytes) -> list[dict[str, Any]]:
    lines = body.decode().splitlines()
    return [
        json.loads(line[5:]) for line in lines if line.startswith("data:") and line[5:].strip() != "[DONE]"
    ]


def _anthropic_state(answer: bytes, stream: bool) -> dict[str, Any]:
    """The thinking block of an Anthropic answer, as the next request must replay it."""
    if not stream:
        block = next(b for b in json.loads(answer)["content"] if b["type"] == "thinking")
        return {"type": "thinking", "thinking": block["thinking"], "signature": block["signature"]}
    deltas = [e["delta"] for e in _sse(answer) if e.get("type") == "content_block_delta"]
    thinking = "".join(d["thinking"] for d in deltas if d["type"] == "thinking_delta")
    signature = "".join(d["signature"] for d in deltas if d["type"] == "signature_delta")
    return {"type": "thinking", "thinking": thinking, "signature": signature}


def _gemini_signature(answer: bytes, stream: bool) -> str:
    """The thought signature on the first function call of a Gemini answer."""
    chunks = _sse(answer) if stream else [json.loads(answer)]
    parts = [p for c in chunks for cand in c.get("candidates", []) for p in cand["content"].get("parts", [])]
    return str(next(p["thoughtSignature"] for p in parts if "functionCall" in p))


def _turn(client: openai.OpenAI, model: str, messages: list[Any], stream: bool) -> dict[str, Any]:
    """One Chat turn; the assistant message as the client echoes it."""
    args: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "tools": [WEATHER],
        "reasoning_effort": "medium",
    }
    if not stream:
        message = client.chat.completions.create(**args).choices[0].message
        made = [call.model_dump() for call in message.tool_calls or []]
        return {"role": "assistant", "content": message.content, "tool_calls": made}
    calls: dict[int, dict[str, Any]] = {}
    for chunk in client.chat.completions.create(**args, stream=True):
        for delta in chunk.choices[0].delta.tool_calls or [] if chunk.choices else []:
            call = calls.setdefault(
                delta.index, {"type": "function", "function": {"name": "", "arguments": ""}}
            )
            call["id"] = delta.id or call.get("id")
            if delta.function is not None:
                call["function"]["name"] += delta.function.name or ""
                call["function"]["arguments"] += delta.function.arguments or ""
    return {"role": "assistant", "content": None, "tool_calls": [calls[i] for i in sorted(calls)]}


def _second(first: dict[str, Any]) -> list[Any]:
    results = [
        {"role": "tool", "tool_call_id": c["id"], "content": '{"temp": 21}'} for c in first["tool_calls"]
    ]
    return [QUESTION, first, *results]


@pytest.fixture(params=("asgi", "transport"))
def shell(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_anthropic_thinking_comes_back_byte_exact(
    config: HopConfig, tmp_path: Path, shell: str, stream: bool
) -> None:
    capture = Capture()
    model = ROUTE_MODELS["anthropic"]
    with open_gateway(shell, config, f"sqlite://{tmp_path / 'state.db'}", capture) as client:
        first = _turn(client, model, [QUESTION], stream)
        assert first["tool_calls"] and first["tool_calls"][0]["id"]
        kept = _anthropic_state(capture.answers[0], stream)
        assert kept["signature"] and kept["thinking"]
        assert kept["signature"] not in json.dumps(first)  # the client never sees the state
        other = client.with_options(api_key=OTHER_KEY)
        _turn(other, model, _second(first), stream)  # another tenant echoes the same call ids
        _turn(client, model, _second(first), stream)
    first_sent, other_sent, second_sent = (sent.body for sent in capture.sent)
    assert first_sent["thinking"]["type"] == "enabled"
    with sqlite3.connect(tmp_path / "state.db") as db:
        rows = db.execute("SELECT key, expires_at FROM state").fetchall()
    (key, expires), call_id = rows[0], first["tool_calls"][0]["id"]
    assert len(rows) == 1 and re.fullmatch(f"chat:[0-9a-f]{{32}}:tw1:{re.escape(call_id)}", key)
    assert GATEWAY_KEY not in key and 86000 < expires - time.time() <= 86400  # the default state_ttl
    replayed = second_sent["messages"][1]["content"]
    assert replayed[0] == kept  # text and signature byte-exact, first in the turn
    assert [block["type"] for block in replayed[1:]] == ["tool_use"] * len(first["tool_calls"])
    assert kept["signature"] not in json.dumps(other_sent)  # nothing for the other tenant
    assert all(block["type"] != "thinking" for block in other_sent["messages"][1]["content"])


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_gemini_thought_signature_comes_back_byte_exact(
    config: HopConfig, tmp_path: Path, shell: str, stream: bool
) -> None:
    capture = Capture()
    model = ROUTE_MODELS["gemini"]
    with open_gateway(shell, config, f"sqlite://{tmp_path / 'state.db'}", capture) as client:
        first = _turn(client, model, [QUESTION], stream)
        signature = _gemini_signature(capture.answers[0], stream)
        other = client.with_options(api_key=OTHER_KEY)
        _turn(other, model, _second(first), stream)
        _turn(client, model, _second(first), stream)
    _, other_sent, second_sent = (sent.body for sent in capture.sent)
    calls = [part for part in second_sent["contents"][1]["parts"] if "functionCall" in part]
    assert calls[0]["thoughtSignature"] == signature
    assert signature not in json.dumps(other_sent)


@pytest.fixture(params=("sqlite", "redis"))
def shared_store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'shared.db'}"
    server: RedisServer = request.getfixturevalue("redis_server")
    return server.url()


def test_two_gateway_instances_share_the_state(config: HopConfig, shared_store: str) -> None:
    """Turn one through one gateway, turn two through another with the same store."""
    capture = Capture()
    model = ROUTE_MODELS["anthropic"]
    with open_gateway("asgi", config, shared_store, capture) as one:
        first = _turn(one, model, [QUESTION], False)
    with open_gateway("transport", config, shared_store, capture) as two:
        _turn(two, model, _second(first), False)
    kept = _anthropic_state(capture.answers[0], False)
    assert capture.sent[1].body["messages"][1]["content"][0] == kept


def test_state_goes_back_only_to_its_provider(config: HopConfig, tmp_path: Path) -> None:
    """A turn made by Anthropic, continued through the Gemini route: no Anthropic thinking there."""
    capture = Capture()
    with open_gateway("asgi", config, f"sqlite://{tmp_path / 'state.db'}", capture) as client:
        first = _turn(client, ROUTE_MODELS["anthropic"], [QUESTION], False)
        _turn(client, ROUTE_MODELS["gemini"], _second(first), False)
    kept = _anthropic_state(capture.answers[0], False)
    assert kept["signature"] not in json.dumps(capture.sent[1].body)
    assert kept["thinking"] not in json.dumps(capture.sent[1].body)


def test_the_ttl_comes_from_the_config(config: HopConfig, tmp_path: Path) -> None:
    config = dataclasses.replace(config, limits=dataclasses.replace(config.limits, state_ttl=600.0))
    with open_gateway("asgi", config, f"sqlite://{tmp_path / 'state.db'}", Capture()) as client:
        _turn(client, ROUTE_MODELS["anthropic"], [QUESTION], False)
    with sqlite3.connect(tmp_path / "state.db") as db:
        ((expires,),) = db.execute("SELECT expires_at FROM state").fetchall()
    assert 500 < expires - time.time() <= 600


def test_a_store_that_cannot_keep_the_state_is_a_500(config: HopConfig) -> None:
    """Loading fails: as if nothing were kept; saving fails: the client's 500, no password shown."""
    store = "redis://:hunter2-secret@127.0.0.1:1/0"  # nothing listens on port 1
    capture = Capture()
    with open_gateway("asgi", config, store, capture) as client:
        with pytest.raises(openai.InternalServerError) as failed:
            _turn(client, ROUTE_MODELS["anthropic"], [QUESTION], False)
        plain = client.chat.completions.create(
            model=ROUTE_MODELS["anthropic"], messages=[{"role": "user", "content": "Hello"}]
        )
    message = failed.value.body["message"]  # type: ignore[index]
    assert message.startswith("The reasoning state could not be stored: redis store 127.0.0.1:1/0")
    assert "hunter2" not in json.dumps(failed.value.body)
    assert plain.choices[0].message.content  # no state to keep: the store is never needed
    assert len(capture.sent) == 2


def _encrypted(answer: bytes, stream: bool) -> str:
    """The encrypted reasoning of a Responses answer."""
    if stream:
        items = [e["item"] for e in _sse(answer) if e.get("type") == "response.output_item.done"]
    else:
        items = json.loads(answer)["output"]
    return str(next(item["encrypted_content"] for item in items if item["type"] == "reasoning"))


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_responses_encrypted_reasoning_comes_back_byte_exact(
    config: HopConfig, tmp_path: Path, stream: bool
) -> None:
    capture = Capture()
    model = ROUTE_MODELS["openai-responses"]
    with open_gateway("asgi", config, f"sqlite://{tmp_path / 'state.db'}", capture) as client:
        first = _turn(client, model, [QUESTION], stream)
        encrypted = _encrypted(capture.answers[0], stream)
        _turn(client, model, _second(first), stream)
    sent = capture.sent[1].body["input"]
    kinds = [item.get("type") for item in sent]
    reasoning = sent[kinds.index("reasoning")]
    assert reasoning["encrypted_content"] == encrypted
    assert kinds.index("reasoning") < kinds.index("function_call")  # in front of its turn's calls


@pytest.mark.parametrize("shell", ["asgi", "transport"])
def test_a_stream_whose_state_cannot_be_kept_ends_with_an_error(config: HopConfig, shell: str) -> None:
    with (
        open_gateway(shell, config, "redis://127.0.0.1:1/0", Capture()) as client,
        pytest.raises(openai.APIError) as failed,
    ):
        _turn(client, ROUTE_MODELS["anthropic"], [QUESTION], True)
    assert failed.value.message == "The reasoning state could not be stored."
