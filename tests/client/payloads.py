"""One tool-calling request in each wire format, and the same request in the canonical model."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from toolwire.ir import Message, Request, Tool
from toolwire.ir.content import TextPart

PROVIDER_FORMATS = ("openai-responses", "openai-chat", "anthropic", "gemini")
MODELS = {
    "openai-responses": "gpt-5",
    "openai-chat": "gpt-4o",
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-flash",
    "azure-openai": "gpt-5",
}
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "City name"}},
    "required": ["city"],
}
QUESTION = "What is the weather in Paris?"


def native(fmt: str) -> dict[str, Any]:
    """The request in format ``fmt`` (Gemini's carries no model: it goes in the URL)."""
    if fmt == "openai-chat":
        return {
            "model": MODELS[fmt],
            "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": QUESTION}],
            "tools": [
                {
                    "type": "function",
                    "function": {"name": "get_weather", "description": "Weather", "parameters": SCHEMA},
                }
            ],
        }
    if fmt == "openai-responses":
        return {
            "model": MODELS[fmt],
            "instructions": "Be brief.",
            "input": [{"type": "message", "role": "user", "content": QUESTION}],
            "tools": [
                {
                    "type": "function",
                    "name": "get_weather",
                    "description": "Weather",
                    "parameters": SCHEMA,
                    "strict": False,
                }
            ],
        }
    if fmt == "anthropic":
        return {
            "model": MODELS[fmt],
            "max_tokens": 256,
            "system": "Be brief.",
            "messages": [{"role": "user", "content": QUESTION}],
            "tools": [{"name": "get_weather", "description": "Weather", "input_schema": SCHEMA}],
        }
    return {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [{"role": "user", "parts": [{"text": QUESTION}]}],
        "tools": [
            {
                "functionDeclarations": [
                    {"name": "get_weather", "description": "Weather", "parameters": SCHEMA}
                ]
            }
        ],
    }


def ir_request(model: str) -> Request:
    """The request in the canonical model."""
    return Request(
        model=model,
        messages=(
            Message(role="system", parts=(TextPart(text="Be brief."),)),
            Message(role="user", parts=(TextPart(text=QUESTION),)),
        ),
        tools=(Tool(name="get_weather", description="Weather", parameters=SCHEMA),),
    )


def has_stream_codec(fmt: str) -> bool:
    """Whether this toolwire build streams ``fmt`` (its format package has ``stream.py``)."""
    package = {
        "openai-responses": "openai_responses",
        "openai-chat": "openai_chat",
        "anthropic": "anthropic",
        "gemini": "gemini",
    }[fmt]
    return importlib.util.find_spec(f"toolwire.formats.{package}.stream") is not None


def need_stream(fmt: str) -> None:
    """Skip the test when ``fmt`` has no stream codec in this build."""
    if not has_stream_codec(fmt):
        pytest.skip(f"toolwire.formats stream codec for {fmt} not present in this build")
