"""Every Python snippet of README.md, made type-complete, with the types a user should see.

Not run by pytest: ``test_typecheck.py`` type-checks this file with ``mypy --strict`` and pyright
(strict) and requires no error. Each snippet is a function so that importing the file does nothing;
``assert_type`` pins what the checkers infer (it is a no-op at run time).
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Iterator
from decimal import Decimal
from typing import Any, assert_type

import toolwire
from toolwire import (
    AsyncClient,
    Client,
    Exchange,
    FormatName,
    Price,
    Prices,
    StreamTranslator,
    Tool,
    Toolbox,
    Translation,
    arun,
    arun_stream,
    run,
    run_stream,
    tool,
    translate_request,
    translate_response,
    translate_stream,
    validate,
)
from toolwire.emulator import serve
from toolwire.ir import Note, Usage
from toolwire.runner import RunEvent, RunResult
from toolwire.validate import Problem


def library(gemini_response: dict[str, Any]) -> dict[str, Any]:
    """README "Library"."""
    chat_request: dict[str, Any] = {
        "model": "gpt-4o",
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
        "tools": [
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
        ],
    }
    result = toolwire.translate_request(chat_request, source="openai-chat", target="anthropic")
    assert_type(result, Translation)
    assert_type(result.payload, dict[str, Any])
    assert_type(result.notes, tuple[Note, ...])
    raw_body = json.dumps(chat_request).encode()
    body = toolwire.translate_request_bytes(raw_body, source="openai-chat", target="anthropic")
    assert_type(body, bytes)

    ex = toolwire.Exchange("openai-chat", "gemini")
    upstream_body = ex.request(chat_request)
    assert_type(upstream_body, dict[str, Any])
    chat_response = ex.response(gemini_response)
    assert_type(chat_response, dict[str, Any])
    return chat_response


def tools_from_python() -> Tool:
    """README "Tools from Python"."""
    from toolwire.decorator import tool

    @tool
    def get_weather(city: str, unit: str = "celsius") -> str:
        """Current weather for a city.

        Args:
            city: City name.
            unit: celsius or fahrenheit.
        """
        return f"sunny in {city}"

    as_function: Callable[[str, str], str] = get_weather
    assert_type(as_function("Paris", "celsius"), str)
    assert_type(get_weather("Paris"), str)
    assert_type(get_weather(city="Paris", unit="fahrenheit"), str)
    assert_type(get_weather.tool, Tool)
    assert_type(get_weather.validate_arguments('{"city": "Paris"}'), dict[str, Any])
    return get_weather.tool


def chat_dialects() -> None:
    claude_turn: dict[str, Any] = {
        "model": "mistral-large-latest",
        "max_tokens": 200,
        "messages": [{"role": "user", "content": "roll"}],
    }
    translation = toolwire.translate_request(
        claude_turn, source="anthropic", target="openai-chat", target_dialect="mistral"
    )
    assert_type(translation, Translation)
    assert_type(translation.payload, dict[str, Any])
    problems = toolwire.validate(translation.payload, format="openai-chat", dialect="mistral")
    assert_type(problems, list[Problem])
    to_openrouter = toolwire.translate_request(
        claude_turn,
        source="openai-chat",
        target="openai-chat",
        source_dialect="deepseek",
        target_dialect="openrouter",
    )
    assert_type(to_openrouter.notes, tuple[Note, ...])


def streams(
    anthropic_events: list[dict[str, Any]], upstream_chunks: Iterable[bytes], send: Callable[[bytes], None]
) -> list[dict[str, Any] | str]:
    """README "Streams"."""
    from toolwire.streaming import StreamTranslator, translate_stream

    translator = StreamTranslator("anthropic", "openai-chat")
    chat_events = [out for event in anthropic_events for out in translator.feed(event)] + translator.close()
    assert_type(chat_events, list[dict[str, Any] | str])

    for chunk in translate_stream(upstream_chunks, source="gemini", target="openai-responses"):
        assert_type(chunk, bytes)
        send(chunk)
    return chat_events


def validate_emulate_call_run() -> str:
    """README "Validate, emulate, call, run"."""

    @tool
    def get_weather(city: str) -> str:
        """Current weather for a city."""
        return f"sunny in {city}"

    box = Toolbox()
    box.register(get_weather)
    request: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 1024,
        "messages": [{"role": "user", "content": "Weather in Paris?"}],
    }

    problems = toolwire.validate(request, format="anthropic")
    assert_type(problems, list[Problem])
    print(problems)
    with serve() as url, Client("anthropic", base_url=url, api_key="test") as client:
        assert_type(client, Client)
        result = run(client, request, box, max_turns=8)
    assert_type(result, RunResult)
    assert_type(result.text, str)
    assert_type(result.native("anthropic"), dict[str, Any])
    assert_type(result.usage, Usage)
    assert_type(result.turns_usage, tuple[Usage, ...])
    assert_type(result.cost(Prices({"claude-sonnet-4-5": Price(input="3", output="15")})), Decimal)
    return result.text


def public_names_are_typed() -> None:
    """The lazily loaded names have their real types, not ``Any``."""
    assert_type(toolwire.Client, type[Client])
    assert_type(toolwire.AsyncClient, type[AsyncClient])
    assert_type(toolwire.Toolbox, type[Toolbox])
    assert_type(toolwire.StreamTranslator, type[StreamTranslator])
    assert_type(toolwire.Exchange, type[Exchange])
    assert_type(validate({}, format="gemini", kind="response"), list[Problem])
    assert_type(toolwire.validate({}, format="chat"), list[Problem])  # an alias
    assert_type(translate_response({}, source="google", target="claude"), Translation)
    assert_type(translate_request({}, source="openai-responses", target="openai"), Translation)
    assert_type(translate_stream([b""], source="anthropic", target="gemini"), Iterator[bytes])
    runner: Callable[..., RunResult] = toolwire.run
    assert_type(runner, Callable[..., RunResult])
    assert_type(toolwire.run_stream is run_stream, bool)
    assert_type(toolwire.tool is tool, bool)


def format_names(name: FormatName) -> None:
    """A :data:`FormatName` goes wherever a format is expected."""
    translator = StreamTranslator(name, "anthropic")
    assert_type(translator.feed({}), list[dict[str, Any] | str])
    assert_type(Exchange(name, "gemini").client, FormatName)


class Weather:
    """A ``@tool`` method binds like a method: the bound one has no ``self``."""

    def __init__(self, unit: str) -> None:
        self.unit = unit

    @tool(name="weather", description="Current weather.", strict=True)
    def get(self, city: str, days: int = 1) -> str:
        return f"{days} days of sun in {city} ({self.unit})"


async def methods_and_async() -> None:
    """``@tool(...)`` with arguments, on a method and on an ``async def``."""
    weather = Weather("celsius")
    bound: Callable[[str, int], str] = weather.get
    assert_type(bound("Oslo", 2), str)
    assert_type(weather.get("Oslo", days=2), str)
    assert_type(Weather.get.tool, Tool)

    @tool
    async def lookup(key: str) -> int:
        return len(key)

    assert_type(lookup.tool, Tool)
    assert_type(lookup.is_async, bool)
    pending: Awaitable[int] = lookup("k")
    assert_type(await pending, int)
    assert_type(await lookup(key="k"), int)


async def async_client_run(url: str, request: dict[str, Any], box: Toolbox) -> str:
    """``AsyncClient`` with ``arun`` / ``arun_stream``; a format name for a native payload."""
    async with AsyncClient("gemini", base_url=url, api_key="test") as client:
        result = await arun(client, request, box)
        assert_type(result, RunResult)
        events = arun_stream(client, request, box)
        assert_type(events, AsyncIterator[RunEvent])
        async for event in events:
            assert_type(event, RunEvent)
        created = await client.create(request, format="openai-chat")
        assert_type(created.response.text, str)
    with Client("azure-openai", base_url=url) as sync_client:
        for event in run_stream(sync_client, request, box):
            assert_type(event, RunEvent)
    return result.text
