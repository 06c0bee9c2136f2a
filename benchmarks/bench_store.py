"""The store's cost per ``previous_response_id`` turn, per backend: ``python -m benchmarks.bench_store``.

A turn loads the stored response it continues (50 input items: messages, function calls and
outputs, reasoning items with 2 KB of ``encrypted_content``; about 40 KB of JSON) and stores the
next one (those items, the previous output and the new input). A conversation turn lists the
conversation's 50 items and appends 2. Backends: memory, SQLite on a temporary file (WAL,
``synchronous=FULL``: each write is fsynced) and a ``redis-server`` started here with
``appendfsync always`` (skipped, and said, when the binary is missing).

The floor is ``orjson`` dumping and parsing the same record once, which any store that keeps it
as JSON pays at least. Contenders run in alternating batches (15 rounds); the table shows the
median wall time per turn, the median CPU time of this process per turn (the SQLite worker
thread included; Redis's own CPU is not), and the wall-time ratio to the floor. On a shared
machine the SQLite and Redis numbers are dominated by fsync latency.
"""

from __future__ import annotations

import asyncio
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import msgspec
import orjson

from toolwire.store import ConversationRecord, ResponseRecord, Store, open_store

ROUNDS = 15
BATCH = 10
ITEMS = 50


def _items(count: int, owner: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for n in range(count):
        kind = n % 5
        key = f"{owner}_{n}"
        if kind == 0:
            text = f"Please check the weather and the calendar for step {n}. " * 4
            out.append(
                {
                    "id": f"msg_{key}",
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": text}],
                }
            )
        elif kind == 1:
            out.append(
                {
                    "id": f"rs_{key}",
                    "type": "reasoning",
                    "summary": [],
                    "encrypted_content": "gAAAAAB" + "Qx9/" * 512,
                }
            )
        elif kind == 2:
            args = '{"city": "Paris", "days": 3, "units": "metric"}'
            out.append(
                {
                    "id": f"fc_{key}",
                    "type": "function_call",
                    "call_id": f"call_{key}",
                    "name": "get_weather",
                    "arguments": args,
                }
            )
        elif kind == 3:
            output = '{"forecast": [{"day": 1, "high": 21.5, "low": 12.25}, {"day": 2, "high": 19.0}]}'
            out.append(
                {
                    "id": f"fco_{key}",
                    "type": "function_call_output",
                    "call_id": f"call_{owner}_{n - 1}",
                    "output": output,
                }
            )
        else:
            text = "It will be mild in Paris; your calendar has two meetings. " * 3
            out.append(
                {
                    "id": f"msg_{key}",
                    "type": "message",
                    "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": text, "annotations": []}],
                }
            )
    return out


def base_record() -> ResponseRecord:
    """The stored response a turn continues: 50 input items, 2 output items."""
    output = _items(2, "out")
    request = {
        "model": "gpt-5",
        "instructions": "Be brief.",
        "tools": [
            {
                "type": "function",
                "name": "get_weather",
                "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
            }
        ],
        "store": True,
    }
    response = {
        "id": "resp_base",
        "object": "response",
        "created_at": 1_750_000_000,
        "status": "completed",
        **request,
        "output": output,
        "usage": {"input_tokens": 5000, "output_tokens": 120, "total_tokens": 5120},
    }
    return ResponseRecord(
        id="resp_base",
        created_at=1_750_000_000,
        request=request,
        input_items=_items(ITEMS, "in"),
        output_items=output,
        response=response,
    )


def next_record(previous: ResponseRecord, n: int) -> ResponseRecord:
    """The response of the next turn: the previous history, its output, one new user message."""
    user = {
        "id": f"msg_turn_{n}",
        "type": "message",
        "role": "user",
        "content": [{"type": "input_text", "text": "And tomorrow?"}],
    }
    return msgspec.structs.replace(
        previous,
        id=f"resp_turn_{n}",
        input_items=[*previous.input_items, *previous.output_items, user],
        previous_response_id=previous.id,
    )


class _Redis:
    """A throwaway redis-server on a free port, fsyncing every write."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = int(sock.getsockname()[1])
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(folder)]
        argv += ["--appendonly", "yes", "--appendfsync", "always", "--save", ""]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                return
            except OSError:
                time.sleep(0.05)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


Op = Callable[[int], Awaitable[object]]


async def _contenders(stores: dict[str, Store]) -> dict[str, Op]:
    record = base_record()
    data = msgspec.json.encode(record)
    builtins = msgspec.to_builtins(record)

    async def floor(n: int) -> object:
        return orjson.loads(orjson.dumps(builtins)) and len(data)

    ops: dict[str, Op] = {"orjson dump+parse (floor)": floor}
    for name, store in stores.items():
        await store.put_response(record)
        await store.create_conversation(ConversationRecord(id="conv_base", created_at=0), record.input_items)
        ops[f"{name}: response turn"] = _response_turn(store)
        ops[f"{name}: conversation turn"] = _conversation_turn(store)
    return ops


def _response_turn(store: Store) -> Op:
    async def turn(n: int) -> object:
        previous = await store.get_response("resp_base")
        assert previous is not None
        await store.put_response(next_record(previous, n))
        return previous

    return turn


def _conversation_turn(store: Store) -> Op:
    async def turn(n: int) -> object:
        page = await store.list_items("conv_base", limit=100)
        items = [
            {"id": f"msg_c{n}_{k}", "type": "message", "role": "user", "content": "next"} for k in range(2)
        ]
        await store.append_items("conv_base", items)
        return page

    return turn


async def _measure(ops: dict[str, Op]) -> dict[str, tuple[float, float]]:
    counter = 0
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label in ops}
    for _ in range(ROUNDS):
        for label, op in ops.items():
            wall, cpu = time.perf_counter(), time.process_time()
            for _ in range(BATCH):
                counter += 1
                await op(counter)
            samples[label].append(((time.perf_counter() - wall) / BATCH, (time.process_time() - cpu) / BATCH))
    return {
        label: (statistics.median(w for w, _ in rows), statistics.median(c for _, c in rows))
        for label, rows in samples.items()
    }


async def _main(folder: Path) -> list[str]:
    urls = {"memory": "memory://", "sqlite": f"sqlite://{folder / 'bench.db'}"}
    notes, server = [], None
    if shutil.which("redis-server"):
        server = _Redis(folder)
        urls["redis"] = f"redis://127.0.0.1:{server.port}/0"
    else:
        notes.append("  (redis-server not installed: Redis not measured)")
    stores = {name: await open_store(url) for name, url in urls.items()}
    try:
        results = await _measure(await _contenders(stores))
    finally:
        for store in stores.values():
            await store.aclose()
        if server is not None:
            server.stop()
    floor = results["orjson dump+parse (floor)"][0]
    size = len(msgspec.json.encode(base_record()))
    lines = [f"store: one previous_response_id turn, {ITEMS} stored items ({size // 1024} KB of JSON)"]
    lines.append(f"  {'contender':<36} {'wall µs':>10} {'CPU µs':>10} {'x floor':>9}")
    for label, (wall, cpu) in results.items():
        lines.append(f"  {label:<36} {wall * 1e6:>10.1f} {cpu * 1e6:>10.1f} {wall / floor:>8.1f}x")
    return lines + notes


def run() -> None:
    """Print the table."""
    with tempfile.TemporaryDirectory(prefix="toolwire-bench-store-") as folder:
        print("\n".join(asyncio.run(_main(Path(folder)))))


if __name__ == "__main__":
    run()
