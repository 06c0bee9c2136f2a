"""Stream translation with many parallel tool calls: is the cost per event flat as calls grow?

A model may stream hundreds of tool calls in one turn (Chat and Responses interleave their
argument deltas; Anthropic sends one block at a time, so a translator into Anthropic must hold
the calls that are not current). This benchmark builds one Chat stream with ``n`` parallel calls
(all calls start, then their argument deltas interleave, then ``finish_reason``), translates it
into each other format to get the same content as a source stream of every format, and times all
16 pairs from JSON bytes to the target's SSE bytes (``orjson.loads`` + ``feed_frames``).

Printed per pair and per ``n``: CPU µs per source event (median of rounds), its ratio to the
floor (``orjson.loads`` + ``orjson.dumps`` of the same events, timed in alternation in the same
run), and the growth of the per-event cost from the smallest to the largest ``n``. Linear
translation keeps the growth near 1x; a quadratic step shows as a growth that climbs with ``n``.

Run: ``python -m benchmarks.bench_parallel`` (``n`` = 1, 10, 100, 1000), or with other sizes and
pairs: ``python -m benchmarks.bench_parallel --sizes 1000,10000,100000 --pairs openai-chat:anthropic``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import orjson

from toolwire.streaming import StreamTranslator

FORMATS = ("openai-chat", "anthropic", "openai-responses", "gemini")
SIZES = (1, 10, 100, 1000)
_ARGUMENT_DELTAS = ('{"city": ', '"Paris", "days": ', "3}")


def chat_parallel_stream(calls: int) -> list[dict[str, Any]]:
    """A Chat stream with ``calls`` parallel tool calls whose argument deltas interleave."""
    head = {"id": "chatcmpl-par", "object": "chat.completion.chunk", "created": 1, "model": "gpt-bench"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    events = [chunk({"role": "assistant", "content": None})]
    for i in range(calls):
        call = {
            "index": i,
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": "get_weather", "arguments": ""},
        }
        events.append(chunk({"tool_calls": [call]}))
    for text in _ARGUMENT_DELTAS:
        events += [
            chunk({"tool_calls": [{"index": i, "function": {"arguments": text}}]}) for i in range(calls)
        ]
    events.append(chunk({}, "tool_calls"))
    return events


def parallel_stream(fmt: str, calls: int) -> list[dict[str, Any]]:
    """:func:`chat_parallel_stream` as a stream of format ``fmt`` (translated by toolwire)."""
    events = chat_parallel_stream(calls)
    if fmt == "openai-chat":
        return events
    translator = StreamTranslator("openai-chat", fmt)  # type: ignore[arg-type]
    out = [w for event in events for w in translator.feed(event)]
    return [e for e in out + translator.close() if isinstance(e, dict)]


def translate_bytes(source: str, target: str, lines: Sequence[bytes]) -> int:
    """Translate one stream given as JSON lines to the target's SSE bytes; return their size."""
    translator = StreamTranslator(source, target)  # type: ignore[arg-type]
    feed = translator.feed_frames
    size = 0
    for line in lines:
        size += len(feed(orjson.loads(line)))
    return size + len(translator.close_frames())


def floor_bytes(lines: Sequence[bytes]) -> int:
    """The floor: ``orjson.loads`` + ``orjson.dumps`` of each event."""
    return sum(len(orjson.dumps(orjson.loads(line))) for line in lines)


def _cpu_each(fns: Mapping[str, Callable[[], object]], events: int, rounds: int) -> dict[str, float]:
    """Median CPU seconds per event of each function, timed in alternating rounds."""
    number = max(1, 20_000 // max(events, 1))  # about 20k events per sample
    samples: dict[str, list[float]] = {label: [] for label in fns}
    for _ in range(rounds):
        for label, fn in fns.items():
            start = time.process_time()
            for _ in range(number):
                fn()
            samples[label].append((time.process_time() - start) / number / events)
    return {label: statistics.median(values) for label, values in samples.items()}


def measure(source: str, target: str, calls: int, rounds: int = 5) -> tuple[float, float]:
    """(µs per event of the translation, µs per event of the floor) for ``calls`` parallel calls."""
    lines = [orjson.dumps(e) for e in parallel_stream(source, calls)]
    fns = {"t": lambda: translate_bytes(source, target, lines), "f": lambda: floor_bytes(lines)}
    fns["t"](), fns["f"]()  # warm
    each = _cpu_each(fns, len(lines), rounds)
    return each["t"] * 1e6, each["f"] * 1e6


def _pairs(spec: str | None) -> list[tuple[str, str]]:
    if not spec:
        return [(s, t) for s in FORMATS for t in FORMATS]
    return [(p.split(":")[0], p.split(":")[1]) for p in spec.split(",")]


def run(sizes: Sequence[int] = SIZES, pairs: str | None = None, rounds: int = 5) -> None:
    """Print the table (see the module docstring)."""
    print("bench_parallel: parallel tool calls, CPU µs per source event (x = ratio to orjson loads+dumps)")
    header = "".join(f"{f'n={n}':>20}" for n in sizes)
    print(f"  {'pair':<36}{header}{'growth':>10}")
    for source, target in _pairs(pairs):
        cells, costs = [], []
        for n in sizes:
            cost, floor = measure(source, target, n, rounds)
            costs.append(cost)
            cells.append(f"{cost:>9.2f} µs {cost / floor:>5.1f}x")
        growth = costs[-1] / costs[0]
        print(
            f"  {source + ' -> ' + target:<36}{''.join(f'{c:>20}' for c in cells)}{growth:>9.2f}x", flush=True
        )


def main(argv: Sequence[str] | None = None) -> None:
    """Command line: ``--sizes``, ``--pairs``, ``--rounds``."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.bench_parallel", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--sizes", default=",".join(map(str, SIZES)), help="parallel call counts, comma-separated"
    )
    parser.add_argument("--pairs", default=None, help="source:target,... (default: all 16)")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per cell (median)")
    args = parser.parse_args(argv)
    run([int(n) for n in args.sizes.split(",")], args.pairs, args.rounds)


if __name__ == "__main__":
    main()
