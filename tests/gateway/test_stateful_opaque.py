"""The opaque-state fallback kept in the gateway's store: a Chat client (no slot to echo reasoning
state) in a tool loop with thinking on, through the gateway to an Anthropic upstream that enforces
the providers' replay rules. The thinking block of the turn with the call comes back to the
upstream, signature byte-exact, from the store; a gateway whose store lost it sends none."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.gateway.shells import ROUTE_MODELS, gateway_config
from tests.gateway.stateful import Recorder, open_gateway
from toolwire.emulator import EmulatorConfig, serve
from toolwire.gateway import HopConfig

TOOLS: list[Any] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]


@pytest.fixture(scope="module")
def strict_config() -> Iterator[HopConfig]:
    with serve(config=EmulatorConfig(rules="provider"), log_level="critical") as url:
        yield gateway_config(url)


def _loop(client: openai.OpenAI, second: openai.OpenAI | None = None) -> str:
    messages: list[Any] = [{"role": "user", "content": "What is the weather in Paris?"}]
    args: dict[str, Any] = {"model": ROUTE_MODELS["anthropic"], "tools": TOOLS, "reasoning_effort": "high"}
    first = client.chat.completions.create(messages=messages, **args).choices[0].message
    assert first.tool_calls
    call = first.tool_calls[0]
    messages.append({"role": "assistant", "content": None, "tool_calls": [call.model_dump()]})
    messages.append({"role": "tool", "tool_call_id": call.id, "content": '{"temp": 21}'})
    final = (second or client).chat.completions.create(messages=messages, **args).choices[0].message
    return final.content or ""


def _thinking(sent: Any) -> list[dict[str, Any]]:
    assistant = [m for m in sent.body["messages"] if m["role"] == "assistant"]
    return [block for m in assistant for block in m["content"] if block["type"] == "thinking"]


@pytest.mark.parametrize("shell", ("asgi", "transport"))
def test_a_chat_tool_loop_gets_its_thinking_back_from_the_store(
    strict_config: HopConfig, tmp_path: Path, shell: str
) -> None:
    recorder = Recorder()
    with open_gateway(shell, strict_config, f"sqlite://{tmp_path / 'state.db'}", recorder) as client:
        final = _loop(client)
    assert '{"temp": 21}' in final
    (replayed,) = _thinking(recorder.sent[1])
    assert replayed["signature"] and replayed["thinking"]
    assert json.dumps(replayed) not in json.dumps(recorder.sent[0].body)  # it came from the store


def test_without_the_kept_state_the_turn_goes_without_thinking(
    strict_config: HopConfig, tmp_path: Path
) -> None:
    recorder = Recorder()
    with (
        open_gateway("transport", strict_config, f"sqlite://{tmp_path / 'a.db'}", recorder) as first,
        open_gateway("transport", strict_config, f"sqlite://{tmp_path / 'b.db'}", recorder) as other,
    ):
        _loop(first, other)
    assert _thinking(recorder.sent[1]) == []
