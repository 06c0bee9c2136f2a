"""Streamed tool arguments: ``ArgumentsView`` fed 100 KB in 50-character deltas (issue 17).

**Target: a 100 KB argument streamed through the view costs less than 5x parsing it once**
(the ``at end`` column: a new view, every ``ToolCallDelta`` fed, ``parsed(0)`` once when the call
is complete, which is what a consumer that acts on the finished arguments does). The floor is one
``orjson.loads`` of the complete text (``json.loads`` and ``msgspec`` are printed for context).

Two more ways to read are shown, and are not held to the target: ``/100`` reads ``parsed(0)``
every 100 deltas (a UI rendering a few frames a second), ``every`` after each delta (a UI
re-rendering on every token; the last columns give it against ``json.loads`` and the cost of the
same loop over a view that does nothing, ``no-op``: what the interpreter charges for 2 000
deltas before any parsing). A reader that gets a new copy of a growing 100 KB string at every
delta pays at least the memcpy bound printed below the table.

CPU time (``time.process_time``), medians of rounds in which the floor and the contenders
alternate. The old view (``parse_partial`` of the whole text after every delta) is quadratic: it is
timed once, on 20 KB of the first shape only (on 100 KB it takes tens of seconds).
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable

import msgspec
import orjson

from toolwire.ir.stream import ToolCallDelta
from toolwire.partial_json import parse_partial
from toolwire.streaming import ArgumentsView

SIZE = 100_000
DELTA = 50


def _file(n: int) -> str:
    """A ``write_file`` call: a path and a long source file (quotes, tabs, newlines to escape)."""
    line = 'def f{0}(x):\n\treturn x * {0} + len("item {0}\\n")  # {0}\n'
    body, i = [], 0
    while sum(map(len, body)) < n:
        body.append(line.format(i))
        i += 1
    return json.dumps({"path": "src/app/generated.py", "content": "".join(body)[:n]})


def _records(n: int) -> str:
    rows = [{"id": i, "name": f"customer {i}", "active": i % 3 > 0, "score": i / 4} for i in range(n // 60)]
    return json.dumps({"table": "customers", "rows": rows})


def _small_keys(n: int) -> str:
    return json.dumps({f"k{i}": i for i in range(n // 12)})


def _deep(n: int) -> str:
    leaf = [{"a": [i, {"b": str(i)}]} for i in range(n // 26)]
    return '{"x": [' * 30 + json.dumps(leaf) + "]}" * 30


def _unicode(n: int) -> str:
    """Non-ASCII text as ``\\uXXXX`` escapes, emoji as surrogate pairs: deltas cut through them."""
    words = ["東京", "café", "naïve", "😀", "🚀", "Ελλάδα", "добрый"]
    rnd = random.Random(7)
    return json.dumps({"text": " ".join(rnd.choice(words) for _ in range(n // 20))}, ensure_ascii=True)


def _numbers(n: int) -> str:
    rnd = random.Random(7)
    return json.dumps({"xs": [round(rnd.uniform(-1000, 1000), 6) for _ in range(n // 11)]})


SHAPES: dict[str, Callable[[int], str]] = {
    "write_file: one long string with escapes": _file,
    "records: array of flat objects": _records,
    "many small keys": _small_keys,
    "deep nesting (60 open levels)": _deep,
    "\\uXXXX escapes and surrogate pairs": _unicode,
    "array of numbers": _numbers,
}
"""Shape -> a JSON text of about ``n`` characters. The first is the realistic case."""


def stream_events(text: str, size: int = DELTA) -> list[ToolCallDelta]:
    """``text`` as the ``ToolCallDelta`` events of call 0, ``size`` characters each."""
    return [ToolCallDelta(index=0, arguments=text[i : i + size]) for i in range(0, len(text), size)]


def follow(events: list[ToolCallDelta]) -> object:
    """What a live UI does: feed each delta and ask for the arguments parsed so far."""
    view = ArgumentsView()
    value = None
    for event in events:
        view.feed(event)
        value = view.parsed(0)
    return value


def follow_end(events: list[ToolCallDelta]) -> object:
    """A consumer of the finished call: every delta fed, ``parsed(0)`` once at the end."""
    view = ArgumentsView()
    for event in events:
        view.feed(event)
    return view.parsed(0)


def follow_every(events: list[ToolCallDelta], every: int) -> object:
    """A UI that renders a few times a second: every delta fed, ``parsed(0)`` every ``every``
    deltas and at the end (``every`` larger than the stream: read once, at the end)."""
    view = ArgumentsView()
    for n, event in enumerate(events, 1):
        view.feed(event)
        if n % every == 0:
            view.parsed(0)
    return view.parsed(0)


class _NoOpView:
    """A view that does nothing: ``feed`` keeps the text, ``parsed`` returns a constant."""

    def __init__(self) -> None:
        self.chunks: list[str] = []

    def feed(self, event: ToolCallDelta) -> None:
        self.chunks.append(event.arguments)

    def parsed(self, index: int) -> object:
        return None


def follow_noop(events: list[ToolCallDelta]) -> object:
    """:func:`follow` with :class:`_NoOpView`: the interpreter's cost of the loop and two calls."""
    view = _NoOpView()
    value = None
    for event in events:
        view.feed(event)
        value = view.parsed(0)
    return value


def follow_old(events: list[ToolCallDelta]) -> object:
    """The view before issue 17: ``parse_partial`` of the whole text so far after each delta."""
    chunks: list[str] = []
    value = None
    for event in events:
        chunks.append(event.arguments)
        value = parse_partial("".join(chunks))
    return value


def cpu_medians(fns: dict[str, Callable[[], object]], *, rounds: int = 9) -> dict[str, float]:
    """Median CPU seconds of one call of each function, over rounds that alternate them."""
    numbers = {label: _batch(fn) for label, fn in fns.items()}
    samples: dict[str, list[float]] = {label: [] for label in fns}
    for _ in range(rounds):
        for label, fn in fns.items():
            start = time.process_time()
            for _ in range(numbers[label]):
                fn()
            samples[label].append((time.process_time() - start) / numbers[label])
    return {label: statistics.median(values) for label, values in samples.items()}


def _batch(fn: Callable[[], object], seconds: float = 0.02) -> int:
    number = 1
    while True:
        start = time.process_time()
        for _ in range(number):
            fn()
        if time.process_time() - start > seconds:
            return number
        number *= 2


def run(size: int = SIZE, rounds: int = 9) -> dict[str, float]:
    """Print one row per shape; return each shape's ratio of ``at end`` to the floor."""
    print(f"arguments: {size // 1000} KB streamed in {DELTA}-character deltas through ArgumentsView")
    print("  CPU time, medians; floor = one orjson.loads of the whole text; target: at end < 5x")
    print(f"  {'shape':<42}{'KB':>5}{'deltas':>7}{'orjson':>9}{'json':>7}{'msgspec':>8}", end="")
    print(f"{'at end':>8}{'/100':>7}{'every':>9}{'ratio':>7}{'/json':>7}{'no-op':>7}")
    ratios: dict[str, float] = {}
    for label, make in SHAPES.items():
        text = make(size)
        events = stream_events(text)
        expected = orjson.loads(text)
        assert expected == follow(events) == follow_end(events) == follow_every(events, 100)
        times = cpu_medians(
            {
                "orjson": lambda text=text: orjson.loads(text),
                "json": lambda text=text: json.loads(text),
                "msgspec": lambda text=text: msgspec.json.decode(text),
                "at end": lambda events=events: follow_end(events),
                "/100": lambda events=events: follow_every(events, 100),
                "every": lambda events=events: follow(events),
                "no-op": lambda events=events: follow_noop(events),
            },
            rounds=rounds,
        )
        floor = times["orjson"]
        ratios[label] = times["at end"] / floor
        print(
            f"  {label:<42}{len(text) / 1000:>5.0f}{len(events):>7}{floor * 1e6:>7.0f}µs"
            f"{times['json'] / floor:>6.1f}x{times['msgspec'] / floor:>7.1f}x"
            f"{ratios[label]:>7.1f}x{times['/100'] / floor:>6.1f}x"
            f"{times['every'] * 1e3:>7.1f}ms{times['every'] / floor:>6.0f}x"
            f"{times['every'] / times['json']:>6.1f}x{times['no-op'] / floor:>6.1f}x"
        )
    met = sum(ratio < 5 for ratio in ratios.values())
    print(f"  at end under 5x the floor: {met} of {len(ratios)} shapes (worst {max(ratios.values()):.1f}x)")
    _print_bound(SHAPES["write_file: one long string with escapes"](size), rounds)
    _print_old(SHAPES["write_file: one long string with escapes"](20_000))
    return ratios


def _print_bound(text: str, rounds: int) -> None:
    """What showing a growing string costs at least: appending each piece in place (what the
    view does), and copying the whole string so far at each delta (what any API that hands out a
    new string per call pays: the memcpy bound)."""
    pieces = [text[i : i + DELTA] for i in range(0, len(text), DELTA)]

    def in_place() -> None:
        holder, grown = {"content": ""}, ""
        for piece in pieces:
            holder["content"] = ""
            grown += piece
            holder["content"] = grown

    def copied() -> None:
        holder, grown = {"content": ""}, ""
        for piece in pieces:
            grown = grown + piece
            holder["content"] = grown
            holder["previous"] = grown  # a second reference: no growing in place

    times = cpu_medians(
        {"orjson": lambda: orjson.loads(text), "in place": in_place, "copied": copied}, rounds=rounds
    )
    floor = times["orjson"]
    print(f"  the string alone, {len(pieces)} pieces of write_file's text (no decoding, no view):")
    print(
        f"    append in place {times['in place'] * 1e3:.2f} ms ({times['in place'] / floor:.1f}x), "
        f"copy per delta {times['copied'] * 1e3:.2f} ms ({times['copied'] / floor:.0f}x the floor)"
    )


def _print_old(text: str) -> None:
    events = stream_events(text)
    start = time.process_time()
    follow_old(events)
    old = time.process_time() - start
    start = time.process_time()
    follow(events)
    new = time.process_time() - start
    print(f"  old view (parse_partial after each delta), {len(text) // 1000} KB write_file, one run:")
    print(f"    old {old * 1e3:.0f} ms, new {new * 1e3:.1f} ms ({old / new:.0f}x faster)")


if __name__ == "__main__":
    run()
