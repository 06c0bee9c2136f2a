"""Inbound HTTP request -> the upstream call (``Exchange.request_http``), for all 16 pairs."""

from __future__ import annotations

import json

import pytest

from tests.hop.cases import DOTTED, MODEL, PAIRS, inbound
from toolwire import Exchange
from toolwire.errors import PayloadError
from toolwire.hop import InboundRequest, UpstreamCall
from toolwire.hop._options import AnthropicOptions
from toolwire.names import is_valid_name

UPSTREAM_PATHS = {
    ("openai-chat", False): "/v1/chat/completions",
    ("openai-chat", True): "/v1/chat/completions",
    ("openai-responses", False): "/v1/responses",
    ("openai-responses", True): "/v1/responses",
    ("anthropic", False): "/v1/messages",
    ("anthropic", True): "/v1/messages",
    ("gemini", False): f"/v1beta/models/{MODEL}:generateContent",
    ("gemini", True): f"/v1beta/models/{MODEL}:streamGenerateContent?alt=sse",
}
CREDENTIALS = ("authorization", "x-api-key", "x-goog-api-key", "api-key")


def _tool_names(upstream: str, body: dict) -> list[str]:
    if upstream == "gemini":
        return [d["name"] for tool in body["tools"] for d in tool["functionDeclarations"]]
    if upstream == "openai-chat":
        return [tool["function"]["name"] for tool in body["tools"]]
    return [tool["name"] for tool in body["tools"]]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_the_upstream_call_carries_the_clients_stream_flag_and_model(
    client: str, upstream: str, stream: bool
) -> None:
    ex = Exchange(client, upstream)
    call = ex.request_http(inbound(client, stream=stream))
    body = call.json()
    assert isinstance(call, UpstreamCall)
    assert (call.method, call.path, call.stream, call.model) == (
        "POST",
        UPSTREAM_PATHS[upstream, stream],
        stream,
        MODEL,
    )
    assert call.url("http://127.0.0.1:9/") == "http://127.0.0.1:9" + UPSTREAM_PATHS[upstream, stream]
    assert call.headers["content-type"] == "application/json"
    assert call.headers["accept"] == ("text/event-stream" if stream else "application/json")
    assert not set(CREDENTIALS) & set(call.headers)
    assert ex.client_stream is stream
    assert ex.client_model == MODEL
    if upstream == "gemini":
        assert "model" not in body and "stream" not in body
    else:
        assert (body["model"], body["stream"]) == (MODEL, stream)
    if upstream == "anthropic":
        assert call.headers["anthropic-version"] == "2023-06-01"
        assert isinstance(body["max_tokens"], int)
    if upstream == "openai-chat":
        # a Chat stream asks for usage, or the client sees 0 tokens
        assert body.get("stream_options") == ({"include_usage": True} if stream else None)
    names = _tool_names(upstream, body)
    if client == upstream:
        assert names == [DOTTED]  # a same-format hop passes the client's names through
    else:
        assert len(names) == 1 and is_valid_name(names[0], upstream)  # type: ignore[arg-type]


@pytest.mark.parametrize("upstream", ["openai-chat", "openai-responses", "anthropic", "gemini"])
@pytest.mark.parametrize(("sse", "array"), [(True, False), (False, True)], ids=["alt=sse", "json-array"])
def test_a_gemini_clients_url_gives_model_and_stream(upstream: str, sse: bool, array: bool) -> None:
    ex = Exchange("gemini", upstream)
    call = ex.request_http(inbound("gemini", stream=True, sse=sse))
    assert call.stream and ex.client_stream
    assert ex.client_json_array is array
    assert call.model == MODEL
    # the upstream streams SSE either way: the relay writes the JSON array for the client
    assert call.path == UPSTREAM_PATHS[upstream, True]


def test_the_url_model_is_rewritten_for_the_upstream() -> None:
    ex = Exchange("openai-chat", "gemini", upstream_model="gemini-2.5-pro")
    call = ex.request_http(inbound("openai-chat", stream=True))
    assert call.path == "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    assert ex.client_model == MODEL


def test_an_anthropic_client_keeps_its_betas_on_an_anthropic_upstream() -> None:
    headers = {"Anthropic-Beta": "interleaved-thinking-2025-05-14, fine-grained-tool-streaming-2025-05-14"}
    ex = Exchange("anthropic", "anthropic")
    call = ex.request_http(
        inbound("anthropic", stream=True, headers=headers), options=AnthropicOptions(beta=("b1",))
    )
    assert call.headers["anthropic-beta"] == (
        "b1,interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14"
    )


@pytest.mark.parametrize("client", ["openai-chat", "openai-responses", "gemini"])
def test_other_clients_betas_do_not_reach_anthropic(client: str) -> None:
    headers = {"anthropic-beta": "interleaved-thinking-2025-05-14"}
    call = Exchange(client, "anthropic").request_http(inbound(client, stream=False, headers=headers))
    assert "anthropic-beta" not in call.headers


def test_same_format_headers_are_forwarded_and_cross_format_ones_are_not() -> None:
    headers = {"OpenAI-Beta": "responses=experimental", "session_id": "s-1"}
    same = Exchange("openai-responses", "openai-responses").request_http(
        inbound("openai-responses", stream=False, headers=headers)
    )
    assert (same.headers["openai-beta"], same.headers["session_id"]) == ("responses=experimental", "s-1")
    other = Exchange("openai-responses", "openai-chat").request_http(
        inbound("openai-responses", stream=False, headers=headers)
    )
    assert "openai-beta" not in other.headers and "session_id" not in other.headers


def test_a_hop_keeps_parallel_calls_allowed_on_a_responses_upstream() -> None:
    call = Exchange("openai-chat", "openai-responses").request_http(inbound("openai-chat", stream=False))
    assert call.json()["parallel_tool_calls"] is True


@pytest.mark.parametrize("body", [b"[1, 2]", b"{not json", b'"text"'])
def test_a_body_that_is_no_json_object_is_refused(body: bytes) -> None:
    with pytest.raises(PayloadError):
        Exchange("openai-chat", "anthropic").request_http(
            InboundRequest("POST", "/v1/chat/completions", body=body)
        )


def test_request_takes_the_stream_flag_and_model_as_arguments() -> None:
    ex = Exchange("gemini", "openai-chat")
    body = ex.request(json.loads(inbound("gemini", stream=False).body), stream=True, model="from-url")
    assert (body["model"], body["stream"]) == ("from-url", True)
    call = ex.upstream_call(body)
    assert call.json()["stream_options"] == {"include_usage": True}


def _responses_history(store: bool | None) -> InboundRequest:
    body: dict[str, object] = {
        "model": MODEL,
        "input": [
            {"type": "message", "role": "user", "content": "hi"},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        ],
    }
    if store is not None:
        body["store"] = store
    return InboundRequest("POST", "/v1/responses", "", {}, json.dumps(body).encode())


@pytest.mark.parametrize(("store", "sent"), [(None, True), (True, True), (False, False)])
def test_a_responses_client_keeps_its_store_and_item_ids_on_a_responses_upstream(
    store: bool | None, sent: bool
) -> None:
    body = Exchange("openai-responses", "openai-responses").request_http(_responses_history(store)).json()
    assert body["store"] is sent
    assert ("id" in body["input"][1]) is sent  # stateless calls go without item ids


def test_other_clients_go_stateless_to_a_responses_upstream() -> None:
    body = (
        Exchange("openai-chat", "openai-responses").request_http(inbound("openai-chat", stream=False)).json()
    )
    assert body["store"] is False
