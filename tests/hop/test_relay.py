"""Upstream stream bytes -> the client's bytes (``Exchange.translate_stream``), 16 pairs.

Each upstream stream is written by the upstream format's real stream encoder, calling the
*sanitized* tool name the upstream request carried, and fed whole, per event and per byte.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from tests.hop.cases import DOTTED, FORMATS, MODEL, PAIRS, inbound
from tests.streaming._oracles import sdk_view
from toolwire import Exchange
from toolwire.formats._stream import WireEvent, encode_wire_event
from toolwire.hop import StreamRelay
from toolwire.ir.content import TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ResponseEnd,
    ResponseStart,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)
from toolwire.streaming import KEEPALIVE, WireReader, check_stream, stream_encoder

NOW = 1_700_000_000.75
UPSTREAM_TIME = {"openai-chat": 1_600_000_000, "openai-responses": 1_600_000_000, "gemini": 1_600_000_000}
"""The creation time each upstream reports (Anthropic reports none: the hop's clock gives it)."""
BROKEN = b"data: {broken\n\n"


def _sent_name(upstream: str, call_body: dict[str, Any]) -> str:
    tools = call_body["tools"]
    if upstream == "gemini":
        return str(tools[0]["functionDeclarations"][0]["name"])
    return str(tools[0]["function"]["name"] if upstream == "openai-chat" else tools[0]["name"])


def _upstream_bytes(upstream: str, name: str, *, broken: bool = False) -> bytes:
    """A real upstream stream: text, one call of ``name``; a keep-alive (or broken bytes) after
    the first event."""
    events: list[StreamEvent] = [
        # the upstream's own stream (a Gemini createTime is Vertex's: only a Gemini origin has one)
        ResponseStart(
            id="resp_up_1",
            model="provider-model-7",
            created=UPSTREAM_TIME.get(upstream),
            origin="gemini" if upstream == "gemini" else None,
        ),
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="Looking "),
        TextDelta(index=0, text="it up."),
        PartEnd(index=0),
        PartStart(index=1, part=ToolCall(name=name, id="call_a")),
        ToolCallDelta(index=1, arguments='{"city": '),
        ToolCallDelta(index=1, arguments='"Paris"}'),
        PartEnd(index=1),
        ResponseEnd(stop_reason="tool_calls", status="completed"),
    ]
    encoder = stream_encoder(upstream, Notes("drop"))  # type: ignore[arg-type]
    wire: list[WireEvent] = [w for event in events for w in encoder.feed(event)] + encoder.close()
    frames = [encode_wire_event(upstream, w) for w in wire]  # type: ignore[arg-type]
    if broken:
        extra = BROKEN
    elif upstream == "anthropic":
        extra = b'event: ping\ndata: {"type": "ping"}\n\n'
    else:
        extra = b": keep-alive\n\n"
    return b"".join([frames[0], extra, *frames[1:]])


def _whole(raw: bytes) -> list[bytes]:
    return [raw]


def _per_event(raw: bytes) -> list[bytes]:
    return [frame + b"\n\n" for frame in raw.split(b"\n\n") if frame]


def _per_byte(raw: bytes) -> list[bytes]:
    return [raw[i : i + 1] for i in range(len(raw))]


FEEDS: list[Callable[[bytes], list[bytes]]] = [_whole, _per_event, _per_byte]


def _hop(client: str, upstream: str, *, broken: bool = False, sse: bool = True) -> list[bytes]:
    """The client's bytes, once per feeding strategy (a fresh Exchange each time)."""
    outs = []
    for feed in FEEDS:
        ex = Exchange(client, upstream, upstream_model="provider-model-7", clock=lambda: NOW)
        call = ex.request_http(inbound(client, stream=True, sse=sse))
        raw = _upstream_bytes(upstream, _sent_name(upstream, call.json()), broken=broken)
        outs.append(b"".join(ex.translate_stream(feed(raw))))
    return outs


def _client_events(out: bytes) -> list[WireEvent]:
    reader = WireReader(keepalives=True)
    return [*reader.feed(out), *reader.close()]


def _created(client: str, events: list[Any]) -> set[Any]:
    if client == "openai-chat":
        return {e["created"] for e in events if isinstance(e, dict)}
    if client == "openai-responses":
        return {e["response"]["created_at"] for e in events if isinstance(e, dict) and "response" in e}
    if client == "gemini":
        return {e["createTime"] for e in events if isinstance(e, dict) and "createTime" in e}
    return {None}


# (client, upstream is Anthropic) -> the times the client sees
CREATED_SEEN = {
    ("openai-chat", True): {1_700_000_000},
    ("openai-chat", False): {1_600_000_000},
    ("openai-responses", True): {1_700_000_000},
    ("openai-responses", False): {1_600_000_000},
    ("gemini", True): set(),  # createTime is Vertex's: only a Gemini upstream's own is passed on
    ("gemini", False): set(),
    ("anthropic", True): {None},  # no timestamp in Anthropic streams
    ("anthropic", False): {None},
}


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_the_client_gets_its_names_model_time_and_keepalive(client: str, upstream: str) -> None:
    outs = _hop(client, upstream)
    assert outs[1] == outs[0] and outs[2] == outs[0]  # per event, per byte: the same bytes
    events = _client_events(outs[0])
    if client == "anthropic":
        assert [e for e in events if isinstance(e, dict) and e["type"] == "ping"] == [{"type": "ping"}]
        assert b'event: ping\ndata: {"type":"ping"}\n\n' in outs[0]
    else:
        assert events.count(KEEPALIVE) == 1
        assert outs[0].count(b": ping\n\n") == 1
    wire = [e for e in events if e is not KEEPALIVE]
    assert check_stream(client, wire) == []  # type: ignore[arg-type]
    view = sdk_view(client, wire)
    assert [(c[1], c[2]) for c in view.calls] == [(DOTTED, {"city": "Paris"})]
    assert view.text == "Looking it up."
    if client == upstream == "gemini":
        assert _created(client, events) == {"2020-09-13T12:26:40Z"}  # Vertex's own, passed on
    else:
        assert _created(client, events) == CREATED_SEEN[client, upstream == "anthropic"]
    assert b"provider-model-7" not in outs[0] and MODEL.encode() in outs[0]


ERROR_EVENTS: dict[str, Callable[[Any], bool]] = {
    "openai-chat": lambda e: e["error"]["code"] == "malformed_event",
    "openai-responses": lambda e: (
        e["type"] == "response.failed" and "invalid JSON" in e["response"]["error"]["message"]
    ),
    "anthropic": lambda e: e["type"] == "error" and e["error"]["type"] == "api_error",
    "gemini": lambda e: e["error"]["code"] == 500 and e["error"]["status"] == "INTERNAL",
}


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_malformed_upstream_bytes_end_with_the_clients_error_event(client: str, upstream: str) -> None:
    outs = _hop(client, upstream, broken=True)
    assert outs[1] == outs[0] and outs[2] == outs[0]
    events = [e for e in _client_events(outs[0]) if isinstance(e, dict)]
    assert ERROR_EVENTS[client](events[-1])
    assert DOTTED.encode() not in outs[0]  # nothing after the broken bytes was read


@pytest.mark.parametrize("upstream", FORMATS)
def test_a_gemini_client_without_alt_sse_gets_a_json_array(upstream: str) -> None:
    outs = _hop("gemini", upstream, sse=False)
    assert outs[1] == outs[0] and outs[2] == outs[0]
    chunks = json.loads(outs[0])
    assert isinstance(chunks, list) and all(isinstance(c, dict) and "error" not in c for c in chunks)
    parts = [p for c in chunks for p in c.get("candidates", [{}])[0].get("content", {}).get("parts", [])]
    assert "".join(p.get("text", "") for p in parts) == "Looking it up."
    assert [p["functionCall"]["name"] for p in parts if "functionCall" in p] == [DOTTED]


@pytest.mark.parametrize("upstream", FORMATS)
def test_a_json_array_client_gets_malformed_bytes_as_its_last_element(upstream: str) -> None:
    outs = _hop("gemini", upstream, broken=True, sse=False)
    chunks = json.loads(outs[0])
    assert ERROR_EVENTS["gemini"](chunks[-1])


def test_the_relay_says_what_it_answers_with() -> None:
    sse = Exchange("gemini", "anthropic")
    sse.request_http(inbound("gemini", stream=True))
    array = Exchange("gemini", "anthropic")
    array.request_http(inbound("gemini", stream=True, sse=False))
    assert StreamRelay(sse).content_type == "text/event-stream"
    assert StreamRelay(array).content_type == "application/json"


def test_an_empty_upstream_body_is_a_cut_stream_in_the_clients_shape() -> None:
    ex = Exchange("openai-chat", "anthropic")
    ex.request_http(inbound("openai-chat", stream=True))
    events = _client_events(b"".join(ex.translate_stream([])))
    assert events and isinstance(events[0], dict) and "error" in events[0]


@pytest.mark.parametrize("sse", [True, False])
def test_a_closed_relay_answers_nothing_more(sse: bool) -> None:
    """After ``close()`` (the client has its last bytes), a late chunk or a second close adds
    nothing: no second error event, no second ``[DONE]`` or array end."""
    ex = Exchange("gemini", "anthropic")
    call = ex.request_http(inbound("gemini", stream=True, sse=sse))
    raw = _upstream_bytes("anthropic", _sent_name("anthropic", call.json()))
    relay = StreamRelay(ex)
    body = relay.feed(raw) + relay.close()
    assert body
    assert relay.feed(raw) == b""
    assert relay.close() == b""


def test_a_failed_relay_ignores_later_chunks_and_ends_once() -> None:
    ex = Exchange("openai-chat", "anthropic")
    call = ex.request_http(inbound("openai-chat", stream=True))
    raw = _upstream_bytes("anthropic", _sent_name("anthropic", call.json()))
    relay = StreamRelay(ex)
    failed = relay.feed(BROKEN + raw[:60])  # a frame begun after the broken one: never read
    assert failed.count(b'data: {"error"') == 1
    assert relay.feed(raw) == b""
    end = relay.close()
    assert b'"error"' not in end and end.count(b"[DONE]") <= 1
    assert relay.close() == b""
