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
=========================  ==================================================================
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import threading
from collections.abc import Callable
from typing import Any

__all__ = ["Outcome", "capture", "in_thread", "spawn"]

Outcome = tuple[bool, Any]
"""``(True, value)`` or ``(False, exception)``: what a function did, caught whole."""


def capture(fn: Callable[..., Any], *args: Any) -> Outcome:
    """Call ``fn(*args)``; its value or its exception (``SystemExit`` included), never raised."""
    try:
        return True, fn(*args)
    except (Exception, SystemExit) as exc:
        return False, exc


def spawn(fn: Callable[..., Any], *args: Any, name: str = "toolwire-tool") -> None:
    """Run ``fn(*args)`` in a new daemon thread, in a copy of the caller's context variables."""
    context = contextvars.copy_context()
    threading.Thread(target=context.run, args=(fn, *args), name=name, daemon=True).start()


def _settle(future: asyncio.Future[Outcome], outcome: Outcome) -> None:
    if not future.done():  # the waiter may have timed out and gone
        future.set_result(outcome)


async def in_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """Await ``fn(*args)`` run in a daemon thread of ours; cancelling the wait abandons the thread.

    Raises:
        Exception: what ``fn`` raised (``SystemExit`` included).
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Outcome] = loop.create_future()

    def work() -> None:
        outcome = capture(fn, *args)
        with contextlib.suppress(RuntimeError):  # the loop closed while the thread hung
            loop.call_soon_threadsafe(_settle, future, outcome)

    spawn(work)
    ok, value = await future
    if not ok:
        raise value
    return value
