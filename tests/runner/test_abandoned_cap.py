"""The cap on abandoned tool threads (issue 19): hung tools cannot pile up threads forever.

A tool that outlives its deadline is abandoned (Python cannot stop a thread). Abandoned threads
still running are counted process-wide; at the cap (``set_abandoned_limit``) a call that needs a
thread is not run, its error result says why, the run goes on, and the count falls again as
abandoned threads return.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from toolwire.errors import WorkerLimitError
from toolwire.ir import TextPart, ToolCall, ToolResult
from toolwire.runner import (
    DEFAULT_ABANDONED_LIMIT,
    Toolbox,
    abandoned_threads,
    execute_async,
    execute_sync,
    set_abandoned_limit,
)
from toolwire.runner._workers import spawn


def call(name: str, i: int = 0) -> ToolCall:
    return ToolCall(id=f"call_{i}", name=name, arguments="{}")


def text(result: ToolResult) -> str:
    return "".join(p.text for p in result.content if isinstance(p, TextPart))


@pytest.fixture
def release() -> Iterator[threading.Event]:
    """An event hung tools wait on; set at the end, then their threads have returned."""
    before = abandoned_threads()
    event = threading.Event()
    yield event
    event.set()
    wait_for_count(before)


@pytest.fixture
def cap() -> Iterator[Any]:
    """Set the cap relative to the threads other tests left running; restore it afterwards."""
    old = set_abandoned_limit(DEFAULT_ABANDONED_LIMIT)

    def set_cap(extra: int) -> int:
        limit = abandoned_threads() + extra
        set_abandoned_limit(limit)
        return limit

    yield set_cap
    set_abandoned_limit(old)


@pytest.fixture(params=["sync", "async"])
def execute(request: pytest.FixtureRequest) -> Any:
    if request.param == "sync":
        return execute_sync
    return lambda *a, **k: asyncio.run(execute_async(*a, **k))


def box_with(release: threading.Event) -> Toolbox:
    box = Toolbox()

    @box.register
    def hang() -> str:
        """Waits until released."""
        release.wait()
        return "late"

    @box.register
    def quick() -> str:
        """Answers at once."""
        return "quick"

    return box


def wait_for_count(expected: int, seconds: float = 5.0) -> int:
    end = time.monotonic() + seconds
    while abandoned_threads() != expected and time.monotonic() < end:
        time.sleep(0.01)
    return abandoned_threads()


def test_the_default_cap_is_documented_and_positive() -> None:
    assert DEFAULT_ABANDONED_LIMIT == 32
    assert set_abandoned_limit(DEFAULT_ABANDONED_LIMIT) >= 1


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "3", None])
def test_the_cap_must_be_a_positive_integer(bad: Any) -> None:
    with pytest.raises(ValueError, match="positive integer"):
        set_abandoned_limit(bad)


def test_calls_past_the_cap_are_not_run_and_say_why(execute: Any, release: threading.Event, cap: Any) -> None:
    """One call at a time: three hang and are abandoned, the two after them are refused."""
    limit = cap(3)
    box = box_with(release)
    results = execute([call("hang", i) for i in range(5)], box, timeout=0.2, max_concurrency=1)
    assert [text(r) for r in results[:3]] == ["Error: tool 'hang' timed out after 0.2 s."] * 3
    refused = (
        f"Error: tool 'hang' not run: {limit} timed-out tool calls are still running in abandoned "
        f"threads (limit {limit}); no new tool thread is started until one of them returns."
    )
    assert [text(r) for r in results[3:]] == [refused] * 2
    assert all(r.is_error for r in results)
    assert abandoned_threads() == limit
    later = execute([call("quick", 9)], box, timeout=5)
    assert [text(r) for r in later] == [refused.replace("'hang'", "'quick'")]


def test_calls_already_running_may_pass_the_cap_by_their_number(
    execute: Any, release: threading.Event, cap: Any
) -> None:
    """Five hang at once under a cap of 3 more: all five were running when the cap was checked."""
    before = abandoned_threads()
    cap(3)
    results = execute([call("hang", i) for i in range(5)], box_with(release), timeout=0.2, max_concurrency=8)
    assert all("timed out" in text(r) for r in results)
    assert abandoned_threads() == before + 5


def test_the_count_falls_as_abandoned_threads_return(
    execute: Any, release: threading.Event, cap: Any
) -> None:
    before = abandoned_threads()
    cap(2)
    box = box_with(release)
    execute([call("hang", i) for i in range(2)], box, timeout=0.2)
    assert abandoned_threads() == before + 2
    release.set()
    assert wait_for_count(before) == before
    assert [text(r) for r in execute([call("quick", 3)], box, timeout=5)] == ["quick"]


def test_a_thread_that_returns_in_time_is_never_counted(execute: Any) -> None:
    before = abandoned_threads()
    box = Toolbox()

    @box.register
    def nap() -> str:
        """Sleeps briefly."""
        time.sleep(0.05)
        return "rested"

    results = execute([call("nap", i) for i in range(4)], box, timeout=5)
    assert [text(r) for r in results] == ["rested"] * 4
    assert abandoned_threads() == before


def test_spawn_raises_the_typed_error_at_the_cap(release: threading.Event, cap: Any) -> None:
    limit = cap(1)
    worker = spawn(release.wait)
    worker.abandon()
    with pytest.raises(
        WorkerLimitError, match=rf"^{limit} timed-out tool calls are still running .*\(limit {limit}\)"
    ):
        spawn(lambda: None)
    worker.abandon()  # abandoning twice counts once
    assert abandoned_threads() == limit
    release.set()
    assert wait_for_count(limit - 1) == limit - 1
