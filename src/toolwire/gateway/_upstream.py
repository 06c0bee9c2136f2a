"""The shells' one place that talks httpx: perform a hop's :class:`~toolwire.hop.core.Send`.

httpx's exceptions become toolwire's here and nowhere else (a timeout is
:class:`~toolwire.errors.RequestTimeoutError`, anything else that broke the exchange
:class:`~toolwire.errors.ConnectionFailedError`); the messages never hold headers, so never a key.
:func:`drive` and :func:`adrive` run a hop's steps to its answer, the sync and async twins
differing only in ``await``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import httpx

from toolwire.errors import ConnectionFailedError, RequestTimeoutError, ToolwireError, TransportError
from toolwire.gateway._store import AsyncStoreHandle, SyncStoreHandle, store_error_event
from toolwire.gateway._wire import UpstreamPool, WireResponse
from toolwire.hop._call import InboundRequest
from toolwire.hop._capture import HopCapture
from toolwire.hop._config import HopConfig
from toolwire.hop._stateful import StoreCall
from toolwire.hop.core import BackgroundJob, Detach, Hop, Received, Reply, ReplyFollow, ReplyStream, Send

log = logging.getLogger("toolwire.gateway")

__all__ = [
    "adrive",
    "arefresh_tokens",
    "arelay_chunks",
    "asend",
    "drive",
    "map_httpx_errors",
    "refresh_tokens",
    "relay_chunks",
    "send",
]

Answer = tuple[Reply | ReplyStream | ReplyFollow, Any]
"""A hop's answer, and the upstream response a :class:`ReplyStream` reads (open: an
``httpx.Response`` or a :class:`~toolwire.gateway._wire.WireResponse`), else ``None``."""


def refresh_tokens(config: HopConfig) -> None:
    """Refresh each upstream token source that holds no valid token (Google ADC: a blocking
    HTTP call, about once an hour); a failure is logged (never a token) and the call goes
    without credentials, which the upstream answers with its 401."""
    for source in config.token_sources():
        if source.current() is None:
            try:
                source.token()
            except ToolwireError as exc:
                log.warning("upstream credentials: %s", exc)


async def arefresh_tokens(config: HopConfig) -> None:
    """:func:`refresh_tokens` in a worker thread, when some source needs it (the loop never
    blocks on a refresh)."""
    if any(source.current() is None for source in config.token_sources()):
        await anyio.to_thread.run_sync(refresh_tokens, config)


@contextmanager
def map_httpx_errors(upstream: str) -> Iterator[None]:
    """httpx errors inside the block as toolwire :class:`TransportError`\\ s (no URL, no headers)."""
    try:
        yield
    except httpx.TimeoutException as exc:
        raise RequestTimeoutError(f"upstream {upstream!r}: {type(exc).__name__}") from None
    except (httpx.TransportError, httpx.StreamError) as exc:
        raise ConnectionFailedError(f"upstream {upstream!r}: {type(exc).__name__}") from None


def _request(client: httpx.Client | httpx.AsyncClient, step: Send) -> httpx.Request:
    timeout = httpx.Timeout(step.timeout, connect=min(step.timeout, 30.0))
    return client.build_request(
        step.method, step.url, headers=step.headers, content=step.body, timeout=timeout
    )


def send(client: httpx.Client, step: Send) -> tuple[Received, httpx.Response | None]:
    """Perform ``step``; a 2xx stream is returned open (read it, then close it)."""
    with map_httpx_errors(step.upstream):
        response = client.send(_request(client, step), stream=True)
        try:
            if step.stream and response.status_code < 300:
                return Received(response.status_code, response.headers), response
            body = response.read()
        finally:
            if not (step.stream and response.status_code < 300):
                response.close()
    return Received(response.status_code, response.headers, body), None


async def asend(client: httpx.AsyncClient, step: Send) -> tuple[Received, httpx.Response | None]:
    """:func:`send`, async."""
    with map_httpx_errors(step.upstream):
        response = await client.send(_request(client, step), stream=True)
        try:
            if step.stream and response.status_code < 300:
                return Received(response.status_code, response.headers), response
            body = await response.aread()
        finally:
            if not (step.stream and response.status_code < 300):
                await response.aclose()
    return Received(response.status_code, response.headers, body), None


def drive(hop: Hop, inbound: InboundRequest, client: httpx.Client, store: SyncStoreHandle) -> Answer:
    """Run ``hop`` on ``inbound``, performing its upstream calls with ``client`` and its store
    calls with ``store``."""
    steps = hop.steps(inbound)
    opened: httpx.Response | None = None
    try:
        step = next(steps)
        while True:
            try:
                if isinstance(step, StoreCall):
                    result: Any = store.call(step)
                elif isinstance(step, Detach):
                    raise TypeError("this shell runs no background jobs: make the Hop without background")
                else:
                    result, opened = send(client, step)
            except ToolwireError as exc:  # TransportError, StoreError: the hop words the answer
                step = steps.throw(exc)
                continue
            step = steps.send(result)
    except StopIteration as stop:
        return _answer(stop.value, opened)


async def adrive(
    hop: Hop,
    inbound: InboundRequest,
    client: httpx.AsyncClient | UpstreamPool,
    store: AsyncStoreHandle,
    detach: Callable[[BackgroundJob], None] | None = None,
) -> Answer:
    """:func:`drive`, async; ``client`` may also be the gateway's own :class:`UpstreamPool`;
    ``detach`` starts the job of a :class:`Detach` step (a hop made with ``background=True``)."""
    steps = hop.steps(inbound)
    opened: Any = None
    send_step = client.send if isinstance(client, UpstreamPool) else None
    capture = hop.record.capture
    try:
        step = next(steps)
        while True:
            try:
                if isinstance(step, StoreCall):
                    result: Any = await store.call(step)
                elif isinstance(step, Detach):
                    if detach is None:
                        raise TypeError("this shell runs no background jobs: make the Hop without background")
                    result = detach(step.job)
                else:
                    if capture is not None:
                        capture.sent_at = time.monotonic()
                    if send_step is not None:
                        result, opened = await send_step(step)
                    else:
                        result, opened = await asend(client, step)  # type: ignore[arg-type]
                    if capture is not None and opened is None:
                        capture.upstream_done_at = time.monotonic()
            except ToolwireError as exc:  # TransportError, StoreError: the hop words the answer
                step = steps.throw(exc)
                continue
            step = steps.send(result)
    except StopIteration as stop:
        return _answer(stop.value, opened)


def _answer(value: Any, opened: Any) -> Answer:
    return value, opened if isinstance(value, ReplyStream) else None


def relay_chunks(stream: ReplyStream, response: httpx.Response, store: SyncStoreHandle) -> Iterator[bytes]:
    """The client's bytes for an open upstream stream (closed at the end). A read that fails or
    outlasts the idle limit (the read timeout) ends the stream with the client's error event.
    The stream's tap, if any, sees each chunk, and its store calls run before the chunk is sent."""
    relay = stream.relay
    try:
        for chunk in response.iter_bytes():
            out = relay.feed(chunk)
            if out:
                yield _tapped(stream, out, store)
    except (httpx.TransportError, httpx.StreamError):
        pass
    finally:
        response.close()
    yield _tapped(stream, relay.close(), store)


def _tapped(stream: ReplyStream, out: bytes, store: SyncStoreHandle) -> bytes:
    if stream.tap is None or not out:
        return out
    out, calls = stream.tap(out)
    try:
        for call in calls:
            store.call(call)
    except ToolwireError:
        log.exception("could not keep a streamed response")
        return store_error_event(stream.relay.client)
    return out


async def arelay_chunks(
    stream: ReplyStream,
    response: httpx.Response | WireResponse,
    store: AsyncStoreHandle,
    capture: HopCapture | None = None,
) -> AsyncIterator[bytes]:
    """:func:`relay_chunks`, async; a traced call's ``capture`` gets both sides' chunks, timed."""
    relay = stream.relay
    try:
        async for chunk in response.aiter_bytes():
            if capture is not None:
                capture.chunk(time.monotonic(), "upstream_response", chunk)
            out = relay.feed(chunk)
            if out:
                yield _captured(capture, await _atapped(stream, out, store))
    except (httpx.TransportError, httpx.StreamError, TransportError):
        pass
    finally:
        await response.aclose()
        if capture is not None:
            capture.upstream_done_at = time.monotonic()
    yield _captured(capture, await _atapped(stream, relay.close(), store))


def _captured(capture: HopCapture | None, out: bytes) -> bytes:
    if capture is not None:
        capture.chunk(time.monotonic(), "client_response", out)
    return out


async def _atapped(stream: ReplyStream, out: bytes, store: AsyncStoreHandle) -> bytes:
    if stream.tap is None or not out:
        return out
    out, calls = stream.tap(out)
    try:
        for call in calls:
            await store.call(call)
    except ToolwireError:
        log.exception("could not keep a streamed response")
        return store_error_event(stream.relay.client)
    return out
