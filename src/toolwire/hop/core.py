"""One inbound call as a sequence of steps, built on :class:`~toolwire.translate.Exchange` (no I/O).

:meth:`Hop.steps` is a generator, driven like httpx's ``auth_flow``: it yields a :class:`Send`
for each upstream call; the shell performs it and sends back a :class:`Received` (or throws the
:class:`~toolwire.errors.TransportError` it got); the generator's return value is the answer,
a :class:`Reply` (bytes) or a :class:`ReplyStream` (a :class:`~toolwire.hop.StreamRelay` the
shell pumps the upstream's body through). Every failure is a :class:`Reply` in the client's own
error shape and status. Clock, request ids and the environment (upstream keys) are passed in.

=====================================  =======================================================
failure                                client answer
=====================================  =======================================================
no route for the method and path       404 (405 with ``allow`` when the path exists)
gateway key missing or wrong           401, the client family's wording; the key never shown
key not allowed the model              403
no route for the model                 404 ``model_not_found``
body larger than ``max_body_bytes``    413
body not JSON, or not decodable        400 with the JSON path
translation refused (``strict``)       400 with the reason
upstream error answer                  its error in the client's shape (529 -> 503 for OpenAI
                                       and Gemini clients), rate-limit headers mapped
upstream 401 / 403                     the same status, the gateway's own message (the
                                       upstream's may quote the upstream key in part)
upstream unreachable / reset           502
upstream timeout                       504
upstream body not JSON                 502
a Chat client's reasoning state        500 (a stream: an error chunk in place of ``[DONE]``),
cannot be stored                       see :mod:`toolwire.hop._opaque`
=====================================  =======================================================
"""

from __future__ import annotations

import hmac
import time
import uuid
from collections.abc import Callable, Generator, Mapping
from typing import Any
from urllib.parse import parse_qsl

from toolwire._json import dumps, loads
from toolwire._opaque_state import keeps_state
from toolwire.errors import (
    ConversionError,
    PayloadError,
    RequestTimeoutError,
    ToolwireError,
    TransportError,
)
from toolwire.hop._aws import UpstreamCredentialsError, UpstreamSigners
from toolwire.hop._build import auth_headers
from toolwire.hop._call import ClientCall, InboundRequest, read_inbound
from toolwire.hop._capture import HopCapture
from toolwire.hop._config import GatewayKey, HopConfig, Route, Upstream
from toolwire.hop._count import count_call, count_reply, estimate_reply
from toolwire.hop._defaults import apply_route_defaults
from toolwire.hop._detached import generate_in_background
from toolwire.hop._errors import refused_credentials
from toolwire.hop._headers import map_response_headers
from toolwire.hop._layouts import relayout
from toolwire.hop._models import list_models
from toolwire.hop._opaque import StateTap, load_state, save_state, store_state, tenant
from toolwire.hop._providers import resolve_base_url
from toolwire.hop._relay import StreamRelay
from toolwire.hop._routes import Endpoint, allowed_methods, match_inbound
from toolwire.hop._stateful import ResponsesFacade, StoreCall, is_stateful
from toolwire.hop._steps import (
    BackgroundJob,
    Detach,
    HopRecord,
    ReadChunk,
    Received,
    Reply,
    ReplyFollow,
    ReplyStream,
    Send,
    client_error,
)
from toolwire.hop._stored import STORED_OPERATIONS, open_facade, save_calls
from toolwire.ir.base import Format
from toolwire.store.background import is_background

__all__ = [
    "BASE_HOLDS_VERSION",
    "BackgroundJob",
    "Detach",
    "Hop",
    "HopRecord",
    "ReadChunk",
    "Received",
    "Reply",
    "ReplyFollow",
    "ReplyStream",
    "Send",
    "client_error",
    "upstream_url",
]

_JSON = {"content-type": "application/json"}
_MODEL_LIST_HEADERS = {"anthropic": {"accept": "application/json", "anthropic-version": "2023-06-01"}}


Step = Send | StoreCall | Detach
"""What the hop asks its shell to perform."""
_Steps = Generator[Step, Any, Reply | ReplyStream | ReplyFollow]


BASE_HOLDS_VERSION: dict[str, str] = {"openai-chat": "/v1", "openai-responses": "/v1"}
"""Upstream formats whose SDK takes a base URL that holds the API version (``.../v1``, or
another server's own, ``.../v1beta/openai``) and appends the endpoint to it: the version prefix
of a path is replaced by the base URL. Other SDKs take the server root (a base URL ending in the
version segment is trimmed, see :func:`~toolwire.hop._providers.resolve_base_url`)."""


def upstream_url(upstream: Upstream, path: str) -> str:
    """The absolute URL of ``path`` (from the server root, ``/v1/messages``) on ``upstream``,
    joined as the upstream's official SDK joins its base URL (an upstream given as a provider
    row: as :class:`toolwire.Client` joins it, the server root and the provider's path)."""
    prefix = BASE_HOLDS_VERSION.get(upstream.format)
    if upstream.provider is None and prefix is not None and path.startswith(prefix + "/"):
        return upstream.base_url.rstrip("/") + path[len(prefix) :]
    return resolve_base_url(upstream.spec, upstream.base_url, env={}, params=upstream.params) + path


def _presented_key(headers: Mapping[str, str], query: str) -> str | None:
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return auth[7:].strip() or None
    for name in ("x-api-key", "x-goog-api-key"):
        if headers.get(name):
            return headers[name].strip()
    for name, value in parse_qsl(query):  # Google's ?key=, URL-encoded like any query value
        if name == "key" and value.strip():
            return value.strip()
    return None


class Hop:
    """The gateway's decisions for one inbound call, as steps (see the module docstring).

    Args:
        config: the routing config.
        env: where upstream keys are read (default: the process environment).
        clock: the current time, unix seconds.
        request_id: the gateway's id of this call (default: a random one).
        trace: keep what a trace of this call needs in ``record.capture``.
        background: whether the shell runs the jobs of :class:`Detach` steps and answers
            :class:`ReplyFollow` (the ASGI gateway); otherwise ``background: true`` and
            ``?stream=true`` on a stored response are refused with a 400.
        signers: Bedrock upstreams' SigV4 signers, kept across calls by the shell (default: new).
    """

    def __init__(
        self,
        config: HopConfig,
        *,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.time,
        request_id: str | None = None,
        trace: bool = False,
        background: bool = False,
        signers: UpstreamSigners | None = None,
    ) -> None:
        self.config = config
        self._signers = signers if signers is not None else UpstreamSigners(env)
        self.background = background
        self._env = env
        self._clock = clock
        self.record = HopRecord(request_id or f"req_{uuid.uuid4().hex}", "", "")
        self._cap = HopCapture(budget=config.trace.max_body_bytes) if trace else None
        self.record.capture = self._cap
        self._key: GatewayKey | None = None

    def steps(self, inbound: InboundRequest) -> _Steps:
        """The steps of ``inbound``: yields :class:`Send`, returns the answer."""
        rec = self.record
        rec.method, rec.path = inbound.method, inbound.path
        headers = {name.lower(): value for name, value in inbound.headers.items()}
        if self._cap is not None:
            self._cap.inbound(headers, inbound.query, inbound.body)
        endpoint = match_inbound(inbound.method, inbound.path, headers)
        if endpoint is None:
            return self._finish(self._no_route(inbound, headers))
        rec.client, rec.operation = endpoint.format, endpoint.operation
        refused = self._gate(endpoint, headers, inbound)
        if refused is not None:
            return self._finish(refused)
        handler = _OPERATIONS.get(endpoint.operation, Hop._unsupported)
        try:
            answer = yield from handler(self, endpoint, inbound)
        except (PayloadError, ConversionError) as exc:
            answer = self._bad_request(endpoint.format, exc)
        except UpstreamCredentialsError:  # the gateway's own SigV4 credentials: never the client's fault
            self.record.error = "upstream credentials"
            answer = client_error(endpoint.format, 500, "No upstream credentials", type="api_error")
        return self._finish(answer)

    # -- checks ---------------------------------------------------------------------------------

    def _no_route(self, inbound: InboundRequest, headers: Mapping[str, str]) -> Reply:
        methods = allowed_methods(inbound.path)
        if methods:  # the path's own family answers (an Anthropic client on /v1/messages)
            endpoint = match_inbound(methods[0], inbound.path, headers)
            fmt: Format = endpoint.format if endpoint is not None else "openai-chat"
            reply = client_error(fmt, 405, f"Method {inbound.method} not allowed on {inbound.path}")
            return Reply(405, {**reply.headers, "allow": ", ".join(methods)}, reply.body)
        return client_error(
            "openai-chat", 404, f"Unknown path {inbound.method} {inbound.path}", code="not_found"
        )

    def _gate(self, endpoint: Endpoint, headers: Mapping[str, str], inbound: InboundRequest) -> Reply | None:
        if len(inbound.body) > self.config.limits.max_body_bytes:
            limit = self.config.limits.max_body_bytes
            return client_error(
                endpoint.format, 413, f"Request body is larger than the limit of {limit} bytes"
            )
        if not self.config.keys:
            return None
        given = _presented_key(headers, inbound.query)
        if given is None:
            return client_error(endpoint.format, 401, "Missing gateway key", type="authentication_error")
        for key in self.config.keys:
            if hmac.compare_digest(key.key.encode(), given.encode()):
                self._key = key
                return None
        return client_error(endpoint.format, 401, "Invalid gateway key", type="authentication_error")

    def _allowed(self, fmt: Format, model: str | None) -> Reply | None:
        key = self._key
        if key is None or key.allows(model):
            return None
        return client_error(
            fmt, 403, f"This gateway key may not use the model {model!r}", type="permission_error"
        )

    def _route(self, fmt: Format, model: str | None) -> tuple[Route, Upstream] | Reply:
        refused = self._allowed(fmt, model)
        if refused is not None:
            return refused
        try:
            route = self.config.route(model)
        except ToolwireError as exc:  # a model string of an unknown prefix, and no default route
            return client_error(fmt, 404, str(exc), code="model_not_found")
        if route is None:
            return client_error(
                fmt, 404, f"The model {model!r} does not exist or has no route", code="model_not_found"
            )
        self.record.client_model = model
        if self._cap is not None:
            self._cap.route = route.match
        self.record.upstream = route.upstream
        self.record.upstream_model = route.model or model
        upstream = self.config.upstream(route)
        self.record.upstream_format = upstream.format
        return route, upstream

    def _bad_request(self, fmt: Format, exc: ToolwireError) -> Reply:
        path = getattr(exc, "path", None)
        message = exc.message if hasattr(exc, "message") else str(exc)
        self.record.error = type(exc).__name__
        return client_error(fmt, 400, message, type="invalid_request_error", param=path)

    # -- upstream calls -------------------------------------------------------------------------

    def _send(
        self,
        upstream: Upstream,
        path: str,
        headers: Mapping[str, str],
        body: bytes,
        stream: bool,
        *,
        method: str = "POST",
    ) -> Send:
        spec = upstream.spec
        if spec.layout is not None:  # the provider's own address (Vertex, Azure deployments)
            path, headers, body = relayout(spec.layout, path, headers, body, upstream.params)
        sent = {**headers, **upstream.headers, **auth_headers(spec, key := upstream.key(self._env))}
        url = upstream_url(upstream, path)
        if key is None and upstream.format == "bedrock-converse":  # SigV4, at the hop's clock
            sent.update(self._signers.sign(upstream, method, url, sent, body, self._clock()))
        if self._cap is not None:
            self._cap.sent(body, sent)
        limit = self.config.limits.stream_idle_timeout
        timeout = min(upstream.timeout, limit) if stream else upstream.timeout
        return Send(method, url, sent, body, stream, timeout, upstream.name)

    def _exchange(self, fmt: Format, route: Route, upstream: Upstream) -> Any:
        from toolwire.translate import Exchange

        return Exchange(
            fmt,
            upstream.format,
            policy=self.config.policy,  # type: ignore[arg-type]
            upstream_model=route.model,
            clock=self._clock,
            upstream_dialect=upstream.spec.dialect,
        )

    def _transport_failed(self, fmt: Format, exc: TransportError) -> Reply:
        self.record.error = type(exc).__name__
        if isinstance(exc, RequestTimeoutError):
            return client_error(fmt, 504, "The upstream did not answer in time", type="timeout_error")
        return client_error(fmt, 502, "The upstream could not be reached", type="api_error")

    def _call(self, fmt: Format, send: Send) -> Generator[Send, Received, Received | Reply]:
        try:
            received = yield send
        except TransportError as exc:
            return self._transport_failed(fmt, exc)
        if self._cap is not None and not (send.stream and received.status < 300):
            self._cap.keep("upstream_response", received.body, received.headers)
        return received

    def _headers(self, upstream: Format, fmt: Format, received: Received) -> dict[str, str]:
        return map_response_headers(
            upstream, fmt, received.headers, clock=self._clock, request_id=self.record.request_id
        )

    def _read(
        self, endpoint: Endpoint, inbound: InboundRequest
    ) -> tuple[dict[str, Any], ClientCall, Route, Upstream] | Reply:
        """The client's body and call, and the route of its model (or the refusal)."""
        payload, call = read_inbound(endpoint.format, inbound)
        named = call.model or endpoint.model
        model = named if named is not None else payload.get("model")
        routed = self._route(endpoint.format, model if isinstance(model, str) else None)
        if isinstance(routed, Reply):
            return routed
        return payload, call, *routed

    def _generate(self, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
        fmt = endpoint.format
        read = self._read(endpoint, inbound)
        if isinstance(read, Reply):
            return read
        payload, call, route, upstream = read
        apply_route_defaults(payload, fmt, max_tokens=route.max_tokens, reasoning=route.reasoning)
        facade: ResponsesFacade | None = None
        if is_stateful(fmt, upstream.format):
            opened = yield from open_facade(fmt, payload)
            if isinstance(opened, Reply):
                return opened
            facade, payload = opened, opened.body
        ex = self._exchange(fmt, route, upstream)
        owner = self._tenant(inbound, upstream) if keeps_state(fmt, upstream.format) else None
        loaded: dict[str, str] = {}
        if owner is not None:
            loaded = yield from load_state(owner, fmt, payload)
            ex.state = dict(loaded)
        up = ex.request_read(payload, call)
        if self._cap is not None:
            self._cap.notes, self._cap.request_notes = ex.notes, len(ex.notes)
        self.record.stream = up.stream
        self.record.notes = len(ex.notes)
        if facade is not None and is_background(facade.request):
            return (yield from generate_in_background(self, facade, ex, upstream, up))
        received = yield from self._call(fmt, self._send(upstream, up.path, up.headers, up.body, up.stream))
        if isinstance(received, Reply):
            return received
        headers = self._headers(upstream.format, fmt, received)
        if received.status >= 400:
            return self._upstream_error(ex, fmt, upstream.name, received, headers)
        if up.stream:
            relay = StreamRelay(ex)
            headers = {"content-type": relay.content_type, "cache-control": "no-cache", **headers}
            ttl = self.config.limits.state_ttl
            tap = StateTap(ex, owner, ttl, before=loaded) if owner is not None else None
            return ReplyStream(200, headers, relay, facade.frames if facade is not None else tap)
        out = self._whole(ex, fmt, received)
        if owner is not None and not isinstance(out, Reply):
            calls = save_state(owner, loaded, ex.state, self.config.limits.state_ttl)
            failed = yield from store_state(fmt, calls)
            if failed is not None:
                return failed
        if isinstance(out, Reply) or facade is None:
            return out if isinstance(out, Reply) else Reply(200, {**_JSON, **headers}, dumps(out))
        out = facade.finish(out)
        saved = yield from save_calls(fmt, facade.save(out))
        return saved if saved is not None else Reply(200, {**_JSON, **headers}, dumps(out))

    def _tenant(self, inbound: InboundRequest, upstream: Upstream) -> str:
        """Whose opaque state this call reads and writes: the gateway key it presented; with no
        gateway keys, its own credential, else the upstream's (hashed, see :func:`tenant`)."""
        if self._key is not None:
            return tenant("gateway\0" + self._key.key)
        headers = {name.lower(): value for name, value in inbound.headers.items()}
        presented = _presented_key(headers, inbound.query)
        if presented is not None:
            return tenant("client\0" + presented)
        return tenant(f"upstream\0{upstream.name}\0{upstream.key(self._env) or ''}")

    def _upstream_error(
        self, ex: Any, fmt: Format, upstream: str, received: Received, headers: dict[str, str]
    ) -> Reply:
        self.record.error = f"upstream {received.status}"
        out = refused_credentials(fmt, received.status, upstream) or ex.error(received.status, received.body)
        return Reply(out[0], {**_JSON, **headers}, dumps(out[1]))

    def _whole(self, ex: Any, fmt: Format, received: Received) -> dict[str, Any] | Reply:
        try:
            body = loads(received.body)
        except PayloadError:
            self.record.error = "malformed upstream body"
            return client_error(
                fmt, 502, "The upstream answered with a body that is not JSON", type="api_error"
            )
        out: dict[str, Any] = ex.response(body)
        self.record.notes = len(ex.notes)
        usage = ex.last_response.usage if ex.last_response is not None else None
        if usage is not None:
            self.record.input_tokens, self.record.output_tokens = usage.input_tokens, usage.output_tokens
        return out

    def _count(self, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
        fmt = endpoint.format
        read = self._read(endpoint, inbound)
        if isinstance(read, Reply):
            return read
        payload, call, route, upstream = read
        ex = self._exchange(fmt, route, upstream)
        counted = count_call(ex, payload, call)
        if counted.path is None:  # the upstream has no count endpoint: the documented estimate
            return Reply(200, dict(_JSON), dumps(estimate_reply(fmt, counted.body, inbound)))
        send = self._send(upstream, counted.path, counted.headers, counted.body, False)
        received = yield from self._call(fmt, send)
        if isinstance(received, Reply):
            return received
        headers = self._headers(upstream.format, fmt, received)
        if received.status >= 400:
            return self._upstream_error(ex, fmt, upstream.name, received, headers)
        try:
            answer = count_reply(upstream.format, fmt, received.body, inbound)
        except PayloadError:
            self.record.error = "malformed upstream body"
            return client_error(fmt, 502, "The upstream's count answer has no token count", type="api_error")
        return Reply(200, {**_JSON, **headers}, dumps(answer))

    def _models(self, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
        names = self.config.models() or [r.model for r in (self.config.default,) if r and r.model]
        if not names and self.config.default is not None:  # ask the upstream what it has
            names = yield from self._upstream_models(
                endpoint.format, self.config.upstream(self.config.default)
            )
        flavour = "openai" if endpoint.format.startswith("openai") else endpoint.format
        listing = list_models(tuple(names), flavour)
        if endpoint.model is None:
            return Reply(200, dict(_JSON), dumps(listing))
        items = listing.get("data", listing.get("models", []))
        wanted = endpoint.model.removeprefix("models/")
        for item in items:
            if str(item.get("id", item.get("name", ""))).removeprefix("models/") == wanted:
                return Reply(200, dict(_JSON), dumps(item))
        return client_error(
            endpoint.format, 404, f"The model {wanted!r} does not exist", code="model_not_found"
        )

    def _upstream_models(self, fmt: Format, upstream: Upstream) -> Generator[Send, Received, list[str]]:
        """The model names the upstream lists (none when it cannot say: also a provider layout,
        whose listing is not the format's)."""
        if upstream.spec.layout is not None:
            return []
        headers = dict(_MODEL_LIST_HEADERS.get(upstream.format, _JSON))
        path = "/v1beta/models" if upstream.format == "gemini" else "/v1/models"
        send = self._send(upstream, path, headers, b"", False, method="GET")
        received = yield from self._call(fmt, send)
        if isinstance(received, Reply) or received.status >= 300:
            return []
        try:
            body = loads(received.body)
        except PayloadError:
            return []
        rows = (body.get("data") or body.get("models") or []) if isinstance(body, dict) else []
        names = [row.get("id") or row.get("name") for row in rows if isinstance(row, dict)]
        return [str(name).removeprefix("models/") for name in names if isinstance(name, str)]

    def _unsupported(self, endpoint: Endpoint, inbound: InboundRequest) -> _Steps:
        return client_error(
            endpoint.format,
            404,
            f"{inbound.method} {inbound.path} needs the gateway's response store",
            code="not_found",
        )
        yield  # a generator, like every operation

    def _finish(self, answer: Reply | ReplyStream | ReplyFollow) -> Reply | ReplyStream | ReplyFollow:
        self.record.status = answer.status
        if self._cap is not None and isinstance(answer, Reply):
            self._cap.keep("client_response", answer.body, answer.headers)
        return answer


_OPERATIONS: dict[str, Callable[[Hop, Endpoint, InboundRequest], _Steps]] = {
    "generate": Hop._generate,
    "count": Hop._count,
    "models": Hop._models,
    **STORED_OPERATIONS,
}
"""Operation -> handler; the stored-response operations come with the store."""
