"""The gateway's ASGI shell: HTTP in, :class:`~toolwire.hop.core.Hop` steps, HTTP out.

Plain ASGI (no framework on the request path: the hop core routes). Per request, outermost
first: the error guard (an unexpected failure is a 500 in the client's own error shape, no
traceback sent), the concurrency limit (a request waits up to ``queue_timeout`` for a slot, then
gets a 503), the body limit (413 as soon as the body passes ``max_body_bytes``), then the hop.
A streamed answer is pumped while the client's connection is watched: a client that disconnects
cancels the upstream call. One JSON access-log line per request on the ``toolwire.gateway.access``
logger (ids, formats, models, status, latency, tokens, note count; never a key or a body), and
Prometheus metrics at ``GET /metrics``; ``GET /healthz`` answers ``{"status": "ok"}``; ``/ui`` is
the trace viewer (:mod:`toolwire.gateway._ui`).

The lifespan opens the upstream HTTP client and closes it; without a lifespan (some test
servers) the client is opened on the first request.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

import httpx

from toolwire._json import dumps_str
from toolwire.gateway._background import Jobs, follow
from toolwire.gateway._body import BodyTooLarge, ClientGone, read_body
from toolwire.gateway._embedded import EmbeddedEmulator
from toolwire.gateway._metrics import Metrics
from toolwire.gateway._store import AsyncStoreHandle
from toolwire.gateway._tracing import TraceWriter
from toolwire.gateway._ui import StoreTraces, TraceUI
from toolwire.gateway._upstream import adrive, arefresh_tokens, arelay_chunks
from toolwire.gateway._wire import UpstreamPool, proxied
from toolwire.hop._aws import UpstreamSigners
from toolwire.hop._call import InboundRequest
from toolwire.hop._capture import HopCapture
from toolwire.hop._config import HopConfig
from toolwire.hop._routes import match_inbound
from toolwire.hop.core import Hop, HopRecord, Reply, ReplyFollow, ReplyStream, client_error

__all__ = ["GatewayApp", "create_app"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

access_log = logging.getLogger("toolwire.gateway.access")
log = logging.getLogger("toolwire.gateway")


class GatewayApp:
    """The gateway as an ASGI application (see the module docstring).

    Args:
        config: the routing config (default: the embedded emulator, started now).
        transport: the httpx transport upstream calls go through (default: httpx's).
        env: where upstream keys are read (default: the process environment).
        clock: the current time, unix seconds.
    """

    def __init__(
        self,
        config: HopConfig | None = None,
        *,
        transport: httpx.AsyncBaseTransport | None = None,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._embedded = EmbeddedEmulator() if config is None else None
        self.config = config if config is not None else self._embedded.config  # type: ignore[union-attr]
        self._transport = transport
        self._env = env
        self._clock = clock
        self._signers = UpstreamSigners(env)  # SigV4 upstreams' credentials, resolved once
        self._client: httpx.AsyncClient | UpstreamPool | None = None
        self._slots: asyncio.Semaphore | None = None
        self.store = AsyncStoreHandle(self.config.store)
        self.jobs = Jobs(self._open, self.store)
        self.metrics = Metrics()
        self.tracer = (
            TraceWriter(self.config, self.store, self.metrics, env) if self.config.trace.enabled else None
        )
        traces = StoreTraces(self.store) if self.tracer is not None else None
        self.ui = TraceUI(self.config.keys, traces)  # the /ui pages (gateway/_ui)

    # -- lifespan -------------------------------------------------------------------------------

    def _open(self) -> httpx.AsyncClient | UpstreamPool:
        if self._client is None:
            if self._transport is None and not proxied():  # the lean client, see gateway/_wire.py
                self._client = UpstreamPool()
            else:
                limits = httpx.Limits(max_connections=None, max_keepalive_connections=64)
                self._client = httpx.AsyncClient(transport=self._transport, timeout=None, limits=limits)
            self._slots = asyncio.Semaphore(self.config.limits.max_concurrency)
        return self._client

    async def aclose(self) -> None:
        """Stop background jobs, close the upstream client (and the embedded emulator)."""
        await self.jobs.aclose()
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        if self.tracer is not None:
            await self.tracer.aclose()
        await self.store.aclose()
        if self._embedded is not None:
            self._embedded.close()

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self._open()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.aclose()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # -- requests -------------------------------------------------------------------------------

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] != "http":
            return
        path = scope["path"]
        if scope["method"] == "GET" and path in _PLAIN:
            await _PLAIN[path](self, send)
            return
        if path == "/ui" or path.startswith("/ui/"):
            await self.ui(scope, receive, send)
            return
        await self._request(scope, receive, send)

    async def _healthz(self, send: Send) -> None:
        await _send_whole(send, Reply(200, {"content-type": "application/json"}, b'{"status":"ok"}'))

    async def _metrics(self, send: Send) -> None:
        self.metrics.background_jobs = self.jobs.running
        body = self.metrics.render().encode()
        await _send_whole(send, Reply(200, {"content-type": "text/plain; version=0.0.4"}, body))

    async def _request(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = self._open()
        slots = self._slots
        assert slots is not None
        started = time.monotonic()
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        hop = Hop(
            self.config,
            env=self._env,
            clock=self._clock,
            trace=self.tracer is not None,
            background=True,
            signers=self._signers,
        )
        record = hop.record
        if record.capture is not None:
            record.capture.started, record.capture.created_at = started, self._clock()
        record.method, record.path = scope["method"], scope["path"]
        try:
            await asyncio.wait_for(slots.acquire(), self.config.limits.queue_timeout)
        except TimeoutError:
            record.status = 503
            await _send_whole(
                send, self._early(scope, headers, 503, "The gateway is at its concurrency limit")
            )
            self._done(record, started)
            return
        try:
            await arefresh_tokens(self.config)
            await self._guarded(scope, receive, send, headers, hop, client)
        finally:
            slots.release()
            self._done(record, started)

    async def _guarded(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        headers: dict[str, str],
        hop: Hop,
        client: httpx.AsyncClient | UpstreamPool,
    ) -> None:
        try:
            body = await read_body(receive, self.config.limits.max_body_bytes)
        except BodyTooLarge:
            limit = self.config.limits.max_body_bytes
            hop.record.status = 413
            await _send_whole(
                send, self._early(scope, headers, 413, f"Request body is larger than {limit} bytes")
            )
            return
        except ClientGone:
            hop.record.status = 499
            return
        query = scope.get("query_string", b"").decode("latin-1")
        inbound = InboundRequest(scope["method"], scope["path"], query, headers, body)
        watch = asyncio.ensure_future(_wait_disconnect(receive))
        try:
            await self._answer(scope, send, headers, hop, client, inbound, watch)
        finally:
            watch.cancel()

    async def _answer(
        self,
        scope: Scope,
        send: Send,
        headers: dict[str, str],
        hop: Hop,
        client: httpx.AsyncClient | UpstreamPool,
        inbound: InboundRequest,
        watch: asyncio.Future[None],
    ) -> None:
        """The hop raced against the client's disconnect, which cancels the upstream call."""
        work = asyncio.ensure_future(self._drive(hop, inbound, client))
        racing: list[asyncio.Future[Any]] = [work, watch]
        await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
        if not work.done():
            work.cancel()
            await asyncio.gather(work, return_exceptions=True)
            hop.record.status, hop.record.error = 499, "client disconnected"
            return
        try:
            answer, opened = work.result()
        except Exception:  # the error guard: a bug must not send a traceback or hang the client
            log.exception(
                "gateway error on %s %s (request %s)", scope["method"], scope["path"], hop.record.request_id
            )
            hop.record.status, hop.record.error = 500, "internal"
            await _send_whole(send, self._early(scope, headers, 500, "The gateway failed on this request"))
            return
        if isinstance(answer, Reply):
            await _send_whole(send, answer, hop.record.capture)
            return
        if isinstance(answer, ReplyFollow):
            await self._stream(answer, None, watch, send, hop.record)
            return
        assert opened is not None
        await self._stream(answer, opened, watch, send, hop.record)

    async def _drive(
        self, hop: Hop, inbound: InboundRequest, client: httpx.AsyncClient | UpstreamPool
    ) -> Any:
        # a coroutine of its own, so that anything the hop raises surfaces in the task's result
        return await adrive(hop, inbound, client, self.store, self.jobs.start)

    async def _stream(
        self,
        answer: ReplyStream | ReplyFollow,
        opened: Any,
        watch: asyncio.Future[None],
        send: Send,
        record: HopRecord,
    ) -> None:
        """Pump a stream (the upstream's through the relay, or a background response's from the
        store) raced against the client's disconnect."""
        self.metrics.open_streams += 1
        try:
            await send(
                {"type": "http.response.start", "status": answer.status, "headers": _raw(answer.headers)}
            )
            if isinstance(answer, ReplyFollow):
                pump = asyncio.ensure_future(_follow(answer, send, self.store))
            else:
                pump = asyncio.ensure_future(_pump(answer, opened, send, self.store, record.capture))
            racing: list[asyncio.Future[Any]] = [pump, watch]
            await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
            if pump.done():
                pump.result()
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            else:  # the client went away: stop reading upstream (or the store), close its connection
                pump.cancel()
                await asyncio.gather(pump, return_exceptions=True)
                if opened is not None:
                    await opened.aclose()
                record.status, record.error = 499, "client disconnected"
        finally:
            self.metrics.open_streams -= 1
            usage = answer.relay.usage if isinstance(answer, ReplyStream) else None
            if usage is not None:
                record.input_tokens, record.output_tokens = usage

    def _early(self, scope: Scope, headers: Mapping[str, str], status: int, message: str) -> Reply:
        endpoint = match_inbound(scope["method"], scope["path"], headers)
        fmt = endpoint.format if endpoint is not None else "openai-chat"
        return client_error(fmt, status, message)

    def _done(self, record: HopRecord, started: float) -> None:
        done = time.monotonic()
        elapsed = done - started
        self.metrics.observe(record, elapsed)
        if self.tracer is not None and record.capture is not None:
            self.tracer.offer(record, done)
        if access_log.isEnabledFor(logging.INFO):
            access_log.info(dumps_str(_access_line(record, elapsed)))


def _access_line(record: HopRecord, elapsed: float) -> dict[str, Any]:
    return {
        "request_id": record.request_id,
        "method": record.method,
        "path": record.path,
        "client_format": record.client,
        "operation": record.operation,
        "upstream": record.upstream,
        "upstream_format": record.upstream_format,
        "model": record.client_model,
        "upstream_model": record.upstream_model,
        "stream": record.stream,
        "status": record.status,
        "latency_ms": round(elapsed * 1000, 3),
        "input_tokens": record.input_tokens,
        "output_tokens": record.output_tokens,
        "notes": record.notes,
        "error": record.error,
    }


_PLAIN: dict[str, Callable[[GatewayApp, Send], Awaitable[None]]] = {
    "/healthz": GatewayApp._healthz,
    "/metrics": GatewayApp._metrics,
}


def _raw(headers: Mapping[str, str]) -> list[tuple[bytes, bytes]]:
    return [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]


async def _send_whole(send: Send, reply: Reply, capture: HopCapture | None = None) -> None:
    if capture is not None:
        capture.first_byte_at = time.monotonic()
    headers = {**reply.headers, "content-length": str(len(reply.body))}
    await send({"type": "http.response.start", "status": reply.status, "headers": _raw(headers)})
    await send({"type": "http.response.body", "body": reply.body, "more_body": False})


async def _pump(
    answer: ReplyStream, opened: Any, send: Send, store: AsyncStoreHandle, capture: HopCapture | None
) -> None:
    async for chunk in arelay_chunks(answer, opened, store, capture):
        if chunk:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})


async def _follow(answer: ReplyFollow, send: Send, store: AsyncStoreHandle) -> None:
    async def emit(chunk: bytes) -> None:
        await send({"type": "http.response.body", "body": chunk, "more_body": True})

    await follow(answer, store, emit)


async def _wait_disconnect(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def create_app(
    config: HopConfig | None = None,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    env: Mapping[str, str] | None = None,
) -> GatewayApp:
    """The gateway ASGI app for ``config`` (default: the embedded emulator).

    Example:
        >>> app = create_app(HopConfig.single("anthropic", "https://api.anthropic.com",
        ...                                   key_env="ANTHROPIC_API_KEY"))  # doctest: +SKIP
        >>> uvicorn.run(app, port=8080)                                       # doctest: +SKIP
    """
    return GatewayApp(config, transport=transport, env=env)
