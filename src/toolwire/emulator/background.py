"""Background Responses in the emulator (``background: true``), with the gateway's rules.

The rules and their steps are :mod:`toolwire.store.background`'s, shared with the gateway; this
module performs them on the emulator's store. The scripted model answers at once, so the job's
work is the ``latency`` fault (waited in steps that read the cancel flag, so a cancel stops it),
then the final record and, for ``stream: true``, the stream's events into the log. Without a
``latency`` fault a background response is usually finished by the first poll.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Generator
from typing import Any

import msgspec

from toolwire.store import ResponseRecord, Store
from toolwire.store.background import (
    NOT_BACKGROUND,
    NOT_STREAMED,
    POLL,
    Emit,
    EventLog,
    StoreCall,
    Wait,
    cancel,
    follow,
    forget,
    is_background,
    save_final,
    settle_cancelled,
    streamed,
    wait_cancellable,
    with_status,
)

log = logging.getLogger("toolwire.emulator")

__all__ = ["IDLE", "Background", "pending"]

IDLE = 600.0
"""Seconds a follower waits for a background stream's next event before it ends with an error."""
_Steps = Generator[Any, Any, Any]


def pending(record: ResponseRecord, status: str = "queued") -> ResponseRecord:
    """``record`` (the finished answer) as it is kept before its job has run: no output, no usage."""
    kept = with_status(record, status)
    response = {**kept.response, "output": [], "usage": None}
    return msgspec.structs.replace(kept, output_items=[], response=response)


def _job(record: ResponseRecord, chunks: list[bytes] | None, latency: float, events: EventLog) -> _Steps:
    yield StoreCall("put_response", (pending(record, "in_progress"),))
    cancelled = yield from wait_cancellable(record.id, latency)
    if cancelled:
        yield from settle_cancelled(record.id)
    elif not (yield from save_final(record.id, [StoreCall("put_response", (record,))])):
        for chunk in chunks or ():
            yield from events.append(chunk)
    yield from events.end()


async def _drive(steps: _Steps, store: Store) -> AsyncIterator[bytes]:
    """Perform ``steps`` on ``store``; yields what they emit."""
    try:
        step = next(steps)
        while True:
            result: Any = None
            if isinstance(step, StoreCall):
                result = await getattr(store, step.method)(*step.args, **step.kwargs)
            elif isinstance(step, Wait):
                await asyncio.sleep(step.seconds)
            elif isinstance(step, Emit):
                yield step.data
            step = steps.send(result)
    except StopIteration:
        return


async def _perform(steps: Generator[StoreCall, Any, Any], store: Store) -> Any:
    """Run store-only ``steps`` on ``store``; their return value."""
    try:
        step = next(steps)
        while True:
            step = steps.send(await getattr(store, step.method)(*step.args, **step.kwargs))
    except StopIteration as stop:
        return stop.value


class Background:
    """The emulator's background responses on ``store`` (see the module docstring)."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    async def create(
        self, store: Store, record: ResponseRecord, chunks: list[bytes] | None, latency: float
    ) -> dict[str, Any]:
        """Keep ``record``'s response queued, start its job; the queued response object.
        ``chunks``: the SSE chunks of a ``stream: true`` request."""
        queued = pending(record)
        events = EventLog(record.id)
        await store.put_response(queued)
        if chunks is not None:
            for call in events.open(queued.response):
                await getattr(store, call.method)(*call.args)
        task = asyncio.ensure_future(self._run(_job(record, chunks, latency, events), store))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return queued.response

    async def _run(self, steps: _Steps, store: Store) -> None:
        try:
            async for _ in _drive(steps, store):
                pass
        except Exception:
            log.exception("an emulated background response failed")

    @staticmethod
    def follow(store: Store, response_id: str, after: int | None) -> AsyncIterator[bytes]:
        """A background stream's SSE bytes after ``after``, then live ones."""
        return _drive(follow(response_id, after, idle=IDLE, poll=POLL), store)

    @staticmethod
    def refusal(record: ResponseRecord, stream: bool) -> str | None:
        """Why ``record`` cannot be cancelled (``stream=False``) or streamed (``True``), or ``None``."""
        if stream:
            return None if streamed(record) else NOT_STREAMED
        return None if is_background(record.request) else NOT_BACKGROUND

    @staticmethod
    async def cancel(store: Store, record: ResponseRecord) -> dict[str, Any]:
        """Cancel ``record`` (a background response); the response object to answer."""
        answer: dict[str, Any] = await _perform(cancel(record), store)
        return answer

    @staticmethod
    async def delete(store: Store, record: ResponseRecord) -> bool:
        """Delete ``record`` (stopping its job, if it runs); whether it was kept."""
        deleted: bool = await _perform(forget(record), store)
        return deleted

    async def aclose(self) -> None:
        """Stop the running jobs."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
