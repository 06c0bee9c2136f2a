"""Running the tool calls of one turn: concurrently, bounded, with per-call deadlines and approval.

Results come back in the order of the calls, whatever order the tools finish in. The rules:

* A call's deadline (its registration's ``timeout``, else the runner's) starts when the call
  starts running, not when it is queued, and covers argument validation too (a pattern such
  as ``^(a+)+$`` can take forever). Calls run concurrently, so timeouts do not add up.
* Sync tools, and every validation, run in toolwire's own daemon threads
  (:mod:`toolwire.runner._workers`): a timed-out call is abandoned, frees its slot among the
  ``max_concurrency`` running calls, and never keeps the process alive. Async tools run on the
  loop and are cancelled at their deadline.
* Abandoned threads still running are capped process-wide
  (:func:`~toolwire.runner.set_abandoned_limit`); at the cap a call that needs a thread is not
  run, and its error result says why (:class:`~toolwire.errors.WorkerLimitError`).
* Whatever a tool or an approval callback does (raise, ``SystemExit``, return text that is not
  valid Unicode or a value JSON cannot encode) becomes that call's error result; the run goes on.

An observer (:mod:`toolwire.hooks`) hears ``on_tool_start`` when a call's handler starts (after its
arguments passed validation), in the thread or
task that runs it (threads run with a copy of the caller's context variables, so tracing context
follows them), and ``on_tool_end`` exactly once per call: when its result is known, or when it
times out (a late value of a timed-out thread is neither used nor reported).
"""

from __future__ import annotations

import asyncio
import inspect
import queue
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from toolwire.errors import WorkerLimitError
from toolwire.hooks import Observer, emit
from toolwire.ir.content import ToolCall, ToolResult
from toolwire.ir.tools import Tool
from toolwire.runner._calls import (
    approval_failed_result,
    denied_result,
    exception_result,
    lookup,
    not_run_result,
    prepare_call,
    result_from_value,
    timeout_result,
)
from toolwire.runner._toolbox import RegisteredTool, Toolbox
from toolwire.runner._workers import Worker, capture, in_thread, spawn

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
        self._ended: ToolResult | None = None
        self._lock = threading.Lock()

    def start(self) -> bool:
        """Report the start; ``False`` when the call already ended."""
        with self._lock:
            if self._ended is not None:
                return False
            self._started = time.perf_counter()
        emit(self._observer, "on_tool_start", self.call)
        return True

    def end(self, result: ToolResult) -> ToolResult:
        """Report ``result`` unless the call already ended; returns the result that was reported."""
        with self._lock:
            if self._ended is not None:
                return self._ended
            self._ended = result
            seconds = 0.0 if self._started is None else time.perf_counter() - self._started
        emit(self._observer, "on_tool_end", self.call, result, seconds)
        return result


@dataclass(frozen=True, slots=True)
class _Job:
    """A call cleared to run: its place among the calls, its tool, its report and time limit."""

    index: int
    call: ToolCall
    toolbox: Toolbox
    report: _Report
    limit: float


def _call_handler(entry: RegisteredTool, arguments: dict[str, Any]) -> Any:
    value = entry.handler(**arguments)
    if inspect.isawaitable(value):
        return asyncio.run(_awaited(value))
    return value


async def _awaited(value: Awaitable[Any]) -> Any:
    return await value


def _outcome(call: ToolCall, toolbox: Toolbox, report: _Report) -> ToolResult | None:
    """Validate and run a call in the current thread; every outcome is a result.

    ``None`` when the call ended (timed out) while its arguments were validated: it never runs.
    """
    prepared = prepare_call(call, toolbox)
    if isinstance(prepared, ToolResult):
        return prepared
    if not report.start():
        return None
    ok, value = capture(_call_handler, prepared.entry, prepared.arguments)
    if not ok:
        return exception_result(call, value)
    ok, result = capture(result_from_value, call, value)
    return result if ok else exception_result(call, result)


def _admit_sync(call: ToolCall, toolbox: Toolbox, approve: Approver | None) -> RegisteredTool | ToolResult:
    """The call's tool when it may run, else its error result (unknown, refused, approval failed)."""
    entry = lookup(call, toolbox)
    if isinstance(entry, ToolResult) or not entry.needs_approval:
        return entry
    if approve is None:
        return denied_result(call)
    ok, verdict = capture(approve, call, entry.tool)
    if ok and inspect.isawaitable(verdict):
        ok, verdict = capture(asyncio.run, _awaited(verdict))
    if not ok:
        return approval_failed_result(call, verdict)
    return entry if verdict else denied_result(call)


def _work(job: _Job, done: queue.SimpleQueue[tuple[int, ToolResult]]) -> None:
    """In a worker thread: run the job and post its result (unless it timed out meanwhile)."""
    result = _outcome(job.call, job.toolbox, job.report)
    if result is not None:
        done.put((job.index, job.report.end(result)))


def _run_jobs(jobs: list[_Job], max_concurrency: int, results: list[ToolResult | None]) -> None:
    """Run ``jobs``, at most ``max_concurrency`` at once, each with its own deadline."""
    done: queue.SimpleQueue[tuple[int, ToolResult]] = queue.SimpleQueue()
    waiting, running = deque(jobs), dict[int, tuple[_Job, float, Worker]]()
    while waiting or running:
        while waiting and len(running) < max(1, max_concurrency):
            job = waiting.popleft()
            try:
                worker = spawn(_work, job, done)
            except WorkerLimitError as exc:
                results[job.index] = job.report.end(not_run_result(job.call, str(exc)))
                continue
            running[job.index] = (job, time.monotonic() + job.limit, worker)
        if not running:
            break
        nearest = min(deadline for _, deadline, _ in running.values())
        try:
            index, result = done.get(timeout=max(0.0, nearest - time.monotonic()))
            if running.pop(index, None) is not None:
                results[index] = result
        except queue.Empty:
            pass
        now = time.monotonic()
        for index, (job, deadline, worker) in list(running.items()):
            if deadline <= now:
                del running[index]
                worker.abandon()
                results[index] = job.report.end(timeout_result(job.call, job.limit))


def _limit(entry: RegisteredTool, timeout: float) -> float:
    return entry.timeout or timeout


def execute_sync(
    calls: list[ToolCall],
    toolbox: Toolbox,
    *,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    timeout: float = 60.0,
    observer: Observer | None = None,
) -> list[ToolResult]:
    """Run ``calls`` in toolwire's daemon threads, at most ``max_concurrency`` at once; in call order.

    A call that times out gets an error result at once; its thread is abandoned (Python cannot
    stop a thread), its late value discarded, and it keeps neither a slot nor the process.
    """
    results: list[ToolResult | None] = [None] * len(calls)
    jobs: list[_Job] = []
    for i, call in enumerate(calls):
        report = _Report(observer, call)
        admitted = _admit_sync(call, toolbox, approve)
        if isinstance(admitted, ToolResult):
            results[i] = report.end(admitted)
        else:
            jobs.append(_Job(i, call, toolbox, report, _limit(admitted, timeout)))
    _run_jobs(jobs, max_concurrency, results)
    return [r for r in results if r is not None]


async def _admit_async(
    call: ToolCall, toolbox: Toolbox, approve: Approver | None
) -> RegisteredTool | ToolResult:
    entry = lookup(call, toolbox)
    if isinstance(entry, ToolResult) or not entry.needs_approval:
        return entry
    if approve is None:
        return denied_result(call)
    try:
        verdict = approve(call, entry.tool)
        if inspect.isawaitable(verdict):
            verdict = await verdict
    except (Exception, SystemExit) as exc:
        return approval_failed_result(call, exc)
    return entry if verdict else denied_result(call)


async def _run_async(job: _Job) -> ToolResult:
    """Validate (in a thread) and run one call within its deadline; every outcome is a result."""
    try:
        async with asyncio.timeout(job.limit):
            prepared = await in_thread(prepare_call, job.call, job.toolbox)
            if isinstance(prepared, ToolResult):
                return prepared
            job.report.start()
            if prepared.entry.is_async:
                value = await prepared.entry.handler(**prepared.arguments)
            else:
                value = await in_thread(_call_handler, prepared.entry, prepared.arguments)
            return result_from_value(job.call, value)
    except TimeoutError:
        return timeout_result(job.call, job.limit)
    except WorkerLimitError as exc:
        return not_run_result(job.call, str(exc))
    except (Exception, SystemExit) as exc:
        return exception_result(job.call, exc)


async def _one(
    index: int,
    call: ToolCall,
    toolbox: Toolbox,
    approve: Approver | None,
    gate: asyncio.Semaphore,
    timeout: float,
    observer: Observer | None,
) -> ToolResult:
    report = _Report(observer, call)
    admitted = await _admit_async(call, toolbox, approve)
    if isinstance(admitted, ToolResult):
        return report.end(admitted)
    async with gate:
        return report.end(await _run_async(_Job(index, call, toolbox, report, _limit(admitted, timeout))))


async def execute_async(
    calls: list[ToolCall],
    toolbox: Toolbox,
    *,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    timeout: float = 60.0,
    observer: Observer | None = None,
) -> list[ToolResult]:
    """Run ``calls`` concurrently (at most ``max_concurrency`` at once); results in call order.

    Sync tools and argument validation run in toolwire's daemon threads, never in the loop's
    default executor; an async tool is cancelled at its deadline.
    """
    gate = asyncio.Semaphore(max(1, max_concurrency))
    return list(
        await asyncio.gather(
            *(_one(i, c, toolbox, approve, gate, timeout, observer) for i, c in enumerate(calls))
        )
    )
