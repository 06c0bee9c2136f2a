"""Every ordered pair of the five formats, through the public API, against the orjson floor (issues 18, 21).

Each case goes from JSON bytes to JSON bytes through what a user calls: ``orjson.loads``, then
``toolwire.translate_request`` / ``translate_response``, then ``orjson.dumps`` of the payload
(the *dict API*), and ``toolwire.translate_request_bytes`` / ``translate_response_bytes`` (the
*bytes API*, what a gateway calls). The floor is ``orjson.loads`` + ``orjson.dumps`` of the same
source bytes. Streams go event by event through ``StreamTranslator.feed_frames`` (SSE bytes
out), per event on average over the whole stream, against loads + dumps of each source event.

Floor, toolwire and the contenders are timed in alternation (interleaved rounds), with CPU time
(``time.process_time``) as the measure and wall time beside it, with the garbage collector
frozen after set-up as a long-running server would run it. Contenders (``_peers.py``): LiteLLM
and the OpenAI Agents SDK's Chat Completions converter, when importable; ``make bench-peers``
installs them into a separate environment (``.venv-bench``), never into the package's own.

Bedrock Converse (issue 21) is measured the same way: its request bodies carry no model (that is
in the URL), its streams are AWS event-stream binary frames out rather than SSE.

Targets (issue 18): requests, all 20 cross-format pairs, at most 2x the floor (3x at 1,000
messages); responses at most 3x; streams, per event, SSE out, at most 2x for Chat, Anthropic and
Gemini targets and 3x for Responses; every pair at least 5x faster than LiteLLM and faster than
the Agents SDK's converter on the conversion it has.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
from collections.abc import Callable, Sequence
from typing import Any

import orjson

import toolwire
import toolwire.formats.openai_chat.request
from benchmarks._conversation import anthropic_response, chat_request
from benchmarks._payloads import chat_tools
from benchmarks._targets import summary
from benchmarks._timing import cpu_medians_each
from benchmarks.bench_stream import anthropic_stream
from toolwire.ir.notes import Notes
from toolwire.streaming import StreamTranslator
from toolwire.translate import format_module

__all__ = ["run"]

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock-converse")
SHORT = {
    "openai-chat": "chat",
    "openai-responses": "responses",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "bedrock-converse": "bedrock",
}
PAIRS = [(s, t) for s in FORMATS for t in FORMATS if s != t]
_Fn = Callable[[], object]


# --- payloads -------------------------------------------------------------------------------


def _in_each_format(chat: dict[str, Any]) -> dict[str, bytes]:
    """``chat`` (an OpenAI Chat request) in each format, as toolwire writes it, serialized."""
    ir = format_module("openai-chat").decode_request(chat, Notes("drop"))
    return {fmt: orjson.dumps(format_module(fmt).encode_request(ir, Notes("drop"))) for fmt in FORMATS}


def sized_chat_request(messages: int, tools: int) -> dict[str, Any]:
    """A Chat request of exactly ``messages`` messages (system prompt, then turns of a user
    question, a tool call, its result and an answer) and ``tools`` tools."""
    declared = chat_tools(tools, seed=11)
    names = [t["function"]["name"] for t in declared]
    out: list[dict[str, Any]] = [{"role": "system", "content": "You are the support assistant of a shop."}]
    turn = 0
    while len(out) < messages:
        call_id = f"call_{turn:06d}"
        name = names[turn % len(names)]
        out += [
            {"role": "user", "content": f"Where is my order A-{1000 + turn}? It was due yesterday."},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": call_id,
                        "type": "function",
                        "function": {"name": name, "arguments": json.dumps({"order": f"A-{1000 + turn}"})},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": call_id, "content": json.dumps({"status": "shipped"})},
            {"role": "assistant", "content": f"Order A-{1000 + turn} shipped with DHL yesterday."},
        ]
        turn += 1
    out = out[:messages]
    if out[-1]["role"] == "assistant" and out[-1].get("tool_calls"):
        out[-1] = {"role": "assistant", "content": "One moment."}
    return {"model": "gpt-4o", "messages": out, "tools": declared, "tool_choice": "auto"}


def _responses_in_each_format() -> dict[str, bytes]:
    tool = chat_request()["tools"][2]["function"]["name"]
    ir = format_module("anthropic").decode_response(anthropic_response(tool), Notes("drop"))
    return {fmt: orjson.dumps(format_module(fmt).encode_response(ir, Notes("drop"))) for fmt in FORMATS}


def _streams_in_each_format(length: int = 200) -> dict[str, list[bytes | str]]:
    """The ``length``-event stream of ``bench_stream`` (text, two tool calls) in each format."""
    out: dict[str, list[bytes | str]] = {}
    for fmt in FORMATS:
        translator = StreamTranslator("anthropic", fmt, policy="drop")
        events = [e for event in anthropic_stream(length) for e in translator.feed(event)]
        events += translator.close()
        out[fmt] = [orjson.dumps(e) if isinstance(e, dict) else e for e in events]
    return out


# --- what is timed --------------------------------------------------------------------------


def _floor(raw: bytes) -> _Fn:
    return lambda: orjson.dumps(orjson.loads(raw))


def _dict_api(kind: str, raw: bytes, source: str, target: str) -> _Fn:
    translate = toolwire.translate_request if kind == "request" else toolwire.translate_response

    def convert() -> bytes:
        return orjson.dumps(translate(orjson.loads(raw), source=source, target=target, policy="drop").payload)

    return convert


def _bytes_api(kind: str, raw: bytes, source: str, target: str) -> _Fn | None:
    translate = getattr(toolwire, f"translate_{kind}_bytes", None)
    if translate is None:
        return None
    return lambda: translate(raw, source=source, target=target, policy="drop")


def _stream_floor(raw: Sequence[bytes | str]) -> _Fn:
    events = [item for item in raw if type(item) is bytes]

    def floor() -> int:
        return sum(len(orjson.dumps(orjson.loads(item))) for item in events)

    return floor


def _stream_sse(raw: Sequence[bytes | str], source: str, target: str) -> _Fn:
    def convert() -> int:
        translator = StreamTranslator(source, target, policy="drop")
        feed = translator.feed_frames
        size = 0
        for item in raw:
            size += len(feed(orjson.loads(item) if type(item) is bytes else item))
        return size + len(translator.close_frames())

    return convert


# --- tables ---------------------------------------------------------------------------------


def _peers() -> Any:
    try:
        from benchmarks import _peers
    except ImportError:
        return None
    return _peers


def _cell(times: dict[str, tuple[float, float]], label: str, base: str) -> str:
    if label not in times:
        return "-"
    return f"{times[label][0] / times[base][0]:.1f}"


def _pair_table(kind: str, payloads: dict[str, bytes], peers: Any, repeat: int) -> dict[str, float]:
    print(f"{kind}s, every ordered pair: CPU µs per call (wall µs), ratio to the floor, peers ÷ toolwire")
    print(
        f"  {'pair':<22} {'bytes':>6} {'floor':>14} {'toolwire':>15} {'x floor':>8} {'bytes API':>10}"
        f" {'litellm/tw':>11} {'agents/tw':>10}"
    )
    contenders = peers.cases(kind, payloads) if peers else {}
    ratios: dict[str, float] = {}
    for source, target in PAIRS:
        raw = payloads[source]
        fns: dict[str, _Fn] = {"floor": _floor(raw), "toolwire": _dict_api(kind, raw, source, target)}
        fast = _bytes_api(kind, raw, source, target)
        if fast is not None:
            fns["bytes"] = fast
        for peer, convert in contenders.get((source, target), {}).items():
            fns[peer] = convert
        times = cpu_medians_each(fns, repeat=repeat)
        best = min(times["toolwire"][0], times.get("bytes", times["toolwire"])[0])
        pair = f"{source}->{target}"
        ratios[pair] = times["toolwire"][0] / times["floor"][0]
        if "bytes" in times:
            ratios[pair + " bytes"] = times["bytes"][0] / times["floor"][0]
        for peer in ("litellm", "agents"):
            if peer in times:
                ratios[f"{pair} {peer}"] = times[peer][0] / best
        floor_cpu, floor_wall = times["floor"]
        tw_cpu, tw_wall = times["toolwire"]
        peer_cells = [f"{ratios[f'{pair} {p}']:.1f}" if p in times else "-" for p in ("litellm", "agents")]
        print(
            f"  {SHORT[source] + ' -> ' + SHORT[target]:<22} {len(raw):>6}"
            f" {floor_cpu * 1e6:>6.1f} ({floor_wall * 1e6:>5.1f})"
            f" {tw_cpu * 1e6:>7.1f} ({tw_wall * 1e6:>5.1f})"
            f" {tw_cpu / floor_cpu:>7.2f}x {_cell(times, 'bytes', 'floor'):>9}x"
            f" {peer_cells[0]:>11} {peer_cells[1]:>10}"
        )
    return ratios


def _size_table(repeat: int) -> dict[str, float]:
    sizes = [(10, 5), (100, 5), (1000, 5), (10, 50), (10, 500)]
    print("requests by size: ratio to the floor (CPU), by messages/tools; each cell the public dict API")
    print("  (translate_request between orjson loads and dumps) / the bytes API (translate_request_bytes)")
    print(f"  {'pair':<22}" + "".join(f"{f'{m}m/{t}t':>13}" for m, t in sizes))
    payloads = {size: _in_each_format(sized_chat_request(*size)) for size in sizes}
    print(f"  {'(chat bytes)':<22}" + "".join(f"{len(payloads[size]['openai-chat']):>13}" for size in sizes))
    ratios: dict[str, float] = {}
    for source, target in PAIRS:
        cells = []
        for size in sizes:
            raw = payloads[size][source]
            fns = {"floor": _floor(raw), "toolwire": _dict_api("request", raw, source, target)}
            wire = _bytes_api("request", raw, source, target)
            if wire is not None:
                fns["bytes API"] = wire
            times = cpu_medians_each(fns, repeat=repeat)
            label = f"{source}->{target} {size[0]}m/{size[1]}t"
            ratio = ratios[label] = times["toolwire"][0] / times["floor"][0]
            cell = f"{ratio:.2f}"
            if wire is not None:
                ratios[label + " bytes"] = times["bytes API"][0] / times["floor"][0]
                cell += f"/{ratios[label + ' bytes']:.2f}"
            cells.append(cell + "x")
        print(f"  {SHORT[source] + ' -> ' + SHORT[target]:<22}" + "".join(f"{c:>13}" for c in cells))
    return ratios


def _stream_table(peers: Any, repeat: int) -> dict[str, float]:
    streams = _streams_in_each_format()
    contenders = peers.stream_cases(streams) if peers else {}
    print("streams, every ordered pair, per event, SSE out: CPU µs per event (wall), ratio to the floor")
    print(f"  {'pair':<22} {'events':>6} {'floor':>12} {'toolwire':>12} {'x floor':>8} {'litellm/tw':>11}")
    ratios: dict[str, float] = {}
    for source, target in PAIRS:
        raw = streams[source]
        count = sum(1 for item in raw if type(item) is bytes)
        fns: dict[str, _Fn] = {"floor": _stream_floor(raw), "toolwire": _stream_sse(raw, source, target)}
        for peer, convert in contenders.get((source, target), {}).items():
            fns[peer] = convert
        times = cpu_medians_each(fns, repeat=repeat)
        floor_cpu, floor_wall = times["floor"]
        tw_cpu, tw_wall = times["toolwire"]
        ratios[f"{source}->{target}"] = tw_cpu / floor_cpu
        peer = "-"
        if "litellm" in times:
            litellm = ratios[f"{source}->{target} litellm"] = times["litellm"][0] / tw_cpu
            peer = f"{litellm:.1f}"
        print(
            f"  {SHORT[source] + ' -> ' + SHORT[target]:<22} {count:>6}"
            f" {floor_cpu / count * 1e6:>5.2f} ({floor_wall / count * 1e6:>4.2f})"
            f" {tw_cpu / count * 1e6:>5.2f} ({tw_wall / count * 1e6:>4.2f})"
            f" {tw_cpu / floor_cpu:>7.2f}x {peer:>11}"
        )
    return ratios


def _long_stream_table(repeat: int) -> dict[str, float]:
    """Per event over 200 and 2,000 events (the second: the same stream with 10x the text
    deltas): what a stream's fixed cost (its start and end events, each block's start and stop)
    adds to the deltas' cost, which dominates a long answer."""
    short, long = _streams_in_each_format(200), _streams_in_each_format(2000)
    print("streams by length, per event, SSE out: ratio to the floor (CPU)")
    print(f"  {'pair':<22} {'200 events':>11} {'2,000 events':>13}")
    ratios: dict[str, float] = {}
    for source, target in PAIRS:
        cells = []
        for label, streams in (("200", short), ("2000", long)):
            raw = streams[source]
            fns = {"floor": _stream_floor(raw), "toolwire": _stream_sse(raw, source, target)}
            times = cpu_medians_each(fns, repeat=repeat)
            ratio = ratios[f"{source}->{target} {label}"] = times["toolwire"][0] / times["floor"][0]
            cells.append(ratio)
        pair = SHORT[source] + " -> " + SHORT[target]
        print(f"  {pair:<22} {cells[0]:>10.2f}x {cells[1]:>12.2f}x")
    return ratios


def _kept_tools_table(payloads: dict[str, bytes], repeat: int) -> dict[str, float]:
    """Chat -> Responses through the bytes API, which keeps a tools array it has seen before as
    JSON text (``toolwire._kept_schemas``): what each turn of an agent costs once its tools are
    stored (the requests table times that), what a body whose tools were never seen costs, and
    the call that stores them (the second sighting). The cache is emptied for the last two
    before each call (``TOOLS.clear()``, a few microseconds, inside the timing)."""
    from toolwire._kept_schemas import TOOLS

    raw = payloads["openai-chat"]
    wire = _bytes_api("request", raw, "openai-chat", "openai-responses")
    assert wire is not None

    def first_sight() -> object:
        TOOLS.clear()
        return wire()

    def stored() -> object:
        TOOLS.clear()
        wire()
        return wire()

    fns: dict[str, _Fn] = {"floor": _floor(raw), "warm": wire, "first": first_sight, "first+second": stored}
    times = cpu_medians_each(fns, repeat=repeat)
    floor = times["floor"][0]
    print("chat -> responses, bytes API, tools kept as JSON text: ratio to the floor (CPU)")
    print(f"  {'case':<44} {'x floor':>8}")
    rows = {
        "tools stored (every turn after the second)": times["warm"][0],
        "tools never seen (first sighting)": times["first"][0],
        "the call that stores them (second sighting)": times["first+second"][0] - times["first"][0],
    }
    for label, cpu in rows.items():
        print(f"  {label:<44} {cpu / floor:>7.2f}x")
    return {label: cpu / floor for label, cpu in rows.items()}


SECTIONS = ("requests", "sizes", "responses", "streams", "stream-lengths", "kept-tools")


def _build() -> str:
    """Which toolwire is timed: the mypyc-compiled core (``make compiled``) or pure Python. The
    format codecs are compiled, ``toolwire.translate`` (the public entry points) never is."""
    where = toolwire.formats.openai_chat.request.__file__ or ""
    return "toolwire compiled (mypyc)" if where.endswith((".so", ".pyd")) else "toolwire pure Python"


def run(sections: Sequence[str] = SECTIONS, repeat: int = 9) -> dict[str, float]:
    """Print the tables of ``sections``, then issue 18's targets judged from them
    (:mod:`benchmarks._targets`); return every ratio, keyed by section and pair (a suffix for the
    bytes API and the peers' ratios: see that module)."""
    peers = _peers()
    requests = _in_each_format(chat_request())
    responses = _responses_in_each_format()
    print(f"pairs: public API, JSON bytes in and out; CPU time, medians of {repeat} interleaved rounds")
    missing = "litellm / openai-agents not importable: no peers (make bench-peers)"
    print("  " + (peers.versions() if peers else missing))
    gc.collect()
    gc.freeze()  # what a long-running server does after start-up: the set-up is never scanned again
    ratios: dict[str, float] = {}
    tables: dict[str, Callable[[], dict[str, float]]] = {
        "requests": lambda: _pair_table("request", requests, peers, repeat),
        "sizes": lambda: _size_table(repeat),
        "responses": lambda: _pair_table("response", responses, peers, repeat),
        "streams": lambda: _stream_table(peers, repeat),
        "stream-lengths": lambda: _long_stream_table(repeat),
        "kept-tools": lambda: _kept_tools_table(requests, repeat),
    }
    for section in sections:
        print()
        ratios.update({f"{section} {k}": v for k, v in tables[section]().items()})
    print()
    print("\n".join(summary(ratios)))
    return ratios


def main() -> None:
    """``python -m benchmarks.bench_pairs [--only requests,sizes,responses,streams,stream-lengths,kept-tools]
    [--repeat N]``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_pairs", description=__doc__)
    parser.add_argument("--only", default=",".join(SECTIONS), help="comma-separated sections")
    parser.add_argument("--repeat", type=int, default=9, help="interleaved rounds per case")
    parser.add_argument("--format", default=None, help="only the pairs with this format on a side")
    args = parser.parse_args()
    if args.format is not None:
        if args.format not in FORMATS:
            parser.error(f"unknown format {args.format!r}; choose from {', '.join(FORMATS)}")
        PAIRS[:] = [pair for pair in PAIRS if args.format in pair]
    sections = [s for s in args.only.split(",") if s]
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown section(s) {sorted(unknown)}; choose from {', '.join(SECTIONS)}")
    print(f"python {platform.python_version()} on {platform.machine()}; {_build()}")
    run(sections, args.repeat)


if __name__ == "__main__":
    main()
