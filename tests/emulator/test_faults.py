"""Injected faults and what clients see: SDK exceptions, headers, broken streams."""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Iterator
from typing import Any

import anthropic
import httpx
import openai
import pytest

from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.formats._stream import StreamDecoderLike
from toolwire.framing import SSEDecoder, is_done
from toolwire.ir import Format, StreamErrorEvent

CHAT = {"model": "gpt-4o", "messages": [{"role": "user", "content": "a fairly long question to stream"}]}


def fault(spec: str) -> dict[str, str]:
    return {"x-toolwire-fault": spec}


def oai(url: str) -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=0)


def test_latency(url: str) -> None:
    start = time.monotonic()
    oai(url).chat.completions.create(**CHAT, extra_headers=fault("latency=0.3"))  # type: ignore[call-overload]
    assert time.monotonic() - start >= 0.3


def test_rate_limit_with_retry_after(url: str) -> None:
    reply = httpx.post(f"{url}/v1/messages", json={}, headers=fault("429=7"))
    assert reply.status_code == 429 and reply.headers["retry-after"] == "7"
    assert reply.json()["error"]["type"] == "rate_limit_error"
    with pytest.raises(openai.RateLimitError) as info:
        oai(url).chat.completions.create(**CHAT, extra_headers=fault("429"))  # type: ignore[call-overload]
    assert info.value.response.headers["retry-after"] == "1"


def test_sdk_retries_honor_retry_after(url: str) -> None:
    client = openai.OpenAI(base_url=f"{url}/v1", api_key="k", max_retries=1)
    start = time.monotonic()
    with pytest.raises(openai.RateLimitError):
        client.chat.completions.create(**CHAT, extra_headers=fault("429=0.5"))  # type: ignore[call-overload]
    assert time.monotonic() - start >= 0.5


@pytest.mark.parametrize(
    ("spec", "openai_error", "anthropic_error"),
    [
        ("500", openai.InternalServerError, anthropic.InternalServerError),
        ("503", openai.InternalServerError, anthropic.ServiceUnavailableError),
        ("401", openai.AuthenticationError, anthropic.AuthenticationError),
    ],
)
def test_error_statuses(
    url: str, spec: str, openai_error: type[Exception], anthropic_error: type[Exception]
) -> None:
    with pytest.raises(openai_error) as info:
        oai(url).chat.completions.create(**CHAT, extra_headers=fault(spec))  # type: ignore[call-overload]
    assert getattr(info.value, "status_code", None) == int(spec)
    client = anthropic.Anthropic(base_url=url, api_key="k", max_retries=0)
    with pytest.raises(anthropic_error):
        client.messages.create(
            model="claude-sonnet-4-6",
            max_tokens=10,
            messages=[{"role": "user", "content": "hi"}],
            extra_headers=fault(spec),
        )


def test_disconnect(url: str) -> None:
    with pytest.raises(openai.APIConnectionError):
        oai(url).chat.completions.create(**CHAT, extra_headers=fault("disconnect"))  # type: ignore[call-overload]
    with pytest.raises((openai.APIConnectionError, httpx.HTTPError)):
        list(oai(url).chat.completions.create(**CHAT, stream=True, extra_headers=fault("disconnect")))  # type: ignore[call-overload]


def test_malformed_event_breaks_sdk_parsing(url: str) -> None:
    with pytest.raises(ValueError):  # json.JSONDecodeError
        list(oai(url).chat.completions.create(**CHAT, stream=True, extra_headers=fault("malformed")))  # type: ignore[call-overload]
    with pytest.raises(ValueError):
        oai(url).chat.completions.create(**CHAT, extra_headers=fault("malformed"))  # type: ignore[call-overload]


def test_dropped_terminal_event_is_visible_to_the_responses_sdk(url: str) -> None:
    with (
        pytest.raises(RuntimeError, match=r"response\.completed"),
        oai(url).responses.stream(
            model="gpt-5", input="hello", extra_headers=fault("drop-terminal")
        ) as stream,
    ):
        stream.get_final_response()


REQUESTS: dict[Format, tuple[str, dict[str, Any]]] = {
    "openai-chat": ("/v1/chat/completions", {**CHAT, "stream": True}),
    "openai-responses": ("/v1/responses", {"model": "gpt-5", "input": "hello there", "stream": True}),
    "anthropic": ("/v1/messages", {**CHAT, "max_tokens": 50, "stream": True}),
    "gemini": (
        "/v1beta/models/g:streamGenerateContent?alt=sse",
        {"contents": [{"parts": [{"text": "hello"}]}]},
    ),
}


def decode_stream(fmt: Format, body: bytes) -> Iterator[Any]:
    """Feed a raw SSE body through toolwire's own framing and stream decoder."""
    module = importlib.import_module(f"toolwire.formats.{fmt.replace('-', '_')}.stream")
    decoder: StreamDecoderLike = module.StreamDecoder()
    sse = SSEDecoder()
    for event in [*sse.feed(body), *sse.close()]:
        data = "[DONE]" if is_done(event) else json.loads(event.data)
        yield from decoder.feed(data)
    yield from decoder.close()


@pytest.mark.parametrize("fmt", list(REQUESTS))
@pytest.mark.parametrize("spec", ["", "drop-terminal"])
def test_toolwire_decoders_see_the_dropped_terminal_event(url: str, fmt: Format, spec: str) -> None:
    path, body = REQUESTS[fmt]
    reply = httpx.post(f"{url}{path}", json=body, headers=fault(spec) if spec else None)
    assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/event-stream")
    errors = [e for e in decode_stream(fmt, reply.content) if isinstance(e, StreamErrorEvent)]
    if spec:
        assert [e.error.code for e in errors] == ["incomplete_stream"]
    else:
        assert errors == []


def test_config_faults_apply_to_every_request() -> None:
    with serve(create_app(EmulatorConfig(faults="503")), log_level="critical") as base:
        assert httpx.post(f"{base}/v1/chat/completions", json=CHAT).status_code == 503
        assert httpx.post(f"{base}/v1/responses", json={}).status_code == 503


def test_bad_fault_header_is_a_400(url: str) -> None:
    reply = httpx.post(f"{url}/v1/chat/completions", json=CHAT, headers=fault("teapot"))
    assert reply.status_code == 400 and "unknown fault" in reply.json()["error"]["message"]


def test_gemini_json_array_stream_without_terminal(url: str) -> None:
    from toolwire.errors import StreamError
    from toolwire.framing import JSONArrayDecoder

    path = "/v1beta/models/g:streamGenerateContent"
    body = {"contents": [{"parts": [{"text": "hello there, a longer text"}]}]}
    whole = JSONArrayDecoder()
    chunks = whole.feed(httpx.post(f"{url}{path}", json=body).content)
    whole.close()
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"
    cut = JSONArrayDecoder()
    partial = cut.feed(httpx.post(f"{url}{path}", json=body, headers=fault("drop-terminal")).content)
    assert [c["candidates"] for c in partial] == [c["candidates"] for c in chunks[:-1]]
    with pytest.raises(StreamError):
        cut.close()
