"""The HTTP request an upstream receives for a body of its own format (the builders the hop and
:class:`toolwire.Client` share): where the model goes, which fields a provider gets or is spared,
and the error a body that cannot be addressed gets."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import PayloadError
from toolwire.hop._build import BuildContext, HTTPRequest, build_http_request
from toolwire.hop._options import (
    AnthropicOptions,
    BedrockOptions,
    ChatOptions,
    GeminiOptions,
    Options,
)
from toolwire.hop._providers import get_spec
from toolwire.ir.notes import Notes

BASE = "https://up.example"
MESSAGES = [{"role": "user", "content": "hi"}]


def _build(
    provider: str,
    body: dict[str, Any],
    options: Options,
    *,
    stream: bool = False,
    model: str | None = None,
    params: dict[str, str] | None = None,
) -> HTTPRequest:
    ctx = BuildContext(get_spec(provider), BASE, options, stream, Notes("drop"), model, params=params or {})
    return build_http_request(body, ctx)


def test_a_body_without_a_model_gets_the_clients_model() -> None:
    built = _build("openai-chat", {"messages": MESSAGES}, ChatOptions(), model="gpt-x")
    assert built.body["model"] == "gpt-x" and built.model == "gpt-x"


def test_the_bodys_own_model_wins() -> None:
    built = _build("openai-chat", {"model": "own", "messages": MESSAGES}, ChatOptions(), model="other")
    assert built.body["model"] == "own" and built.model == "own"


def test_without_any_model_none_is_made_up() -> None:
    built = _build("anthropic", {"max_tokens": 5, "messages": MESSAGES}, AnthropicOptions())
    assert "model" not in built.body and built.model is None


def test_a_dialect_that_refuses_stream_options_gets_none() -> None:
    built = _build("mistral", {"model": "m", "messages": MESSAGES}, ChatOptions(), stream=True)
    assert built.body["stream"] is True and "stream_options" not in built.body


def test_the_clients_own_stream_options_are_kept() -> None:
    body = {"model": "m", "messages": MESSAGES, "stream_options": {"include_usage": False}}
    built = _build("openai-chat", body, ChatOptions(), stream=True)
    assert built.body["stream_options"] == {"include_usage": False}


def test_a_gemini_model_goes_in_the_url_not_the_body() -> None:
    body = {"model": "models/gemini-x", "contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    built = _build("gemini", body, GeminiOptions())
    assert built.url == f"{BASE}/v1beta/models/gemini-x:generateContent"
    assert "model" not in built.body and built.body["contents"] == body["contents"]


@pytest.mark.parametrize("key", ["model", "modelId"])
def test_a_bedrock_model_goes_in_the_url_not_the_body(key: str) -> None:
    body = {key: "anthropic.claude-x", "messages": [{"role": "user", "content": [{"text": "hi"}]}]}
    built = _build("bedrock", body, BedrockOptions(), model="anthropic.claude-x")
    assert built.url == f"{BASE}/model/anthropic.claude-x/converse"
    assert built.body == {"messages": body["messages"]}
    assert built.headers["accept"] == "application/json"


@pytest.mark.parametrize(
    ("provider", "options", "message", "path"),
    [
        ("gemini", GeminiOptions(), "a Gemini request needs a model (it goes in the URL)", "$.model"),
        ("bedrock", BedrockOptions(), "a Bedrock request needs a model (it goes in the URL)", "$.modelId"),
    ],
)
def test_a_body_that_cannot_be_addressed_is_refused(
    provider: str, options: Options, message: str, path: str
) -> None:
    with pytest.raises(PayloadError) as refused:
        _build(provider, {"messages": MESSAGES}, options)
    assert refused.value.message == message and refused.value.path == path


def test_claude_on_vertex_gets_the_moved_body_and_keeps_the_anthropic_one() -> None:
    body = {"model": "claude-x", "max_tokens": 5, "messages": MESSAGES}
    params = {"project": "proj", "location": "europe-west1"}
    built = _build("vertex-anthropic", body, AnthropicOptions(), params=params)
    assert built.url.endswith(
        "/projects/proj/locations/europe-west1/publishers/anthropic/models/claude-x:rawPredict"
    )
    assert "model" not in built.body and "anthropic_version" in built.body
    assert built.format_body is not None and built.format_body["model"] == "claude-x"
