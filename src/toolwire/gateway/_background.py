"""The ASGI gateway's background jobs and store-fed streams: the I/O half of
:mod:`toolwire.hop._detached` and :mod:`toolwire.store.background`.

:class:`Jobs` runs each :class:`~toolwire.hop.core.BackgroundJob` as an asyncio task of the app:
store steps go to the store; a :class:`~toolwire.hop.core.Send` or
:class:`~toolwire.hop.core.ReadChunk` is raced against the response's cancel flag, read from the
store every ``poll`` seconds (another instance may have written it); a cancel stops the upstream
call (the task reading it is cancelled, the upstream response closed) and is thrown into the job.
:func:`follow` performs a :class:`~toolwire.hop.core.ReplyFollow`'s steps, emitting to the client.
A job that fails unexpectedly is logged; its followers end at the idle limit. When the app stops,
a running job fails its response (``failed``, its stream a ``response.failed`` event) as a lost
upstream call would.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from toolwire.errors import ConnectionFailedError, ToolwireError
from toolwire.gateway._store import AsyncStoreHandle
from toolwire.gateway._upstream import asend
from toolwire.gateway._wire import UpstreamPool
from toolwire.hop.core import BackgroundJob, ReadChunk, ReplyFollow, Send
from toolwire.store.background import Cancelled, Emit, StoreCall, Wait, cancel_key

log = logging.getLogger("toolwire.gateway")

__all__ = ["Jobs", "follow"]


class _Watch:
    """One job's upstream response and its cancel-flag reads."""

    def __init__(self, job: BackgroundJob, store: AsyncStoreHandle) -> None:
        self.job, self.store = job, store
        self.opened: Any = None
        self.chunks: Any = None
        self.checked = time.monotonic()

    async def cancelled(self) -> bool:
        self.checked = time.monotonic()
        try:
            return (
                await self.store.call(StoreCall("get_state", (cancel_key(self.job.response_id),))) is not None
            )
        except ToolwireError:
            return False  # the store is away: the job goes on, as it would without a cancel

    async def race(self, work: Awaitable[Any]) -> Any:
        """``work``'s result, or :class:`Cancelled` once the cancel flag is seen."""
        task = asyncio.ensure_future(work)
        try:
            while True:
                left = self.job.poll - (time.monotonic() - self.checked)
                if left > 0:
                    done, _ = await asyncio.wait({task}, timeout=left)
                    if done:
                        return task.result()
                if await self.cancelled():
                    raise Cancelled
        finally:
            if not task.done():
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)

    async def read(self) -> bytes:
        if self.chunks is None:
            raise ConnectionFailedError("no upstream stream is open")
        while True:
            try:
                chunk: bytes = await self.chunks.__anext__()
            except StopAsyncIteration:
                return b""
            except (httpx.TransportError, httpx.StreamError) as exc:
                raise ConnectionFailedError(f"upstream stream: {type(exc).__name__}") from None
            if chunk:
                return chunk

    async def close(self) -> None:
        if self.opened is not None:
            opened, self.opened = self.opened, None
            await opened.aclose()


class Jobs:
    """The app's running background jobs.

    Args:
        client: the upstream client (opened on use).
        store: the store handle.
    """

    def __init__(
        self, client: Callable[[], httpx.AsyncClient | UpstreamPool], store: AsyncStoreHandle
    ) -> None:
        self._client, self._store = client, store
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self, job: BackgroundJob) -> None:
        """Run ``job`` as a task of this event loop."""
        task = asyncio.ensure_future(self._run(job))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @property
    def running(self) -> int:
        """How many jobs are running."""
        return len(self._tasks)

    async def aclose(self, grace: float = 10.0) -> None:
        """Stop the running jobs: each fails its response as a lost upstream call would (given
        ``grace`` seconds to keep that; past it the response stays as last kept)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=grace)
            for task in pending:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, job: BackgroundJob) -> None:
        watch = _Watch(job, self._store)
        steps = job.steps
        stopping = False
        try:
            step = next(steps)
            while True:
                try:
                    result = await self._perform(step, watch)
                except (ToolwireError, Cancelled) as exc:
                    step = steps.throw(exc)
                    continue
                except asyncio.CancelledError:  # the app stops: the job fails as a lost upstream
                    if stopping:
                        raise
                    stopping = True
                    await watch.close()
                    step = steps.throw(ConnectionFailedError("the gateway is shutting down"))
                    continue
                step = steps.send(result)
        except StopIteration:
            pass
        except Exception:
            log.exception("background response %s failed", job.response_id)
        finally:
            await watch.close()

    async def _perform(self, step: Any, watch: _Watch) -> Any:
        if isinstance(step, StoreCall):
            return await self._store.call(step)
        if isinstance(step, ReadChunk):
            try:
                return await watch.race(watch.read())
            except Cancelled:
                await watch.close()
                raise
        if isinstance(step, Send):
            client = self._client()
            work = client.send(step) if isinstance(client, UpstreamPool) else asend(client, step)
            received, watch.opened = await watch.race(work)
            if watch.opened is not None:
                watch.chunks = watch.opened.aiter_bytes().__aiter__()
            return received
        raise TypeError(f"a background job cannot perform {step!r}")


async def follow(
    answer: ReplyFollow, store: AsyncStoreHandle, emit: Callable[[bytes], Awaitable[None]]
) -> None:
    """Perform ``answer``'s steps: store reads, waits, and bytes for the client."""
    steps = answer.steps
    try:
        step = next(steps)
        while True:
            result: Any = None
            if isinstance(step, StoreCall):
                result = await store.call(step)
            elif isinstance(step, Wait):
                await asyncio.sleep(step.seconds)
            elif isinstance(step, Emit):
                await emit(step.data)
            step = steps.send(result)
    except StopIteration:
        return
