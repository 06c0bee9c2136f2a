"""Every provider, every input form, streamed and not, over real HTTP against the emulator."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from tests.client.conftest import KEY, Server
from tests.client.payloads import MODELS, PROVIDER_FORMATS, ir_request, native, need_stream
from toolwire.client import Client
from toolwire.client._session import stream_decoder
from toolwire.formats._stream import iter_events
from toolwire.ir import Notes, ToolCall
from toolwire.ir.accumulate import Accumulator
from toolwire.ir.stream import PartEnd, PartStart, ResponseEnd, ResponseStart, StreamErrorEvent, ToolCallDelta
from toolwire.translate import format_module


def client(server: Server, provider: str) -> Client:
    return Client(provider, base_url=server.url, api_key=KEY, model=MODELS[provider])


def check_call(calls: Sequence[ToolCall]) -> None:
    (call,) = calls
    assert call.name == "get_weather"
    assert set(json.loads(call.arguments)) == {"city"}


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
def test_create_native(server: Server, provider: str) -> None:
    with client(server, provider) as c:
        result = c.create(native(provider))
    check_call(result.tool_calls)
    assert result.status == 200
    assert result.payload is result.raw
    assert result.response.origin == provider
    assert result.request_id == "req_1"
    assert result.attempts == 1
    # the raw body decodes to the same IR response
    decoded = format_module(provider).decode_response(result.raw, Notes())
    assert decoded.tool_calls == result.response.tool_calls


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
def test_create_ir_request(server: Server, provider: str) -> None:
    with client(server, provider) as c:
        result = c.create(ir_request(MODELS[provider]))
    check_call(result.tool_calls)
    assert server.requests[0].body == result.request_body


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
@pytest.mark.parametrize("source", PROVIDER_FORMATS)
def test_create_translated(server: Server, provider: str, source: str) -> None:
    with client(server, provider) as c:
        result = c.create(native(source), format=source)
    check_call(result.tool_calls)
    # the native answer in the caller's own format
    back = format_module(source).decode_response(result.payload, Notes())
    check_call(back.tool_calls)
    assert result.raw is not result.payload or source == provider


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
def test_stream_native(server: Server, provider: str) -> None:
    need_stream(provider)
    with client(server, provider) as c, c.stream(native(provider)) as stream:
        events = list(stream)
        response = stream.collect()
        raw = stream.raw_events
    assert isinstance(events[0], ResponseStart)
    assert isinstance(events[-1], ResponseEnd)
    assert any(isinstance(e, ToolCallDelta) for e in events) or any(
        isinstance(e, PartStart) and getattr(e.part, "arguments", "") for e in events
    )
    assert any(isinstance(e, PartEnd) for e in events)
    check_call(response.tool_calls)
    assert raw and all(isinstance(item, dict | str) for item in raw)


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
def test_stream_translated_matches_create(server: Server, provider: str) -> None:
    need_stream(provider)
    source = "openai-chat" if provider != "openai-chat" else "anthropic"
    with client(server, provider) as c:
        created = c.create(native(source), format=source)
        with c.stream(native(source), format=source) as stream:
            streamed = stream.collect()
    assert [(t.name, t.arguments) for t in streamed.tool_calls] == [
        (t.name, t.arguments) for t in created.tool_calls
    ]
    # the same stream in the caller's own format
    need_stream(source)
    assert stream.payload_events is not stream.raw_events
    decoder = stream_decoder(source, Notes())  # type: ignore[arg-type]
    in_source = iter_events(decoder, stream.payload_events)
    assert not any(isinstance(e, StreamErrorEvent) for e in in_source)
    acc = Accumulator()
    for event in in_source:
        acc.feed(event)
    check_call(acc.response().tool_calls)


def test_connection_pool_is_reused(server: Server) -> None:
    with client(server, "openai-chat") as c:
        for _ in range(3):
            c.create(native("openai-chat"))
    assert len(server.requests) == 3


def test_close_mid_stream_stops_reading(server: Server) -> None:
    need_stream("openai-chat")
    with client(server, "openai-chat") as c:
        stream = c.stream(native("openai-chat"))
        first = next(iter(stream))
        stream.close()
        assert isinstance(first, ResponseStart)
        # the client stays usable after a cancelled stream
        check_call(c.create(native("openai-chat")).tool_calls)
