"""The hop core, inbound side: the client's HTTP request -> the :class:`Send` to the upstream.

One row per upstream base URL as that provider's official SDK takes it, run for every client
format, whole and streamed: the URL (the OpenAI SDK appends ``/chat/completions`` to a base URL
that already holds the version, whatever it is; the Anthropic and Gemini SDKs append
``/v1/...`` and ``/v1beta/...`` to the server root), the upstream's auth header and required
headers, and a body of the upstream's format with the routed model. Then model routes and the
per-route ``max_tokens`` default, in each client format.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import pytest

from tests.hop.cases import DOTTED, FORMATS, MODEL, inbound
from tests.hop.driving import drive, json_body, make_hop
from toolwire.hop._config import GatewayKey, HopConfig, Limits, Route, Upstream
from toolwire.hop.core import Reply
from toolwire.validate import validate

UP_KEY = "sk-upstream-0123456789"
GW_KEY = "gw-key-abcdef"
ENV = {"UP_KEY": UP_KEY}


@dataclass(frozen=True)
class UrlCase:
    """An upstream base URL and the URLs its SDK would call (``{m}``: the upstream model)."""

    upstream: str
    base_url: str
    whole: str
    stream: str
    auth: tuple[str, str]


_BEARER = ("authorization", f"Bearer {UP_KEY}")
URL_CASES = [
    UrlCase(
        "openai-chat",
        "https://api.example/v1",
        "https://api.example/v1/chat/completions",
        "https://api.example/v1/chat/completions",
        _BEARER,
    ),
    UrlCase(
        "openai-chat",
        "https://api.example/v1/",
        "https://api.example/v1/chat/completions",
        "https://api.example/v1/chat/completions",
        _BEARER,
    ),
    UrlCase(  # an OpenAI-compatible server whose version segment is not /v1 (Gemini's is so)
        "openai-chat",
        "https://g.example/v1beta/openai",
        "https://g.example/v1beta/openai/chat/completions",
        "https://g.example/v1beta/openai/chat/completions",
        _BEARER,
    ),
    UrlCase(
        "openai-responses",
        "https://api.example/v1",
        "https://api.example/v1/responses",
        "https://api.example/v1/responses",
        _BEARER,
    ),
    UrlCase(
        "openai-responses",
        "https://proxy.example/openai",
        "https://proxy.example/openai/responses",
        "https://proxy.example/openai/responses",
        _BEARER,
    ),
    UrlCase(
        "anthropic",
        "https://api.example",
        "https://api.example/v1/messages",
        "https://api.example/v1/messages",
        ("x-api-key", UP_KEY),
    ),
    UrlCase(
        "anthropic",
        "https://api.example/",
        "https://api.example/v1/messages",
        "https://api.example/v1/messages",
        ("x-api-key", UP_KEY),
    ),
    UrlCase(
        "gemini",
        "https://g.example",
        "https://g.example/v1beta/models/{m}:generateContent",
        "https://g.example/v1beta/models/{m}:streamGenerateContent?alt=sse",
        ("x-goog-api-key", UP_KEY),
    ),
    UrlCase(
        "gemini",
        "https://g.example/v1beta/",
        "https://g.example/v1beta/models/{m}:generateContent",
        "https://g.example/v1beta/models/{m}:streamGenerateContent?alt=sse",
        ("x-goog-api-key", UP_KEY),
    ),
]
UP_MODEL = "up-model"
REQUIRED_HEADERS = {
    "openai-chat": {},
    "openai-responses": {},
    "anthropic": {"anthropic-version": "2023-06-01"},
    "gemini": {},
}
CLIENT_AUTH = {
    "openai-chat": {"authorization": f"Bearer {GW_KEY}"},
    "openai-responses": {"authorization": f"Bearer {GW_KEY}"},
    "anthropic": {"x-api-key": GW_KEY},
    "gemini": {"x-goog-api-key": GW_KEY},
}
"""Each client's SDK's way of presenting the gateway key."""


def _config(case: UrlCase, **kw: Any) -> HopConfig:
    upstream = Upstream("up", case.upstream, case.base_url, "UP_KEY", {"x-extra": "yes"}, timeout=90)  # type: ignore[arg-type]
    return HopConfig(
        {"up": upstream},
        default=Route("*", "up", model=UP_MODEL),
        keys=(GatewayKey(GW_KEY),),
        limits=Limits(stream_idle_timeout=30),
        **kw,
    )


def _one_send(client: str, stream: bool, case: UrlCase) -> Any:
    """The hop's first step (the generator is only started: what the shell would perform)."""
    hop = make_hop(_config(case), ENV)
    request = inbound(client, stream=stream, headers=CLIENT_AUTH[client])
    if client == case.upstream:  # passed through: a name the upstream takes as it is
        request = replace(request, body=request.body.replace(DOTTED.encode(), b"get_weather"))
    return next(hop.steps(request)), hop


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize("case", URL_CASES, ids=[f"{c.upstream}:{c.base_url}" for c in URL_CASES])
def test_send(case: UrlCase, client: str, stream: bool) -> None:
    send, hop = _one_send(client, stream, case)
    assert (send.method, send.url) == ("POST", (case.stream if stream else case.whole).format(m=UP_MODEL))
    assert send.stream is stream
    assert send.timeout == (30 if stream else 90)  # a stream's read timeout is the idle limit
    assert send.headers[case.auth[0]] == case.auth[1]
    assert send.headers["content-type"] == "application/json"
    assert send.headers["x-extra"] == "yes"
    for name, value in REQUIRED_HEADERS[case.upstream].items():
        assert send.headers[name] == value
    if stream and case.upstream != "gemini":
        assert send.headers["accept"] == "text/event-stream"
    body = json.loads(send.body)
    assert validate(body, format=case.upstream) == []  # type: ignore[arg-type]
    if case.upstream == "gemini":
        assert "model" not in body  # it is in the URL
    else:
        assert body["model"] == UP_MODEL
        assert body["stream"] is stream
    # the gateway key is the gateway's: it never goes upstream, nor shows in a repr
    assert GW_KEY not in json.dumps(send.headers) and GW_KEY.encode() not in send.body
    assert UP_KEY not in repr(send) and UP_KEY.encode() not in send.body
    rec = hop.record
    assert (rec.client, rec.upstream, rec.upstream_format) == (client, "up", case.upstream)
    assert (rec.client_model, rec.upstream_model, rec.stream) == (MODEL, UP_MODEL, stream)


# -- model routes ---------------------------------------------------------------------------------

_UPSTREAMS = {
    "oai": Upstream("oai", "openai-chat", "https://oai.example/v1", "UP_KEY"),
    "claude": Upstream("claude", "anthropic", "https://claude.example", "UP_KEY"),
    "gem": Upstream("gem", "gemini", "https://gem.example", "UP_KEY"),
}
ROUTES = (
    Route("gpt-5", "oai"),
    Route("gpt-*", "claude", model="claude-sonnet-4-5", max_tokens=77),
    Route("gemini-?-pro", "gem"),
)
ROUTED = HopConfig(_UPSTREAMS, ROUTES, default=Route("*", "oai", model="fallback"))

ROUTE_CASES = [
    # client model, the upstream's URL host, the model it gets, why
    ("gpt-5", "oai.example", "gpt-5", "exact, before the glob"),
    ("gpt-4o", "claude.example", "claude-sonnet-4-5", "glob, rewritten"),
    ("gemini-3-pro", "gem.example", "gemini-3-pro", "? glob, the client's model"),
    ("gemini-33-pro", "oai.example", "fallback", "? is one character: the default"),
    ("llama", "oai.example", "fallback", "no route: the default, rewritten"),
]


def _sent_model(send: Any) -> str:
    if "gem.example" in send.url:
        return str(send.url.split("/models/")[1].split(":")[0])
    return str(json.loads(send.body)["model"])


@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize(("model", "host", "sent", "why"), ROUTE_CASES, ids=[c[3] for c in ROUTE_CASES])
def test_model_routes(client: str, model: str, host: str, sent: str, why: str) -> None:
    request = inbound(client, stream=False)
    if client == "gemini":
        request = replace(request, path=request.path.replace(MODEL, model))
    else:
        request = replace(request, body=json.dumps({**json.loads(request.body), "model": model}).encode())
    send = next(make_hop(ROUTED, ENV).steps(request))
    assert send.url.split("/")[2] == host, why
    assert _sent_model(send) == sent, why


@pytest.mark.parametrize("client", FORMATS)
def test_a_model_without_route_and_no_default_is_a_404_in_the_clients_shape(client: str) -> None:
    config = replace(ROUTED, default=None)
    sends, reply = drive(make_hop(config, ENV), inbound(client, stream=False))
    assert sends == [] and isinstance(reply, Reply) and reply.status == 404
    body = json_body(reply)
    message = body["error"]["message"]
    assert f"{MODEL!r}" in message and "no route" in message
    if client.startswith("openai"):
        assert body["error"]["code"] == "model_not_found"
    elif client == "anthropic":
        assert body["type"] == "error" and body["error"]["type"] == "not_found_error"
    else:
        assert body["error"]["status"] == "NOT_FOUND"


LIMIT_FIELDS: dict[str, tuple[str, ...]] = {
    "openai-chat": ("max_completion_tokens",),
    "openai-responses": ("max_output_tokens",),
    "anthropic": ("max_tokens",),
    "gemini": ("generationConfig", "maxOutputTokens"),
}
"""Where each client sets its output limit."""


def _with_limit(client: str, body: dict[str, Any], value: int | None) -> dict[str, Any]:
    out = {k: v for k, v in body.items() if k not in ("max_tokens", "max_completion_tokens")}
    if value is not None:
        path = LIMIT_FIELDS[client]
        if len(path) == 2:
            out[path[0]] = {path[1]: value}
        else:
            out[path[0]] = value
    return out


@pytest.mark.parametrize("given", [None, 55], ids=["unset", "set"])
@pytest.mark.parametrize("client", FORMATS)
def test_a_routes_max_tokens_is_the_default_of_every_client_format(client: str, given: int | None) -> None:
    request = inbound(client, stream=False)
    body = _with_limit(client, {**json.loads(request.body), "model": "gpt-4o"}, given)
    if client == "gemini":
        request = replace(request, path=request.path.replace(MODEL, "gpt-4o"))
    request = replace(request, body=json.dumps(body).encode())
    send = next(make_hop(ROUTED, ENV).steps(request))
    assert send.url == "https://claude.example/v1/messages"
    assert json.loads(send.body)["max_tokens"] == (77 if given is None else given)


@pytest.mark.parametrize("legacy", ["max_tokens", "max_completion_tokens"])
def test_a_chat_clients_own_limit_under_either_name_wins_over_the_routes(legacy: str) -> None:
    request = inbound("openai-chat", stream=False)
    body = {**json.loads(request.body), "model": "gpt-4o", legacy: 12}
    send = next(make_hop(ROUTED, ENV).steps(replace(request, body=json.dumps(body).encode())))
    assert json.loads(send.body)["max_tokens"] == 12


def test_without_a_route_default_an_anthropic_upstream_gets_the_builders_limit() -> None:
    request = inbound("openai-chat", stream=False)
    body = {**json.loads(request.body), "model": "gpt-5"}
    config = replace(ROUTED, routes=(Route("gpt-5", "claude"),))
    send = next(make_hop(config, ENV).steps(replace(request, body=json.dumps(body).encode())))
    assert json.loads(send.body)["max_tokens"] == 4096  # Anthropic requires one
