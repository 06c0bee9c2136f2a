"""The shells' handle on the store: opened on first use, so traffic that keeps no state (no
Responses state, no Chat client's reasoning state) never touches it; performs the hop's
:class:`~toolwire.hop._stateful.StoreCall` steps.

The async handle serves the ASGI app and the async transport. The sync transport's handle runs
the (async) store on a private event loop in a daemon thread.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from toolwire.hop._stateful import StoreCall

__all__ = [
    "CHAT_STORE_ERROR_EVENT",
    "STORE_ERROR_EVENT",
    "AsyncStoreHandle",
    "SyncStoreHandle",
    "store_error_event",
]

STORE_ERROR_EVENT = (
    b'event: error\ndata: {"type":"error","code":"store_failed",'
    b'"message":"The response could not be stored.","param":null}\n\n'
)
"""Sent in place of a Responses stream's final event when keeping the response failed."""
CHAT_STORE_ERROR_EVENT = (
    b'data: {"error":{"message":"The reasoning state could not be stored.","type":"api_error",'
    b'"param":null,"code":"store_failed"}}\n\n'
)
"""Sent in place of a Chat stream's last chunk (``[DONE]``) when keeping its reasoning state
failed (the ``openai`` SDK raises it as an ``APIError``)."""


def store_error_event(client: str) -> bytes:
    """What a ``client``'s stream gets in place of the chunk whose store calls failed."""
    return CHAT_STORE_ERROR_EVENT if client == "openai-chat" else STORE_ERROR_EVENT


class AsyncStoreHandle:
    """The store at ``url`` (``None``: the default SQLite file), opened on first use."""

    def __init__(self, url: str | None) -> None:
        self.url = url
        self._store: Any = None
        self._lock = asyncio.Lock()

    async def _open(self) -> Any:
        if self._store is None:
            async with self._lock:
                if self._store is None:
                    from toolwire.store import DEFAULT_STORE, open_store

                    self._store = await open_store(self.url or DEFAULT_STORE)
        return self._store

    async def opened(self) -> Any:
        """The store, opened now if it was not.

        Raises:
            StoreError: it cannot be opened.
        """
        return await self._open()

    async def call(self, step: StoreCall) -> Any:
        """Perform ``step``.

        Raises:
            StoreError: the store refused or failed.
        """
        store = await self._open()
        return await getattr(store, step.method)(*step.args, **step.kwargs)

    async def aclose(self) -> None:
        """Close the store, if it was opened."""
        if self._store is not None:
            await self._store.aclose()
            self._store = None


class SyncStoreHandle:
    """:class:`AsyncStoreHandle` for sync callers: the store lives on its own loop thread."""

    def __init__(self, url: str | None) -> None:
        self._handle = AsyncStoreHandle(url)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._started = threading.Lock()

    def _running(self) -> asyncio.AbstractEventLoop:
        with self._started:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                threading.Thread(target=loop.run_forever, daemon=True, name="toolwire-store").start()
                self._loop = loop
        return self._loop

    def call(self, step: StoreCall) -> Any:
        """Perform ``step`` (blocking)."""
        return asyncio.run_coroutine_threadsafe(self._handle.call(step), self._running()).result()

    def close(self) -> None:
        """Close the store and stop its loop."""
        loop = self._loop
        if loop is None:
            return
        asyncio.run_coroutine_threadsafe(self._handle.aclose(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        self._loop = None
