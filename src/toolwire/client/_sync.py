"""The blocking client: a short driver of :class:`ClientCore`'s steps over an ``httpx.Client``."""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator, Mapping
from types import TracebackType
from typing import Any, TypeVar

import httpx

from toolwire._google_auth import TokenSource
from toolwire.client._core import Call, ClientCore
from toolwire.client._httpx import (
    StreamBase,
    build_request,
    http_timeout,
    next_chunk,
    read_answer,
    shared_ssl_context,
    transport_error,
)
from toolwire.client._options import Options, Timeouts
from toolwire.client._providers import ProviderName
from toolwire.client._result import Result
from toolwire.client._retry import RetryPolicy, retrying
from toolwire.client._steps import Answer, FetchToken, ReadBody, ReadChunk, RefreshKey, Send, Step
from toolwire.hooks import Observer
from toolwire.ir.base import FormatName
from toolwire.ir.notes import Policy
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.ir.stream import StreamEvent

__all__ = ["Client", "Stream"]

_T = TypeVar("_T")


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
                yield from self._take(next_chunk(self._chunks, self._secrets))
        except Exception as exc:
            self._report_end(exc)
            raise
        else:
            self._report_end(None)
        finally:
            self.close()

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


class _Attempt:
    """One attempt of a call over an ``httpx.Client``: performs the steps of a
    :class:`ClientCore` flow on the answer it holds, and closes that answer when the flow fails."""

    def __init__(self, client: Client, call: Call) -> None:
        self.core = client.core
        self.http = client._http
        self.refresh = client._refresh
        self.call = call
        self.response: httpx.Response | None = None
        self.chunks: Iterator[bytes] | None = None

    def result(self) -> Result:
        """The answer of a whole (non-streamed) call."""
        return self._run(self.core.create_steps(self.call, refresh=self.refresh is not None))

    def stream(self) -> Stream:
        """The stream of a streamed call, its first events read."""
        opened = self._run(self.core.open_steps(self.call, refresh=self.refresh is not None))
        response = self._answer()
        chunks = self.chunks if self.chunks is not None else response.iter_bytes()
        return Stream(response, chunks, opened, self.core.secrets, self.call.attempts)

    def _run(self, steps: Generator[Step, Any, _T]) -> _T:
        """Perform ``steps`` until the flow returns (its value) or raises (the answer in hand closed)."""
        try:
            step = next(steps)
            while True:
                step = steps.send(_PERFORM[type(step)](self, step))
        except StopIteration as stop:
            value: _T = stop.value
            return value
        except BaseException:
            self.close()
            raise

    def _answer(self) -> httpx.Response:
        assert self.response is not None, "a read step came before any Send"
        return self.response

    def fetch_token(self, step: FetchToken) -> None:
        self.core.refresh_token()

    def send(self, step: Send) -> Answer:
        request = build_request(self.http, step, self.core.timeouts)
        try:
            self.response, self.chunks = self.http.send(request, stream=True), None
        except httpx.HTTPError as exc:
            raise transport_error(exc, self.core.secrets) from None
        return Answer(self.response.status_code, self.response.headers)

    def refresh_key(self, step: RefreshKey) -> str | None:
        assert self.refresh is not None, "RefreshKey without an auth_refresh hook"
        self.close()
        return self.refresh()

    def read_body(self, step: ReadBody) -> bytes:
        return read_answer(self._answer(), step, self.core.secrets)

    def read_chunk(self, step: ReadChunk) -> bytes | None:
        if self.chunks is None:
            self.chunks = self._answer().iter_bytes()
        return next_chunk(self.chunks, self.core.secrets)

    def close(self) -> None:
        if self.response is not None:
            self.response.close()


_PERFORM: dict[type[Step], Callable[[_Attempt, Any], object]] = {
    FetchToken: _Attempt.fetch_token,
    Send: _Attempt.send,
    RefreshKey: _Attempt.refresh_key,
    ReadBody: _Attempt.read_body,
    ReadChunk: _Attempt.read_chunk,
}
"""How the blocking driver performs each step (see :mod:`toolwire.client._steps`)."""


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
                    return _Attempt(self, call).result()
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
                    return _Attempt(self, call).stream()
        raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover

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
