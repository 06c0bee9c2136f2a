"""Toolwire's own worker threads: daemon threads whose timeouts really free the caller.

Python cannot stop a thread, so a call that outlives its deadline is *abandoned*: the caller gets
its timeout result at once, the thread finishes (or hangs) on its own, and its late value is
dropped. The rules that make this safe:

=========================  ==================================================================
Rule                       Why
=========================  ==================================================================
daemon threads             a hung tool never keeps the process alive (``toolwire run`` exits)
not the default executor   ``asyncio.run()`` joins the loop's executor on exit, and hung tools
                           would fill it, so later ``to_thread`` work would queue behind them
an abandoned thread        the caller's bound (``max_concurrency``) counts running calls, not
frees its slot             hung ones, so queued calls still run
every outcome is caught    a ``SystemExit`` raised in a thread would end it silently and the
                           caller would only learn of it at the deadline
abandoned threads are      each one holds a thread's stack and whatever the tool holds; a
capped, process-wide       tool that always hangs would otherwise add one per call, forever
=========================  ==================================================================

The cap (:data:`DEFAULT_ABANDONED_LIMIT`, changed with :func:`set_abandoned_limit`) counts
abandoned threads that are *still running*; one that finally returns leaves the count. While the
count is at the cap, :func:`spawn` and :func:`in_thread` start nothing and raise
:class:`~toolwire.errors.WorkerLimitError`: the runner turns that into the call's error result
(the call did not run), and the run goes on. Tools already running are not affected, so the
count can pass the cap by at most the calls that were running when it was reached (a turn's
``max_concurrency``, per run in progress).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections.abc import Callable
from typing import Any

from toolwire.errors import WorkerLimitError

__all__ = [
    "DEFAULT_ABANDONED_LIMIT",
    "Outcome",
    "Worker",
    "abandoned_threads",
    "capture",
    "in_thread",
    "set_abandoned_limit",
    "spawn",
]

DEFAULT_ABANDONED_LIMIT = 32
"""How many abandoned (timed-out, still running) tool threads a process may hold at once."""


class _Abandoned:
    """The process-wide count of abandoned threads still running, and its cap."""

    def __init__(self, limit: int) -> None:
        self.lock = threading.Lock()
        self.count = 0
        self.limit = limit


_ABANDONED = _Abandoned(DEFAULT_ABANDONED_LIMIT)


def abandoned_threads() -> int:
    """How many tool threads were abandoned at their deadline and are still running."""
    with _ABANDONED.lock:
        return _ABANDONED.count


def set_abandoned_limit(limit: int) -> int:
    """Set how many abandoned tool threads may still run at once (process-wide); returns the old cap.

    Raises:
        ValueError: ``limit`` is not a positive integer.
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise ValueError(f"the abandoned-thread limit must be a positive integer, not {limit!r}")
    with _ABANDONED.lock:
        old, _ABANDONED.limit = _ABANDONED.limit, limit
    return old


class Worker:
    """One worker thread's life: running, then finished or abandoned (thread-safe)."""

    __slots__ = ("_abandoned", "_finished")

    def __init__(self) -> None:
        self._finished = False
        self._abandoned = False

    def abandon(self) -> None:
        """The caller stops waiting: count the thread while it still runs."""
        with _ABANDONED.lock:
            if not self._finished and not self._abandoned:
                self._abandoned = True
                _ABANDONED.count += 1

    def finish(self) -> None:
        """The thread returned: it no longer counts as abandoned."""
        with _ABANDONED.lock:
            self._finished = True
            if self._abandoned:
                _ABANDONED.count -= 1


Outcome = tuple[bool, Any]
"""``(True, value)`` or ``(False, exception)``: what a function did, caught whole."""


def capture(fn: Callable[..., Any], *args: Any) -> Outcome:
    """Call ``fn(*args)``; its value or its exception (``SystemExit`` included), never raised."""
    try:
        return True, fn(*args)
    except (Exception, SystemExit) as exc:
        return False, exc


def spawn(fn: Callable[..., Any], *args: Any, name: str = "toolwire-tool") -> Worker:
    """Run ``fn(*args)`` in a new daemon thread, in a copy of the caller's context variables.

    Call :meth:`Worker.abandon` on the returned worker when no longer waiting for it.

    Raises:
        WorkerLimitError: the abandoned threads still running are at the cap; nothing started.
    """
    with _ABANDONED.lock:
        count, limit = _ABANDONED.count, _ABANDONED.limit
    if count >= limit:
        raise WorkerLimitError(
            f"{count} timed-out tool calls are still running in abandoned threads (limit {limit}); "
            "no new tool thread is started until one of them returns"
        )
    worker = Worker()
    context = contextvars.copy_context()

    def run() -> None:
        try:
            context.run(fn, *args)
        finally:
            worker.finish()

    threading.Thread(target=run, name=name, daemon=True).start()
    return worker


def _settle(future: asyncio.Future[Outcome], outcome: Outcome) -> None:
    if not future.done():  # the waiter may have timed out and gone
        future.set_result(outcome)


async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """Await ``fn(*args)`` run in a daemon thread of ours; cancelling the wait abandons the thread.

    Raises:
        WorkerLimitError: too many abandoned threads still run (see :func:`spawn`); nothing ran.
        Exception: what ``fn`` raised (``SystemExit`` included).
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Outcome] = loop.create_future()

    def work() -> None:
        outcome = capture(fn, *args)
        with contextlib.suppress(RuntimeError):  # the loop closed while the thread hung
            loop.call_soon_threadsafe(_settle, future, outcome)

    worker = spawn(work)
    try:
        ok, value = await future
    except BaseException:  # cancelled (a deadline): stop waiting, count the thread if it runs on
        worker.abandon()
        raise
    if not ok:
        raise value
    return value
