"""The hop over loopback HTTP: ``UpstreamCall`` made with httpx against the emulator as upstream.

Only what :class:`~toolwire.Exchange` gives is used (no per-format code here): the upstream call
from the client's HTTP request, the client's bytes from the upstream's, the client's error from
the upstream's, as a gateway would.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest

from tests.hop.cases import FORMATS, PAIRS
from tests.streaming._oracles import sdk_view
from tests.translate.test_opaque_loop import _calls, echo, first_request
from tests.translate.test_opaque_stream import _accumulated
from toolwire import Exchange
from toolwire.emulator import FAULT_HEADER, EmulatorConfig, create_app, serve
from toolwire.hop import InboundRequest
from toolwire.streaming import KEEPALIVE, WireReader, check_stream

MODEL = "gemini-3-pro-preview"
TOOL = "weather.get/now"  # valid nowhere: sanitized for the upstream, restored for the client
ERROR = "hop-error-status"  # _send's wrapper of an error answer
PLAIN = "get_weather"  # a same-format hop passes names through, and the emulator checks them
_PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig()), log_level="critical") as base:
        yield base


def _tool(client: str, upstream: str) -> str:
    return PLAIN if client == upstream else TOOL


def _inbound(
    client: str, stream: bool, *, sse: bool = True, tool: str = TOOL, usage: bool = True
) -> InboundRequest:
    body = first_request(client, tool)
    if client == "openai-chat" and stream and usage:  # a Chat client asks for its usage chunk
        body = {**body, "stream_options": {"include_usage": True}}
    if client == "gemini":
        method = "streamGenerateContent" if stream else "generateContent"
        query = "alt=sse" if stream and sse else ""
        return InboundRequest(
            "POST", f"/v1beta/models/{MODEL}:{method}", query, {}, json.dumps(body).encode()
        )
    body = {**body, "model": MODEL, "stream": stream}
    return InboundRequest("POST", _PATHS[client], "", {}, json.dumps(body).encode())


def _send(url: str, ex: Exchange, inbound: InboundRequest, headers: dict[str, str] | None = None) -> bytes:
    """One hop: up with the described call, the client's bytes back (stream or not)."""
    call = ex.request_http(inbound)
    with httpx.Client(timeout=30) as http:
        request = http.build_request(
            call.method, call.url(url), headers={**call.headers, **(headers or {})}, content=call.body
        )
        reply = http.send(request, stream=True)
        try:
            if reply.status_code != 200:
                status, body = ex.error(reply.status_code, reply.read())
                return json.dumps({ERROR: status, "body": body}).encode()
            if call.stream:
                return b"".join(ex.translate_stream(reply.iter_bytes()))
            return json.dumps(ex.response(json.loads(reply.read()))).encode()
        finally:
            reply.close()


def _events(out: bytes) -> list[Any]:
    reader = WireReader(keepalives=True)
    return [e for e in [*reader.feed(out), *reader.close()] if e is not KEEPALIVE]


def _usage(client: str, events: list[Any]) -> int:
    """The output tokens the client's SDK reports at the end of the stream."""
    dicts = [e for e in events if isinstance(e, dict)]
    if client == "openai-chat":
        return max(e["usage"]["completion_tokens"] for e in dicts if e.get("usage"))
    if client == "openai-responses":
        return int(
            next(e for e in dicts if e["type"] == "response.completed")["response"]["usage"]["output_tokens"]
        )
    if client == "anthropic":
        return int(next(e for e in dicts if e["type"] == "message_delta")["usage"]["output_tokens"])
    return max(e["usageMetadata"].get("candidatesTokenCount", 0) for e in dicts if "usageMetadata" in e)


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_a_streamed_hop_gives_the_client_its_stream(url: str, client: str, upstream: str) -> None:
    tool = _tool(client, upstream)
    events = _events(_send(url, Exchange(client, upstream), _inbound(client, True, tool=tool)))
    assert check_stream(client, events) == []  # type: ignore[arg-type]
    calls = sdk_view(client, events).calls
    assert calls and {c[1] for c in calls} == {tool}
    assert _usage(client, events) > 0  # a Chat upstream was asked for usage


@pytest.mark.parametrize("upstream", ["openai-chat", "openai-responses", "anthropic", "gemini"])
def test_a_chat_client_that_asks_no_usage_gets_no_usage_chunk(url: str, upstream: str) -> None:
    """OpenAI sends the ``choices: []`` usage chunk only on ``stream_options.include_usage``; a
    client that reads ``choices[0]`` of every chunk must never see one it did not ask for."""
    tool = _tool("openai-chat", upstream)
    asked = _events(_send(url, Exchange("openai-chat", upstream), _inbound("openai-chat", True, tool=tool)))
    plain = _events(
        _send(url, Exchange("openai-chat", upstream), _inbound("openai-chat", True, tool=tool, usage=False))
    )
    assert [e for e in asked if isinstance(e, dict) and e["choices"] == []] != []
    assert [e for e in plain if isinstance(e, dict) and (e["choices"] == [] or e.get("usage"))] == []
    assert check_stream("openai-chat", plain) == []


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_a_json_hop_gives_the_client_its_response(url: str, client: str, upstream: str) -> None:
    tool = _tool(client, upstream)
    response = json.loads(_send(url, Exchange(client, upstream), _inbound(client, False, tool=tool)))
    calls = _calls(client, response)
    assert calls and {name for _, name in calls} == {tool}


@pytest.mark.parametrize("upstream", FORMATS)
def test_a_gemini_client_streaming_without_alt_sse_gets_a_json_array(url: str, upstream: str) -> None:
    tool = _tool("gemini", upstream)
    out = _send(url, Exchange("gemini", upstream), _inbound("gemini", True, sse=False, tool=tool))
    chunks = json.loads(out)
    assert isinstance(chunks, list) and chunks
    names = [
        p["functionCall"]["name"]
        for c in chunks
        for p in c.get("candidates", [{}])[0].get("content", {}).get("parts", [])
        if "functionCall" in p
    ]
    assert names and set(names) == {tool}


ERROR_KIND = {
    "openai-chat": lambda b: b["error"]["type"],
    "openai-responses": lambda b: b["error"]["type"],
    "anthropic": lambda b: b["error"]["type"],
    "gemini": lambda b: b["error"]["status"],
}


@pytest.mark.parametrize(("client", "upstream"), [p for p in PAIRS if p[0] != p[1]])
def test_an_upstream_rate_limit_reaches_the_client_in_its_shape(url: str, client: str, upstream: str) -> None:
    out = json.loads(_send(url, Exchange(client, upstream), _inbound(client, False), {FAULT_HEADER: "429"}))
    assert out[ERROR] == 429
    kind = ERROR_KIND[client](out["body"])
    assert kind == {"anthropic": "rate_limit_error", "gemini": "RESOURCE_EXHAUSTED"}.get(
        client, "rate_limit_error"
    )


@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize("upstream", ["anthropic", "openai-chat"])
def test_a_malformed_upstream_event_ends_the_clients_stream_with_its_error(
    url: str, client: str, upstream: str
) -> None:
    inbound = _inbound(client, True, tool=_tool(client, upstream))
    out = _send(url, Exchange(client, upstream), inbound, {FAULT_HEADER: "malformed"})
    last = [e for e in _events(out) if isinstance(e, dict)][-1]
    if client == "openai-responses":
        assert last["type"] == "response.failed"
    elif client == "anthropic":
        assert last["type"] == "error"
    else:
        assert "error" in last


@pytest.fixture(scope="module")
def strict_url() -> Iterator[str]:
    """An emulator enforcing the replay rules real providers enforce on history."""
    with serve(config=EmulatorConfig(rules="provider"), log_level="critical") as base:
        yield base


def _body(inbound: InboundRequest) -> dict[str, Any]:
    body: dict[str, Any] = json.loads(inbound.body)
    return body


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_two_turns_through_the_http_hop_pass_the_providers_rules(
    strict_url: str, client: str, upstream: str, stream: bool
) -> None:
    """Turn 2 echoes turn 1 as the client's SDK keeps it; each turn is a fresh Exchange."""
    tool = _tool(client, upstream)
    inbound = _inbound(client, stream, tool=tool)
    for turn in range(2):
        out = _send(strict_url, Exchange(client, upstream), inbound)
        if stream:
            events = _events(out)
            assert check_stream(client, events) == []  # type: ignore[arg-type]
            response = _accumulated(client, events)
        else:
            response = json.loads(out)
        assert ERROR not in response, response  # an error answer, in the client's shape
        if turn == 0:
            body = echo(client, _body(inbound), response)
            inbound = replace(inbound, body=json.dumps(body).encode())
