"""A tool call without a name, in a response or a request's history, from any source format.

No format has a tool without a name, so such a call could be neither run nor answered. Before,
Chat, Responses and Anthropic payloads carried ``name: ""`` through to every target (Gemini's
decoder alone refused it). Now every decoder refuses it at the field's path (``req_name``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import toolwire
from tests.corpus import FORMATS
from toolwire.errors import PayloadError

_CALL = {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}}
_CHAT_RESPONSE = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1,
    "model": "m",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "tool_calls": [_CALL],
            },
            "finish_reason": "tool_calls",
        }
    ],
}
_CHAT_REQUEST = {
    "model": "m",
    "max_tokens": 16,
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [_CALL],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ],
}


def _unnamed(value: Any, path: str = "$") -> str | None:
    """Rename the first ``get_weather`` in ``value`` to ``""``; the path of that ``name``."""
    if isinstance(value, dict):
        if value.get("name") == "get_weather":
            value["name"] = ""
            return f"{path}.name"
        items: Any = value.items()
    elif isinstance(value, list):
        items = ((f"[{i}]", v) for i, v in enumerate(value))
    else:
        return None
    for key, inner in items:
        found = _unnamed(inner, f"{path}{key}" if key.startswith("[") else f"{path}.{key}")
        if found is not None:
            return found
    return None


def _pairs() -> list[Any]:
    return [pytest.param(s, t, id=f"{s}->{t}") for s in FORMATS for t in FORMATS if s != t]


@pytest.mark.parametrize(("src", "dst"), _pairs())
def test_a_response_call_without_a_name_is_refused_at_its_path(src: str, dst: str) -> None:
    source = toolwire.translate_response(_CHAT_RESPONSE, source="openai-chat", target=src).payload
    named = toolwire.translate_response(copy.deepcopy(source), source=src, target=dst, policy="drop")
    assert "get_weather" in str(named.payload)  # the same payload with its name translates
    path = _unnamed(source)
    assert path is not None
    with pytest.raises(PayloadError, match="expected a tool name, got an empty string") as info:
        toolwire.translate_response(source, source=src, target=dst, policy="drop")
    assert info.value.path == path


@pytest.mark.parametrize(("src", "dst"), _pairs())
def test_a_request_call_without_a_name_is_refused_at_its_path(src: str, dst: str) -> None:
    source = toolwire.translate_request(_CHAT_REQUEST, source="openai-chat", target=src).payload
    toolwire.translate_request(copy.deepcopy(source), source=src, target=dst, policy="drop", model="m")
    path = _unnamed(source)
    assert path is not None
    with pytest.raises(PayloadError, match="expected a tool name, got an empty string") as info:
        toolwire.translate_request(source, source=src, target=dst, policy="drop", model="m")
    assert info.value.path == path
