"""Running the tool calls of one turn: concurrently, bounded, with timeouts and approval.

Results come back in the order of the calls, whatever order the tools finish in.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

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


def execute_sync(
    calls: list[ToolCall],
    toolbox: Toolbox,
    *,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    timeout: float = 60.0,
) -> list[ToolResult]:
    """Run ``calls`` in a bounded thread pool; one result per call, in call order.

    A call that times out gets an error result at once; its thread is left to finish in the
    background (Python cannot stop a thread), and its late value is discarded.
    """
    results: list[ToolResult | None] = [None] * len(calls)
    pending: list[tuple[int, PreparedCall]] = []
    for i, call in enumerate(calls):
        prepared = prepare_call(call, toolbox)
        if isinstance(prepared, ToolResult):
            results[i] = prepared
        elif not _approved_sync(prepared, approve):
            results[i] = denied_result(call)
        else:
            pending.append((i, prepared))
    if pending:
        pool = ThreadPoolExecutor(max_workers=max(1, min(max_concurrency, len(pending))))
        try:
            futures = [(i, p, pool.submit(_call_sync, p)) for i, p in pending]
            for i, prepared, future in futures:
                limit = prepared.entry.timeout or timeout
                try:
                    results[i] = result_from_value(prepared.call, future.result(timeout=limit))
                except FutureTimeout:
                    results[i] = timeout_result(prepared.call, limit)
                except Exception as exc:
                    results[i] = exception_result(prepared.call, exc)
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


async def _run_one(prepared: PreparedCall, gate: asyncio.Semaphore, timeout: float) -> ToolResult:
    limit = prepared.entry.timeout or timeout
    async with gate:
        try:
            if prepared.entry.is_async:
                value = await asyncio.wait_for(prepared.entry.handler(**prepared.arguments), limit)
            else:
                value = await asyncio.wait_for(asyncio.to_thread(_call_sync, prepared), limit)
        except TimeoutError:
            return timeout_result(prepared.call, limit)
        except Exception as exc:
            return exception_result(prepared.call, exc)
    return result_from_value(prepared.call, value)


async def _one(
    call: ToolCall, toolbox: Toolbox, approve: Approver | None, gate: asyncio.Semaphore, timeout: float
) -> ToolResult:
    prepared = prepare_call(call, toolbox)
    if isinstance(prepared, ToolResult):
        return prepared
    if not await _approved_async(prepared, approve):
        return denied_result(call)
    return await _run_one(prepared, gate, timeout)


async def execute_async(
    calls: list[ToolCall],
    toolbox: Toolbox,
    *,
    approve: Approver | None = None,
    max_concurrency: int = 8,
    timeout: float = 60.0,
) -> list[ToolResult]:
    """Run ``calls`` concurrently (at most ``max_concurrency`` at once); results in call order."""
    gate = asyncio.Semaphore(max(1, max_concurrency))
    return list(await asyncio.gather(*(_one(c, toolbox, approve, gate, timeout) for c in calls)))
