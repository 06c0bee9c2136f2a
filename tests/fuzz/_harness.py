"""The contract every fuzzed entry point must keep, checked on one example.

An input either succeeds or raises a :class:`~toolwire.errors.ToolwireError` whose message is one
non-empty line (and, for a bad payload, a :class:`~toolwire.errors.PayloadError`, carries a JSON
path). Never another exception, never longer than :data:`SECONDS` (a ``SIGALRM`` interrupts it),
never more than :func:`memory_bound` bytes allocated at the peak (``tracemalloc``, on every
:data:`TRACE_EVERY`-th example: tracing costs about 5x), the process never above
:data:`MAX_RSS_MIB`, never a change to the input, and a successful output is JSON (strict: no
NaN, valid UTF-8).
"""

from __future__ import annotations

import json
import os
import pickle
import resource
import signal
import time
import traceback
import tracemalloc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from toolwire.errors import PayloadError, ToolwireError

SECONDS = float(os.environ.get("TOOLWIRE_FUZZ_SECONDS", "10"))
"""The time bound of one example (wall time, generous for a loaded 2-core machine)."""

TRACE_EVERY = int(os.environ.get("TOOLWIRE_FUZZ_TRACE_EVERY", "5"))
"""Every how many examples the allocation peak is traced."""

MAX_RSS_MIB = 3072
"""The fuzzing process's peak resident memory, checked after every example."""

COUNTS: dict[str, int] = {}
"""Examples run per target, for the summary line."""

SPAN = [0.0, 0.0]
"""Monotonic time of the first example's start and the last example's end."""


class Hang(BaseException):
    """Raised by the alarm in the fuzzed code (a ``BaseException``, so ``except Exception`` can't hide it)."""


@contextmanager
def time_bound(seconds: float) -> Iterator[None]:
    """Interrupt the block with :class:`Hang` after ``seconds`` (main thread only)."""

    def alarm(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds:g} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def memory_bound(size: int) -> int:
    """Peak bytes an example of ``size`` input bytes may allocate: 64 MiB plus 200x the input."""
    return 64 * 2**20 + 200 * size


def input_size(value: Any) -> int:
    """The size of an input in bytes, roughly (its JSON or its bytes)."""
    if isinstance(value, (bytes, bytearray)):
        return len(value)
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, bytes) for v in value):
        return sum(len(v) for v in value)
    try:
        return len(pickle.dumps(value))
    except (pickle.PicklingError, RecursionError):
        return 2**20


def _snapshot(value: Any) -> bytes | None:
    try:
        return pickle.dumps(value, protocol=5)
    except RecursionError:  # nested too deep to compare: not compared
        return None


def check_error(exc: ToolwireError) -> None:
    """A typed error's message is one non-empty line; a payload error names a JSON path."""
    message = str(exc)
    assert message.strip(), f"{type(exc).__name__} with an empty message"
    assert "\n" not in message and "\r" not in message, (
        f"{type(exc).__name__} message spans lines: {message!r}"
    )
    if isinstance(exc, PayloadError):
        assert isinstance(exc.path, str) and exc.path.startswith("$"), (
            f"{type(exc).__name__} without a JSON path: {message!r}"
        )


def is_json(value: Any) -> bool:
    """Whether ``value`` is strict JSON: no NaN/inf, string keys, text encodable as UTF-8."""
    try:
        json.dumps(value, allow_nan=False, ensure_ascii=False, default=_bytes_text).encode("utf-8")
    except (TypeError, ValueError, RecursionError):
        return False
    return True


def _bytes_text(value: Any) -> str:
    """Bytes count as their UTF-8 text (invalid UTF-8 is not strict input)."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8")
    raise TypeError(type(value).__name__)


_STRICT_INPUT = [True]


def check_json(value: Any) -> None:
    """An output is strict JSON (unless the input was not: lone surrogates in, may come out)."""
    if _STRICT_INPUT[0]:
        assert is_json(value), f"output is not strict JSON: {repr(value)[:200]}"


def run_example(target: str, fn: Callable[[Any], Any], example: Any) -> Any:
    """Run ``fn(example)`` under the contract; the output, or the typed error it raised."""
    count = COUNTS[target] = COUNTS.get(target, 0) + 1
    SPAN[0] = SPAN[0] or time.monotonic()
    before = _snapshot(example)
    _STRICT_INPUT[0] = is_json(example)
    bound = memory_bound(input_size(example))
    tracing = count % TRACE_EVERY == 1 % TRACE_EVERY and not tracemalloc.is_tracing()
    if tracing:
        tracemalloc.start()
        base = tracemalloc.get_traced_memory()[0]
    result: Any
    try:
        with time_bound(SECONDS):
            result = fn(example)
    except ToolwireError as exc:
        check_error(exc)
        result = exc
    except Hang as exc:
        raise AssertionError(f"{target}: {exc}") from None
    except BaseException as exc:  # the failure the suite exists to find
        text = "".join(traceback.format_exception(exc)[-6:])
        raise AssertionError(f"{target}: untyped {type(exc).__name__}: {exc}\n{text}") from None
    finally:
        if tracing:
            peak = tracemalloc.get_traced_memory()[1] - base
            tracemalloc.stop()
    if tracing:
        assert peak <= bound, f"{target}: peak {peak / 2**20:.1f} MiB for {input_size(example)} input bytes"
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
    assert rss <= MAX_RSS_MIB, f"{target}: the process reached {rss} MiB"
    SPAN[1] = time.monotonic()
    if before is not None:
        assert _snapshot(example) == before, f"{target}: the input was changed in place"
    return result
