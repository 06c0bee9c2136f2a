"""The hop core, answer side: the upstream's bytes -> the client's bytes, status and headers.

Every (client, upstream) pair: a whole answer, and a stream fed whole, one event at a time and
one byte at a time (the client's bytes must not depend on the cut); the tool name the request
sanitized and the client's model come back as the client sent them. Then upstream errors in the
client's shape and status, the upstream failing to answer, and the response headers mapped
back (rate limits, request id, ``retry-after``, resets converted with the hop's clock).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.hop.cases import DOTTED, FORMATS, MODEL, PAIRS, inbound
from tests.hop.driving import CLOCK, FEEDS, answer_with, drive, json_body, make_hop, pump, upstream_frames
from tests.translate.hop_loop import Upstream as FakeUpstream
from toolwire.errors import ConnectionFailedError, RequestTimeoutError
from toolwire.hop._config import HopConfig, Route
from toolwire.hop._headers import map_response_headers
from toolwire.hop.core import Received, Reply, ReplyStream, Send
from toolwire.ir import Notes, Response, TextPart, ToolCall, Usage
from toolwire.ir.response import ErrorInfo
from toolwire.streaming import KEEPALIVE, WireReader, check_stream
from toolwire.translate import format_module

BASES = {
    "openai-chat": "https://up.example/v1",
    "openai-responses": "https://up.example/v1",
    "anthropic": "https://up.example",
    "gemini": "https://up.example",
}
ARGS = '{"city":"Paris"}'
USAGE = Usage(input_tokens=31, output_tokens=7)


def config(upstream: str) -> HopConfig:
    """One upstream; every model rewritten to ``up-model`` (the client is told its own back)."""
    return HopConfig.single(upstream, BASES[upstream], model_map=(Route("*", "upstream", "up-model"),))


def _upstream_tool(upstream: str, send: Send) -> str:
    """The name the upstream was offered the client's tool under (sanitized)."""
    body = json.loads(send.body)
    request = format_module(upstream).decode_request(body, Notes("drop"), model="m")
    return str(request.tools[0].name)


def _answer(upstream: str, send: Send) -> Response:
    call = ToolCall(name=_upstream_tool(upstream, send), arguments=ARGS, id="call_1")
    return Response(id="resp_1", model="up-model", parts=(call,), stop_reason="tool_calls", usage=USAGE)


def _client_calls(client: str, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    response = format_module(client).decode_response(body, Notes("strict"))
    return [(p.name, json.loads(p.arguments)) for p in response.parts if isinstance(p, ToolCall)]


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_a_whole_answer_reaches_the_client_in_its_format(client: str, upstream: str) -> None:
    hop = make_hop(config(upstream))
    steps = hop.steps(inbound(client, stream=False))
    send = next(steps)
    upstream_body = FakeUpstream(upstream).body(_answer(upstream, send))
    received = Received(200, {"content-type": "application/json"}, json.dumps(upstream_body).encode())
    reply = answer_with(steps, received)
    assert isinstance(reply, Reply) and reply.status == 200
    assert reply.headers["content-type"] == "application/json"
    assert reply.headers[_REQUEST_ID[client]] == "req_gw"  # the upstream reported none
    body = json.loads(reply.body)
    assert _client_calls(client, body) == [(DOTTED, {"city": "Paris"})]
    if client != "gemini":
        assert body["model"] == MODEL  # the client's alias, not the upstream's model
    assert (hop.record.status, hop.record.input_tokens, hop.record.output_tokens) == (200, 31, 7)


_REQUEST_ID = {
    "openai-chat": "x-request-id",
    "openai-responses": "x-request-id",
    "anthropic": "request-id",
    "gemini": "x-request-id",
}


def _stream_reply(client: str, upstream: str) -> tuple[ReplyStream, list[bytes]]:
    hop = make_hop(config(upstream))
    steps = hop.steps(inbound(client, stream=True))
    send = next(steps)
    assert send.stream
    answer = answer_with(steps, Received(200, {"content-type": "text/event-stream"}))
    assert isinstance(answer, ReplyStream)
    return answer, upstream_frames(upstream, FakeUpstream(upstream).stream(_answer(upstream, send)))


def _client_events(data: bytes) -> list[Any]:
    reader = WireReader(keepalives=True)
    return [e for e in [*reader.feed(data), *reader.close()] if e is not KEEPALIVE]


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_a_stream_reaches_the_client_the_same_however_it_is_cut(client: str, upstream: str) -> None:
    outputs = {}
    for feed in FEEDS:
        answer, frames = _stream_reply(client, upstream)
        assert (answer.status, answer.headers["content-type"]) == (200, "text/event-stream")
        assert answer.headers["cache-control"] == "no-cache"
        outputs[feed] = pump(answer, frames, feed)
        assert answer.relay.usage == (31, 7)  # what the access log reports
    assert outputs["per-event"] == outputs["whole"]
    assert outputs["per-byte"] == outputs["whole"]
    events = _client_events(outputs["whole"])
    assert check_stream(client, events) == []  # type: ignore[arg-type]
    from tests.translate.hop_loop import client_stream_body

    assert _client_calls(client, client_stream_body(client, events)) == [(DOTTED, {"city": "Paris"})]


@pytest.mark.parametrize("upstream", FORMATS)
def test_a_gemini_client_without_alt_sse_gets_a_json_array_however_it_is_cut(upstream: str) -> None:
    outputs = []
    for feed in FEEDS:
        hop = make_hop(config(upstream))
        steps = hop.steps(inbound("gemini", stream=True, sse=False))
        send = next(steps)
        assert send.stream
        answer = answer_with(steps, Received(200, {}))
        assert answer.headers["content-type"] == "application/json"
        frames = upstream_frames(upstream, FakeUpstream(upstream).stream(_answer(upstream, send)))
        outputs.append(pump(answer, frames, feed))
    assert outputs[1] == outputs[0] and outputs[2] == outputs[0]
    chunks = json.loads(outputs[0])
    names = [
        p["functionCall"]["name"]
        for c in chunks
        for p in c.get("candidates", [{}])[0].get("content", {}).get("parts", [])
        if "functionCall" in p
    ]
    assert names == [DOTTED]


@pytest.mark.parametrize("client", FORMATS)
def test_a_stream_cut_short_ends_with_the_clients_error_event(client: str) -> None:
    answer, frames = _stream_reply(client, "anthropic")
    out = pump(answer, frames[:3], "whole")  # the upstream's connection dropped after 3 events
    last = [e for e in _client_events(out) if isinstance(e, dict)][-1]
    assert _is_error_event(client, last), last


@pytest.mark.parametrize("client", FORMATS)
def test_bytes_that_are_no_event_end_the_clients_stream_with_its_error(client: str) -> None:
    answer, frames = _stream_reply(client, "openai-chat")
    out = pump(answer, [frames[0], b"data: {not json\n\n", *frames[1:]], "per-event")
    events = [e for e in _client_events(out) if isinstance(e, dict)]
    assert _is_error_event(client, events[-1]), events[-1]
    assert "malformed" in json.dumps(events[-1])


def _is_error_event(client: str, event: dict[str, Any]) -> bool:
    if client == "openai-responses":
        return bool(event["type"] == "response.failed")
    if client == "anthropic":
        return bool(event["type"] == "error")
    return "error" in event


# -- upstream errors -------------------------------------------------------------------------------

ERROR_CASES = [
    # upstream status, client format -> client status
    (400, "openai-chat", 400),
    (404, "anthropic", 404),  # 401 and 403 get the gateway's own message: see below
    (429, "gemini", 429),
    (500, "openai-responses", 500),
    (529, "openai-chat", 503),  # Anthropic's overloaded: the status OpenAI clients retry on
    (529, "openai-responses", 503),
    (529, "gemini", 503),
    (529, "anthropic", 529),
]
ERROR_KIND = {
    "openai-chat": lambda b: b["error"]["message"],
    "openai-responses": lambda b: b["error"]["message"],
    "anthropic": lambda b: b["error"]["message"] if b["type"] == "error" else None,
    "gemini": lambda b: b["error"]["message"],
}


@pytest.mark.parametrize("upstream", FORMATS)
@pytest.mark.parametrize(("status", "client", "expected"), ERROR_CASES)
def test_an_upstream_error_reaches_the_client_in_its_shape(
    upstream: str, status: int, client: str, expected: int
) -> None:
    info = ErrorInfo(message="the upstream says no", status=status)
    _, error_body = format_module(upstream).encode_error(info, Notes("drop"))
    received = Received(status, {"retry-after": "7"}, json.dumps(error_body).encode())
    sends, reply = drive(make_hop(config(upstream)), inbound(client, stream=False), [received])
    assert len(sends) == 1
    assert isinstance(reply, Reply) and reply.status == expected
    assert ERROR_KIND[client](json.loads(reply.body)) == "the upstream says no"
    assert reply.headers["retry-after"] == "7"
    assert reply.headers["content-type"] == "application/json"


@pytest.mark.parametrize("upstream", FORMATS)
@pytest.mark.parametrize(("status", "client"), [(401, "anthropic"), (401, "gemini"), (403, "openai-chat")])
def test_an_upstream_refusing_the_gateways_key_is_not_quoted(upstream: str, status: int, client: str) -> None:
    """OpenAI's 401 quotes the key's tail (``sk-*****Jm24``); the client gets the status, not that."""
    info = ErrorInfo(message="Incorrect API key provided: sk-*****Jm24.", status=status)
    _, error_body = format_module(upstream).encode_error(info, Notes("drop"))
    received = Received(status, {"retry-after": "7"}, json.dumps(error_body).encode())
    _, reply = drive(make_hop(config(upstream)), inbound(client, stream=False), [received])
    assert isinstance(reply, Reply) and reply.status == status
    assert (
        ERROR_KIND[client](json.loads(reply.body))
        == "The upstream 'upstream' refused the gateway's credentials"
    )
    assert b"Jm24" not in reply.body and reply.headers["retry-after"] == "7"


@pytest.mark.parametrize("client", FORMATS)
def test_an_upstream_error_to_a_stream_request_is_a_whole_error(client: str) -> None:
    received = Received(429, {}, b'{"type":"error","error":{"type":"rate_limit_error","message":"slow"}}')
    _, reply = drive(make_hop(config("anthropic")), inbound(client, stream=True), [received])
    assert isinstance(reply, Reply) and reply.status == 429
    assert ERROR_KIND[client](json.loads(reply.body)) == "slow"


FAILURES = [
    (Received(502, {}, b"<html>Bad Gateway</html>"), 502, "<html>Bad Gateway</html>"),
    (Received(200, {}, b"<html>not json</html>"), 502, "not JSON"),
    (ConnectionFailedError("upstream 'upstream': ConnectError"), 502, "could not be reached"),
    (RequestTimeoutError("upstream 'upstream': ReadTimeout"), 504, "did not answer in time"),
]


@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize(
    ("answer", "status", "words"), FAILURES, ids=["html-error", "html-200", "reset", "timeout"]
)
def test_an_upstream_that_fails_to_answer_is_the_clients_error(
    client: str, answer: Any, status: int, words: str
) -> None:
    _, reply = drive(make_hop(config("anthropic")), inbound(client, stream=False), [answer])
    assert isinstance(reply, Reply) and reply.status == status
    assert words in ERROR_KIND[client](json_body(reply))
    assert "up.example" not in reply.body.decode()  # no upstream URL in what the client sees


# -- response headers ------------------------------------------------------------------------------

RESET_AT = "2027-01-15T08:00:20Z"  # CLOCK + 20 s

HEADER_CASES = [
    # upstream, client, upstream headers, client headers expected
    (
        "anthropic",
        "openai-chat",
        {
            "request-id": "req_up",
            "anthropic-ratelimit-requests-limit": "50",
            "anthropic-ratelimit-requests-remaining": "49",
            "anthropic-ratelimit-requests-reset": RESET_AT,
            "anthropic-ratelimit-tokens-limit": "9000",
            "anthropic-ratelimit-tokens-remaining": "8000",
            "anthropic-ratelimit-tokens-reset": "garbage",
            "retry-after": "3",
        },
        {
            "x-request-id": "req_up",
            "x-ratelimit-limit-requests": "50",
            "x-ratelimit-remaining-requests": "49",
            "x-ratelimit-reset-requests": "20s",
            "x-ratelimit-limit-tokens": "9000",
            "x-ratelimit-remaining-tokens": "8000",
            "retry-after": "3",
        },
    ),
    (
        "openai-responses",
        "anthropic",
        {
            "X-Request-Id": "req_oa",
            "x-ratelimit-limit-tokens": "100",
            "x-ratelimit-reset-tokens": "20s",
            "x-ratelimit-reset-requests": "120ms",
        },
        {
            "request-id": "req_oa",
            "anthropic-ratelimit-tokens-limit": "100",
            "anthropic-ratelimit-tokens-reset": RESET_AT,
            "anthropic-ratelimit-requests-reset": "2027-01-15T08:00:00Z",
        },
    ),
    (
        "openai-chat",
        "openai-responses",  # same family: passed as they are
        {"x-request-id": "r", "x-ratelimit-reset-requests": "6m0s"},
        {"x-request-id": "r", "x-ratelimit-reset-requests": "6m0s"},
    ),
    (
        "anthropic",
        "gemini",  # Gemini names only these two
        {"request-id": "r", "anthropic-ratelimit-requests-limit": "5", "retry-after": "9"},
        {"x-request-id": "r", "retry-after": "9"},
    ),
    (
        "gemini",
        "anthropic",  # the upstream names no request id: the gateway's
        {"x-goog-thing": "1"},
        {"request-id": "req_gw"},
    ),
]


@pytest.mark.parametrize(("upstream", "client", "given", "expected"), HEADER_CASES)
def test_response_headers_are_mapped_to_the_clients_family(
    upstream: str, client: str, given: dict[str, str], expected: dict[str, str]
) -> None:
    out = map_response_headers(upstream, client, given, clock=lambda: CLOCK, request_id="req_gw")  # type: ignore[arg-type]
    assert out == expected


@pytest.mark.parametrize(("upstream", "client", "given", "expected"), HEADER_CASES)
def test_a_hop_sends_the_mapped_headers_with_the_answer(
    upstream: str, client: str, given: dict[str, str], expected: dict[str, str]
) -> None:
    hop = make_hop(config(upstream))
    steps = hop.steps(inbound(client, stream=False))
    send = next(steps)
    body = FakeUpstream(upstream).body(
        Response(id="r1", model="m", parts=(TextPart(text="hi"),), stop_reason="end_turn", usage=USAGE)
    )
    reply = answer_with(steps, Received(200, given, json.dumps(body).encode()))
    del send
    assert reply.status == 200
    assert {k: v for k, v in reply.headers.items() if k != "content-type"} == expected


def test_a_chat_clients_created_time_comes_from_the_hops_clock() -> None:
    """Anthropic reports no creation time: the translation writes the hop's clock."""
    hop = make_hop(config("anthropic"))
    steps = hop.steps(inbound("openai-chat", stream=False))
    next(steps)
    body = FakeUpstream("anthropic").body(
        Response(id="r1", model="m", parts=(TextPart(text="hi"),), stop_reason="end_turn", usage=USAGE)
    )
    reply = answer_with(steps, Received(200, {}, json.dumps(body).encode()))
    assert json.loads(reply.body)["created"] == int(CLOCK)
