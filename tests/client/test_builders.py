"""Chat, Anthropic and Gemini requests as the server receives them; providers and addresses."""

from __future__ import annotations

import pytest

from tests.client.conftest import KEY, Server
from tests.client.payloads import MODELS, native, need_stream
from toolwire.client import AnthropicOptions, ChatOptions, Client, GeminiOptions
from toolwire.client._providers import get_spec, resolve_base_url, resolve_key
from toolwire.errors import ToolwireError


def test_chat_request(server: Server) -> None:
    with Client("openai-chat", base_url=server.url, api_key=KEY) as client:
        client.create(native("openai-chat"))
    (seen,) = server.requests
    assert seen.path == "/v1/chat/completions"
    assert seen.headers["authorization"] == f"Bearer {KEY}"
    assert seen.headers["accept"] == "application/json"
    assert seen.body == {**native("openai-chat"), "stream": False}


def test_chat_stream_asks_for_usage(server: Server) -> None:
    need_stream("openai-chat")
    with (
        Client("openai-chat", base_url=server.url, api_key=KEY) as client,
        client.stream(native("openai-chat")) as s,
    ):
        response = s.collect()
    (seen,) = server.requests
    assert seen.body["stream"] is True
    assert seen.body["stream_options"] == {"include_usage": True}
    assert seen.headers["accept"] == "text/event-stream"
    assert response.usage is not None


def test_chat_stream_without_usage_option(server: Server) -> None:
    need_stream("openai-chat")
    options = ChatOptions(include_usage=False)
    client = Client("openai-chat", base_url=server.url, api_key=KEY, options=options)
    with client, client.stream(native("openai-chat")) as s:
        s.collect()
    assert "stream_options" not in server.requests[0].body


def test_anthropic_request(server: Server) -> None:
    body = native("anthropic")
    del body["max_tokens"]
    options = AnthropicOptions(
        beta=("interleaved-thinking-2025-05-14", "fine-grained-tool-streaming-2025-05-14")
    )
    with Client("anthropic", base_url=server.url, api_key=KEY, options=options) as client:
        client.create(body)
    (seen,) = server.requests
    assert seen.path == "/v1/messages"
    assert seen.headers["x-api-key"] == KEY
    assert "authorization" not in seen.headers
    assert seen.headers["anthropic-version"] == "2023-06-01"
    assert seen.headers["anthropic-beta"] == ",".join(options.beta)
    assert seen.body["max_tokens"] == options.max_tokens
    assert seen.body["stream"] is False


def test_anthropic_without_beta_sends_no_beta_header(server: Server) -> None:
    with Client("anthropic", base_url=server.url, api_key=KEY) as client:
        client.create(native("anthropic"))
    assert "anthropic-beta" not in server.requests[0].headers
    assert server.requests[0].body["max_tokens"] == native("anthropic")["max_tokens"]


def test_gemini_request(server: Server) -> None:
    with Client("gemini", base_url=server.url, api_key=KEY, model=MODELS["gemini"]) as client:
        client.create(native("gemini"))
    (seen,) = server.requests
    assert seen.path == f"/v1beta/models/{MODELS['gemini']}:generateContent"
    assert seen.query == ""
    assert seen.headers["x-goog-api-key"] == KEY
    assert seen.body == native("gemini")


def test_gemini_stream_uses_alt_sse(server: Server) -> None:
    need_stream("gemini")
    client = Client("gemini", base_url=server.url, api_key=KEY, model="models/" + MODELS["gemini"])
    with client, client.stream(native("gemini")) as s:
        s.collect()
    (seen,) = server.requests
    assert seen.path == f"/v1beta/models/{MODELS['gemini']}:streamGenerateContent"
    assert seen.query == "alt=sse"


def test_gemini_stream_as_json_array(server: Server) -> None:
    need_stream("gemini")
    options = GeminiOptions(sse=False)
    client = Client("gemini", base_url=server.url, api_key=KEY, model=MODELS["gemini"], options=options)
    with client, client.stream(native("gemini")) as s:
        response = s.collect()
    assert server.requests[0].query == ""
    assert [call.name for call in response.tool_calls] == ["get_weather"]


def test_extra_headers_per_client_and_per_call(server: Server) -> None:
    with Client("openai-chat", base_url=server.url, api_key=KEY, headers={"X-Team": "a"}) as client:
        client.create(native("openai-chat"), headers={"X-Call": "b"})
    headers = server.requests[0].headers
    assert (headers["x-team"], headers["x-call"]) == ("a", "b")


def test_keys_and_addresses_from_environment() -> None:
    env = {"GOOGLE_API_KEY": "g2", "AZURE_OPENAI_ENDPOINT": "https://res.openai.azure.com/"}
    assert resolve_key(get_spec("gemini"), None, env) == "g2"
    assert resolve_key(get_spec("gemini"), None, {**env, "GEMINI_API_KEY": "g1"}) == "g1"
    assert resolve_key(get_spec("anthropic"), "explicit", {"ANTHROPIC_API_KEY": "e"}) == "explicit"
    assert resolve_base_url(get_spec("azure-openai"), None, env) == "https://res.openai.azure.com/openai"
    assert (
        resolve_base_url(get_spec("openai-chat"), "https://proxy.example/v1/", {}) == "https://proxy.example"
    )
    assert resolve_base_url(get_spec("gemini"), None, {}) == "https://generativelanguage.googleapis.com"


def test_env_key_is_used(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "from-env")
    with Client("anthropic", base_url=server.url) as client:
        client.create(native("anthropic"))
    assert server.requests[0].headers["x-api-key"] == "from-env"


def test_unknown_provider_and_missing_azure_address() -> None:
    with pytest.raises(ToolwireError, match="unknown provider"):
        Client("cohere")  # type: ignore[arg-type]
    with pytest.raises(ToolwireError, match="AZURE_OPENAI_ENDPOINT"):
        resolve_base_url(get_spec("azure-openai"), None, {})


def test_options_must_match_provider() -> None:
    client = Client("anthropic", base_url="http://127.0.0.1:9", api_key=KEY, options=ChatOptions())
    with client, pytest.raises(ToolwireError, match="AnthropicOptions"):
        client.create(native("anthropic"))
