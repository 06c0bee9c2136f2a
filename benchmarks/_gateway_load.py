"""Plumbing of the gateway benchmark: a timed keep-alive load generator, a stream upstream,
process CPU and memory readings, and any server command run as a subprocess.

The *stream upstream* (``python -m benchmarks._gateway_load --port P``) speaks Anthropic
Messages: a request for the model ``stall`` gets a stream's first events and then nothing until
its client leaves (the open streams of the memory test); any other streaming request gets the
200-event stream of ``bench_stream`` replayed from bytes, one event per chunk.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from benchmarks._http_load import Call, Server, _free_port, _read_reply, _wait_listening, _wire_request

__all__ = ["Timed", "open_streams", "rss_kib", "start", "timed", "tree_cpu_seconds"]

_ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True, slots=True)
class Timed:
    """One measurement: each request's latency (s), the wall time, and the server tree's CPU."""

    latencies: list[float]
    seconds: float
    server_cpu: float

    @property
    def rate(self) -> float:
        """Requests per wall-clock second."""
        return len(self.latencies) / self.seconds


@contextlib.contextmanager
def start(argv: list[str], env: dict[str, str] | None = None) -> Iterator[Server]:
    """Run ``argv --port P`` (a free P, any executable), wait until it listens, stop it after."""
    port = _free_port()
    proc = subprocess.Popen(
        [*argv, "--port", str(port)],
        cwd=_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
        start_new_session=True,
    )
    try:
        _wait_listening(proc, port, timeout=120)
        yield Server(proc.pid, f"http://127.0.0.1:{port}")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()


def _children(pid: int) -> list[int]:
    out = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            out.extend(_children(int(child)))
    return out


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by ``pid`` and its descendants, all threads (Linux)."""
    total = 0.0
    for member in _children(pid):
        for task in Path(f"/proc/{member}/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                total += int((task / "schedstat").read_text().split()[0]) / 1e9
    return total


def rss_kib(pid: int) -> int:
    """Resident memory of ``pid`` and its descendants, KiB."""
    total = 0
    for member in _children(pid):
        for line in Path(f"/proc/{member}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


async def _timed_conn(host: str, port: int, request: bytes, warm: int, count: int, out: list[float]) -> None:
    reader, writer = await asyncio.open_connection(host, port)
    try:
        for _ in range(warm):
            writer.write(request)
            await _read_reply(reader)
        for _ in range(count):
            start = time.perf_counter()
            writer.write(request)
            await _read_reply(reader)
            out.append(time.perf_counter() - start)
    finally:
        writer.close()


async def _timed(server: Server, call: Call, concurrency: int, requests: int, headers: str) -> Timed:
    host, port = server.url.removeprefix("http://").split(":")
    request = _wire_request(call)
    if headers:
        request = request.replace(b"\r\n\r\n", b"\r\n" + headers.encode() + b"\r\n\r\n", 1)
    per_conn = max(1, requests // concurrency)
    latencies: list[float] = []
    warm: list[float] = []
    await asyncio.gather(*(_timed_conn(host, int(port), request, 0, 2, warm) for _ in range(concurrency)))
    cpu = tree_cpu_seconds(server.pid)
    start = time.perf_counter()
    await asyncio.gather(
        *(_timed_conn(host, int(port), request, 0, per_conn, latencies) for _ in range(concurrency))
    )
    seconds = time.perf_counter() - start
    return Timed(latencies, seconds, tree_cpu_seconds(server.pid) - cpu)


def timed(server: Server, call: Call, concurrency: int, requests: int, headers: str = "") -> Timed:
    """About ``requests`` copies of ``call`` over ``concurrency`` keep-alive connections (opened
    and warmed first), each request timed from its write to its last byte."""
    return asyncio.run(_timed(server, call, concurrency, requests, headers))


async def _open(server: Server, call: Call, count: int, hold: float, headers: str) -> int:
    host, port = server.url.removeprefix("http://").split(":")
    request = _wire_request(call)
    if headers:
        request = request.replace(b"\r\n\r\n", b"\r\n" + headers.encode() + b"\r\n\r\n", 1)
    conns = []
    for _ in range(count):
        reader, writer = await asyncio.open_connection(host, int(port))
        writer.write(request)
        conns.append((reader, writer))
    for reader, _ in conns:  # each stream has started: its headers and first events arrived
        await reader.readuntil(b"Let")  # the first text delta (bench_stream's first word)
    await asyncio.sleep(hold)
    rss = rss_kib(server.pid)
    for _, writer in conns:
        writer.close()
    return rss


def open_streams(server: Server, call: Call, count: int, hold: float = 0.5, headers: str = "") -> int:
    """Open ``count`` streams of ``call`` at once (each past its first events), then the server
    tree's RSS in KiB while all are open; the streams are closed before returning."""
    return asyncio.run(_open(server, call, count, hold, headers))


# -- the stream upstream ----------------------------------------------------------------------


def _sse(event: dict[str, Any]) -> bytes:
    return b"event: " + event["type"].encode() + b"\ndata: " + orjson.dumps(event) + b"\n\n"


def stream_upstream(events: int = 200) -> Any:
    """The ASGI app of the module docstring."""
    from benchmarks.bench_stream import anthropic_stream

    chunks = [_sse(event) for event in anthropic_stream(events)]
    head = {
        "type": "http.response.start",
        "status": 200,
        "headers": [(b"content-type", b"text/event-stream")],
    }

    async def app(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        await send(head)
        if b'"stall"' in body:
            for chunk in chunks[:4]:  # up to the first text delta
                await send({"type": "http.response.body", "body": chunk, "more_body": True})
            while (await receive())["type"] != "http.disconnect":
                pass
            return
        for chunk in chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    return app


def _serve(argv: list[str]) -> None:
    import uvicorn

    port = int(argv[argv.index("--port") + 1])
    uvicorn.run(stream_upstream(), host="127.0.0.1", port=port, log_level="warning", lifespan="off")


if __name__ == "__main__":
    _serve(sys.argv[1:])
