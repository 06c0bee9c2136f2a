"""Loopback fixtures: the emulator behind a small recording ASGI layer, served on 127.0.0.1.

:class:`Recorder` wraps the emulator app. It records every request as the server received it
(path, query, headers, JSON body), injects scheduled faults (one ``x-toolwire-fault`` spec per
coming request, so "429 then success" is possible although the client resends the same
headers), can strip ``Retry-After`` from answers, and sets the ``x-request-id`` of each answer to ``req_<n>``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from toolwire.emulator import FAULT_HEADER, EmulatorConfig, create_app, serve

KEY = "sk-test-0123456789abcdef-SECRET"
"""The API key the emulator accepts."""


@dataclass(frozen=True)
class Seen:
    """One request as the server received it."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any


class Recorder:
    """ASGI middleware: record requests, schedule faults, tweak answer headers."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.requests: list[Seen] = []
        self.faults: deque[str | None] = deque()
        self.strip_retry_after = False

    def schedule(self, *specs: str | None) -> None:
        """Faults for the next requests, in order (``None``: no fault for that one)."""
        self.faults.extend(specs)

    def reset(self) -> None:
        self.requests.clear()
        self.faults.clear()
        self.strip_retry_after = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks = []
        while True:
            message = await receive()
            chunks.append(message.get("body", b""))
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        headers = list(scope["headers"])
        spec = self.faults.popleft() if self.faults else None
        if spec:
            headers.append((FAULT_HEADER.encode(), spec.encode()))
        self._record(scope, headers, body)
        number = len(self.requests)
        delivered = False

        async def replay() -> Any:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        async def tweak(message: Any) -> None:
            if message["type"] == "http.response.start":
                kept = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if not (self.strip_retry_after and k.lower() == b"retry-after")
                    and k.lower() != b"x-request-id"  # ours replaces the emulator's, if it sends one
                ]
                kept.append((b"x-request-id", f"req_{number}".encode()))
                message = {**message, "headers": kept}
            await send(message)

        await self.app({**scope, "headers": headers}, replay, tweak)

    def _record(self, scope: Any, headers: list[tuple[bytes, bytes]], body: bytes) -> None:
        decoded = {k.decode().lower(): v.decode() for k, v in headers}
        self.requests.append(
            Seen(
                scope["method"],
                scope["path"],
                scope.get("query_string", b"").decode(),
                decoded,
                json.loads(body) if body else None,
            )
        )


@dataclass
class Server:
    """A running emulator: its base URL and its recorder."""

    url: str
    recorder: Recorder

    @property
    def requests(self) -> list[Seen]:
        return self.recorder.requests


def _start(config: EmulatorConfig) -> Iterator[Server]:
    recorder = Recorder(create_app(config))
    with serve(recorder) as url:
        yield Server(url, recorder)


@pytest.fixture(scope="session")
def _open_server() -> Iterator[Server]:
    yield from _start(EmulatorConfig())


@pytest.fixture(scope="session")
def _keyed_server() -> Iterator[Server]:
    yield from _start(EmulatorConfig(api_keys=(KEY,)))


@pytest.fixture
def server(_open_server: Server) -> Server:
    """The emulator without authentication, its recorder emptied."""
    _open_server.recorder.reset()
    return _open_server


@pytest.fixture
def keyed(_keyed_server: Server) -> Server:
    """The emulator accepting only :data:`KEY`, its recorder emptied."""
    _keyed_server.recorder.reset()
    return _keyed_server


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Sleeps(list[float]):
    """An injected sleep: records the waits instead of waiting."""

    def __call__(self, seconds: float) -> None:
        self.append(seconds)

    async def async_sleep(self, seconds: float) -> None:
        self.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()
