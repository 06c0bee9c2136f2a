"""``Exchange.stream``: a client in front of another format's upstream gets its own tool names
and model name back in the streamed response, as with the non-stream ``Exchange.response``.

The upstream stream is made by the upstream format's real stream encoder from canonical
events that call the *sanitized* names the upstream request carried.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.streaming._oracles import sdk_view
from toolwire.formats._stream import WireEvent
from toolwire.ir.base import Format
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
from toolwire.names import is_valid_name
from toolwire.streaming import check_stream, encode_wire_events, stream_encoder
from toolwire.translate import Exchange

DOTTED = "weather.get/now"
LONG = "lookup_" + "customer_record_" * 8  # 135 characters: too long for every format
ARGS = ({"city": "Zürich", "units": "metric"}, {"id": 42, "fields": ["name", "email"]})
SCHEMA = {"type": "object", "properties": {}}

CLIENT_REQUESTS: dict[str, dict[str, Any]] = {
    "openai-chat": {
        "model": "my-alias",
        "stream": True,
        "messages": [{"role": "user", "content": "weather and customer 42 please"}],
        "tools": [
            {"type": "function", "function": {"name": n, "parameters": SCHEMA}} for n in (DOTTED, LONG)
        ],
    },
    "openai-responses": {
        "model": "my-alias",
        "stream": True,
        "input": "weather and customer 42 please",
        "tools": [{"type": "function", "name": n, "parameters": SCHEMA} for n in (DOTTED, LONG)],
    },
}


def _upstream_names(upstream: str, body: dict[str, Any]) -> list[str]:
    """The tool names the translated request sends upstream."""
    if upstream == "gemini":
        return [d["name"] for tool in body["tools"] for d in tool.get("functionDeclarations", [])]
    if upstream == "openai-chat":
        return [tool["function"]["name"] for tool in body["tools"]]
    return [tool["name"] for tool in body["tools"]]


def _upstream_stream(upstream: Format, names: list[str], model: str) -> list[WireEvent]:
    """A real ``upstream`` stream: text, then two calls of ``names`` whose arguments interleave."""
    args = [json.dumps(a) for a in ARGS]
    events: list[StreamEvent] = [
        ResponseStart(id="resp_up_1", origin=upstream, model=model),
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="Looking "),
        TextDelta(index=0, text="that up."),
        PartEnd(index=0),
        PartStart(index=1, part=ToolCall(name=names[0], id="call_a")),
        PartStart(index=2, part=ToolCall(name=names[1], id="call_b")),
    ]
    for a, b in zip((args[0][:9], args[0][9:]), (args[1][:5], args[1][5:]), strict=True):
        events += [ToolCallDelta(index=1, arguments=a), ToolCallDelta(index=2, arguments=b)]
    events += [PartEnd(index=1), PartEnd(index=2), ResponseEnd(stop_reason="tool_calls")]
    encoder = stream_encoder(upstream, Notes("drop"))
    wire: list[WireEvent] = []
    for event in events:
        wire += encoder.feed(event)
    return wire + encoder.close()


def _models(fmt: str, wire: list[WireEvent]) -> set[str]:
    """Every model name the client's stream reports."""
    if fmt == "openai-chat":
        return {e["model"] for e in wire if isinstance(e, dict)}
    return {e["response"]["model"] for e in wire if isinstance(e, dict) and "response" in e}


def _run(client: str, upstream: Format, upstream_model: str | None) -> tuple[Exchange, list[WireEvent]]:
    exchange = Exchange(client, upstream, policy="drop", upstream_model=upstream_model)
    names = _upstream_names(upstream, exchange.request(CLIENT_REQUESTS[client]))
    assert names[0] != DOTTED and names[1] != LONG, "these names need sanitizing upstream"
    assert all(is_valid_name(n, upstream) for n in names)
    out: list[WireEvent] = []
    for event in _upstream_stream(upstream, names, model="provider-model-7"):
        out += exchange.stream(event)
    return exchange, out + exchange.stream_close()


@pytest.mark.parametrize("client", list(CLIENT_REQUESTS))
@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-responses", "openai-chat"])
def test_streamed_calls_reach_the_client_with_original_names(client: str, upstream: Format) -> None:
    """Sanitized upstream names come back as the client's names; the client's model is reported."""
    if client == upstream:
        pytest.skip("same format: nothing is renamed")
    exchange, out = _run(client, upstream, upstream_model="provider-model-7")
    assert check_stream(client, out) == []
    view = sdk_view(client, out)
    assert [c[1] for c in view.calls] == [DOTTED, LONG]
    assert [c[2] for c in view.calls] == list(ARGS)
    assert view.text == "Looking that up."
    assert _models(client, out) == {"my-alias"}
    if upstream != "gemini":  # Gemini pairs calls by name: the ids do not cross it
        assert [c[0] for c in view.calls] == ["call_a", "call_b"]
    assert any(note.kind == "renamed" for note in exchange.notes)


@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-responses"])
def test_upstream_model_is_reported_when_not_replaced(upstream: Format) -> None:
    """Without ``upstream_model`` the client sees the model the upstream says it used."""
    _, out = _run("openai-chat", upstream, upstream_model=None)
    assert _models("openai-chat", out) == {"provider-model-7"}
    assert [c[1] for c in sdk_view("openai-chat", out).calls] == [DOTTED, LONG]


def test_stream_close_reports_a_cut_upstream_in_the_client_shape() -> None:
    """An upstream stream cut mid-call ends the client's stream with its own error chunk."""
    exchange = Exchange("openai-chat", "anthropic", policy="drop")
    names = _upstream_names("anthropic", exchange.request(CLIENT_REQUESTS["openai-chat"]))
    wire = _upstream_stream("anthropic", names, model="m")
    cut = [
        e for e in wire if not (isinstance(e, dict) and e.get("type") in ("message_delta", "message_stop"))
    ]
    out: list[WireEvent] = []
    for event in cut[:-2]:
        out += exchange.stream(event)
    out += exchange.stream_close()
    assert check_stream("openai-chat", out) == []
    errors = [e["error"] for e in out if isinstance(e, dict) and "error" in e]
    assert [e["code"] for e in errors] == ["incomplete_stream"]
    assert out[-1] != "[DONE]"


@pytest.mark.parametrize("client", list(CLIENT_REQUESTS))
@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-responses", "openai-chat"])
def test_stream_frames_are_the_framed_stream(client: str, upstream: Format) -> None:
    """``stream_frames`` (the byte hot path) writes exactly the SSE bytes of ``stream``'s events,
    names and model restored."""
    if client == upstream:
        pytest.skip("same format: nothing is renamed")
    _, out = _run(client, upstream, upstream_model="provider-model-7")
    exchange = Exchange(client, upstream, policy="drop", upstream_model="provider-model-7")
    names = _upstream_names(upstream, exchange.request(CLIENT_REQUESTS[client]))
    framed = b"".join(
        exchange.stream_frames(e) for e in _upstream_stream(upstream, names, "provider-model-7")
    )
    framed += exchange.stream_close_frames()
    assert framed == encode_wire_events(client, out)
    assert DOTTED.encode() in framed
