"""Fuzz suite: a summary line of what ran."""

from __future__ import annotations

import time
from typing import Any

from tests.fuzz import _harness


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line: how many examples ran over how many targets, and how long it took."""
    counts = _harness.COUNTS
    if counts:
        seconds = time.monotonic() - _harness.STARTED
        terminalreporter.write_line(
            f"fuzz: {sum(counts.values())} examples over {len(counts)} targets in {seconds:.0f} s "
            f"(fewest {min(counts.values())} for {min(counts, key=counts.__getitem__)})"
        )
