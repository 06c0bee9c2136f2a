"""The gateway's trace writer: finished calls in, :class:`~toolwire.trace.TraceRecord`\\ s kept,
never on the request path.

A call's capture is offered to a bounded queue (:meth:`TraceWriter.offer` never waits: when
the queue is full the trace is dropped and counted,
``toolwire_gateway_traces_total{outcome="dropped"}``). One background task takes captures in
order, up to :data:`BATCH` at a time (waiting :data:`LINGER` for a batch to fill), builds each
record (redaction and caps, :func:`~toolwire.trace.build.iter_build_trace`; a long stream in
slices, with the event loop free in between), then keeps them in the gateway's store together.
A failure is logged (no key: records are redacted, store messages hold none) and counted as
``failed``. Retention
(``max_age``, ``max_count``) is applied after the first write and then every
:data:`PRUNE_EVERY` seconds while traces come in. Closing waits up to :data:`DRAIN_TIMEOUT` for
the queue to be written.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from typing import Any

from toolwire.errors import ToolwireError
from toolwire.gateway._metrics import Metrics
from toolwire.gateway._store import AsyncStoreHandle
from toolwire.hop._config import HopConfig
from toolwire.hop._steps import HopRecord
from toolwire.trace.build import iter_build_trace
from toolwire.trace.record import TraceRecord

__all__ = ["DRAIN_TIMEOUT", "PRUNE_EVERY", "TraceWriter", "config_secrets"]

PRUNE_EVERY = 60.0
"""Seconds between two retention passes while traces are written."""
DRAIN_TIMEOUT = 10.0
"""Seconds :meth:`TraceWriter.aclose` waits for queued traces to be written."""
LINGER = 0.05
"""Seconds the writer waits after a trace arrives for others to join its batch (one store
round trip for all: on SQLite the hand-off to its thread costs more than the insert)."""
BATCH = 64
"""Most traces the writer takes from the queue at once: built in turn, then stored together
(concurrent ``put_trace`` calls: one hand-off to SQLite's thread, one Redis round trip)."""

log = logging.getLogger("toolwire.gateway")

_Job = tuple[HopRecord, float]


def config_secrets(config: HopConfig, env: Mapping[str, str] | None) -> set[str]:
    """Every key the config knows: the upstreams' (read from ``env``) and the gateway keys."""
    found = {key.key for key in config.keys}
    for upstream in config.upstreams.values():
        try:
            key = upstream.key(env)
        except ToolwireError:  # a malformed key fails the call that uses it, not the trace writer
            continue
        if key:
            found.add(key)
    return found


class TraceWriter:
    """Writes traces in the background (see the module docstring).

    Args:
        config: the gateway config (its ``trace`` section and keys).
        store: where traces go.
        metrics: counts written, dropped and failed traces.
        env: where upstream keys are read (for redaction).
    """

    def __init__(
        self,
        config: HopConfig,
        store: AsyncStoreHandle,
        metrics: Metrics,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.settings = config.trace
        self._store = store
        self._metrics = metrics
        self._secrets = config_secrets(config, env)
        self._queue: asyncio.Queue[_Job] | None = None
        self._task: asyncio.Task[None] | None = None
        self._pruned_at = -float("inf")

    def offer(self, record: HopRecord, done: float) -> None:
        """Queue a finished call's trace (``done``: the monotonic time of its last byte);
        never waits."""
        if self._queue is None:
            self._queue = asyncio.Queue(self.settings.queue)
            self._task = asyncio.ensure_future(self._run(self._queue))
        try:
            self._queue.put_nowait((record, done))
        except asyncio.QueueFull:
            self._metrics.traces["dropped"] += 1

    async def _run(self, queue: asyncio.Queue[_Job]) -> None:
        while True:
            jobs = [await queue.get()]
            await asyncio.sleep(LINGER)
            while len(jobs) < BATCH and not queue.empty():
                jobs.append(queue.get_nowait())
            try:
                await self._write(jobs)
            finally:
                for _ in jobs:
                    queue.task_done()

    async def _write(self, jobs: list[_Job]) -> None:
        traces: list[TraceRecord] = []
        for record, done in jobs:
            try:
                traces.append(await _built(record, done, self._secrets))
            except Exception:  # the writer must outlive any one trace
                self._failed(record.request_id)
        try:
            store: Any = await self._store.opened()
        except ToolwireError:
            for trace in traces:
                self._failed(trace.id)
            return
        results = await asyncio.gather(*(store.put_trace(t) for t in traces), return_exceptions=True)
        for trace, result in zip(traces, results, strict=True):
            if isinstance(result, BaseException):
                self._failed(trace.id, result)
            else:
                self._metrics.traces["written"] += 1
        if time.monotonic() - self._pruned_at >= PRUNE_EVERY:
            self._pruned_at = time.monotonic()
            try:
                await store.prune_traces(max_age=self.settings.max_age, max_count=self.settings.max_count)
            except ToolwireError as exc:
                log.warning("could not prune traces: %s", exc)

    def _failed(self, trace_id: str, exc: BaseException | None = None) -> None:
        self._metrics.traces["failed"] += 1
        log.error("could not keep the trace of request %s", trace_id, exc_info=exc or True)

    async def flush(self) -> None:
        """Wait until every queued trace is written."""
        if self._queue is not None:
            await self._queue.join()

    async def aclose(self) -> None:
        """Write what is queued (up to :data:`DRAIN_TIMEOUT`), then stop."""
        if self._task is None:
            return
        try:
            await asyncio.wait_for(self.flush(), DRAIN_TIMEOUT)
        except TimeoutError:
            log.warning(
                "%d traces were not written before shutdown", self._queue.qsize() if self._queue else 0
            )
        self._task.cancel()
        await asyncio.gather(self._task, return_exceptions=True)
        self._task, self._queue = None, None


async def _built(record: HopRecord, done: float, secrets: set[str]) -> TraceRecord:
    """``record``'s trace; a long stream's events are built in slices, requests run in between."""
    capture = record.capture
    assert capture is not None  # only traced records are offered
    steps = iter_build_trace(record, capture, created_at=capture.created_at, done=done, secrets=secrets)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            trace: TraceRecord = stop.value
            return trace
        await asyncio.sleep(0)
