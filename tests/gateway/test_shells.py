"""One table, both shells: each row is an HTTP request a client sends to the gateway and what
it must get back, run through the ASGI app over loopback and through the httpx Transport (sync
and async), with the emulator as every upstream.

The generation rows cover every (client, upstream) pair, whole and streamed (a Gemini client
also without ``alt=sse``: a JSON array); the others cover what the hop answers itself or maps:
gateway keys, unknown paths, model lists, token counts, an upstream error with its headers.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from tests.gateway.shells import (
    FAULTY_MODEL,
    FORMATS,
    GATEWAY_KEY,
    LIMITED_KEY,
    ROUTE_MODELS,
    Answer,
    Shell,
    client_headers,
    json_of,
)
from tests.hop.cases import MODEL as CASES_MODEL
from tests.hop.cases import inbound
from tests.translate.hop_loop import client_stream_body
from toolwire.ir import Notes, ToolCall
from toolwire.streaming import KEEPALIVE, WireReader, check_stream
from toolwire.translate import format_module

TOOL = "get_weather"


@dataclass(frozen=True)
class Row:
    """A request and the checks its answer must pass."""

    id: str
    method: str
    path: str
    check: Callable[[Answer], None]
    query: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


def _calls(client: str, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    response = format_module(client).decode_response(body, Notes("strict"))
    return [(p.name, json.loads(p.arguments)) for p in response.parts if isinstance(p, ToolCall)]


def _generated(client: str, upstream: str, stream: bool, sse: bool) -> Callable[[Answer], None]:
    def check(answer: Answer) -> None:
        assert answer.status == 200, answer.body[:300]
        if stream and not sse:  # a Gemini client's JSON array
            assert answer.headers["content-type"] == "application/json"
            chunks = json.loads(answer.body)
            parts = [
                p for c in chunks for p in c.get("candidates", [{}])[0].get("content", {}).get("parts", [])
            ]
            calls = [
                (p["functionCall"]["name"], p["functionCall"]["args"]) for p in parts if "functionCall" in p
            ]
        elif stream:
            assert answer.headers["content-type"].startswith("text/event-stream")
            reader = WireReader(keepalives=True)
            events = [e for e in [*reader.feed(answer.body), *reader.close()] if e is not KEEPALIVE]
            assert check_stream(client, events) == []  # type: ignore[arg-type]
            body = client_stream_body(client, events)
            calls = _calls(client, body)
        else:
            assert answer.headers["content-type"] == "application/json"
            body = json.loads(answer.body)
            calls = _calls(client, body)
            if client != "gemini":
                assert body["model"] == ROUTE_MODELS[upstream]  # the client's name, not the upstream's
        assert [name for name, _ in calls] == [TOOL]
        assert calls[0][1]["city"] == "Paris"
        request_id = "request-id" if client == "anthropic" else "x-request-id"
        assert answer.headers[request_id]

    return check


def _generation_row(client: str, upstream: str, stream: bool, sse: bool = True) -> Row:
    model = ROUTE_MODELS[upstream]
    request = inbound(client, stream=stream, sse=sse, headers=client_headers(client))
    body = json.loads(request.body.replace(b"weather.get/now", TOOL.encode()))
    path = request.path.replace(CASES_MODEL, model)
    if client != "gemini":
        body["model"] = model
    kind = ("stream" if sse else "array") if stream else "whole"
    return Row(
        f"{client}->{upstream}-{kind}",
        "POST",
        path,
        _generated(client, upstream, stream, sse),
        request.query,
        dict(request.headers),
        json.dumps(body).encode(),
    )


GENERATION_ROWS = [_generation_row(c, u, s) for c in FORMATS for u in FORMATS for s in (False, True)] + [
    _generation_row("gemini", u, True, sse=False) for u in FORMATS
]


def _error(status: int, family: str, kind: str, words: str) -> Callable[[Answer], None]:
    def check(answer: Answer) -> None:
        assert answer.status == status, answer.body
        body = json_of(answer)
        if family == "anthropic":
            assert body["type"] == "error" and body["error"]["type"] == kind
        elif family == "gemini":
            assert body["error"]["status"] == kind and body["error"]["code"] == status
        else:
            assert body["error"]["type"] == kind or body["error"]["code"] == kind
        assert words in body["error"]["message"]
        for key in (GATEWAY_KEY, LIMITED_KEY, "wrong-key"):
            assert key not in answer.body.decode()

    return check


def _chat(model: str = "to-anthropic") -> bytes:
    return json.dumps({"model": model, "messages": [{"role": "user", "content": "hi"}]}).encode()


def _models(shape: str, names: list[str]) -> Callable[[Answer], None]:
    def check(answer: Answer) -> None:
        assert answer.status == 200
        body = json_of(answer)
        if shape == "openai":
            assert body["object"] == "list" and [m["id"] for m in body["data"]] == names
        elif shape == "anthropic":
            assert [m["id"] for m in body["data"]] == names and body["has_more"] is False
        else:
            assert [m["name"] for m in body["models"]] == [f"models/{n}" for n in names]

    return check


def _count(field_name: str) -> Callable[[Answer], None]:
    def check(answer: Answer) -> None:
        assert answer.status == 200, answer.body
        assert json_of(answer)[field_name] > 0

    return check


def _rate_limited(family: str) -> Callable[[Answer], None]:
    kinds = {"openai": "rate_limit_error", "anthropic": "rate_limit_error", "gemini": "RESOURCE_EXHAUSTED"}

    def check(answer: Answer) -> None:
        _error(429, family, kinds[family], "")(answer)
        assert answer.headers["retry-after"] == "4"  # the upstream's, mapped back

    return check


LISTED = ["to-chat", "to-responses", "to-anthropic", "to-gemini", "to-faulty"]
COUNT_BODY = json.dumps(
    {"model": "to-anthropic", "messages": [{"role": "user", "content": "count me"}]}
).encode()
GEMINI_BODY = json.dumps({"contents": [{"role": "user", "parts": [{"text": "count me"}]}]}).encode()
BEARER = {"authorization": f"Bearer {GATEWAY_KEY}"}

OTHER_ROWS = [
    Row(
        "no-key-openai",
        "POST",
        "/v1/chat/completions",
        _error(401, "openai", "authentication_error", "Missing gateway key"),
        body=_chat(),
    ),
    Row(
        "wrong-key-anthropic",
        "POST",
        "/v1/messages",
        _error(401, "anthropic", "authentication_error", "Invalid gateway key"),
        headers={"x-api-key": "wrong-key"},
        body=COUNT_BODY,
    ),
    Row(
        "no-key-gemini",
        "POST",
        "/v1beta/models/to-gemini:generateContent",
        _error(401, "gemini", "UNAUTHENTICATED", "Missing gateway key"),
        body=GEMINI_BODY,
    ),
    Row(
        "query-key-gemini",
        "POST",
        "/v1beta/models/to-gemini:countTokens",
        _count("totalTokens"),
        query=f"key={GATEWAY_KEY}",
        body=GEMINI_BODY,
    ),
    Row(
        "limited-key-403",
        "POST",
        "/v1/chat/completions",
        _error(403, "openai", "permission_error", "'to-anthropic'"),
        headers={"authorization": f"Bearer {LIMITED_KEY}"},
        body=_chat(),
    ),
    Row(
        "unknown-path-404",
        "POST",
        "/v1/embeddings",
        _error(404, "openai", "not_found", "/v1/embeddings"),
        headers=BEARER,
        body=b"{}",
    ),
    Row(
        "wrong-method-405",
        "GET",
        "/v1/messages",
        lambda a: (a.status, a.headers["allow"]) == (405, "POST") or pytest.fail(str(a)),
        headers=BEARER,
    ),
    Row("models-openai", "GET", "/v1/models", _models("openai", LISTED), headers=BEARER),
    Row(
        "models-anthropic",
        "GET",
        "/v1/models",
        _models("anthropic", LISTED),
        headers={"x-api-key": GATEWAY_KEY, "anthropic-version": "2023-06-01"},
    ),
    Row(
        "models-gemini",
        "GET",
        "/v1beta/models",
        _models("gemini", LISTED),
        headers={"x-goog-api-key": GATEWAY_KEY},
    ),
    Row(
        "count-anthropic->anthropic",
        "POST",
        "/v1/messages/count_tokens",
        _count("input_tokens"),
        headers=client_headers("anthropic"),
        body=COUNT_BODY,
    ),
    Row(
        "count-gemini->responses",
        "POST",
        "/v1beta/models/to-responses:countTokens",
        _count("totalTokens"),
        headers=client_headers("gemini"),
        body=GEMINI_BODY,
    ),
    Row(
        "count-responses->chat",
        "POST",
        "/v1/responses/input_tokens",
        _count("input_tokens"),
        headers=BEARER,
        body=json.dumps({"model": "to-chat", "input": "count me"}).encode(),
    ),
    Row(
        "429-openai",
        "POST",
        "/v1/chat/completions",
        _rate_limited("openai"),
        headers=BEARER,
        body=_chat(FAULTY_MODEL),
    ),
    Row(
        "429-anthropic",
        "POST",
        "/v1/messages",
        _rate_limited("anthropic"),
        headers=client_headers("anthropic"),
        body=json.dumps(
            {"model": FAULTY_MODEL, "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}
        ).encode(),
    ),
    Row(
        "429-gemini-stream",
        "POST",
        f"/v1beta/models/{FAULTY_MODEL}:streamGenerateContent",
        _rate_limited("gemini"),
        query="alt=sse",
        headers=client_headers("gemini"),
        body=GEMINI_BODY,
    ),
]

ROWS = GENERATION_ROWS + OTHER_ROWS


@pytest.mark.parametrize("row", ROWS, ids=[r.id for r in ROWS])
def test_the_shared_table(shell: Shell, row: Row) -> None:
    answer = shell.call(row.method, row.path, query=row.query, headers=row.headers, body=row.body)
    row.check(answer)
