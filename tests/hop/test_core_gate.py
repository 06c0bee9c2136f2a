"""The hop core's answers that need no generation: gateway keys, unknown paths, bad bodies,
token counts and model lists, each in the client family's own shape.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from tests.hop.cases import DOTTED, FORMATS, MODEL, inbound
from tests.hop.driving import drive, json_body, make_hop
from toolwire.hop import InboundRequest
from toolwire.hop._config import GatewayKey, HopConfig, Limits, Route, Upstream
from toolwire.hop._count import estimate_tokens
from toolwire.hop.core import Received, Reply

KEY = "gw-Key.with+plus/slash"
OTHER = "gw-limited"
UPSTREAM = Upstream("up", "anthropic", "https://up.example")
KEYED = HopConfig(
    {"up": UPSTREAM},
    default=Route("*", "up"),
    keys=(GatewayKey(KEY), GatewayKey(OTHER, ("claude-*", "exact-model"))),
)


def _message(client: str, body: dict[str, Any]) -> str:
    return str(body["error"]["message"])


AUTH_SHAPES = {
    # client -> (checks of a 401 body, of a 403 body)
    "openai-chat": lambda b, status: (
        b["error"]["type"] == {401: "authentication_error", 403: "permission_error"}[status]
    ),
    "openai-responses": lambda b, status: (
        b["error"]["type"] == {401: "authentication_error", 403: "permission_error"}[status]
    ),
    "anthropic": lambda b, status: (
        b["type"] == "error"
        and b["error"]["type"] == {401: "authentication_error", 403: "permission_error"}[status]
    ),
    "gemini": lambda b, status: (
        b["error"]["status"] == {401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED"}[status]
        and b["error"]["code"] == status
    ),
}

PRESENTED = [
    # how the key is presented: headers, query
    ({"Authorization": f"Bearer {KEY}"}, ""),
    ({"authorization": f"bearer  {KEY}"}, ""),
    ({"x-api-key": KEY}, ""),
    ({"X-Goog-Api-Key": KEY}, ""),
    ({}, "key=gw-Key.with%2Bplus%2Fslash"),  # Google's ?key=, URL-encoded
    ({}, "alt=sse&key=gw-Key.with%2Bplus%2Fslash"),
]


@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize(("headers", "query"), PRESENTED)
def test_each_way_of_presenting_the_gateway_key_is_accepted(
    client: str, headers: dict[str, str], query: str
) -> None:
    request = inbound(client, stream=False, headers=headers)
    request = replace(request, query="&".join(q for q in (request.query, query) if q))
    sends, _ = drive(make_hop(KEYED), request, [Received(500, {}, b"{}")])
    assert len(sends) == 1  # let through to the upstream
    assert KEY not in json.dumps(sends[0].headers) and KEY not in sends[0].url


REFUSED = [
    ({}, "", 401, "Missing gateway key"),
    ({"authorization": "Bearer nope"}, "", 401, "Invalid gateway key"),
    ({"x-api-key": KEY[:-1]}, "", 401, "Invalid gateway key"),
    ({"authorization": f"Basic {KEY}"}, "", 401, "Missing gateway key"),
    ({}, "key=", 401, "Missing gateway key"),
]


@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize(("headers", "query", "status", "words"), REFUSED)
def test_a_missing_or_wrong_key_is_a_401_in_the_clients_wording(
    client: str, headers: dict[str, str], query: str, status: int, words: str
) -> None:
    request = replace(inbound(client, stream=False, headers=headers), query=query)
    hop = make_hop(KEYED)
    sends, reply = drive(hop, request)
    assert sends == [] and isinstance(reply, Reply) and reply.status == status
    body = json_body(reply)
    assert AUTH_SHAPES[client](body, status), body
    assert _message(client, body) == words
    assert KEY not in reply.body.decode() and "nope" not in reply.body.decode()
    assert hop.record.status == 401


ALLOWED = [("claude-sonnet-4-5", True), ("exact-model", True), ("exact-model-2", False), ("gpt-5", False)]


@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize(("model", "allowed"), ALLOWED)
def test_a_key_limited_to_some_models_gets_a_403_for_the_others(
    client: str, model: str, allowed: bool
) -> None:
    request = inbound(client, stream=False, headers={"authorization": f"Bearer {OTHER}"})
    if client == "gemini":
        request = replace(request, path=request.path.replace(MODEL, model))
    else:
        request = replace(request, body=json.dumps({**json.loads(request.body), "model": model}).encode())
    answers = [Received(500, {}, b"{}")] if allowed else []
    sends, reply = drive(make_hop(KEYED), request, answers)
    assert len(sends) == (1 if allowed else 0)
    if not allowed:
        assert isinstance(reply, Reply) and reply.status == 403
        body = json_body(reply)
        assert AUTH_SHAPES[client](body, 403), body
        assert repr(model) in _message(client, body)
        assert OTHER not in reply.body.decode()


def test_the_full_key_may_use_every_model() -> None:
    request = inbound("anthropic", stream=False, headers={"x-api-key": KEY})
    sends, _ = drive(make_hop(KEYED), request, [Received(500, {}, b"{}")])
    assert len(sends) == 1


# -- paths, methods, bodies ------------------------------------------------------------------------

OPEN = HopConfig({"up": UPSTREAM}, default=Route("*", "up"), limits=Limits(max_body_bytes=2000))

PATH_CASES = [
    # method, path, status, allow, the family whose shape answers
    ("POST", "/v1/nope", 404, None, "openai"),
    ("GET", "/", 404, None, "openai"),
    ("POST", "/v2/chat/completions", 404, None, "openai"),
    ("GET", "/v1/chat/completions", 405, "POST", "openai"),
    ("PUT", "/v1/messages", 405, "POST", "anthropic"),
    ("DELETE", "/v1/messages/count_tokens/", 405, "POST", "anthropic"),
    ("GET", "/v1beta/models/gemini-2.5-pro:generateContent", 405, "POST", "gemini"),
    ("POST", "/v1/models", 405, "GET", "openai"),
    ("PATCH", "/v1/responses/resp_1", 405, "GET, DELETE", "openai"),
]


@pytest.mark.parametrize(("method", "path", "status", "allow", "family"), PATH_CASES)
def test_unknown_paths_and_methods(
    method: str, path: str, status: int, allow: str | None, family: str
) -> None:
    hop = make_hop(OPEN)
    sends, reply = drive(hop, InboundRequest(method, path, "", {}, b"{}"))
    assert sends == [] and isinstance(reply, Reply) and reply.status == status
    assert reply.headers.get("allow") == allow
    body = json_body(reply)
    message = body["error"]["message"]
    assert method in message and path in message
    if family == "anthropic":
        assert body["type"] == "error"
    elif family == "gemini":
        assert body["error"]["code"] == status
    else:
        assert "type" in body["error"] and "code" in body["error"]
    assert hop.record.status == status


def test_a_trailing_slash_is_the_same_path() -> None:
    request = inbound("openai-chat", stream=False)
    sends, _ = drive(make_hop(OPEN), replace(request, path=request.path + "/"), [Received(500, {}, b"{}")])
    assert sends[0].url == "https://up.example/v1/messages"


BODY_CASES = [
    (b"{not json", 400, "$"),
    (b"[1, 2]", 400, "$"),
    (b'{"model": "m", "messages": "hello"}', 400, "$.messages"),
    (b'{"model": "m", "messages": [{"role": "user", "content": "' + b"x" * 3000 + b'"}]}', 413, None),
]


@pytest.mark.parametrize(
    ("body", "status", "param"), BODY_CASES, ids=["not-json", "array", "bad-field", "large"]
)
def test_a_bad_body_is_the_clients_error_with_its_path(body: bytes, status: int, param: str | None) -> None:
    sends, reply = drive(make_hop(OPEN), InboundRequest("POST", "/v1/chat/completions", "", {}, body))
    assert sends == [] and isinstance(reply, Reply) and reply.status == status
    error = json_body(reply)["error"]
    if param is not None:
        assert error["type"] == "invalid_request_error"
        assert str(error["param"]).startswith(param)
    else:
        assert "2000" in error["message"]


@pytest.mark.parametrize("client", FORMATS)
def test_a_413_is_in_the_clients_shape(client: str) -> None:
    request = inbound(client, stream=False)
    big = replace(request, body=request.body.replace(b"Paris", b"P" * 3000))
    _, reply = drive(make_hop(OPEN), big)
    assert isinstance(reply, Reply) and reply.status == 413
    body = json_body(reply)
    if client == "anthropic":
        assert body["error"]["type"] == "request_too_large"
    elif client == "gemini":
        assert body["error"]["code"] == 413


# -- token counts ------------------------------------------------------------------------------------

COUNT_PATHS = {
    "openai-responses": "/v1/responses/input_tokens",
    "anthropic": "/v1/messages/count_tokens",
    "gemini": f"/v1beta/models/{MODEL}:countTokens",
}
"""The count endpoint of each client family (Chat has none)."""
UPSTREAM_COUNT = {
    "openai-responses": ("https://up.example/v1/responses/input_tokens", "input_tokens"),
    "anthropic": ("https://up.example/v1/messages/count_tokens", "input_tokens"),
    "gemini": ("https://up.example/v1beta/models/up-model:countTokens", "totalTokens"),
}
"""Each upstream's count endpoint and the field of its answer."""
BASES = {
    "openai-responses": "https://up.example/v1",
    "anthropic": "https://up.example",
    "gemini": "https://up.example",
}


def _count_request(client: str, extra: str = "") -> InboundRequest:
    request = inbound(client, stream=False)
    body = json.loads(request.body.replace(b"Paris", f"Paris{extra}".encode()))
    body.pop("stream", None)
    return InboundRequest("POST", COUNT_PATHS[client], "", {}, json.dumps(body).encode())


def _count(client: str, reply: Reply) -> int:
    body = json_body(reply)
    if client == "gemini":
        assert body["promptTokensDetails"] == [{"modality": "TEXT", "tokenCount": body["totalTokens"]}]
        return int(body["totalTokens"])
    if client == "openai-responses":
        assert body["object"] == "response.input_tokens"
    return int(body["input_tokens"])


@pytest.mark.parametrize("client", list(COUNT_PATHS))
@pytest.mark.parametrize("upstream", list(UPSTREAM_COUNT))
def test_a_count_goes_to_the_upstreams_count_endpoint(client: str, upstream: str) -> None:
    config = HopConfig.single(upstream, BASES[upstream], model_map=(Route("*", "upstream", "up-model"),))
    url, field = UPSTREAM_COUNT[upstream]
    sends, reply = drive(
        make_hop(config), _count_request(client), [Received(200, {}, json.dumps({field: 1234}).encode())]
    )
    assert [s.url for s in sends] == [url]
    sent = json.loads(sends[0].body)
    if upstream == "gemini":
        inner = sent["generateContentRequest"]
        assert inner["model"] == "models/up-model" and inner["contents"] and inner["tools"]
    else:
        assert sent["model"] == "up-model" and "stream" not in sent and "max_tokens" not in sent
        assert sent["tools"] and (sent.get("messages") or sent.get("input"))
    if client != upstream:  # translated: the upstream's tool name
        assert DOTTED not in sends[0].body.decode()
    assert isinstance(reply, Reply) and reply.status == 200
    assert _count(client, reply) == 1234


@pytest.mark.parametrize("client", list(COUNT_PATHS))
def test_a_count_behind_chat_is_the_documented_estimate(client: str) -> None:
    config = HopConfig.single("openai-chat", "https://up.example/v1")
    counts = []
    for extra in ("", " " + "word " * 800):
        sends, reply = drive(make_hop(config), _count_request(client, extra))
        assert sends == [] and isinstance(reply, Reply) and reply.status == 200
        counts.append(_count(client, reply))
    assert counts[0] > 0
    added = estimate_tokens(b" " + b"word " * 800)  # a token per 4 bytes, rounded up
    assert added - 1 <= counts[1] - counts[0] <= added


def test_the_anthropic_beta_count_answer_names_context_management() -> None:
    request = replace(_count_request("anthropic"), query="beta=true")
    _, reply = drive(make_hop(HopConfig.single("openai-chat", "https://up.example/v1")), request)
    body = json_body(reply)
    assert set(body) == {"input_tokens", "context_management"}


@pytest.mark.parametrize(
    ("answer", "status"), [(Received(200, {}, b'{"tokens": 3}'), 502), (Received(400, {}, b"{}"), 400)]
)
def test_a_count_the_upstream_fails_is_the_clients_error(answer: Received, status: int) -> None:
    _, reply = drive(
        make_hop(HopConfig.single("anthropic", "https://up.example")), _count_request("gemini"), [answer]
    )
    assert isinstance(reply, Reply) and reply.status == status
    assert json_body(reply)["error"]["code"] == status


# -- model lists ---------------------------------------------------------------------------------------

LISTED = HopConfig(
    {"up": UPSTREAM},
    routes=(
        Route("gpt-5", "up"),
        Route("claude-*", "up"),
        Route("gemini-2.5-pro", "up"),
        Route("gpt-5", "up"),
    ),
    default=Route("*", "up"),
)


def _models(path: str, headers: dict[str, str] | None = None) -> Reply:
    sends, reply = drive(make_hop(LISTED), InboundRequest("GET", path, "", headers or {}, b""))
    assert sends == [] and isinstance(reply, Reply)
    return reply


def test_the_openai_model_list() -> None:
    body = json_body(_models("/v1/models", {"authorization": "Bearer x"}))
    assert body["object"] == "list"
    assert [(m["id"], m["object"], m["owned_by"]) for m in body["data"]] == [
        ("gpt-5", "model", "toolwire"),
        ("gemini-2.5-pro", "model", "toolwire"),
    ]  # globs are not model names; a name routed twice is listed once
    assert all(isinstance(m["created"], int) for m in body["data"])


@pytest.mark.parametrize("header", ["anthropic-version", "x-api-key"])
def test_the_anthropic_model_list(header: str) -> None:
    body = json_body(_models("/v1/models", {header: "2023-06-01"}))
    assert [(m["type"], m["id"], m["display_name"]) for m in body["data"]] == [
        ("model", "gpt-5", "gpt-5"),
        ("model", "gemini-2.5-pro", "gemini-2.5-pro"),
    ]
    assert (body["has_more"], body["first_id"], body["last_id"]) == (False, "gpt-5", "gemini-2.5-pro")


def test_the_gemini_model_list() -> None:
    body = json_body(_models("/v1beta/models"))
    assert [m["name"] for m in body["models"]] == ["models/gpt-5", "models/gemini-2.5-pro"]
    assert "generateContent" in body["models"][0]["supportedGenerationMethods"]


LOOKUPS = [
    ("/v1/models/gpt-5", {}, 200, "id", "gpt-5"),
    ("/v1/models/gpt-5", {"anthropic-version": "2023-06-01"}, 200, "type", "model"),
    ("/v1beta/models/gemini-2.5-pro", {}, 200, "name", "models/gemini-2.5-pro"),
    ("/v1/models/nope", {}, 404, None, None),
    ("/v1beta/models/nope", {}, 404, None, None),
]


@pytest.mark.parametrize(("path", "headers", "status", "key", "value"), LOOKUPS)
def test_one_model_is_looked_up_by_name(
    path: str, headers: dict[str, str], status: int, key: str | None, value: str | None
) -> None:
    reply = _models(path, headers)
    assert reply.status == status
    body = json_body(reply)
    if key is not None:
        assert body[key] == value
    elif path.startswith("/v1beta"):
        assert body["error"]["status"] == "NOT_FOUND"
    else:
        assert body["error"]["code"] == "model_not_found"
