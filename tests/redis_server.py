"""A real ``redis-server`` for tests: a class to start, kill and restart one, and a session fixture.

``redis-server`` runs on a free loopback port in a temporary folder with ``appendonly yes`` and
``appendfsync always``. Without the binary the Redis cases are skipped, saying so, except under
CI (``CI=true``), where its absence fails: CI installs it (``.ci/run``). Conftests that need the
fixture import it.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def need_redis_server() -> str:
    """The ``redis-server`` binary; skips (or fails, under CI) when it is not installed."""
    found = shutil.which("redis-server")
    if found is None:
        reason = "redis-server is not installed (apt-get install redis-server); the Redis store is untested"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI must install redis-server: {reason}")
        pytest.skip(reason)
    return found


class RedisServer:
    """One ``redis-server`` process with an append-only file fsynced on every write."""

    def __init__(self, binary: str, folder: Path) -> None:
        self.binary, self.folder, self.port = binary, folder, free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        argv = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder)]
        argv += ["--appendonly", "yes", "--appendfsync", "always", "--save", "", "--daemonize", "no"]
        self.proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.ping():
                return
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """SIGKILL: no shutdown, no final fsync."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None

    def url(self, prefix: str | None = None) -> str:
        return f"redis://127.0.0.1:{self.port}/0?prefix={prefix or 't' + uuid.uuid4().hex[:12] + ':'}"


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    server = RedisServer(need_redis_server(), tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()
