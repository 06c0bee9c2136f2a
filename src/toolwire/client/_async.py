"""The async client: :class:`ClientCore` over an ``httpx.AsyncClient`` (asyncio or trio)."""

from __future__ import annotations

import functools
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from types import TracebackType
from typing import Any

import anyio
import httpx

from toolwire._google_auth import TokenSource
from toolwire.client._bodies import MAX_ERROR_BODY, aread_body, deadline_after
from toolwire.client._core import Call, ClientCore
from toolwire.client._options import Options, Timeouts
from toolwire.client._providers import ProviderName
from toolwire.client._result import Result
from toolwire.client._retry import RetryPolicy, async_retrying
from toolwire.client._session import IdleWatch
from toolwire.client._sync import StreamBase, http_timeout, shared_ssl_context, transport_error
from toolwire.hooks import Observer
from toolwire.ir.base import FormatName
from toolwire.ir.notes import Policy
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.ir.stream import StreamEvent

__all__ = ["AsyncClient", "AsyncStream"]

AuthRefresh = Callable[[], "str | Awaitable[str | None] | None"]


class AsyncStream(StreamBase[AsyncIterator[bytes]]):
    """A streamed async call: ``async for`` the canonical events; an async context manager.

    Cancelling the task that iterates closes the connection.
    """

    async def __aiter__(self) -> AsyncIterator[StreamEvent]:
        try:
            pending, self._pending = self._pending, []
            for event in pending:
                yield event
            while not self._session.finished:
                for event in await self._next_events():
                    yield event
        except Exception as exc:
            self._report_end(exc)
            raise
        else:
            self._report_end(None)
        finally:
            await self.aclose()

    async def _next_events(self) -> list[StreamEvent]:
        try:
            chunk = await self._chunks.__anext__()
        except StopAsyncIteration:
            return self._session.close()
        except httpx.HTTPError as exc:
            raise transport_error(exc, self._secrets) from None
        events = self._session.feed(chunk)
        self._idle.tick(bool(events))
        return events

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
                    deadline = deadline_after(self.core.timeouts.total)
                    response = await self._send(call, deadline)
                    try:
                        body = await aread_body(response.aiter_bytes(), deadline=deadline)
                    except httpx.HTTPError as exc:
                        raise transport_error(exc, self.core.secrets) from None
                    finally:
                        await response.aclose()
                    return self.core.result(call, response.status_code, response.headers, body)
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
                    return await self._open_stream(call)
        raise AssertionError("unreachable: tenacity re-raises the last error")  # pragma: no cover

    async def _open_stream(self, call: Call) -> AsyncStream:
        response = await self._send(call, deadline_after(self.core.timeouts.total))
        try:
            session = self.core.session(call, response.headers)
            chunks = response.aiter_bytes()
            idle = IdleWatch(self.core.timeouts.idle)
            first: list[StreamEvent] = []
            while not first and not session.finished:
                try:
                    chunk = await chunks.__anext__()
                except StopAsyncIteration:
                    first = session.close()
                    break
                first = session.feed(chunk)
                idle.tick(bool(first))
            on_end = None if call.info is None else functools.partial(self.core.ended, call)
            return AsyncStream(
                response, chunks, session, first, idle, self.core.secrets, call.attempts, on_end
            )
        except httpx.HTTPError as exc:
            await response.aclose()
            raise transport_error(exc, self.core.secrets) from None
        except BaseException:
            with anyio.CancelScope(shield=True):
                await response.aclose()
            raise

    async def _send(self, call: Call, deadline: float | None = None) -> httpx.Response:
        """One attempt: send, refresh credentials once on 401, raise typed errors for non-2xx."""
        call.attempts += 1
        response = await self._send_once(call)
        if response.status_code == 401 and self._refresh is not None and not call.refreshed:
            call.refreshed = True
            await response.aclose()
            key = self._refresh()
            self.core.set_api_key(await key if inspect.isawaitable(key) else key)
            response = await self._send_once(call)
        if response.status_code >= 300:
            try:
                body = await aread_body(response.aiter_bytes(), limit=MAX_ERROR_BODY, deadline=deadline)
            except httpx.HTTPError:
                body = b""
            finally:
                await response.aclose()
            raise self.core.error(response.status_code, response.headers, body)
        return response

    async def _send_once(self, call: Call) -> httpx.Response:
        tokens = self.core.tokens
        if tokens is not None and tokens.current() is None:  # a refresh is a blocking HTTP call
            await anyio.to_thread.run_sync(self.core.refresh_token)
        else:
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
            return await self._http.send(request, stream=True)
        except httpx.HTTPError as exc:
            raise transport_error(exc, self.core.secrets) from None

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
