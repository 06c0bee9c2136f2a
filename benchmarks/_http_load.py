"""HTTP plumbing of the emulator benchmark: server subprocesses, a baseline app, a load generator.

Every server runs as ``uvicorn`` in its own process, so the load generator in the benchmark's
process does not share its core or GIL. The load generator is a minimal asyncio HTTP/1.1
keep-alive client (see :func:`drive`); the answers are checked once with ``httpx``
(:func:`record`). The *baseline* is a plain ASGI handler that replays recorded answers byte for
byte (a dict lookup per request; SSE bodies sent one event per chunk like the emulator does):
the same bytes over the same transport, with no work behind them. Server CPU time is read from
``/proc`` (Linux), so the cost per request on the server's one core can be told apart from the
load generator's.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson

__all__ = ["Call", "Load", "Server", "baseline_app", "drive", "record", "start_server"]

_ROOT = Path(__file__).resolve().parents[1]
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_HEADERS = {"content-type": "application/json"}
_Scope = MutableMapping[str, Any]
_Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
_Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Call:
    """One benchmark request: a POST of ``body`` to ``target`` (path with query)."""

    target: str
    body: bytes


@dataclass(frozen=True, slots=True)
class Load:
    """What one measurement saw: requests done, wall seconds, server CPU seconds (or None)."""

    requests: int
    seconds: float
    server_cpu: float | None

    @property
    def rate(self) -> float:
        """Requests per wall-clock second."""
        return self.requests / self.seconds

    @property
    def cpu_per_request(self) -> float | None:
        """Server CPU seconds per request, when the platform reports it."""
        return None if self.server_cpu is None else self.server_cpu / self.requests


@dataclass(frozen=True, slots=True)
class Server:
    """A running server subprocess."""

    pid: int
    url: str

    def cpu_seconds(self) -> float | None:
        """CPU time the server process has used so far, all threads (None off Linux).

        ``/proc/<pid>/task/*/schedstat`` counts nanoseconds; ``/proc/<pid>/stat`` only clock ticks.
        """
        try:
            tasks = list(Path(f"/proc/{self.pid}/task").iterdir())
            return sum(int((t / "schedstat").read_text().split()[0]) for t in tasks) / 1e9
        except (OSError, ValueError, IndexError):
            pass
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rpartition(")")[2].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_listening(proc: subprocess.Popen[bytes], port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited with status {proc.returncode}") from None
            if time.monotonic() > deadline:
                raise RuntimeError("server did not start listening in time") from None
            time.sleep(0.05)


@contextlib.contextmanager
def start_server(argv: list[str]) -> Iterator[Server]:
    """Run ``python argv... --port P`` (a free P), wait until it listens, stop it afterwards."""
    port = _free_port()
    cmd = [sys.executable, *argv, "--port", str(port)]
    proc = subprocess.Popen(cmd, cwd=_ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_listening(proc, port)
        yield Server(proc.pid, f"http://127.0.0.1:{port}")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _events(body: bytes, content_type: str) -> list[bytes]:
    """The body as the emulator sends it: one chunk per SSE event, or one JSON chunk."""
    if not content_type.startswith("text/event-stream"):
        return [body]
    return [event + b"\n\n" for event in body.split(b"\n\n") if event]


def record(url: str, calls: list[Call], path: Path) -> list[int]:
    """POST every call to ``url`` once, save the answers for :func:`baseline_app` to ``path``.

    Returns each answer's chunk count (SSE events; 1 for a JSON body). Raises RuntimeError if
    any answer is not a 200: the benchmark must measure real answers.
    """
    canned: list[dict[str, Any]] = []
    with httpx.Client(base_url=url, timeout=30) as client:
        for call in calls:
            reply = client.post(call.target, content=call.body, headers=_HEADERS)
            if reply.status_code != 200:
                raise RuntimeError(f"{call.target} answered {reply.status_code}: {reply.text[:300]}")
            kind = reply.headers["content-type"]
            chunks = [c.decode() for c in _events(reply.content, kind)]
            canned.append({"target": call.target, "body": call.body.decode(), "type": kind, "chunks": chunks})
    path.write_bytes(orjson.dumps(canned))
    return [len(item["chunks"]) for item in canned]


def baseline_app(path: Path) -> Callable[[_Scope, _Receive, _Send], Awaitable[None]]:
    """A bare ASGI app answering each recorded (target, body) with its recorded chunks."""
    canned: dict[tuple[str, bytes], tuple[list[tuple[bytes, bytes]], list[bytes]]] = {}
    for item in orjson.loads(path.read_bytes()):
        chunks = [c.encode() for c in item["chunks"]]
        headers = [(b"content-type", item["type"].encode())]
        if len(chunks) == 1 and not item["type"].startswith("text/event-stream"):
            headers.append((b"content-length", str(len(chunks[0])).encode()))
        canned[(item["target"], item["body"].encode())] = (headers, chunks)

    async def app(scope: _Scope, receive: _Receive, send: _Send) -> None:
        body, more = b"", True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        query = scope["query_string"].decode()
        target = scope["path"] + (f"?{query}" if query else "")
        headers, chunks = canned.get((target, body), ([], [b'{"error": "not recorded"}']))
        await send({"type": "http.response.start", "status": 200 if headers else 404, "headers": headers})
        if len(chunks) == 1:
            await send({"type": "http.response.body", "body": chunks[0]})
            return
        for chunk in chunks:
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        await send({"type": "http.response.body", "body": b""})

    return app


def _wire_request(call: Call) -> bytes:
    head = (
        f"POST {call.target} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
        f"content-length: {len(call.body)}\r\n\r\n"
    )
    return head.encode() + call.body


async def _read_reply(reader: asyncio.StreamReader) -> None:
    """Read one whole HTTP/1.1 response (``content-length`` or chunked); raise unless 200."""
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith((b"HTTP/1.1 200 ", b"HTTP/1.0 200 ")):
        status = head.split(b"\r\n", 1)[0].decode()
        raise RuntimeError(f"server answered {status!r}")
    lower = head.lower()
    if b"content-length:" in lower:
        await reader.readexactly(int(lower.split(b"content-length:")[1].split(b"\r\n")[0]))
        return
    while True:  # chunked transfer encoding
        size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
        await reader.readexactly(size + 2)
        if size == 0:
            return


class _Connection:
    """One keep-alive connection sending the same request again and again."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def send(self, request: bytes, count: int) -> None:
        for _ in range(count):
            self.writer.write(request)
            await _read_reply(self.reader)


async def _drive(server: Server, call: Call, concurrency: int, requests: int) -> Load:
    host, port = server.url.removeprefix("http://").split(":")
    request = _wire_request(call)
    conns = [_Connection(*await asyncio.open_connection(host, int(port))) for _ in range(concurrency)]
    try:
        await asyncio.gather(*(c.send(request, 2) for c in conns))  # warm both sides up
        per_conn = max(1, requests // concurrency)
        cpu_before = server.cpu_seconds()
        start = time.perf_counter()
        await asyncio.gather(*(c.send(request, per_conn) for c in conns))
        seconds = time.perf_counter() - start
        cpu_after = server.cpu_seconds()
    finally:
        for conn in conns:
            conn.writer.close()
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return Load(per_conn * concurrency, seconds, cpu)


def drive(server: Server, call: Call, concurrency: int, requests: int) -> Load:
    """Send about ``requests`` copies of ``call`` over ``concurrency`` keep-alive connections.

    The load generator is a minimal asyncio HTTP/1.1 client (one write per request, responses
    read by length or chunk): on this kind of loopback test ``httpx.AsyncClient`` costs several
    times more CPU per request than the server under test and would measure itself.
    """
    return asyncio.run(_drive(server, call, concurrency, requests))


def _serve_baseline(argv: list[str]) -> None:
    """``python -m benchmarks._http_load CANNED.json --port P``: serve :func:`baseline_app`."""
    import uvicorn

    path, port = Path(argv[0]), int(argv[argv.index("--port") + 1])
    uvicorn.run(baseline_app(path), host="127.0.0.1", port=port, log_level="warning", lifespan="off")


if __name__ == "__main__":
    _serve_baseline(sys.argv[1:])
