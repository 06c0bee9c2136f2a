"""Stream translation: a 200-event Anthropic stream (text + two tool calls) into Responses and Chat.

Cost from JSON bytes to JSON bytes (parse, decode to IR, encode, serialize), against the floor of
``orjson.loads`` + ``orjson.dumps`` of the same events, measured three ways:

- **whole stream**: one whole translation, per event on average (what a stream costs in all);
- **per event**: each event on its own, from the translator's state just before it (deep copies
  of that state), ratio to the floor of that same event: median, 90th percentile and worst, and
  the median by kind of event (deltas are most of a stream; starts and stops cost more);
- **memory**: the ``tracemalloc`` peak of one translation at 1k and 100k events (input generated
  lazily, output dropped unserialized: a serializer's own buffers are not the translator's).

Target (issue 4): at most 3x the floor per event; memory flat as the stream grows, except for
the text a target format itself repeats at the end (Responses' ``*.done`` events and
``response.completed`` carry the whole text, so that target must hold it).
"""

from __future__ import annotations

import copy
import gc
import json
import statistics
import time
import tracemalloc
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import orjson

from benchmarks._timing import median_seconds_each, report_row
from toolwire.streaming import StreamTranslator, encode_wire_events, translate_stream

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


def _in_out_floor(raw: list[bytes], out: list[Any]) -> int:
    """What any translator must do: parse the source events and serialize the target's."""
    size = 0
    for item in raw:
        orjson.loads(item)
    for event in out:
        size += len(orjson.dumps(event))
    return size


def _floor_all(raw: list[bytes]) -> int:
    size = 0
    for item in raw:
        size += len(orjson.dumps(orjson.loads(item)))
    return size


def _kind(event: dict[str, Any]) -> str:
    delta = event.get("delta")
    if event.get("type") == "content_block_delta" and isinstance(delta, dict):
        return str(delta.get("type"))
    return str(event.get("type"))


def per_event(
    raw: list[bytes], target: str, *, frames: bool = False, copies: int = 8, rounds: int = 7
) -> list[float]:
    """Each event's cost ratio to the floor of that event, from the state just before it.

    For every event, ``rounds`` batches of ``copies`` deep copies of the translator each take
    that event; the floor (loads + dumps of the event, ``copies`` times) is timed right before
    each batch, and the event's ratio is the median batch time over the median floor time.
    ``frames``: the translator writes SSE bytes (``feed_frames``) instead of wire dicts that
    are then serialized.
    """
    translator = StreamTranslator("anthropic", target, policy="drop")
    ratios: list[float] = []
    for item in raw:
        floors: list[float] = []
        costs: list[float] = []
        for _ in range(rounds):
            batch = [copy.deepcopy(translator) for _ in range(copies)]
            start = time.perf_counter()
            for _ in range(copies):
                orjson.dumps(orjson.loads(item))
            floors.append(time.perf_counter() - start)
            start = time.perf_counter()
            if frames:
                for clone in batch:
                    clone.feed_frames(orjson.loads(item))
            else:
                for clone in batch:
                    for event in clone.feed(orjson.loads(item)):
                        orjson.dumps(event)
            costs.append(time.perf_counter() - start)
        ratios.append(statistics.median(costs) / statistics.median(floors))
        if frames:  # the state before the next event, with the same cached templates
            translator.feed_frames(orjson.loads(item))
        else:
            translator.feed(orjson.loads(item))
    return ratios


FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse")


def _source_stream(fmt: str) -> list[bytes | str]:
    """The benchmark stream's content in format ``fmt`` (as toolwire translates it), serialized."""
    translator = StreamTranslator("anthropic", fmt, policy="drop")
    events = [out for event in anthropic_stream(200) for out in translator.feed(event)]
    events += translator.close()
    return [orjson.dumps(e) if isinstance(e, dict) else e for e in events]


def _translate_pair(raw: Sequence[bytes | str], source: str, target: str) -> int:
    translator = StreamTranslator(source, target, policy="drop")
    size = 0
    for item in raw:
        for event in translator.feed(orjson.loads(item) if type(item) is bytes else item):
            size += len(orjson.dumps(event))
    for event in translator.close():
        size += len(orjson.dumps(event))
    return size


def _frames_pair(raw: Sequence[bytes | str], source: str, target: str) -> int:
    translator = StreamTranslator(source, target, policy="drop")
    size = 0
    for item in raw:
        size += len(translator.feed_frames(orjson.loads(item) if type(item) is bytes else item))
    return size + len(translator.close_frames())


def _floor_pair(raw: list[bytes | str]) -> int:
    return _floor_all([item for item in raw if type(item) is bytes])


def pairs() -> dict[tuple[str, str], float]:
    """Whole-stream ratio for every ordered pair, the same content in each source format."""
    ratios: dict[tuple[str, str], float] = {}
    print("  every pair, whole stream, ratio to the floor, wire dicts / SSE bytes (the same content):")
    print("    " + "source -> target".ljust(24) + "".join(f"{t:>18}" for t in FORMATS))
    for source in FORMATS:
        raw = _source_stream(source)
        fns: dict[str, Any] = {"floor": lambda raw=raw: _floor_pair(raw)}
        for target in FORMATS:
            fns[target] = lambda raw=raw, source=source, target=target: _translate_pair(raw, source, target)
            fns[f"{target} sse"] = lambda raw=raw, source=source, target=target: _frames_pair(
                raw, source, target
            )
        times = median_seconds_each(fns, repeat=9)
        cells = []
        for target in FORMATS:
            ratios[(source, target)] = times[target] / times["floor"]
            cells.append(
                f"{times[target] / times['floor']:.2f} / {times[f'{target} sse'] / times['floor']:.2f}x"
            )
        label = f"{source} ({len(raw)} events)"
        print(f"    {label:<24}" + "".join(f"{cell:>18}" for cell in cells))
    return ratios


def byte_level(events: list[dict[str, Any]]) -> dict[str, float]:
    """SSE bytes in, SSE bytes out (:func:`translate_stream`), one event per chunk as servers
    flush them; the floor is the same as the whole-stream one (no SSE framing in it)."""
    chunks = [encode_wire_events("anthropic", [event]) for event in events]
    raw = [orjson.dumps(e) for e in events]
    fns: dict[str, Any] = {"floor": lambda: _floor_all(raw), "sse floor": lambda: _sse_floor(chunks)}
    for target in TARGETS:
        fns[target] = lambda target=target: sum(
            map(len, translate_stream(chunks, source="anthropic", target=target, policy="drop"))
        )
    times = median_seconds_each(fns)
    print("  byte level: SSE chunks in, SSE bytes out (framing, parsing and serializing included):")
    ratios: dict[str, float] = {}
    sse = times["sse floor"] / times["floor"]
    print(
        report_row(
            "SSE floor: cut data, loads+dumps, frame",
            times["sse floor"],
            times["floor"],
            len(events),
            "event",
        )
    )
    for target in TARGETS:
        ratios[f"{target} bytes"] = times[target] / times["floor"]
        row = report_row(f"anthropic -> {target}", times[target], times["floor"], len(events), "event")
        print(f"{row}   {times[target] / times['sse floor']:.2f}x SSE floor")
    ratios["sse floor"] = sse
    return ratios


def _sse_floor(chunks: list[bytes]) -> int:
    """A pass-through of one-event SSE chunks: cut the data line, parse, serialize, frame."""
    size = 0
    for chunk in chunks:
        data = chunk[chunk.index(b"data: ") + 6 : -2]
        size += len(b"data: " + orjson.dumps(orjson.loads(data)) + b"\n\n")
    return size


def _peak_kib(raw: Iterable[bytes], target: str) -> float:
    StreamTranslator("anthropic", target)  # imports done before tracing
    gc.collect()
    tracemalloc.start()
    translator = StreamTranslator("anthropic", target, policy="drop")
    for item in raw:
        translator.feed(orjson.loads(item))
    translator.close()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak / 1024


def _text_kib(events: int) -> float:
    text = 0
    for event in iter_anthropic_stream(events):
        delta = event.get("delta")
        if isinstance(delta, dict) and delta.get("type") == "text_delta":
            text += len(delta["text"])
    return text / 1024


def run() -> dict[str, float]:
    """Run the benchmark, print the tables, return per-target ratios (whole stream, median event)."""
    events = anthropic_stream(200)
    raw = [orjson.dumps(e) for e in events]
    count = len(raw)
    fns: dict[str, Any] = {"floor": lambda: _floor_all(raw)}
    for target in TARGETS:
        out = [orjson.loads(e) if type(e) is bytes else e for e in _source_stream(target)]
        fns[f"{target} in+out"] = lambda out=out: _in_out_floor(raw, out)
        fns[target] = lambda target=target: _translate_pair(raw, "anthropic", target)
        fns[f"{target} sse"] = lambda target=target: _frames_pair(raw, "anthropic", target)
    times = median_seconds_each(fns)
    floor = times["floor"]
    print(
        f"stream: Anthropic, {count} events, {sum(map(len, raw))} bytes; whole stream, per event on average"
    )
    print(report_row("floor: orjson loads+dumps per event", floor, floor, count, "event"))
    ratios: dict[str, float] = {}
    for target in TARGETS:
        for label, key in (("dicts", target), ("SSE", f"{target} sse")):
            ratios[key] = times[key] / floor
            in_out = times[key] / times[f"{target} in+out"]
            row = report_row(f"anthropic -> {target} ({label})", times[key], floor, count, "event")
            print(f"{row}   {in_out:.2f}x in+out floor")
    print(
        "    (in+out floor: orjson loads of the source events + dumps of the target's events;"
        " Responses writes more)"
    )
    kinds = [_kind(e) for e in events]
    print("  each event on its own, ratio to the floor of that event (target <= 3x):")
    print(f"    {'target':<24} {'median':>7} {'p90':>7} {'worst':>7}   median by kind of event (count)")
    for frames in (False, True):
        for target in TARGETS:
            each = per_event(raw, target, frames=frames)
            label = f"{target} ({'SSE' if frames else 'dicts'})"
            ratios[f"{label} median event"] = statistics.median(each)
            by_kind = {
                k: statistics.median(r for r, at in zip(each, kinds, strict=True) if at == k) for k in kinds
            }
            ranked = sorted(each)
            shown = ", ".join(f"{k} {v:.1f}x ({kinds.count(k)})" for k, v in by_kind.items())
            p90 = ranked[int(0.9 * (len(ranked) - 1))]
            print(
                f"    {label:<24} {statistics.median(each):>6.2f}x {p90:>6.2f}x {ranked[-1]:>6.1f}x   {shown}"
            )
    pairs()
    ratios.update(byte_level(events))
    print("  peak traced memory of one translation (input lazy, output dropped; longer = more text):")
    text = _text_kib(100_000)
    for target in TARGETS:
        small = _peak_kib(_lazy(1_000), target)
        large = _peak_kib(_lazy(100_000), target)
        print(
            f"    anthropic -> {target:<18} 1k events {small:>8.1f} KiB   100k events {large:>8.1f} KiB"
            f"   (text of the 100k stream: {text:.0f} KiB)"
        )
    return ratios


def _lazy(n: int) -> Iterator[bytes]:
    """Events serialized one at a time, so the input does not count as stream memory."""
    return (orjson.dumps(e) for e in iter_anthropic_stream(n))


if __name__ == "__main__":
    run()
