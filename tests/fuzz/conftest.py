"""Fuzz suite: a summary line of what ran."""

from __future__ import annotations

from typing import Any

from tests.fuzz import _harness


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line: how many examples ran over how many targets, and how long it took."""
    counts = _harness.COUNTS
    if counts:
        seconds = _harness.SPAN[1] - _harness.SPAN[0]
        terminalreporter.write_line(
            f"fuzz: {sum(counts.values())} examples over {len(counts)} targets in {seconds:.0f} s "
            f"(fewest {min(counts.values())} for {min(counts, key=counts.__getitem__)})"
        )
