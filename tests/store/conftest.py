"""Store fixtures: every backend for real (memory, a SQLite file, a ``redis-server`` we start,
see :mod:`tests.redis_server`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import pytest

from tests.redis_server import RedisServer, redis_server
from toolwire.store import Store, StoreLimits, open_store

__all__ = ["BACKENDS", "Backend", "backend", "redis_server", "shared_backend"]

T = TypeVar("T")
BACKENDS = ("memory", "sqlite", "redis")


@dataclass
class Backend:
    """One backend under test: its name and a URL private to the test."""

    name: str
    url: str

    def run(self, fn: Callable[[Store], Awaitable[T]], limits: StoreLimits | None = None) -> T:
        """``fn(store)`` on a freshly opened store, closed afterwards."""

        async def go() -> T:
            store = await open_store(self.url, limits)
            try:
                return await fn(store)
            finally:
                await store.aclose()

        return asyncio.run(go())


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    name: str = request.param
    if name == "memory":
        return Backend(name, "memory://")
    if name == "sqlite":
        return Backend(name, f"sqlite://{tmp_path / 'store.db'}")
    server: RedisServer = request.getfixturevalue("redis_server")
    return Backend(name, server.url())


@pytest.fixture(params=BACKENDS[1:])
def shared_backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    """The backends several processes can share."""
    if request.param == "sqlite":
        return Backend("sqlite", f"sqlite://{tmp_path / 'store.db'}")
    server: RedisServer = request.getfixturevalue("redis_server")
    return Backend("redis", server.url())
