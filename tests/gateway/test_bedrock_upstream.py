"""The gateway in front of a Bedrock upstream (the emulator): an OpenAI SDK client's tool loop,
whole and streamed (the upstream's AWS event-stream binary relayed as the client's SSE)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import openai
import pytest

from toolwire.emulator import EmulatorConfig, serve
from toolwire.emulator import create_app as emulator_app
from toolwire.gateway import create_app as gateway_app
from toolwire.hop._config import HopConfig

KEY = "bedrock-api-key-for-tests"
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
def gateway() -> Iterator[str]:
    mp = pytest.MonkeyPatch()
    mp.setenv("TOOLWIRE_TEST_BEDROCK_KEY", KEY)
    with serve(emulator_app(EmulatorConfig(api_keys=(KEY,))), log_level="critical") as upstream:
        config = HopConfig.single("bedrock", upstream, key_env="TOOLWIRE_TEST_BEDROCK_KEY")
        with serve(gateway_app(config), log_level="critical") as url:
            yield url
    mp.undo()


@pytest.mark.parametrize("stream", [False, True])
def test_chat_client_tool_loop_through_bedrock(gateway: str, stream: bool) -> None:
    client = openai.OpenAI(base_url=f"{gateway}/v1", api_key="client-key", max_retries=0)
    messages: list[Any] = [{"role": "user", "content": "Weather?"}]
    args = {"model": "anthropic.claude-3-5-sonnet-20240620-v1:0", "tools": TOOLS}
    if stream:
        chunks = list(client.chat.completions.create(messages=messages, stream=True, **args))
        calls = [d for c in chunks if c.choices for d in c.choices[0].delta.tool_calls or ()]
        call_id, name = calls[0].id, calls[0].function.name  # type: ignore[union-attr]
        arguments = "".join(d.function.arguments or "" for d in calls)  # type: ignore[union-attr]
        assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "tool_calls"
    else:
        first = client.chat.completions.create(messages=messages, **args)
        (call,) = first.choices[0].message.tool_calls or []
        call_id, name, arguments = call.id, call.function.name, call.function.arguments  # type: ignore[union-attr]
        assert first.choices[0].finish_reason == "tool_calls"
    assert name == "get_weather" and json.loads(arguments) == {"city": "city"}
    assert call_id and call_id.startswith("tooluse_")
    messages += [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "content": "sunny"},
    ]
    second = client.chat.completions.create(messages=messages, **args)
    assert second.choices[0].message.content == "Results: get_weather -> sunny"
