"""Running the tool calls of one turn: concurrently, bounded, with timeouts and approval.

Results come back in the order of the calls, whatever order the tools finish in. An observer
(:mod:`toolwire.hooks`) hears ``on_tool_start`` when a tool's function starts, in the thread or task
that runs it (sync tools run with a copy of the caller's context variables, so tracing context
follows them), and ``on_tool_end`` exactly once per call: when its result is known, or when it
times out (a late value of a timed-out thread is neither used nor reported).
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from toolwire.hooks import Observer, emit
from toolwire.ir.content import ToolCall, ToolResult
from toolwire.ir.tools import Tool
from toolwire.runner._calls import (
    PreparedCall,
    denied_result,
    exception_result,
    prepare_call,
    result_from_value,
    timeout_result,
)
from toolwire.runner._toolbox import Toolbox

__all__ = ["Approver", "execute_async", "execute_sync"]

Approver = Callable[[ToolCall, Tool], "bool | Awaitable[bool]"]
"""Decides whether a call of a tool marked ``needs_approval`` may run (sync or async)."""


class _Report:
    """One call's ``on_tool_start`` (only before its end) and ``on_tool_end`` (once), thread-safe."""

    __slots__ = ("_ended", "_lock", "_observer", "_started", "call")

    def __init__(self, observer: Observer | None, call: ToolCall) -> None:
        self._observer = observer
        self.call = call
        self._started: float | None = None
        self._ended = False
        self._lock = threading.Lock()

    def start(self) -> bool:
        """Report the start; ``False`` when the call already ended (timed out while queued)."""
        with self._lock:
            if self._ended:
                return False
            self._started = time.perf_counter()
        emit(self._observer, "on_tool_start", self.call)
        return True

    def end(self, result: ToolResult) -> ToolResult:
        """Report ``result`` unless the call's end was already reported; returns ``result``."""
        with self._lock:
            if self._ended:
                return result
            self._ended = True
            seconds = 0.0 if self._started is None else time.perf_counter() - self._started
        emit(self._observer, "on_tool_end", self.call, result, seconds)
        return result


def _call_sync(prepared: PreparedCall) -> Any:
    value = prepared.entry.handler(**prepared.arguments)
    if inspect.isawaitable(value):
        return asyncio.run(_awaited(value))
    return value


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


def _approved_sync(prepared: PreparedCall, approve: Approver | None) -> bool:
    if not prepared.entry.needs_approval:
        return True
    if approve is None:
        return False
    verdict = approve(prepared.call, prepared.entry.tool)
    if inspect.isawaitable(verdict):
        return bool(asyncio.run(_awaited(verdict)))
    return bool(verdict)


def _run_reported(prepared: PreparedCall, report: _Report, limit: float) -> ToolResult:
    """In a worker thread: the call's result, reported (a call that already timed out is not run)."""
    if not report.start():
        return timeout_result(prepared.call, limit)
    try:
        result = result_from_value(prepared.call, _call_sync(prepared))
    except Exception as exc:
        result = exception_result(prepared.call, exc)
    return report.end(result)


def _submit(
    pool: ThreadPoolExecutor, pending: list[tuple[int, PreparedCall, _Report]], timeout: float
) -> list[tuple[int, PreparedCall, _Report, float, Future[ToolResult]]]:
    """Start each pending call in ``pool``, in a copy of the caller's context; with its time limit."""
    submitted = []
    for i, prepared, report in pending:
        limit = prepared.entry.timeout or timeout
        context = contextvars.copy_context()
        submitted.append(
            (i, prepared, report, limit, pool.submit(context.run, _run_reported, prepared, report, limit))
        )
    return submitted


def execute_sync(
    calls: list[ToolCall],
    toolbox: Toolbox,
    *,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    timeout: float = 60.0,
    observer: Observer | None = None,
) -> list[ToolResult]:
    """Run ``calls`` in a bounded thread pool; one result per call, in call order.

    A call that times out gets an error result at once; its thread is left to finish in the
    background (Python cannot stop a thread), and its late value is discarded.
    """
    results: list[ToolResult | None] = [None] * len(calls)
    pending: list[tuple[int, PreparedCall, _Report]] = []
    for i, call in enumerate(calls):
        report = _Report(observer, call)
        prepared = prepare_call(call, toolbox)
        if isinstance(prepared, ToolResult):
            results[i] = report.end(prepared)
        elif not _approved_sync(prepared, approve):
            results[i] = report.end(denied_result(call))
        else:
            pending.append((i, prepared, report))
    if pending:
        pool = ThreadPoolExecutor(max_workers=max(1, min(max_concurrency, len(pending))))
        try:
            for i, prepared, report, limit, future in _submit(pool, pending, timeout):
                try:
                    results[i] = future.result(timeout=limit)
                except FutureTimeout:
                    results[i] = report.end(timeout_result(prepared.call, limit))
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
    return [r for r in results if r is not None]


async def _approved_async(prepared: PreparedCall, approve: Approver | None) -> bool:
    if not prepared.entry.needs_approval:
        return True
    if approve is None:
        return False
    verdict = approve(prepared.call, prepared.entry.tool)
    if inspect.isawaitable(verdict):
        verdict = await verdict
    return bool(verdict)


async def _run_one(
    prepared: PreparedCall, gate: asyncio.Semaphore, timeout: float, report: _Report
) -> ToolResult:
    limit = prepared.entry.timeout or timeout
    async with gate:
        report.start()
        try:
            if prepared.entry.is_async:
                value = await asyncio.wait_for(prepared.entry.handler(**prepared.arguments), limit)
            else:
                value = await asyncio.wait_for(asyncio.to_thread(_call_sync, prepared), limit)
        except TimeoutError:
            return report.end(timeout_result(prepared.call, limit))
        except Exception as exc:
            return report.end(exception_result(prepared.call, exc))
    return report.end(result_from_value(prepared.call, value))


async def _one(
    call: ToolCall,
    toolbox: Toolbox,
    approve: Approver | None,
    gate: asyncio.Semaphore,
    timeout: float,
    observer: Observer | None,
) -> ToolResult:
    report = _Report(observer, call)
    prepared = prepare_call(call, toolbox)
    if isinstance(prepared, ToolResult):
        return report.end(prepared)
    if not await _approved_async(prepared, approve):
        return report.end(denied_result(call))
    return await _run_one(prepared, gate, timeout, report)


async def execute_async(
    calls: list[ToolCall],
    toolbox: Toolbox,
    *,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    timeout: float = 60.0,
    observer: Observer | None = None,
) -> list[ToolResult]:
    """Run ``calls`` concurrently (at most ``max_concurrency`` at once); results in call order."""
    gate = asyncio.Semaphore(max(1, max_concurrency))
    return list(await asyncio.gather(*(_one(c, toolbox, approve, gate, timeout, observer) for c in calls)))
