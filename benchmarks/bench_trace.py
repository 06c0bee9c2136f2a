"""What tracing costs the gateway (issue 20): added latency with ``--trace`` on vs off, and the
memory of a store holding 10,000 traces.

Servers, each its own process: the emulator (``toolwire emulate``, Anthropic upstream), the
200-event stream upstream of ``bench_gateway``, and two gateways with the same config, one with
``--trace`` (SQLite store, the default backend, in a temporary folder), one without. Contenders
alternate round by round (``bench_gateway``'s rounds: the other gateway is paused while one is
timed); medians, percentiles over all rounds' samples.

- **added latency** p50/p99 over a direct call to the upstream, concurrency 1 and 16, for the
  5 KB Chat tool request; the **tracing cost** is ``on - off`` (and its ratio to the orjson
  loads + dumps floor of the request and answer, measured in the same run);
- **added per-event cost** of a 200-event stream, on and off;
- the gateways' RSS after the run, and the traces written and dropped (``/metrics``);
- **10,000 traces kept**: the records the traced gateway wrote for this request, copied 10,000
  times under new ids, in a memory store (``tracemalloc``: bytes per trace) and a SQLite file
  (file size), with the time of ``list_traces`` (newest 50, and a filter that scans them all)
  and of ``get_trace``.

Run: ``python -m benchmarks.bench_trace`` (``--quick`` for fewer rounds and 2,000 traces).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec

from benchmarks._gateway_load import rss_kib, start
from benchmarks._http_load import Server
from benchmarks.bench_gateway import (
    PROXY_KEY,
    STREAM_MODEL,
    _chat,
    _direct,
    _floor_us,
    _gateway_config,
    _latency_table,
    _rounds,
    _stream_table,
    chat_body,
)
from toolwire.store import open_store
from toolwire.trace import TraceQuery, TraceRecord

__all__ = ["run"]


@contextlib.contextmanager
def servers(folder: Path, backend: str = "sqlite") -> Iterator[dict[str, Server]]:
    """The upstreams and both gateways, running."""
    with contextlib.ExitStack() as stack:
        py = sys.executable
        emulator = stack.enter_context(start([py, "-m", "toolwire.cli", "emulate", "--log-level", "warning"]))
        streams = stack.enter_context(start([py, "-m", "benchmarks._gateway_load"]))
        config = _gateway_config(folder, emulator.url, streams.url)
        base = [py, "-m", "toolwire.cli", "serve", "--config", str(config), "--log-level", "warning"]
        env = {"TOOLWIRE_BENCH_KEY": PROXY_KEY}
        store = ["--store", f"sqlite://{folder / 'traces.db'}" if backend == "sqlite" else "memory://"]
        off = stack.enter_context(start([*base, "--store", f"sqlite://{folder / 'off.db'}"], env))
        on = stack.enter_context(start([*base, *store, "--trace"], env))
        yield {"emulator": emulator, "streams": streams, "trace off": off, "trace on": on}


def _traces_metric(server: Server) -> dict[str, int]:
    text = httpx.get(server.url + "/metrics", timeout=10).text
    found: dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith("toolwire_gateway_traces_total{"):
            found[line.split('"')[1]] = int(float(line.rsplit(" ", 1)[1]))
    return found


async def _samples(url: str) -> list[TraceRecord]:
    """A whole call's trace and a stream's, as the traced gateway kept them."""
    store = await open_store(url, create=False)
    found: dict[bool, TraceRecord] = {}
    try:
        for row in await store.list_traces(TraceQuery(limit=10_000)):
            record = await store.get_trace(row.id) if row.stream not in found else None
            if record is not None:
                found[record.stream] = record
            if len(found) == 2:
                break
    finally:
        await store.aclose()
    assert len(found) == 2, f"the traced gateway kept no {'stream' if False in found else 'whole call'}"
    return [found[False], found[True]]


def _copies(samples: list[TraceRecord], count: int) -> list[TraceRecord]:
    """``count`` traces: the samples in turn (3 whole calls to 1 stream), new ids and times."""
    mix = [samples[0]] * 3 + samples[1:2]
    now = time.time()
    return [
        msgspec.structs.replace(mix[n % len(mix)], id=f"req_{n:08x}", created_at=now - count + n)
        for n in range(count)
    ]


async def _kept(url: str, traces: list[TraceRecord]) -> dict[str, float]:
    store = await open_store(url)
    try:
        for trace in traces:
            await store.put_trace(trace)
        timings: dict[str, list[float]] = {"list 50": [], "list filtered": [], "get": []}
        for _ in range(7):
            start = time.perf_counter()
            await store.list_traces(TraceQuery(limit=50))
            timings["list 50"].append(time.perf_counter() - start)
            start = time.perf_counter()
            await store.list_traces(TraceQuery(limit=50, status="5xx"))  # matches none: scans all
            timings["list filtered"].append(time.perf_counter() - start)
            start = time.perf_counter()
            await store.get_trace(traces[len(traces) // 2].id)
            timings["get"].append(time.perf_counter() - start)
        return {name: statistics.median(values) * 1e3 for name, values in timings.items()}
    finally:
        await store.aclose()


def _memory(samples: list[TraceRecord], count: int, folder: Path) -> dict[str, float]:
    traces = _copies(samples, count)
    sizes = [len(msgspec.json.encode(t)) for t in traces[:4]]
    print(f"  {count} traces kept (3 whole calls to 1 stream; encoded {min(sizes)}-{max(sizes)} bytes each):")
    peak_store = _held_memory(traces)
    memory = asyncio.run(_kept("memory://", traces))
    db = folder / "bench10k.db"
    sqlite = asyncio.run(_kept(f"sqlite://{db}", traces))
    file_mib = sum(p.stat().st_size for p in folder.glob("bench10k.db*")) / 2**20
    out = {
        "memory KiB/trace": peak_store / count / 1024,
        "sqlite MiB": file_mib,
        **{f"memory {k} ms": v for k, v in memory.items()},
        **{f"sqlite {k} ms": v for k, v in sqlite.items()},
    }
    print(f"    memory store: {out['memory KiB/trace']:.2f} KiB per trace (tracemalloc), "
          f"{peak_store / 2**20:.1f} MiB for {count}")  # fmt: skip
    print(f"    sqlite file: {file_mib:.1f} MiB ({file_mib * 1024 / count:.2f} KiB per trace)")
    print(f"    {'backend':<8} {'list newest 50':>15} {'list, filter scans all':>23} {'get one':>9}")
    for name, row in (("memory", memory), ("sqlite", sqlite)):
        print(
            f"    {name:<8} {row['list 50']:>12.2f} ms {row['list filtered']:>20.2f} ms {row['get']:>6.2f} ms"
        )
    return out


def _held_memory(traces: list[TraceRecord]) -> float:
    """Bytes a memory store holds for ``traces`` (tracemalloc, the store kept open)."""

    async def fill() -> float:
        store = await open_store("memory://")
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for trace in traces:
            await store.put_trace(trace)
        held = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        await store.aclose()
        return float(held)

    return asyncio.run(fill())


def run(rounds: int = 5, count: int = 10_000, backend: str = "sqlite") -> dict[str, float]:
    """Run the benchmark, print its tables, return the headline numbers."""
    print(f"trace: Chat client -> Anthropic upstream, --trace on ({backend} store) vs off; "
          f"{rounds} alternating rounds; load average {os.getloadavg()[0]:.1f}")  # fmt: skip
    body = chat_body()
    chat, direct = _chat(body), _direct(body)
    stream_chat, stream_direct = _chat(chat_body(True, STREAM_MODEL)), _direct(chat_body(True, STREAM_MODEL))
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp, servers(Path(tmp), backend) as up:
        gateways = {name: up[name] for name in ("trace off", "trace on")}
        reply = httpx.post(up["emulator"].url + direct.target, content=direct.body, timeout=30).content
        floor = _floor_us(chat.body, reply)
        print(f"  request {len(chat.body)} bytes; floor (orjson loads+dumps of request and answer): "
              f"{floor:.1f} µs")  # fmt: skip
        for concurrency, requests in ((1, 300), (16, 480)):
            targets = {"direct": (up["emulator"], direct), **{n: (s, chat) for n, s in gateways.items()}}
            rows = _latency_table(_rounds(targets, concurrency, requests, rounds), concurrency)
            for q in ("50", "99"):
                cost = (rows["trace on"][f"added{q}"] - rows["trace off"][f"added{q}"]) * 1e3
                results[f"c{concurrency} tracing cost p{q} µs"] = cost
                print(f"    tracing cost p{q} (on - off): {cost:.0f} µs = {cost / floor:.1f}x the floor")
            results[f"c{concurrency} cpu on/off"] = rows["trace on"]["cpu_us"] / rows["trace off"]["cpu_us"]
        targets = {
            "direct": (up["streams"], stream_direct),
            **{n: (s, stream_chat) for n, s in gateways.items()},
        }
        stream = _stream_table(_rounds(targets, 1, 30, rounds))
        results["stream tracing cost µs/event"] = stream["trace on"] - stream["trace off"]
        print(f"    tracing cost per event (on - off): {results['stream tracing cost µs/event']:.2f} µs")
        time.sleep(1.0)  # let the writer finish its queue
        written = _traces_metric(up["trace on"])
        for name, server in gateways.items():
            results[f"{name} RSS MiB"] = rss_kib(server.pid) / 1024
        print(f"  gateway RSS after the run: off {results['trace off RSS MiB']:.0f} MiB, "
              f"on {results['trace on RSS MiB']:.0f} MiB; traces {written}")  # fmt: skip
        results["dropped"] = written.get("dropped", 0)
        if backend == "sqlite":
            samples = asyncio.run(_samples(f"sqlite://{Path(tmp) / 'traces.db'}"))
            results.update(_memory(samples, count, Path(tmp)))
    return results


def main(argv: list[str] | None = None) -> None:
    """``python -m benchmarks.bench_trace [--quick]``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_trace")
    parser.add_argument("--quick", action="store_true", help="2 rounds and 2,000 traces")
    parser.add_argument(
        "--store",
        choices=["sqlite", "memory"],
        default="sqlite",
        help="the traced gateway's store (default sqlite)",
    )
    args = parser.parse_args(argv)
    run(2, 2000, args.store) if args.quick else run(backend=args.store)


if __name__ == "__main__":
    main()
