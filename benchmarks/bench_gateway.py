"""The gateway's cost: what ``toolwire serve`` adds in front of an upstream, against LiteLLM proxy.

One route, the gateway's main job: an OpenAI Chat client, an Anthropic upstream. Three
contenders answer the same request, each a uvicorn server in its own process:

- **direct**: the client sends the Anthropic request (the gateway's own translation of the Chat
  request) straight to the upstream: the floor every proxy adds to;
- **toolwire**: ``toolwire serve --config`` (access log on, as shipped) in front of it;
- **litellm**: LiteLLM proxy (``litellm --config``, one worker) with the same route, installed
  only in the benchmark's own venv (``.venv-bench``; created on the first run, see ``--no-litellm``).

Upstreams: the emulator (``toolwire emulate``) for the non-streaming 5 KB tool-call request,
answered with a tool call; for streams, ``_gateway_load``'s upstream replaying the 200-event
Anthropic stream of ``bench_stream`` (one event per chunk), or stalling after its first events.

Measured, contenders alternated round by round (medians; percentiles over all rounds' samples):

- **added latency** p50/p99 = contender's latency percentile - direct's, concurrency 1 and 64;
- **added per-event cost** of a 200-event stream = (contender's stream time - direct's) / 200,
  and the proxy process's CPU per event;
- **requests/s** at concurrency 64 (wall clock: load generator, proxy and upstream share the
  2 cores), and the proxy's own CPU per request (``core req/s`` = 1e6 / CPU µs: one core's worth);
- **memory per open stream**: the proxy's RSS with 100 streams open at once minus before, / 100.

Targets (issue 14): added p50 < 1 ms and p99 < 5 ms at concurrency 1; at least 5x less added
latency than LiteLLM proxy and 3x its requests/s.

Run: ``python -m benchmarks.bench_gateway`` (``--quick`` for fewer rounds, ``--no-litellm``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import orjson

from benchmarks._gateway_load import Timed, open_streams, rss_kib, start, timed
from benchmarks._http_load import Call, Server
from benchmarks._payloads import chat_tools

__all__ = ["run"]

_ROOT = Path(__file__).resolve().parents[1]
BENCH_VENV = _ROOT / ".venv-bench"
LITELLM_SPEC = "litellm[proxy]"
STREAM_EVENTS = 200
OPEN_STREAMS = 100
MODEL, STREAM_MODEL, STALL = "gpt-4o", "bench-stream", "stall"
PROXY_KEY = "sk-bench-proxy-key-not-a-secret"
"""Both proxies check a key (LiteLLM refuses to start without one): each request sends it."""
AUTH = f"authorization: Bearer {PROXY_KEY}"
_SYSTEM = "You are the support assistant of an online shop. Use the tools; answer briefly."


def chat_body(stream: bool = False, model: str = MODEL, size: int = 5000) -> dict[str, Any]:
    """A Chat request of about ``size`` bytes: system, user, and as many tools as fit."""
    tools: list[dict[str, Any]] = []
    body: dict[str, Any] = {}
    for tool in chat_tools(64, seed=11):
        tools.append(tool)  # already {"type": "function", "function": {...}}
        body = {
            "model": model,
            "messages": [
                {"role": "system", "content": _SYSTEM},
                {"role": "user", "content": "Where is my order A-1042? It was due yesterday."},
            ],
            "tools": tools,
            "stream": stream,
        }
        if len(orjson.dumps(body)) >= size:
            break
    return body


def _direct(body: dict[str, Any]) -> Call:
    """The Anthropic call the gateway makes for ``body`` (its own translation)."""
    from toolwire import Exchange
    from toolwire.hop import InboundRequest

    inbound = InboundRequest("POST", "/v1/chat/completions", "", {}, orjson.dumps(body))
    call = Exchange("openai-chat", "anthropic").request_http(inbound)
    return Call(call.path, call.body)


def _chat(body: dict[str, Any]) -> Call:
    return Call("/v1/chat/completions", orjson.dumps(body))


# -- servers ------------------------------------------------------------------------------------


def _gateway_config(folder: Path, emulator: str, streams: str) -> Path:
    path = folder / "gateway.toml"
    path.write_text(
        f'[upstreams.emulator]\nformat = "anthropic"\nbase_url = "{emulator}"\n\n'
        f'[upstreams.streams]\nformat = "anthropic"\nbase_url = "{streams}"\n\n'
        f'[[routes]]\nmatch = "{STREAM_MODEL}"\nupstream = "streams"\n\n'
        f'[[routes]]\nmatch = "{STALL}"\nupstream = "streams"\n\n'
        '[default]\nupstream = "emulator"\n\n'
        '[[keys]]\nkey_env = "TOOLWIRE_BENCH_KEY"\n'
    )
    return path


def _litellm_config(folder: Path, emulator: str, streams: str) -> Path:
    entries = [(MODEL, emulator), (STREAM_MODEL, streams), (STALL, streams)]
    models = [
        {
            "model_name": name,
            "litellm_params": {
                "model": f"anthropic/{name}",
                "api_base": base,
                "api_key": "sk-bench-not-a-key",
            },
        }
        for name, base in entries
    ]
    settings = {"drop_params": True, "telemetry": False, "set_verbose": False, "request_timeout": 60}
    path = folder / "litellm.json"  # YAML is a superset of JSON
    general = {"master_key": PROXY_KEY}
    path.write_text(
        json.dumps({"model_list": models, "litellm_settings": settings, "general_settings": general})
    )
    return path


def ensure_litellm() -> Path | None:
    """The LiteLLM proxy executable of the benchmark's own venv, installed on first use."""
    exe = BENCH_VENV / "bin" / "litellm"
    if exe.exists():
        return exe
    print(f"  installing {LITELLM_SPEC} into {BENCH_VENV.name} (only the benchmark uses it) ...", flush=True)
    try:
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        pip = [str(BENCH_VENV / "bin" / "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, LITELLM_SPEC], check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"  could not install LiteLLM ({exc}); no comparison")
        return None
    return exe if exe.exists() else None


_LITELLM_ENV = {
    "LITELLM_LOG": "ERROR",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "LITELLM_TELEMETRY": "False",
    "NO_DOCS": "True",
}


@contextlib.contextmanager
def servers(litellm: bool) -> Iterator[dict[str, Server]]:
    """The upstreams and the contenders, running (``direct`` maps each to its upstream)."""
    with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory() as tmp:
        py = sys.executable
        emulator = stack.enter_context(start([py, "-m", "toolwire.cli", "emulate", "--log-level", "warning"]))
        streams = stack.enter_context(start([py, "-m", "benchmarks._gateway_load"]))
        config = _gateway_config(Path(tmp), emulator.url, streams.url)
        argv = [py, "-m", "toolwire.cli", "serve", "--config", str(config), "--log-level", "warning"]
        gateway = stack.enter_context(start(argv, {"TOOLWIRE_BENCH_KEY": PROXY_KEY}))
        found = {"emulator": emulator, "streams": streams, "toolwire": gateway}
        exe = ensure_litellm() if litellm else None
        if exe is not None:
            cfg = _litellm_config(Path(tmp), emulator.url, streams.url)
            argv = [str(exe), "--config", str(cfg), "--host", "127.0.0.1", "--num_workers", "1"]
            found["litellm"] = stack.enter_context(start(argv, _LITELLM_ENV))
        yield found


# -- measurements -------------------------------------------------------------------------------


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _floor_us(body: bytes, reply: bytes, n: int = 2000) -> float:
    """orjson loads + dumps of the request and the answer, µs (the house floor)."""
    start = time.perf_counter()
    for _ in range(n):
        orjson.dumps(orjson.loads(body))
        orjson.dumps(orjson.loads(reply))
    return (time.perf_counter() - start) / n * 1e6


@contextlib.contextmanager
def _paused(others: Iterable[Server]) -> Iterator[None]:
    """The other proxies stopped (SIGSTOP) while one is timed: LiteLLM's background tasks use
    CPU even when idle, which on 2 shared cores would slow whichever contender runs beside it."""
    pids = [server.pid for server in others]
    for pid in pids:
        os.killpg(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            os.killpg(pid, signal.SIGCONT)


def _rounds(
    targets: dict[str, tuple[Server, Call]], concurrency: int, requests: int, rounds: int
) -> dict[str, list[Timed]]:
    """Each contender ``rounds`` times, alternating; proxies get the key header."""
    out: dict[str, list[Timed]] = {name: [] for name in targets}
    names = list(targets)
    for index in range(rounds):
        order = names if index % 2 == 0 else names[::-1]  # alternate, so a burst of load hits all
        for name in order:
            server, call = targets[name]
            headers = "" if name == "direct" else AUTH
            with _paused(s for n, (s, _) in targets.items() if n not in (name, "direct")):
                out[name].append(timed(server, call, concurrency, requests, headers))
    return out


def _latency_table(results: dict[str, list[Timed]], concurrency: int) -> dict[str, dict[str, float]]:
    pooled = {n: [x for t in ts for x in t.latencies] for n, ts in results.items()}
    base50, base99 = _pct(pooled["direct"], 0.5), _pct(pooled["direct"], 0.99)
    rows: dict[str, dict[str, float]] = {}
    for name, samples in pooled.items():
        pairs = zip(results[name], results["direct"], strict=True)
        per_round = [_pct(t.latencies, 0.5) - _pct(d.latencies, 0.5) for t, d in pairs]
        rows[name] = {
            "p50": _pct(samples, 0.5) * 1e3,
            "p99": _pct(samples, 0.99) * 1e3,
            "added50": (_pct(samples, 0.5) - base50) * 1e3,
            "added99": (_pct(samples, 0.99) - base99) * 1e3,
            "spread": (max(per_round) - min(per_round)) * 1e3,
            "rate": statistics.median(t.rate for t in results[name]),
            "cpu_us": statistics.median(t.server_cpu / len(t.latencies) for t in results[name]) * 1e6,
        }
    print(f"  concurrency {concurrency}: {len(pooled['direct'])} requests per contender")
    print(f"    {'contender':<10} {'p50 ms':>8} {'p99 ms':>8} {'added p50':>10} {'added p99':>10} "
          f"{'±p50':>6} {'req/s':>7} {'proxy CPU µs/req':>17}")  # fmt: skip
    for name, row in rows.items():
        cpu = "" if name == "direct" else f"{row['cpu_us']:>17.0f}"
        cells = f"{row['p50']:>8.3f} {row['p99']:>8.3f} {row['added50']:>10.3f} {row['added99']:>10.3f}"
        print(f"    {name:<10} {cells} {row['spread']:>6.2f} {row['rate']:>7.0f} {cpu}")
    return rows


def _stream_table(results: dict[str, list[Timed]]) -> dict[str, float]:
    base = statistics.median(x for t in results["direct"] for x in t.latencies)
    out: dict[str, float] = {}
    print(f"  a {STREAM_EVENTS}-event stream, concurrency 1:")
    print(f"    {'contender':<10} {'stream ms':>10} {'added µs/event':>15} {'proxy CPU µs/event':>19}")
    for name, timings in results.items():
        median = statistics.median(x for t in timings for x in t.latencies)
        added = (median - base) / STREAM_EVENTS * 1e6
        cpu = statistics.median(t.server_cpu / len(t.latencies) for t in timings) / STREAM_EVENTS * 1e6
        out[name] = added
        cpu_text = "" if name == "direct" else f"{cpu:>19.1f}"
        print(f"    {name:<10} {median * 1e3:>10.2f} {added:>15.2f} {cpu_text}")
    return out


def _memory(contenders: dict[str, Server], call: Call) -> dict[str, float]:
    out: dict[str, float] = {}
    for name, server in contenders.items():
        marker_call = call
        samples = []
        for _ in range(2):
            before = rss_kib(server.pid)
            during = open_streams(server, marker_call, OPEN_STREAMS, headers=AUTH)
            samples.append((during - before) / OPEN_STREAMS)
            time.sleep(0.5)
        out[name] = statistics.median(samples)
        idle = rss_kib(server.pid) / 1024
        print(f"    {name:<10} {out[name]:>8.1f} KiB per open stream (RSS {idle:.0f} MiB idle)")
    return out


def run(rounds: int = 5, litellm: bool = True) -> dict[str, float]:
    """Run the benchmark, print its tables, return the headline numbers."""
    load = os.getloadavg()[0]
    print(f"gateway: Chat client -> Anthropic upstream; {rounds} alternating rounds; load average {load:.1f}")
    body = chat_body()
    chat, direct = _chat(body), _direct(body)
    stream_chat = _chat(chat_body(True, STREAM_MODEL))
    stream_direct = _direct(chat_body(True, STREAM_MODEL))
    results: dict[str, float] = {}
    with servers(litellm) as up:
        proxies = {name: up[name] for name in ("toolwire", "litellm") if name in up}
        print(f"  request {len(chat.body)} bytes; floor (orjson loads+dumps of request and answer): ", end="")
        import httpx

        reply = httpx.post(up["emulator"].url + direct.target, content=direct.body, timeout=30).content
        print(f"{_floor_us(chat.body, reply):.1f} µs")
        for concurrency, requests in ((1, 300), (64, 640)):
            targets = {"direct": (up["emulator"], direct), **{n: (s, chat) for n, s in proxies.items()}}
            rows = _latency_table(_rounds(targets, concurrency, requests, rounds), concurrency)
            for name, row in rows.items():
                results[f"{name} c{concurrency} added p50 ms"] = row["added50"]
                results[f"{name} c{concurrency} added p99 ms"] = row["added99"]
                results[f"{name} c{concurrency} req/s"] = row["rate"]
                results[f"{name} c{concurrency} cpu µs"] = row["cpu_us"]
        targets = {
            "direct": (up["streams"], stream_direct),
            **{n: (s, stream_chat) for n, s in proxies.items()},
        }
        for name, added in _stream_table(_rounds(targets, 1, 30, rounds)).items():
            results[f"{name} stream added µs/event"] = added
        print(f"  memory, {OPEN_STREAMS} streams open at once:")
        stall = _chat(chat_body(True, STALL))
        for name, kib in _memory(proxies, stall).items():
            results[f"{name} KiB/stream"] = kib
    _verdict(results)
    return results


def _verdict(r: dict[str, float]) -> None:
    p50, p99 = r["toolwire c1 added p50 ms"], r["toolwire c1 added p99 ms"]
    print(f"  target added p50 < 1 ms at c1: {p50:.3f} ms ({'met' if p50 < 1 else 'NOT met'}); "
          f"p99 < 5 ms: {p99:.3f} ms ({'met' if p99 < 5 else 'NOT met'})")  # fmt: skip
    if "litellm c1 added p50 ms" not in r:
        return
    for c in (1, 64):
        ratio = r[f"litellm c{c} added p50 ms"] / max(r[f"toolwire c{c} added p50 ms"], 1e-3)
        verdict = "met" if ratio >= 5 else "NOT met"
        print(f"  added p50 at c{c}: LiteLLM / toolwire = {ratio:.1f}x ({verdict}, target 5x)")
    rate = r["toolwire c64 req/s"] / r["litellm c64 req/s"]
    core = r["litellm c64 cpu µs"] / r["toolwire c64 cpu µs"]
    print(f"  req/s at c64: toolwire / LiteLLM = {rate:.1f}x wall, {core:.1f}x per core of proxy CPU "
          f"({'met' if min(rate, core) >= 3 else 'see both'}, target 3x)")  # fmt: skip


def main(argv: list[str] | None = None) -> None:
    """``python -m benchmarks.bench_gateway [--quick] [--no-litellm]``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.bench_gateway")
    parser.add_argument("--quick", action="store_true", help="2 rounds instead of 5")
    parser.add_argument("--no-litellm", action="store_true", help="skip LiteLLM proxy")
    args = parser.parse_args(argv)
    run(2 if args.quick else 5, litellm=not args.no_litellm)


if __name__ == "__main__":
    main()
