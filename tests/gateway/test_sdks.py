"""The official SDKs through the gateway, each in front of every other upstream format, whole
and streamed, through the ASGI app over loopback and through the Transport in-process.

Each finishes a tool loop: the model (the emulator's scripted one) calls ``get_weather``, the
test runs it and sends the result back in the SDK's own way, and the final answer quotes it.
The SDK is given the gateway key as its API key; the base URL is the gateway's (any, for the
Transport) in the SDK's own spelling.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import anthropic
import httpx2
import openai
import pytest
from google import genai
from google.genai import types

from tests.emulator.tools import (
    EXPECTED_ARGS,
    SCHEMAS,
    anthropic_tools,
    chat_tools,
    responses_tools,
    result_for,
)
from tests.gateway.shells import ENV, FORMATS, GATEWAY_KEY, ROUTE_MODELS, Shell, TransportShell
from toolwire.gateway import HopConfig, Transport

USER = "What is the weather in Paris?"
CALLED = [("get_weather", {**EXPECTED_ARGS["get_weather"], "city": "Paris"})]
PAIRS = [(c, u) for c in FORMATS for u in FORMATS if c != u]

Loop = Callable[[Shell, str, bool], tuple[list[tuple[str, Any]], str]]
"""A tool loop: (shell, model, stream) -> (the calls of the first answer, the final text)."""


def _openai(shell: Shell) -> openai.OpenAI:
    return openai.OpenAI(
        base_url=f"{shell.base_url}/v1", api_key=GATEWAY_KEY, max_retries=0, http_client=shell.http_client()
    )


def chat_loop(shell: Shell, model: str, stream: bool) -> tuple[list[tuple[str, Any]], str]:
    client = _openai(shell)
    messages: list[Any] = [{"role": "user", "content": USER}]

    def turn() -> Any:
        if not stream:
            return (
                client.chat.completions.create(model=model, messages=messages, tools=chat_tools())
                .choices[0]
                .message
            )  # type: ignore[arg-type]
        with client.chat.completions.stream(model=model, messages=messages, tools=chat_tools()) as s:  # type: ignore[arg-type]
            for _ in s:
                pass
            return s.get_final_completion().choices[0].message

    first = turn()
    calls = first.tool_calls or []
    messages.append({"role": "assistant", "content": None, "tool_calls": [c.model_dump() for c in calls]})
    messages += [
        {"role": "tool", "tool_call_id": c.id, "content": result_for(c.function.name)} for c in calls
    ]
    final = turn()
    assert not final.tool_calls
    return [(c.function.name, json.loads(c.function.arguments)) for c in calls], final.content or ""


def responses_loop(shell: Shell, model: str, stream: bool) -> tuple[list[tuple[str, Any]], str]:
    client = _openai(shell)
    items: list[Any] = [{"role": "user", "content": USER}]

    def turn() -> Any:
        if not stream:
            return client.responses.create(model=model, input=items, tools=responses_tools(), store=False)  # type: ignore[arg-type]
        with client.responses.stream(model=model, input=items, tools=responses_tools(), store=False) as s:  # type: ignore[arg-type]
            for _ in s:
                pass
            return s.get_final_response()

    first = turn()
    calls = [item for item in first.output if item.type == "function_call"]
    items += [item.model_dump(exclude_none=True) for item in first.output]
    items += [
        {"type": "function_call_output", "call_id": c.call_id, "output": result_for(c.name)} for c in calls
    ]
    final = turn()
    assert not [item for item in final.output if item.type == "function_call"]
    return [(c.name, json.loads(c.arguments)) for c in calls], final.output_text


def anthropic_loop(shell: Shell, model: str, stream: bool) -> tuple[list[tuple[str, Any]], str]:
    client = anthropic.Anthropic(  # this SDK takes only an httpx2 client
        base_url=shell.base_url, api_key=GATEWAY_KEY, max_retries=0, http_client=shell.http_client(httpx2)
    )
    messages: list[Any] = [{"role": "user", "content": USER}]

    def turn() -> Any:
        args: dict[str, Any] = {
            "model": model,
            "max_tokens": 1024,
            "messages": messages,
            "tools": anthropic_tools(),
        }
        if not stream:
            return client.messages.create(**args)
        with client.messages.stream(**args) as s:
            for _ in s:
                pass
            return s.get_final_message()

    first = turn()
    assert first.stop_reason == "tool_use"
    uses = [b for b in first.content if b.type == "tool_use"]
    messages.append(
        {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]}
    )
    results = [{"type": "tool_result", "tool_use_id": b.id, "content": result_for(b.name)} for b in uses]
    messages.append({"role": "user", "content": results})
    final = turn()
    assert final.stop_reason == "end_turn"
    return [(b.name, b.input) for b in uses], "".join(b.text for b in final.content if b.type == "text")


def gemini_loop(shell: Shell, model: str, stream: bool) -> tuple[list[tuple[str, Any]], str]:
    options = types.HttpOptions(
        base_url=shell.base_url,
        retry_options=types.HttpRetryOptions(attempts=1),
        httpx_client=shell.http_client(),
    )
    client = genai.Client(api_key=GATEWAY_KEY, http_options=options)
    declarations = [types.FunctionDeclaration(name=n, parameters_json_schema=s) for n, s in SCHEMAS.items()]
    config = types.GenerateContentConfig(
        tools=[types.Tool(function_declarations=declarations)],
        automatic_function_calling=types.AutomaticFunctionCallingConfig(disable=True),
    )
    contents: list[types.Content] = [types.Content(role="user", parts=[types.Part(text=USER)])]

    def turn() -> types.Content:
        if not stream:
            reply = client.models.generate_content(model=model, contents=contents, config=config)  # type: ignore[arg-type]
            assert reply.candidates and reply.candidates[0].content
            return reply.candidates[0].content
        parts: list[types.Part] = []
        for chunk in client.models.generate_content_stream(model=model, contents=contents, config=config):  # type: ignore[arg-type]
            if chunk.candidates and chunk.candidates[0].content and chunk.candidates[0].content.parts:
                parts.extend(chunk.candidates[0].content.parts)
        return types.Content(role="model", parts=parts)

    first = turn()
    calls = [p.function_call for p in first.parts or [] if p.function_call]
    answers = [
        types.Part.from_function_response(name=c.name or "", response=json.loads(result_for(c.name or "")))
        for c in calls
    ]
    contents += [first, types.Content(role="user", parts=answers)]
    final = turn()
    assert not [p for p in final.parts or [] if p.function_call]
    return [(c.name, c.args) for c in calls], "".join(
        p.text or "" for p in final.parts or [] if not p.thought
    )


LOOPS: dict[str, Loop] = {
    "openai-chat": chat_loop,
    "openai-responses": responses_loop,
    "anthropic": anthropic_loop,
    "gemini": gemini_loop,
}


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize(("sdk", "upstream"), PAIRS, ids=[f"{c}->{u}" for c, u in PAIRS])
def test_an_sdk_finishes_a_tool_loop_through_the_gateway(
    sync_shell: Shell, sdk: str, upstream: str, stream: bool
) -> None:
    calls, final = LOOPS[sdk](sync_shell, ROUTE_MODELS[upstream], stream)
    assert calls == CALLED
    assert final.startswith("Results: get_weather -> ")
    quoted = json.loads(final.removeprefix("Results: get_weather -> "))
    assert quoted == json.loads(result_for("get_weather"))


def test_the_async_sdks_through_the_async_transport(config: HopConfig) -> None:
    """``AsyncOpenAI`` on an ``httpx.AsyncClient``, ``AsyncAnthropic`` on an ``httpx2`` one."""
    shell = TransportShell(config, "transport-async")
    ask = [{"role": "user", "content": USER}]

    async def chat(stream: bool) -> list[str]:
        async with openai.AsyncOpenAI(
            base_url=f"{shell.base_url}/v1",
            api_key=GATEWAY_KEY,
            max_retries=0,
            http_client=shell.async_http_client(),
        ) as client:
            if not stream:
                done = await client.chat.completions.create(
                    model="to-anthropic", messages=ask, tools=chat_tools()
                )  # type: ignore[arg-type]
            else:
                async with client.chat.completions.stream(
                    model="to-gemini", messages=ask, tools=chat_tools()
                ) as s:  # type: ignore[arg-type]
                    async for _ in s:
                        pass
                    done = await s.get_final_completion()
        return [c.function.name for c in done.choices[0].message.tool_calls or []]

    async def messages(stream: bool) -> list[str]:
        http = httpx2.AsyncClient(transport=Transport(config, env=ENV), timeout=30)
        async with anthropic.AsyncAnthropic(
            base_url=shell.base_url, api_key=GATEWAY_KEY, max_retries=0, http_client=http
        ) as client:
            args: dict[str, Any] = {
                "model": "to-responses",
                "max_tokens": 100,
                "messages": ask,
                "tools": anthropic_tools(),
            }
            if not stream:
                done = await client.messages.create(**args)
            else:
                async with client.messages.stream(**args) as s:
                    async for _ in s:
                        pass
                    done = await s.get_final_message()
        return [b.name for b in done.content if b.type == "tool_use"]

    async def run() -> list[list[str]]:
        return [await chat(False), await chat(True), await messages(False), await messages(True)]

    assert asyncio.run(run()) == [["get_weather"]] * 4
