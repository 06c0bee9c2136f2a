"""The gateway's added latency of a ``previous_response_id`` turn, per store backend:
``python -m benchmarks.bench_stateful``.

A Responses client talks to the gateway (the :class:`~toolwire.gateway.Transport`, in-process,
async) in front of an Anthropic upstream that answers at once (a canned message from an in-process
httpx transport, so only the gateway's own work is timed). The conversation so far is 50 items
(user and assistant messages, function calls and their outputs; about 12 KB of JSON), kept by the
gateway. Contenders, each one whole request and answer:

- ``inline, store:false``: the client sends the 50 items and its new message itself; nothing is
  kept (the stateless baseline: the same upstream request as a continuation);
- ``<backend>: inline, store:true``: the same, and the response is kept (its 52 items saved);
- ``<backend>: previous_response_id``: the client sends only ``previous_response_id`` and the new
  message; the gateway loads the 50 items, expands the history, and keeps the new response.

``added`` is a contender's median minus the baseline's. Backends: memory, SQLite on a temporary
file (WAL, each write fsynced) and a ``redis-server`` started here (``appendfsync always``;
skipped, and said, when the binary is missing). The floor is ``orjson`` parsing and dumping the
inline request body once. Contenders alternate in batches (15 rounds of 10 requests); medians of
wall time and of this process's CPU time per request (Redis's own CPU is not counted).
"""

from __future__ import annotations

import asyncio
import itertools
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import orjson

from benchmarks.bench_store import _Redis
from toolwire.gateway import HopConfig, Transport

ROUNDS = 15
BATCH = 10
ITEMS = 50
NEW = {"role": "user", "content": "And what about tomorrow?"}


def history_items(count: int) -> list[dict[str, Any]]:
    """``count`` Responses input items: a user message, a function call, its output, an answer."""
    out: list[dict[str, Any]] = []
    for n in range(count):
        kind = n % 4
        if kind == 0:
            out.append({"role": "user", "content": f"Check the weather and my calendar for day {n}, please."})
        elif kind == 1:
            args = '{"city": "Paris", "days": 3, "units": "metric"}'
            out.append(
                {"type": "function_call", "call_id": f"call_{n}", "name": "get_weather", "arguments": args}
            )
        elif kind == 2:
            output = '{"forecast": [{"day": 1, "high": 21.5, "low": 12.25}, {"day": 2, "high": 19.0}]}'
            out.append({"type": "function_call_output", "call_id": f"call_{n - 1}", "output": output})
        else:
            text = "It will be mild in Paris; your calendar has two meetings. " * 2
            out.append({"role": "assistant", "content": text})
    return out


TOOLS = [
    {
        "type": "function",
        "name": "get_weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    }
]


class CannedAnthropic(httpx.AsyncBaseTransport):
    """An Anthropic Messages API answering every request at once with a short text (a fresh
    message id each time, so every kept response is its own)."""

    def __init__(self) -> None:
        self._ids = itertools.count()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        await request.aread()
        body = {
            "id": f"msg_{next(self._ids):08d}",
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": "Mild, 21 degrees."}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": 900, "output_tokens": 6},
        }
        return httpx.Response(200, json=body, headers={"content-type": "application/json"})


Op = Callable[[], Awaitable[object]]


async def _post(http: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    reply = await http.post("http://gateway/v1/responses", json=body)
    if reply.status_code != 200:
        raise RuntimeError(f"the gateway answered {reply.status_code}: {reply.text}")
    answer: dict[str, Any] = reply.json()
    return answer


async def _backend_ops(name: str, url: str) -> tuple[dict[str, Op], Transport]:
    """The two contenders of one backend: a gateway keeping state in ``url``, seeded with a
    response whose history is ``ITEMS`` items."""
    transport = Transport(
        HopConfig.single("anthropic", "http://upstream", store=url), inner=CannedAnthropic()
    )
    http = httpx.AsyncClient(transport=transport, timeout=60)
    seed = await _post(http, {"model": "m", "input": history_items(ITEMS - 1), "tools": TOOLS})
    inline = {"model": "m", "input": [*history_items(ITEMS - 1), *seed["output"], NEW], "tools": TOOLS}
    continued = {"model": "m", "input": [NEW], "tools": TOOLS, "previous_response_id": seed["id"]}

    async def stored() -> object:
        return await _post(http, inline)

    async def turn() -> object:
        return await _post(http, continued)

    return {f"{name}: inline, store:true": stored, f"{name}: previous_response_id": turn}, transport


def _floor(body: dict[str, Any]) -> Op:
    async def floor() -> object:
        return orjson.loads(orjson.dumps(body))

    return floor


async def _measure(ops: dict[str, Op]) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) seconds per call of each op, in alternating batches."""
    for op in ops.values():  # warm up
        for _ in range(3):
            await op()
    wall: dict[str, list[float]] = {label: [] for label in ops}
    cpu: dict[str, list[float]] = {label: [] for label in ops}
    for _ in range(ROUNDS):
        for label, op in ops.items():
            start, start_cpu = time.perf_counter(), time.process_time()
            for _ in range(BATCH):
                await op()
            wall[label].append((time.perf_counter() - start) / BATCH)
            cpu[label].append((time.process_time() - start_cpu) / BATCH)
    return {label: (statistics.median(wall[label]), statistics.median(cpu[label])) for label in ops}


async def _run(folder: Path) -> dict[str, tuple[float, float]]:
    backends = {"memory": "memory://", "sqlite": f"sqlite://{folder / 'state.db'}"}
    redis = _Redis(folder) if shutil.which("redis-server") else None
    if redis is not None:
        backends["redis"] = f"redis://127.0.0.1:{redis.port}/0"
    transports: list[Transport] = []
    try:
        base = Transport(
            HopConfig.single("anthropic", "http://upstream", store="memory://"), inner=CannedAnthropic()
        )
        transports.append(base)
        base_http = httpx.AsyncClient(transport=base, timeout=60)
        seed = await _post(base_http, {"model": "m", "input": history_items(ITEMS - 1), "store": False})
        inline = {"model": "m", "input": [*history_items(ITEMS - 1), *seed["output"], NEW], "tools": TOOLS}

        async def baseline() -> object:
            return await _post(base_http, {**inline, "store": False})

        ops: dict[str, Op] = {"orjson parse+dump (floor)": _floor(inline), "inline, store:false": baseline}
        for name, url in backends.items():
            more, transport = await _backend_ops(name, url)
            transports.append(transport)
            ops.update(more)
        results = await _measure(ops)
    finally:
        for transport in transports:
            await transport.aclose()
        if redis is not None:
            redis.stop()
    _print(results, redis is not None)
    return results


def _print(results: dict[str, tuple[float, float]], with_redis: bool) -> None:
    floor = results["orjson parse+dump (floor)"][0]
    base_wall, base_cpu = results["inline, store:false"]
    print(f"stateful Responses through the gateway: one turn with {ITEMS} items of history")
    print(f"  {'contender':<40} {'wall':>9} {'cpu':>9} {'+wall':>9} {'+cpu':>9} {'vs floor':>9}")
    for label, (wall, cpu) in results.items():
        if label.startswith("orjson"):
            added = f"{'':>9} {'':>9}"
        else:
            added = f"{(wall - base_wall) * 1e6:>7.0f}µs {(cpu - base_cpu) * 1e6:>7.0f}µs"
        print(f"  {label:<40} {wall * 1e6:>7.0f}µs {cpu * 1e6:>7.0f}µs {added} {wall / floor:>8.1f}x")
    print("  (+wall, +cpu: added to the stateless baseline, inline, store:false)")
    if not with_redis:
        print("  (redis-server not installed: the Redis backend was not measured)")


def run() -> dict[str, float]:
    """Print the table; return each contender's wall-time ratio to the floor."""
    with tempfile.TemporaryDirectory() as folder:
        results = asyncio.run(_run(Path(folder)))
    floor = results["orjson parse+dump (floor)"][0]
    return {label: wall / floor for label, (wall, _) in results.items()}


if __name__ == "__main__":
    run()
