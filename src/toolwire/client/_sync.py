"""The blocking client: :class:`ClientCore` over an ``httpx.Client``."""

from __future__ import annotations

import functools
import ssl
import time
from collections.abc import Callable, Iterator, Mapping
from types import TracebackType
from typing import Any, Generic, TypeVar

import httpx

from toolwire._google_auth import TokenSource
from toolwire.client._bodies import MAX_ERROR_BODY, deadline_after, read_body
from toolwire.client._core import Call, ClientCore
from toolwire.client._errors import redact
from toolwire.client._options import Options, Timeouts
from toolwire.client._providers import ProviderName
from toolwire.client._result import Result
from toolwire.client._retry import RetryPolicy, retrying
from toolwire.client._session import IdleWatch, StreamSession
from toolwire.errors import ConnectionFailedError, RequestTimeoutError
from toolwire.formats._stream import WireEvent
from toolwire.hooks import Observer
from toolwire.ir.base import FormatName
from toolwire.ir.notes import Policy
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.ir.stream import StreamEvent

__all__ = ["Client", "Stream", "StreamBase"]


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


_Chunks = TypeVar("_Chunks")
StreamEnd = Callable[[Response | None, BaseException | None], None]
"""Called once when a stream ends: its accumulated response, or the error that broke it."""


class StreamBase(Generic[_Chunks]):
    """What a streamed call holds, sync or async: the response, its byte chunks, the decoding session."""

    def __init__(
        self,
        response: httpx.Response,
        chunks: _Chunks,
        session: StreamSession,
        first: list[StreamEvent],
        idle: IdleWatch,
        secrets: tuple[str, ...],
        attempts: int,
        on_end: StreamEnd | None = None,
    ) -> None:
        self._response = response
        self._chunks = chunks
        self._session = session
        self._pending = first
        self._idle = idle
        self._secrets = secrets
        self.attempts = attempts
        self.result_headers = dict(response.headers)
        self._on_end = on_end

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


class Stream(StreamBase[Iterator[bytes]]):
    """A streamed call: iterate for canonical events; a context manager closing the connection.

    Attributes:
        raw_events: the provider's wire events received so far (decoded JSON).
        result_headers: the response headers.
        attempts: HTTP attempts made before the first event.
    """

    def __iter__(self) -> Iterator[StreamEvent]:
        try:
            yield from self._drain()
            while not self._session.finished:
                yield from self._next_events()
        except Exception as exc:
            self._report_end(exc)
            raise
        else:
            self._report_end(None)
        finally:
            self.close()

    def _drain(self) -> list[StreamEvent]:
        pending, self._pending = self._pending, []
        return pending

    def _next_events(self) -> list[StreamEvent]:
        try:
            chunk = next(self._chunks)
        except StopIteration:
            return self._session.close()
        except httpx.HTTPError as exc:
            raise transport_error(exc, self._secrets) from None
        events = self._session.feed(chunk)
        self._idle.tick(bool(events))
        return events

    def collect(self) -> Response:
        """Read the rest of the stream; the accumulated final response."""
        for _ in self:
            pass
        return self._session.response()

    def close(self) -> None:
        """Close the connection (stops the stream; safe to call twice)."""
        self._response.close()

    def __enter__(self) -> Stream:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class Client:
    """Call a provider with IR requests or native payloads of any format (blocking).

    Args:
        provider: a provider (``openai-responses``, ``anthropic``, ``vertex-gemini``...: a key of
            ``toolwire.client.PROVIDERS``); ``None``: ``model`` is a model string naming both.
        base_url: server root (default: the provider's, or its ``*_BASE_URL`` variable).
        api_key: the key (default: ``OPENAI_API_KEY``, ``ANTHROPIC_API_KEY``, ``GEMINI_API_KEY``/
            ``GOOGLE_API_KEY`` or ``AZURE_OPENAI_API_KEY``); for Vertex AI an access token.
        model: model used when a request names none; without ``provider``, a model string
            ``prefix/model`` (``Client(model="vertex/gemini-2.5-pro")``,
            ``"anthropic/claude-sonnet-4-5"``; prefixes in ``toolwire.hop._prefixes.MODEL_PREFIXES``).
        options: request-building options of the provider's format (``ResponsesOptions``...).
        headers: extra headers for every request.
        timeouts: connect/read/write/pool/idle timeouts.
        retry: the retry policy.
        policy: conversion policy for translated requests.
        validate: check requests locally before sending.
        auth_refresh: called once after a 401; returns the new key (or ``None`` to keep it).
        sleep: the sleep used between retries (tests inject a recorder).
        rng: jitter source in [0, 1).
        http_client: an ``httpx.Client`` to use (not closed by this client).
        observer: receives each call's events and conversions (:mod:`toolwire.hooks`).
        project: Vertex AI project (default: ``$GOOGLE_CLOUD_PROJECT``; Claude also
            ``$ANTHROPIC_VERTEX_PROJECT_ID``).
        location: Vertex AI location (default: ``$GOOGLE_CLOUD_LOCATION`` (Claude also
            ``$CLOUD_ML_REGION``), else ``us-central1``; ``global`` is served too).
        credentials: where Vertex AI access tokens come from (an object with ``token()`` and
            ``current()``, see ``toolwire._google_auth.TokenSource``); default, when no
            ``api_key`` is given: Google's Application Default Credentials (the ``vertex`` extra).
    """

    def __init__(
        self,
        provider: ProviderName | None = None,
        *,
        base_url: str | None = None,
        api_key: str | None = None,
        model: str | None = None,
        options: Options | None = None,
        headers: Mapping[str, str] | None = None,
        timeouts: Timeouts | None = None,
        retry: RetryPolicy | None = None,
        policy: Policy = "warn",
        validate: bool = True,
        auth_refresh: Callable[[], str | None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        rng: Callable[[], float] | None = None,
        http_client: httpx.Client | None = None,
        observer: Observer | None = None,
        project: str | None = None,
        location: str | None = None,
        credentials: TokenSource | None = None,
    ) -> None:
        self.core = ClientCore(
            provider,
            base_url=base_url,
            api_key=api_key,
            model=model,
            options=options,
            headers=headers,
            timeouts=timeouts,
            retry=retry,
            policy=policy,
            validate=validate,
            observer=observer,
            project=project,
            location=location,
            credentials=credentials,
        )
        self._refresh = auth_refresh
        self._sleep = sleep
        self._rng = rng
        self._own = http_client is None
        self._http = http_client or httpx.Client(
            timeout=http_timeout(self.core.timeouts, stream=False), verify=shared_ssl_context()
        )

    def create(
        self,
        request: Request | dict[str, Any],
        *,
        format: FormatName | None = None,
        options: Options | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Result:
        """Send ``request`` (IR, or a payload in ``format``) and wait for the answer."""
        call = self.core.prepare(request, stream=False, source=format, options=options, headers=headers)
        with self.core.observing(call):
            for attempt in retrying(self.core.retry, self._sleep, self._rng):
                with attempt:
                    deadline = deadline_after(self.core.timeouts.total)
                    response = self._send(call, deadline)
                    try:
                        body = read_body(response.iter_bytes(), deadline=deadline)
                    except httpx.HTTPError as exc:
                        raise transport_error(exc, self.core.secrets) from None
                    finally:
                        response.close()
                    return self.core.result(call, response.status_code, response.headers, body)
        raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover

    def stream(
        self,
        request: Request | dict[str, Any],
        *,
        format: FormatName | None = None,
        options: Options | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Stream:
        """Send ``request`` as a streamed call; retried only until its first event arrives."""
        call = self.core.prepare(request, stream=True, source=format, options=options, headers=headers)
        with self.core.observing(call):
            for attempt in retrying(self.core.retry, self._sleep, self._rng):
                with attempt:
                    return self._open_stream(call)
        raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover

    def _open_stream(self, call: Call) -> Stream:
        response = self._send(call, deadline_after(self.core.timeouts.total))
        try:
            session = self.core.session(call, response.headers)
            chunks = response.iter_bytes()
            idle = IdleWatch(self.core.timeouts.idle)
            first: list[StreamEvent] = []
            while not first and not session.finished:
                try:
                    chunk = next(chunks)
                except StopIteration:
                    first = session.close()
                    break
                first = session.feed(chunk)
                idle.tick(bool(first))
            on_end = None if call.info is None else functools.partial(self.core.ended, call)
            return Stream(response, chunks, session, first, idle, self.core.secrets, call.attempts, on_end)
        except httpx.HTTPError as exc:
            response.close()
            raise transport_error(exc, self.core.secrets) from None
        except BaseException:
            response.close()
            raise

    def _send(self, call: Call, deadline: float | None = None) -> httpx.Response:
        """One attempt: send, refresh credentials once on 401, raise typed errors for non-2xx."""
        call.attempts += 1
        response = self._send_once(call)
        if response.status_code == 401 and self._refresh is not None and not call.refreshed:
            call.refreshed = True
            response.close()
            self.core.set_api_key(self._refresh())
            response = self._send_once(call)
        if response.status_code >= 300:
            try:
                body = read_body(response.iter_bytes(), limit=MAX_ERROR_BODY, deadline=deadline)
            except httpx.HTTPError:
                body = b""
            finally:
                response.close()
            raise self.core.error(response.status_code, response.headers, body)
        return response

    def _send_once(self, call: Call) -> httpx.Response:
        self.core.refresh_token()
        headers = self.core.request_headers(call)
        self.core.log_request(call, headers)
        request = self._http.build_request(
            call.http.method,
            call.http.url,
            headers=headers,
            content=self.core.content(call),
            timeout=http_timeout(self.core.timeouts, stream=call.http.stream),
        )
        try:
            return self._http.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise transport_error(exc, self.core.secrets) from None

    def close(self) -> None:
        """Close the connection pool (unless it was passed in)."""
        if self._own:
            self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
