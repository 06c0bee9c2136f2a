"""Issue 12's matrix: every (client, upstream) pair through stateless hops, reasoning on, against
the emulator in provider rules mode over loopback, answered whole and streamed.

The client (:class:`tests.translate.hop_loop.Client`) speaks its own format, reasoning on as its
SDK asks for it, offers the tool kinds its format has (Responses: a ``custom`` tool and two
``namespace`` tools; Chat: a ``custom`` tool) and echoes its history exactly as received. Three
user turns; in each the user asks for two tools at once, the model calls both in parallel, the
client answers them in reverse order and the model reports. One fresh
:class:`~toolwire.translate.Exchange` per request (six per conversation). Each report request
is where the rules bite: Anthropic wants the tool turn's signed thinking first, Gemini 3 the
signature of the turn's first call; later turns replay every earlier state byte for byte.

The upstream is the emulator with ``rules="provider"``: a replayed thinking block must be
signed byte for byte and start the tool loop's assistant turn, a Gemini 3 call turn must carry
its ``thoughtSignature``, ``tool_use`` ids must be unique and every result must pair with its
call; breaking one is the provider's own 400. Every upstream request also passes
:func:`toolwire.validate` and gets a 200.

Each cross-format pair also runs through the gateway's two shells (the ``shell`` dimension): the
client's request goes to the ASGI app over loopback, or through the httpx Transport, whose hop
routes it to the same emulator; the upstream requests are read off a recording transport under
the gateway. ``direct`` is the Exchange driven by hand, as before.

A Chat client has no slot for opaque state: behind Anthropic the tool turn goes up without
``thinking``, behind Gemini 3 with Google's placeholder signature, each noted (so ``strict``
refuses). Nowhere is a tool's kind, namespace or call id lost.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from tests.translate.hop_loop import Client, client_stream_body, post_upstream, relay
from toolwire.emulator import EmulatorConfig, serve
from toolwire.emulator.signature import PLACEHOLDERS
from toolwire.errors import ConversionError
from toolwire.gateway import HopConfig, Route, Transport, Upstream, create_app
from toolwire.ir import ToolCall
from toolwire.ir.notes import Policy
from toolwire.streaming import KEEPALIVE, WireReader
from toolwire.translate import Exchange
from toolwire.validate import validate

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
PAIRS = [(c, u) for c in FORMATS for u in FORMATS]
MODELS = {
    "openai-chat": "gpt-5",
    "openai-responses": "gpt-5",
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-3-pro-preview",
}
"""The upstream model of each format (a Gemini 3 model, so its signatures are enforced)."""

ASK = "Apply the patch and read it."
"""Names two tools (``apply_patch``, ``read``): two parallel calls (the emulator allows two)."""

FALLBACKS = {
    ("openai-chat", "anthropic"): ("$.reasoning", "dropped", "thinking turned off for this turn"),
    ("openai-chat", "gemini"): ("$.messages[", "approximated", "placeholder thought signature"),
}
"""Pairs whose client has no slot for the upstream's state: the loss note of the documented
fallback (path prefix, kind, words of the message), when no store keeps the state (driven by
hand; the gateway keeps it and takes no fallback)."""

FALLBACK_REQUESTS = {"anthropic": [1, 3, 5], "gemini": [1, 2, 3, 4, 5]}
"""Which requests (0-based) take the fallback: Anthropic turns thinking off when the last
assistant turn used tools (each report); Gemini's placeholder goes on every model turn with
calls in the history."""

TOOL_LOSS = ("custom", "namespace", "tool call", "tool result", "call id", "tool_use id")
"""Words of a loss note about a tool's kind, namespace or call id."""

STATE = {
    "anthropic": '"signature"',
    "openai-responses": '"encrypted_content"',
    "gemini": '"thoughtSignature"',
}
"""The upstream's opaque reasoning state in its requests."""


@pytest.fixture(scope="module")
def upstream_url() -> Iterator[str]:
    """The emulator, enforcing the providers' replay rules, calling two tools at most per turn."""
    with serve(config=EmulatorConfig(rules="provider", max_parallel=2), log_level="critical") as base:
        yield base


class _Recorder(httpx.HTTPTransport, httpx.AsyncHTTPTransport):
    """The gateway's upstream transport: keeps each request body it sends (JSON)."""

    def __init__(self, sent: list[dict[str, Any]]) -> None:
        httpx.HTTPTransport.__init__(self)
        self._async = httpx.AsyncHTTPTransport()
        self.sent = sent

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(json.loads(request.read()))
        return httpx.HTTPTransport.handle_request(self, request)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(json.loads(await request.aread()))
        return await self._async.handle_async_request(request)


@dataclass
class Gateway:
    """The gateway in front of the emulator: an HTTP client per shell (``asgi``: the app over
    loopback; ``transport``: the Transport in-process), and every upstream request body sent."""

    clients: dict[str, httpx.Client]
    sent: list[dict[str, Any]]


def _gateway_config(url: str) -> HopConfig:
    """An upstream per format, all the emulator; the client's model ``to-<format>`` picks it."""
    upstreams = {f: Upstream(f, f, url + ("/v1" if f.startswith("openai") else "")) for f in FORMATS}  # type: ignore[arg-type]
    routes = tuple(Route(f"to-{f}", f, MODELS[f]) for f in FORMATS)
    return HopConfig(upstreams, routes, store="memory://")


@pytest.fixture(scope="module")
def gateway(upstream_url: str) -> Iterator[Gateway]:
    sent: list[dict[str, Any]] = []
    config = _gateway_config(upstream_url)
    app = create_app(config, transport=_Recorder(sent))
    with serve(app=app, log_level="critical") as url:
        transport = httpx.Client(transport=Transport(config, inner=_Recorder(sent)), timeout=10)
        served = httpx.Client(base_url=url, timeout=10)
        transport.base_url = httpx.URL("http://gateway.invalid")
        yield Gateway({"asgi": served, "transport": transport}, sent)
        transport.close()
        served.close()


_CLIENT_PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
}


def _through_gateway(
    gateway: Gateway, shell: str, client: Client, upstream: str, stream: bool
) -> tuple[dict[str, Any], dict[str, Any]]:
    """One request through a gateway shell: the upstream body it sent, the client's body."""
    body = client.request()
    route = f"to-{upstream}"
    if client.fmt == "gemini":  # the model is in the URL
        path = f"/v1beta/models/{route}:" + ("streamGenerateContent?alt=sse" if stream else "generateContent")
    else:
        path = _CLIENT_PATHS[client.fmt]
        body = {**body, "model": route, "stream": stream}
    start = len(gateway.sent)
    answer = gateway.clients[shell].post(path, json=body)
    assert answer.status_code == 200, answer.text
    assert len(gateway.sent) == start + 1
    if not stream:
        return gateway.sent[-1], answer.json()
    reader = WireReader(keepalives=True)
    events = [e for e in [*reader.feed(answer.content), *reader.close()] if e is not KEEPALIVE]
    return gateway.sent[-1], client_stream_body(client.fmt, events)


@dataclass
class Run:
    """A conversation: the client, each upstream request, and each request's loss notes (the
    notes ``warn`` logs: those ``strict`` refuses)."""

    client: Client
    log: list[logging.LogRecord]
    sent: list[dict[str, Any]] = field(default_factory=list)
    losses: list[list[str]] = field(default_factory=list)


def hop(
    http: httpx.Client,
    url: str,
    run: Run,
    upstream: str,
    stream: bool,
    policy: Policy,
    via: tuple[str, Gateway | None] = ("direct", None),
) -> list[ToolCall]:
    """One request through a fresh Exchange (``direct``) or through a gateway shell; the calls
    the client gets back (answered)."""
    client = run.client
    start = len(run.log)
    shell, gateway = via
    if gateway is not None:
        body, out = _through_gateway(gateway, shell, client, upstream, stream)
    else:
        gemini_model = MODELS["gemini"] if client.fmt == "gemini" else None  # a Gemini client's URL model
        ex = Exchange(
            client.fmt, upstream, policy=policy, upstream_model=MODELS[upstream], client_model=gemini_model
        )
        body = ex.request(client.request())
    run.sent.append(body)
    assert [str(p) for p in validate(body, format=upstream)] == []
    if gateway is None:
        answer = post_upstream(http, url, upstream, body, stream=stream, model=MODELS[upstream])
        assert answer.status_code == 200, answer.text
        out = relay(ex, client.fmt, answer, stream=stream)
    run.losses.append([r.getMessage() for r in run.log[start:] if r.name == "toolwire.convert"])
    calls = client.take(out)
    if calls:
        client.answer(calls)  # in reverse order
    return calls


def converse(
    url: str,
    client_fmt: str,
    upstream: str,
    stream: bool,
    log: list[logging.LogRecord],
    via: tuple[str, Gateway | None] = ("direct", None),
) -> Run:
    """Three user turns: two parallel calls answered out of order, then the model's report."""
    run = Run(Client(client_fmt, reasoning=True), log)
    with httpx.Client(timeout=10) as http:
        for turn in range(3):
            run.client.say(ASK)
            calls = hop(http, url, run, upstream, stream, "warn", via)
            assert len(calls) == 2, f"turn {turn + 1}: two parallel calls"
            assert hop(http, url, run, upstream, stream, "warn", via) == [], f"turn {turn + 1}: the report"
    return run


def _is_fallback(loss: str, pair: tuple[str, str]) -> bool:
    path, kind, words = FALLBACKS[pair]
    return loss.startswith(path) and f": {kind}: " in loss and words in loss


def _check_calls(client_fmt: str, upstream: str, calls: list[ToolCall]) -> None:
    """Calls of the kind the client offered, ids unique across the conversation."""
    ids = [c.id for c in calls]
    if client_fmt == upstream == "gemini":  # passed through: Gemini names no ids, pairs by position
        assert ids == [None] * 6
    else:
        assert all(ids) and len(set(ids)) == len(ids), ids
    if client_fmt == "anthropic":
        assert all(re.fullmatch(r"[a-zA-Z0-9_-]+", i or "") for i in ids)
    patch_kind = "custom" if client_fmt in ("openai-responses", "openai-chat") else "function"
    read_space = "mcp__alpha" if client_fmt == "openai-responses" else None  # the first of two
    kinds = {(c.name, c.kind, c.namespace) for c in calls}
    assert kinds == {("apply_patch", patch_kind, None), ("read", "function", read_space)}
    patches = [c.arguments for c in calls if c.name == "apply_patch"]
    if patch_kind == "custom":  # the raw input, never the {"input": ...} of a function shim
        assert not [a for a in patches if a.lstrip().startswith("{")], patches


def _check_state(
    client_fmt: str, upstream: str, sent: list[dict[str, Any]], stream: bool, shell: str
) -> None:
    """The upstream's reasoning state of every earlier answer comes back, but to a Chat client
    (no slot: driven by hand, only Gemini's placeholder on each call turn; through the gateway,
    the call turns' state, kept in its store), and but a streamed Gemini report's text
    signature, which comes after the text that ends the turn (dropped, noted)."""
    if upstream == "openai-chat":
        return
    if upstream == "openai-responses":  # the API returns the state only when asked
        assert all("reasoning.encrypted_content" in body.get("include", []) for body in sent)
    counts = [json.dumps(body).count(STATE[upstream]) for body in sent]
    if client_fmt == "openai-chat" and shell != "direct":
        assert counts == [0, 1, 1, 2, 2, 3], counts  # the call turns' state, from the store
        assert not [p for p in PLACEHOLDERS for body in sent if p in json.dumps(body)]
        return
    if client_fmt != "openai-chat" and stream and upstream == "gemini" and client_fmt != upstream:
        assert counts == [0, 1, 1, 2, 2, 3], counts  # the call turns' signatures only
    elif client_fmt != "openai-chat":
        assert counts == list(range(6)), counts  # one signed part per answer, each replayed
    elif upstream == "gemini":
        assert counts == [0, 1, 1, 2, 2, 3], counts  # placeholders on the call turns
    else:
        assert counts == [0] * 6, counts


SHELL_CASES = [
    (shell, client, upstream)
    for shell in ("direct", "asgi", "transport")
    for client, upstream in PAIRS
    if shell == "direct" or client != upstream
]
"""Every pair driven by hand; every cross-format pair through each gateway shell too."""


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize(
    ("shell", "client_fmt", "upstream"), SHELL_CASES, ids=[f"{s}:{c}->{u}" for s, c, u in SHELL_CASES]
)
def test_matrix(
    request: pytest.FixtureRequest,
    upstream_url: str,
    shell: str,
    client_fmt: str,
    upstream: str,
    stream: bool,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO, logger="toolwire.convert")
    gateway = request.getfixturevalue("gateway") if shell != "direct" else None
    run = converse(upstream_url, client_fmt, upstream, stream, caplog.records, (shell, gateway))
    _check_calls(client_fmt, upstream, run.client.calls)
    _check_state(client_fmt, upstream, run.sent, stream, shell)
    pair = (client_fmt, upstream)
    losses = [loss for request in run.losses for loss in request]
    if pair in FALLBACKS and shell == "direct":  # the gateway keeps the state in its store
        taken = [
            i for i, request in enumerate(run.losses) if any(_is_fallback(loss, pair) for loss in request)
        ]
        assert taken == FALLBACK_REQUESTS[upstream], run.losses
        losses = [loss for loss in losses if not _is_fallback(loss, pair)]
    else:
        assert not [loss for loss in losses if "placeholder" in loss or "thinking turned off" in loss]
    assert [loss for loss in losses if any(w in loss for w in TOOL_LOSS)] == []
    late = [loss for loss in losses if "signature after the turn's last text" in loss]
    assert len(late) == (
        3 if stream and upstream == "gemini" and client_fmt not in (upstream, "openai-chat") else 0
    )


@pytest.mark.parametrize("upstream", ["anthropic", "gemini"])
def test_strict_refuses_the_fallback(
    upstream_url: str, upstream: str, caplog: pytest.LogCaptureFixture
) -> None:
    run = Run(Client("openai-chat", reasoning=True), caplog.records)
    run.client.say(ASK)
    with httpx.Client(timeout=10) as http:
        hop(http, upstream_url, run, upstream, False, "warn")
        with pytest.raises(ConversionError) as info:
            hop(http, upstream_url, run, upstream, False, "strict")
    assert _is_fallback(str(info.value.notes[0]), ("openai-chat", upstream))
