"""Shared cases of the hop tests: each client format's request, as its clients send it over HTTP."""

from __future__ import annotations

import json
from typing import Any

from toolwire.hop import InboundRequest

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
PAIRS = [(client, upstream) for client in FORMATS for upstream in FORMATS]
MODEL = "my-alias"
DOTTED = "weather.get/now"  # valid in no format: every upstream gets a sanitized name
SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}
TEXT = "What is the weather in Paris?"
ANTHROPIC_ANSWER: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "up-model",
    "content": [{"type": "text", "text": "done"}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 3, "output_tokens": 1},
}
"""A plain Anthropic answer an upstream gives (the body a step test feeds the hop)."""

_BODIES: dict[str, dict[str, Any]] = {
    "openai-chat": {
        "model": MODEL,
        "messages": [{"role": "user", "content": TEXT}],
        "tools": [{"type": "function", "function": {"name": DOTTED, "parameters": SCHEMA}}],
    },
    "openai-responses": {
        "model": MODEL,
        "input": TEXT,
        "tools": [{"type": "function", "name": DOTTED, "parameters": SCHEMA}],
    },
    "anthropic": {
        "model": MODEL,
        "max_tokens": 256,
        "messages": [{"role": "user", "content": TEXT}],
        "tools": [{"name": DOTTED, "input_schema": SCHEMA}],
    },
    "gemini": {
        "contents": [{"role": "user", "parts": [{"text": TEXT}]}],
        "tools": [{"functionDeclarations": [{"name": DOTTED, "parameters": SCHEMA}]}],
    },
}

_PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
}


def inbound(
    client: str,
    *,
    stream: bool,
    sse: bool = True,
    headers: dict[str, str] | None = None,
    body: dict[str, Any] | None = None,
) -> InboundRequest:
    """The client's HTTP request: the stream flag in the body, or for Gemini in the URL."""
    payload = dict(body if body is not None else _BODIES[client])
    if client == "gemini":
        method = "streamGenerateContent" if stream else "generateContent"
        query = "alt=sse" if stream and sse else ""
        path = f"/v1beta/models/{MODEL}:{method}"
    else:
        payload["stream"] = stream
        path, query = _PATHS[client], ""
    data = json.dumps(payload).encode()
    return InboundRequest("POST", path, query, {"Content-Type": "application/json", **(headers or {})}, data)
