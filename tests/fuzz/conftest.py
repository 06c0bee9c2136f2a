"""Fuzz suite set-up: memory tracing for the per-example bound, and a summary of what ran."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Iterator
from typing import Any

import pytest

from tests.fuzz import _harness


@pytest.fixture(autouse=True, scope="module")
def _trace_memory() -> Iterator[None]:
    """Trace allocations while the fuzz tests run (the per-example peak is bounded)."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    yield
    if started:
        tracemalloc.stop()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line: how many examples ran over how many targets, and how long it took."""
    counts = _harness.COUNTS
    if counts:
        seconds = time.monotonic() - _harness.STARTED
        terminalreporter.write_line(
            f"fuzz: {sum(counts.values())} examples over {len(counts)} targets in {seconds:.0f} s "
            f"(fewest {min(counts.values())} for {min(counts, key=counts.__getitem__)})"
        )
