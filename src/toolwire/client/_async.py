"""The async client: a short driver of :class:`ClientCore`'s steps over an ``httpx.AsyncClient``
(asyncio or trio)."""

from __future__ import annotations

import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Generator, Mapping
from types import TracebackType
from typing import Any, TypeVar

import anyio
import httpx

from toolwire._google_auth import TokenSource
from toolwire.client._core import Call, ClientCore
from toolwire.client._httpx import (
    StreamBase,
    anext_chunk,
    aread_answer,
    build_request,
    http_timeout,
    shared_ssl_context,
    transport_error,
)
from toolwire.client._options import Options, Timeouts
from toolwire.client._providers import ProviderName
from toolwire.client._result import Result
from toolwire.client._retry import RetryPolicy, async_retrying
from toolwire.client._steps import Answer, FetchToken, ReadBody, ReadChunk, RefreshKey, Send, Step
from toolwire.hooks import Observer
from toolwire.ir.base import FormatName
from toolwire.ir.notes import Policy
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.ir.stream import StreamEvent

__all__ = ["AsyncClient", "AsyncStream"]

AuthRefresh = Callable[[], "str | Awaitable[str | None] | None"]
_T = TypeVar("_T")


class AsyncStream(StreamBase[AsyncIterator[bytes]]):
    """A streamed async call: ``async for`` the canonical events; an async context manager.

    Cancelling the task that iterates closes the connection.
    """

    async def __aiter__(self) -> AsyncIterator[StreamEvent]:
        try:
            for event in self._drain():
                yield event
            while not self._session.finished:
                for event in self._take(await anext_chunk(self._chunks, self._secrets)):
                    yield event
        except Exception as exc:
            self._report_end(exc)
            raise
        else:
            self._report_end(None)
        finally:
            await self.aclose()

    async def collect(self) -> Response:
        """Read the rest of the stream; the accumulated final response."""
        async for _ in self:
            pass
        return self._session.response()

    async def aclose(self) -> None:
        """Close the connection (stops the stream; safe to call twice)."""
        with anyio.CancelScope(shield=True):
            await self._response.aclose()

    async def __aenter__(self) -> AsyncStream:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()


class _Attempt:
    """One attempt of a call over an ``httpx.AsyncClient``: the blocking driver's twin
    (:class:`toolwire.client._sync._Attempt`), differing only in ``await``."""

    def __init__(self, client: AsyncClient, call: Call) -> None:
        self.core = client.core
        self.http = client._http
        self.refresh = client._refresh
        self.call = call
        self.response: httpx.Response | None = None
        self.chunks: AsyncIterator[bytes] | None = None

    async def result(self) -> Result:
        """The answer of a whole (non-streamed) call."""
        return await self._run(self.core.create_steps(self.call, refresh=self.refresh is not None))

    async def stream(self) -> AsyncStream:
        """The stream of a streamed call, its first events read."""
        opened = await self._run(self.core.open_steps(self.call, refresh=self.refresh is not None))
        response = self._answer()
        chunks = self.chunks if self.chunks is not None else response.aiter_bytes()
        return AsyncStream(response, chunks, opened, self.core.secrets, self.call.attempts)

    async def _run(self, steps: Generator[Step, Any, _T]) -> _T:
        """Perform ``steps`` until the flow returns (its value) or raises (the answer in hand closed)."""
        try:
            step = next(steps)
            while True:
                step = steps.send(await _PERFORM[type(step)](self, step))
        except StopIteration as stop:
            value: _T = stop.value
            return value
        except BaseException:
            await self.aclose()
            raise

    def _answer(self) -> httpx.Response:
        assert self.response is not None, "a read step came before any Send"
        return self.response

    async def fetch_token(self, step: FetchToken) -> None:
        await anyio.to_thread.run_sync(self.core.refresh_token)  # a refresh is a blocking HTTP call

    async def send(self, step: Send) -> Answer:
        request = build_request(self.http, step, self.core.timeouts)
        try:
            self.response, self.chunks = await self.http.send(request, stream=True), None
        except httpx.HTTPError as exc:
            raise transport_error(exc, self.core.secrets) from None
        return Answer(self.response.status_code, self.response.headers)

    async def refresh_key(self, step: RefreshKey) -> str | None:
        assert self.refresh is not None, "RefreshKey without an auth_refresh hook"
        await self.aclose()
        key = self.refresh()
        return await key if inspect.isawaitable(key) else key

    async def read_body(self, step: ReadBody) -> bytes:
        return await aread_answer(self._answer(), step, self.core.secrets)

    async def read_chunk(self, step: ReadChunk) -> bytes | None:
        if self.chunks is None:
            self.chunks = self._answer().aiter_bytes()
        return await anext_chunk(self.chunks, self.core.secrets)

    async def aclose(self) -> None:
        if self.response is not None:
            with anyio.CancelScope(shield=True):
                await self.response.aclose()


_PERFORM: dict[type[Step], Callable[[_Attempt, Any], Coroutine[Any, Any, object]]] = {
    FetchToken: _Attempt.fetch_token,
    Send: _Attempt.send,
    RefreshKey: _Attempt.refresh_key,
    ReadBody: _Attempt.read_body,
    ReadChunk: _Attempt.read_chunk,
}
"""How the async driver performs each step (see :mod:`toolwire.client._steps`)."""


class AsyncClient:
    """The async twin of :class:`~toolwire.client.Client` (same arguments; ``sleep`` is async).

    ``auth_refresh`` may be a plain or an async function.
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
        auth_refresh: AuthRefresh | None = None,
        sleep: Callable[[float], Awaitable[None]] = anyio.sleep,
        rng: Callable[[], float] | None = None,
        http_client: httpx.AsyncClient | None = None,
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
        self._http = http_client or httpx.AsyncClient(
            timeout=http_timeout(self.core.timeouts, stream=False), verify=shared_ssl_context()
        )

    async def create(
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
            async for attempt in async_retrying(self.core.retry, self._sleep, self._rng):
                with attempt:
                    return await _Attempt(self, call).result()
        raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover

    async def stream(
        self,
        request: Request | dict[str, Any],
        *,
        format: FormatName | None = None,
        options: Options | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> AsyncStream:
        """Send ``request`` as a streamed call; retried only until its first event arrives."""
        call = self.core.prepare(request, stream=True, source=format, options=options, headers=headers)
        with self.core.observing(call):
            async for attempt in async_retrying(self.core.retry, self._sleep, self._rng):
                with attempt:
                    return await _Attempt(self, call).stream()
        raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover

    async def aclose(self) -> None:
        """Close the connection pool (unless it was passed in)."""
        if self._own:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
