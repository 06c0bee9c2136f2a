"""What :class:`Client` and :class:`AsyncClient` share of httpx: the TLS context, timeouts, the
request of a :class:`Send` step, reads of an answer's body, httpx failures mapped to toolwire
errors (in one place, secrets removed), and the state of an open stream.

The blocking and async readers are twins that differ only in ``await``.
"""

from __future__ import annotations

import functools
import ssl
from collections.abc import AsyncIterator, Iterator
from typing import Generic, TypeVar

import httpx

from toolwire.client._bodies import aread_body, read_body
from toolwire.client._errors import redact
from toolwire.client._options import Timeouts
from toolwire.client._session import next_events
from toolwire.client._steps import Opened, ReadBody, Send
from toolwire.errors import ConnectionFailedError, RequestTimeoutError
from toolwire.formats._stream import WireEvent
from toolwire.ir.stream import StreamEvent

__all__ = [
    "StreamBase",
    "anext_chunk",
    "aread_answer",
    "build_request",
    "http_timeout",
    "next_chunk",
    "read_answer",
    "shared_ssl_context",
    "transport_error",
]


@functools.cache
def shared_ssl_context() -> ssl.SSLContext:
    """One TLS context (system CAs via certifi) for every client of the process.

    Building it loads the CA bundle (tens of milliseconds); sharing it makes clients cheap to create.
    """
    return httpx.create_ssl_context()


def http_timeout(t: Timeouts, *, stream: bool) -> httpx.Timeout:
    """The httpx timeout for a call; a stream's read timeout is the idle limit."""
    read = t.idle if stream and t.idle is not None else t.read
    return httpx.Timeout(connect=t.connect, read=read, write=t.write, pool=t.pool)


def transport_error(exc: httpx.HTTPError, secrets: tuple[str, ...]) -> Exception:
    """The toolwire error for an httpx failure (secrets removed from the message)."""
    message = redact(f"{type(exc).__name__}: {exc}", secrets)
    if isinstance(exc, httpx.TimeoutException):
        return RequestTimeoutError(message)
    return ConnectionFailedError(message)


def build_request(http: httpx.Client | httpx.AsyncClient, step: Send, timeouts: Timeouts) -> httpx.Request:
    """The httpx request of a :class:`Send` step."""
    timeout = http_timeout(timeouts, stream=step.stream)
    headers, content = step.headers, step.content
    return http.build_request(step.method, step.url, headers=headers, content=content, timeout=timeout)


def read_answer(response: httpx.Response, step: ReadBody, secrets: tuple[str, ...]) -> bytes:
    """Perform ``step``: the body of ``response``, which is closed afterwards.

    Raises:
        RequestTimeoutError: the body was not complete by the step's deadline.
        TransportError: the read failed (a successful answer's body only).
    """
    try:
        return read_body(response.iter_bytes(), limit=step.limit, deadline=step.deadline)
    except httpx.HTTPError as exc:
        if step.error:
            return b""
        raise transport_error(exc, secrets) from None
    finally:
        response.close()


async def aread_answer(response: httpx.Response, step: ReadBody, secrets: tuple[str, ...]) -> bytes:
    """Async :func:`read_answer`."""
    try:
        return await aread_body(response.aiter_bytes(), limit=step.limit, deadline=step.deadline)
    except httpx.HTTPError as exc:
        if step.error:
            return b""
        raise transport_error(exc, secrets) from None
    finally:
        await response.aclose()


def next_chunk(chunks: Iterator[bytes], secrets: tuple[str, ...]) -> bytes | None:
    """The next chunk of a body (``None`` at its end).

    Raises:
        TransportError: the read failed.
    """
    try:
        return next(chunks)
    except StopIteration:
        return None
    except httpx.HTTPError as exc:
        raise transport_error(exc, secrets) from None


async def anext_chunk(chunks: AsyncIterator[bytes], secrets: tuple[str, ...]) -> bytes | None:
    """Async :func:`next_chunk`."""
    try:
        return await chunks.__anext__()
    except StopAsyncIteration:
        return None
    except httpx.HTTPError as exc:
        raise transport_error(exc, secrets) from None


_Chunks = TypeVar("_Chunks")


class StreamBase(Generic[_Chunks]):
    """What a streamed call holds, sync or async: the response, its byte chunks, the decoding session."""

    def __init__(
        self,
        response: httpx.Response,
        chunks: _Chunks,
        opened: Opened,
        secrets: tuple[str, ...],
        attempts: int,
    ) -> None:
        self._response = response
        self._chunks = chunks
        self._session = opened.session
        self._pending = opened.first
        self._idle = opened.idle
        self._secrets = secrets
        self.attempts = attempts
        self.result_headers = dict(response.headers)
        self._on_end = opened.on_end

    def _take(self, chunk: bytes | None) -> list[StreamEvent]:
        """The events completed by ``chunk`` (``None``: the body ended)."""
        return next_events(self._session, self._idle, chunk)

    def _drain(self) -> list[StreamEvent]:
        """The events read before the stream was handed over (once)."""
        pending, self._pending = self._pending, []
        return pending

    def _report_end(self, error: Exception | None) -> None:
        """Tell ``on_end`` (once) that the stream ended: its response, or the error that broke it."""
        on_end, self._on_end = self._on_end, None
        if on_end is not None:
            on_end(None if error is not None else self._session.response(), error)

    @property
    def closed(self) -> bool:
        """Whether the connection of this stream is closed."""
        return self._response.is_closed

    @property
    def raw_events(self) -> list[WireEvent]:
        """The provider's wire events received so far."""
        return self._session.raw_events

    @property
    def payload_events(self) -> list[WireEvent]:
        """The events so far in the format of the request passed in (``raw_events`` when the same)."""
        return self._session.payload_events
