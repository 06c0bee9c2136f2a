"""The gateway as an httpx transport: an official SDK reaches another provider in-process.

:class:`Transport` is both an ``httpx.BaseTransport`` and an ``httpx.AsyncBaseTransport`` (as
httpx's ``MockTransport`` is): each request the SDK makes runs through the same
:class:`~toolwire.hop.core.Hop` as the ASGI gateway, and the hop's upstream calls go through an
inner transport (httpx's own by default). Only the request's path, query, headers and body
matter, so the SDK's base URL may stay its default. It serves clients of ``httpx`` and of its
fork ``httpx2`` alike (the ``anthropic`` SDK takes only an ``httpx2.Client``): each answer is a
response of the client's own package.

Example:
    >>> config = HopConfig.single("anthropic", "https://api.anthropic.com", key_env="ANTHROPIC_API_KEY")
    >>> client = openai.OpenAI(api_key="unused",                              # doctest: +SKIP
    ...                        http_client=Transport(config).client())
    >>> client.chat.completions.create(model="claude-sonnet-4-5", messages=[...])  # doctest: +SKIP
"""

from __future__ import annotations

import importlib
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from functools import cache
from types import ModuleType
from typing import Any

import httpx

from toolwire.gateway._embedded import EmbeddedEmulator
from toolwire.gateway._store import AsyncStoreHandle, SyncStoreHandle
from toolwire.gateway._upstream import (
    adrive,
    arefresh_tokens,
    arelay_chunks,
    drive,
    refresh_tokens,
    relay_chunks,
)
from toolwire.hop._aws import UpstreamSigners
from toolwire.hop._call import InboundRequest
from toolwire.hop._config import HopConfig
from toolwire.hop.core import Hop, Reply, ReplyStream

__all__ = ["Transport"]


class _Stream(httpx.SyncByteStream):
    def __init__(self, chunks: Iterator[bytes], response: httpx.Response) -> None:
        self._chunks = chunks
        self._response = response

    def __iter__(self) -> Iterator[bytes]:
        yield from self._chunks

    def close(self) -> None:
        self._response.close()


class _AsyncStream(httpx.AsyncByteStream):
    def __init__(self, chunks: AsyncIterator[bytes], response: httpx.Response) -> None:
        self._chunks = chunks
        self._response = response

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._chunks:
            yield chunk

    async def aclose(self) -> None:
        await self._response.aclose()


def _package(request: httpx.Request) -> ModuleType:
    """The HTTP package of ``request``: ``httpx``, or a fork with its API (``httpx2``, which the
    ``anthropic`` SDK requires), whose client accepts only its own responses and streams."""
    return sys.modules[type(request).__module__.partition(".")[0]]


def _sdk_package() -> ModuleType:
    """``httpx2`` when installed (what the official SDKs now take), else ``httpx``."""
    try:
        return importlib.import_module("httpx2")
    except ImportError:
        return httpx


@cache
def _stream_class(package: ModuleType, base: type[Any]) -> type[Any]:
    """``base`` (:class:`_Stream` or :class:`_AsyncStream`) as a byte stream of ``package`` too."""
    if package is httpx:
        return base
    parent = package.SyncByteStream if base is _Stream else package.AsyncByteStream
    return type(base.__name__, (base, parent), {})


def _answer(request: httpx.Request, answer: Reply) -> httpx.Response:
    response: httpx.Response = _package(request).Response(
        answer.status, headers=answer.headers, content=answer.body
    )
    return response


def _streamed(request: httpx.Request, answer: ReplyStream, stream: Any) -> httpx.Response:
    response: httpx.Response = _package(request).Response(
        answer.status, headers=answer.headers, stream=stream
    )
    return response


def _inbound(request: httpx.Request, body: bytes) -> InboundRequest:
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in request.headers.raw}
    query = request.url.query.decode("latin-1")
    return InboundRequest(request.method, request.url.path, query, headers, body)


class Transport(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """Route an SDK's requests through the hop to the configured upstreams.

    Args:
        config: the routing config (default: the embedded emulator, started now).
        inner: the transport the upstream calls go through: an ``httpx.BaseTransport`` for sync
            use, an ``httpx.AsyncBaseTransport`` for async (default: httpx's for each).
        env: where upstream keys are read (default: the process environment).
        clock: the current time, unix seconds.
    """

    def __init__(
        self,
        config: HopConfig | None = None,
        *,
        inner: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
        env: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._embedded = EmbeddedEmulator() if config is None else None
        self.config = config if config is not None else self._embedded.config  # type: ignore[union-attr]
        self._inner = inner
        self._env = env
        self._clock = clock
        self._signers = UpstreamSigners(env)
        self._sync: httpx.Client | None = None
        self._async: httpx.AsyncClient | None = None
        self._sync_store = SyncStoreHandle(self.config.store)
        self._async_store = AsyncStoreHandle(self.config.store)

    def _hop(self) -> Hop:
        return Hop(self.config, env=self._env, clock=self._clock, signers=self._signers)

    def _sync_client(self) -> httpx.Client:
        if self._sync is None:
            inner = self._inner if isinstance(self._inner, httpx.BaseTransport) else None
            self._sync = httpx.Client(transport=inner, timeout=None)
        return self._sync

    def _async_client(self) -> httpx.AsyncClient:
        if self._async is None:
            inner = self._inner if isinstance(self._inner, httpx.AsyncBaseTransport) else None
            self._async = httpx.AsyncClient(transport=inner, timeout=None)
        return self._async

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Answer one request of a sync client."""
        refresh_tokens(self.config)
        answer, opened = drive(
            self._hop(), _inbound(request, request.read()), self._sync_client(), self._sync_store
        )
        if isinstance(answer, Reply):
            return _answer(request, answer)
        assert isinstance(answer, ReplyStream) and opened is not None
        chunks = relay_chunks(answer, opened, self._sync_store)
        stream = _stream_class(_package(request), _Stream)(chunks, opened)
        return _streamed(request, answer, stream)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """Answer one request of an async client."""
        await arefresh_tokens(self.config)
        body = await request.aread()
        answer, opened = await adrive(
            self._hop(), _inbound(request, body), self._async_client(), self._async_store
        )
        if isinstance(answer, Reply):
            return _answer(request, answer)
        assert isinstance(answer, ReplyStream) and opened is not None
        achunks = arelay_chunks(answer, opened, self._async_store)
        stream = _stream_class(_package(request), _AsyncStream)(achunks, opened)
        return _streamed(request, answer, stream)

    def client(self, **kwargs: Any) -> Any:
        """A sync HTTP client on this transport, for an SDK's ``http_client=``: an
        ``httpx2.Client`` when ``httpx2`` is installed (the current ``openai`` and ``anthropic``
        SDKs take it), else an ``httpx.Client``. ``kwargs`` go to the client (``timeout=``...)."""
        client: Any = _sdk_package().Client(transport=self, **kwargs)
        return client

    def async_client(self, **kwargs: Any) -> Any:
        """:meth:`client`, async: an ``AsyncClient`` of the same package."""
        client: Any = _sdk_package().AsyncClient(transport=self, **kwargs)
        return client

    def close(self) -> None:
        """Close the sync upstream client and the embedded emulator."""
        if self._sync is not None:
            self._sync.close()
            self._sync = None
        self._sync_store.close()
        if self._embedded is not None:
            self._embedded.close()

    async def aclose(self) -> None:
        """Close the async upstream client and the embedded emulator."""
        if self._async is not None:
            await self._async.aclose()
            self._async = None
        await self._async_store.aclose()
        if self._embedded is not None:
            self._embedded.close()
