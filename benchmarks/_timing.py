"""Timing helpers: medians of repeated runs, ratios measured in the same run."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable

__all__ = ["cpu_medians_each", "median_seconds", "median_seconds_each", "report_row"]


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


def median_seconds_each(fns: dict[str, Callable[[], object]], *, repeat: int = 15) -> dict[str, float]:
    """Median wall time of one call of each function, measured in interleaved rounds.

    On a shared, noisy machine, measuring the floor and the candidates in alternation keeps
    their ratio fair: a burst of load slows every function of that round alike.
    """
    _warm_up(fns.values())
    numbers = {label: _batch_size(fn) for label, fn in fns.items()}
    samples: dict[str, list[float]] = {label: [] for label in fns}
    for _ in range(repeat):
        for label, fn in fns.items():
            number = numbers[label]
            start = time.perf_counter()
            for _ in range(number):
                fn()
            samples[label].append((time.perf_counter() - start) / number)
    return {label: statistics.median(values) for label, values in samples.items()}


def _warm_up(fns: Iterable[Callable[[], object]], seconds: float = 0.3) -> None:
    """Run the functions in turn for about ``seconds`` before anything is timed.

    A fresh process runs the first few hundred milliseconds of allocation-heavy code much
    slower on these machines (measured: stream translation 7.2x the floor untimed-cold, 5.0x
    after 0.3 s of warm-up, for the same code), which would charge start-up to the candidates.
    """
    functions = list(fns)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for fn in functions:
            fn()


def _batch_size(fn: Callable[[], object], seconds: float = 0.02) -> int:
    number = 1
    while True:
        start = time.perf_counter()
        for _ in range(number):
            fn()
        if time.perf_counter() - start > seconds:
            return number
        number *= 2


def cpu_medians_each(
    fns: dict[str, Callable[[], object]], *, repeat: int = 9, batch: float = 0.005, warm: float = 0.05
) -> dict[str, tuple[float, float]]:
    """Median CPU and wall time of one call of each function, in interleaved rounds.

    Like :func:`median_seconds_each`, but each batch is timed with both ``time.process_time``
    (the CPU this process spent, which other processes on a shared machine do not inflate the
    way they inflate wall time) and ``time.perf_counter``; returns ``{label: (cpu, wall)}``.
    Call it with the garbage collector frozen (``gc.freeze()`` after imports and set-up), as a
    long-running server would run.
    """
    _warm_up(fns.values(), warm)
    numbers = {label: _batch_size(fn, batch) for label, fn in fns.items()}
    cpu: dict[str, list[float]] = {label: [] for label in fns}
    wall: dict[str, list[float]] = {label: [] for label in fns}
    for _ in range(repeat):
        for label, fn in fns.items():
            number = numbers[label]
            start_cpu, start_wall = time.process_time(), time.perf_counter()
            for _ in range(number):
                fn()
            cpu[label].append((time.process_time() - start_cpu) / number)
            wall[label].append((time.perf_counter() - start_wall) / number)
    return {label: (statistics.median(cpu[label]), statistics.median(wall[label])) for label in fns}
