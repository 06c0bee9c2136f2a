"""Mistakes the types must catch: each line marked ``# error:`` must be reported, and no other.

Not run by pytest: ``test_typecheck.py`` type-checks this file with ``mypy --strict`` and pyright
(strict) and compares the lines reported with the marked lines.
"""

from __future__ import annotations

from typing import Any

import toolwire
from toolwire import AsyncClient, Client, StreamTranslator, Toolbox, arun, run, tool
from toolwire.runner import RunResult


@tool
def get_weather(city: str) -> str:
    """Current weather for a city."""
    return f"sunny in {city}"


def mistakes(request: dict[str, Any], box: Toolbox, result: RunResult) -> None:
    Client("antropic")  # error: misspelt provider
    AsyncClient("openai")  # error: a format alias, not a provider
    toolwire.translate_request(request, source="chat-gpt", target="anthropic")  # error: source
    toolwire.translate_response(request, source="gemini", target="Anthropic")  # error: target
    toolwire.Exchange("openai-chat", "gemni")  # error: upstream
    StreamTranslator("anthropic", "openai_chat")  # error: target
    toolwire.translate_stream([b""], source="sse", target="gemini")  # error: source
    toolwire.validate(request, format="antropic")  # error: format
    toolwire.validate(request, format="anthropic", kind="stream")  # error: kind
    result.native("openai-chats")  # error: format
    get_weather(city=1)  # error: argument type of a @tool function
    get_weather("Paris", days=2)  # error: unknown argument of a @tool function
    days: int = get_weather("Paris")  # error: a @tool function's return type
    _ = get_weather.tool.nmae  # error: Tool has no such attribute
    tool(name=1)  # error: tool name is a string
    with Client("anthropic") as client:
        run(client, request, box, max_turns="8")  # error: max_turns is an int
    print(days)


async def sync_client_to_async_runner(request: dict[str, Any], box: Toolbox) -> None:
    with Client("anthropic") as client:
        await arun(client, request, box)  # error: arun needs an AsyncClient
