"""A traced gateway for tests: :class:`~toolwire.gateway.GatewayApp` with ``[trace]`` on, served
on loopback in front of the emulator, and a way to wait for its background writer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from tests.store.conftest import Backend
from toolwire.emulator import serve
from toolwire.gateway import GatewayApp, GatewayKey, HopConfig, Route, TraceConfig, Upstream
from toolwire.store import open_store
from toolwire.trace import TraceQuery, TraceRecord

FAKE = "sk-test-FAKEKEY-1234567890"
"""The one key of these tests: the upstream key, the gateway key, and what clients present."""
ENV = {"TRACE_UPSTREAM_KEY": FAKE, "TRACE_GATEWAY_KEY": FAKE}


def traced_config(emulator_url: str, store: str, **trace: Any) -> HopConfig:
    """Every model to the emulator's Anthropic API (``to-anthropic`` -> ``claude-sonnet-4-5``)."""
    upstream = Upstream("claude", "anthropic", emulator_url, "TRACE_UPSTREAM_KEY")
    return HopConfig(
        {"claude": upstream},
        (Route("to-anthropic", "claude", "claude-sonnet-4-5"),),
        default=Route("*", "claude"),
        keys=(GatewayKey(FAKE),),
        store=store,
        trace=replace(TraceConfig(enabled=True), **trace),
    )


@contextmanager
def traced_gateway(config: HopConfig) -> Iterator[tuple[str, GatewayApp]]:
    """The app of ``config`` on loopback: ``(base URL, app)``."""
    app = GatewayApp(config, env=ENV)
    with serve(app, log_level="critical") as url:
        yield url, app


def kept(backend: Backend, app: GatewayApp, count: int, timeout: float = 60.0) -> list[TraceRecord]:
    """The newest ``count`` traces once the writer has kept that many (newest first)."""
    deadline = time.monotonic() + timeout
    while True:
        if app.metrics.traces["written"] >= count or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    assert app.metrics.traces["written"] >= count, f"only {dict(app.metrics.traces)} traces written"
    if backend.name == "memory":  # the app's own store, read from its data
        store = app.store._store
        return [_memory_get(store, s) for s in asyncio.run(store.list_traces(TraceQuery(limit=count)))]

    async def read() -> list[TraceRecord]:
        store = await open_store(backend.url)
        try:
            found = await store.list_traces(TraceQuery(limit=count))
            return [r for s in found if (r := await store.get_trace(s.id)) is not None]
        finally:
            await store.aclose()

    return asyncio.run(read())


def _memory_get(store: Any, summary: Any) -> TraceRecord:
    from toolwire.trace import decode_trace

    return decode_trace(store._traces[summary.id][2])
