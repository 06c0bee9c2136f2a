"""Timing helpers: medians of repeated runs, ratios measured in the same run."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

__all__ = ["median_seconds", "report_row"]


def median_seconds(fn: Callable[[], object], *, number: int = 0, repeat: int = 15) -> float:
    """Median wall time of one call of ``fn`` over ``repeat`` batches of ``number`` calls.

    ``number=0`` picks a batch size that takes about 20 ms.
    """
    if number <= 0:
        number = 1
        while True:
            start = time.perf_counter()
            for _ in range(number):
                fn()
            if time.perf_counter() - start > 0.02:
                break
            number *= 2
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - start) / number)
    return statistics.median(samples)


def report_row(label: str, seconds: float, floor: float, unit_count: int = 1, unit: str = "op") -> str:
    """One aligned result line: µs per call, µs per unit, ratio to the floor."""
    per_unit = seconds / unit_count * 1e6
    ratio = seconds / floor
    return f"  {label:<40} {seconds * 1e6:>10.1f} µs  {per_unit:>8.2f} µs/{unit:<5} {ratio:>6.2f}x floor"
