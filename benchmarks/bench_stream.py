"""Stream translation: a 200-event Anthropic stream (text + two tool calls) into Responses and Chat.

Per-event cost from JSON bytes to JSON bytes (parse, decode to IR, encode, serialize) against the
floor of ``orjson.loads`` + ``orjson.dumps`` of each event; then peak traced memory of a whole
translation at 1k and 100k events, to show what grows with stream length.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from collections.abc import Iterator
from typing import Any

import orjson

from benchmarks._timing import median_seconds_each, report_row
from toolwire.streaming import StreamTranslator

TARGETS = ("openai-responses", "openai-chat")
_WORDS = ("Let", "me", "check", "the", "weather", "and", "the", "time", "in", "both", "cities", "for", "you")


def anthropic_stream(events: int) -> list[dict[str, Any]]:
    """A realistic Anthropic stream of about ``events`` events: text, then two tool calls."""
    return list(iter_anthropic_stream(events))


def iter_anthropic_stream(events: int) -> Iterator[dict[str, Any]]:
    """:func:`anthropic_stream`, one event at a time."""
    args_deltas = 40  # two tool calls of fixed size; longer streams have more text
    text_deltas = max(1, events - 2 * args_deltas - 12)
    yield {
        "type": "message_start",
        "message": {
            "id": "msg_bench",
            "type": "message",
            "role": "assistant",
            "model": "claude-bench",
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": 512, "output_tokens": 1},
        },
    }
    yield {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
    yield {"type": "ping"}
    for i in range(text_deltas):
        delta = {"type": "text_delta", "text": _WORDS[i % len(_WORDS)] + " "}
        yield {"type": "content_block_delta", "index": 0, "delta": delta}
    yield {"type": "content_block_stop", "index": 0}
    for block, (name, city) in enumerate((("get_weather", "Paris"), ("get_time", "Tokyo")), start=1):
        yield {
            "type": "content_block_start",
            "index": block,
            "content_block": {"type": "tool_use", "id": f"toolu_0{block}", "name": name, "input": {}},
        }
        text = json.dumps({"city": city, "notes": "x" * (args_deltas * 3)})
        size = -(-len(text) // args_deltas)
        for i in range(0, len(text), size):
            delta = {"type": "input_json_delta", "partial_json": text[i : i + size]}
            yield {"type": "content_block_delta", "index": block, "delta": delta}
        yield {"type": "content_block_stop", "index": block}
    yield {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use", "stop_sequence": None},
        "usage": {"output_tokens": 240},
    }
    yield {"type": "message_stop"}


def _translate_all(raw: list[bytes], target: str) -> int:
    translator = StreamTranslator("anthropic", target, policy="drop")
    size = 0
    for item in raw:
        for event in translator.feed(orjson.loads(item)):
            size += len(orjson.dumps(event))
    for event in translator.close():
        size += len(orjson.dumps(event))
    return size


def _peak_kib(raw: list[bytes], target: str) -> float:
    gc.collect()
    tracemalloc.start()
    _translate_all(raw, target)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1024


def run() -> dict[str, float]:
    """Run the benchmark, print the table, return per-target ratios to the floor."""
    events = anthropic_stream(200)
    raw = [orjson.dumps(e) for e in events]
    count = len(raw)
    fns = {"floor": lambda: [orjson.dumps(orjson.loads(r)) for r in raw]}
    for target in TARGETS:
        fns[target] = lambda target=target: _translate_all(raw, target)
    times = median_seconds_each(fns)
    floor = times["floor"]
    print(f"stream: Anthropic, {count} events, {sum(map(len, raw))} bytes")
    print(report_row("floor: orjson loads+dumps per event", floor, floor, count, "event"))
    ratios: dict[str, float] = {}
    for target in TARGETS:
        ratios[target] = times[target] / floor
        print(report_row(f"anthropic -> {target}", times[target], floor, count, "event"))
    print("  peak traced memory of one translation (input generated lazily; longer = more text deltas):")
    for target in TARGETS:
        small = _peak_kib(_lazy(1_000), target)
        large = _peak_kib(_lazy(100_000), target)
        print(f"    anthropic -> {target:<18} 1k events {small:>9.1f} KiB   100k events {large:>9.1f} KiB")
    return ratios


class _lazy(list[bytes]):
    """Events serialized one at a time while iterated, so the input does not count as stream memory."""

    def __init__(self, n: int) -> None:
        super().__init__()
        self._n = n

    def __iter__(self) -> Any:
        return (orjson.dumps(e) for e in iter_anthropic_stream(self._n))


if __name__ == "__main__":
    run()
