"""The async client over loopback HTTP: same behaviour as the blocking one, plus cancellation."""

from __future__ import annotations

import time

import anyio
import pytest

from tests.client.conftest import KEY, Server, Sleeps
from tests.client.payloads import MODELS, PROVIDER_FORMATS, native, need_stream
from toolwire.client import AsyncClient, ConnectionFailedError, RetryPolicy, Timeouts
from toolwire.ir.stream import ResponseStart

pytestmark = pytest.mark.anyio


def client(server: Server, provider: str, sleeps: Sleeps, **kwargs: object) -> AsyncClient:
    return AsyncClient(
        provider,
        base_url=server.url,
        api_key=KEY,
        model=MODELS[provider],
        sleep=sleeps.async_sleep,
        rng=lambda: 0.0,
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
async def test_create(server: Server, provider: str, sleeps: Sleeps) -> None:
    async with client(server, provider, sleeps) as c:
        result = await c.create(native(provider))
    assert [call.name for call in result.tool_calls] == ["get_weather"]
    assert result.status == 200
    assert server.requests[0].body == result.request_body


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
async def test_stream(server: Server, provider: str, sleeps: Sleeps) -> None:
    need_stream(provider)
    async with client(server, provider, sleeps) as c:
        stream = await c.stream(native(provider))
        async with stream:
            events = [event async for event in stream]
            response = await stream.collect()
    assert isinstance(events[0], ResponseStart)
    assert [call.name for call in response.tool_calls] == ["get_weather"]


async def test_retry_after_then_success(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("429=2", "503")
    policy = RetryPolicy(initial=0.5, jitter=0.0)
    async with client(server, "anthropic", sleeps, retry=policy) as c:
        result = await c.create(native("anthropic"))
    assert sleeps == [2.0, policy.backoff(2, 0.0)]
    assert result.attempts == 3


async def test_async_auth_refresh(keyed: Server, sleeps: Sleeps) -> None:
    calls: list[int] = []

    async def refresh() -> str:
        calls.append(1)
        return KEY

    c = AsyncClient(
        "gemini", base_url=keyed.url, api_key="stale", model=MODELS["gemini"], auth_refresh=refresh
    )
    async with c:
        result = await c.create(native("gemini"))
    assert calls == [1]
    assert [r.headers["x-goog-api-key"] for r in keyed.requests] == ["stale", KEY]
    assert result.status == 200


async def test_cancel_while_waiting(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("latency=0.8")
    async with client(server, "openai-chat", sleeps) as c:
        started = time.monotonic()
        with anyio.move_on_after(0.2) as scope:
            await c.create(native("openai-chat"))
        assert scope.cancelled_caught
        assert time.monotonic() - started < 0.6
        # the pool is still usable
        result = await c.create(native("openai-chat"))
    assert result.status == 200


async def test_cancel_mid_stream(server: Server, sleeps: Sleeps) -> None:
    need_stream("openai-chat")
    async with client(server, "openai-chat", sleeps) as c:
        seen = []
        with anyio.CancelScope() as scope:
            async with await c.stream(native("openai-chat")) as stream:
                async for event in stream:
                    seen.append(event)
                    scope.cancel()
                    await anyio.sleep(0)  # the caller's next checkpoint: cancelled here
        assert scope.cancelled_caught
        assert len(seen) == 1
        assert stream.closed
        assert (await c.create(native("openai-chat"))).status == 200


async def test_stream_cut_after_first_event_is_not_retried(server: Server, sleeps: Sleeps) -> None:
    need_stream("gemini")
    server.recorder.schedule("disconnect")
    async with client(server, "gemini", sleeps) as c:
        stream = await c.stream(native("gemini"))
        with pytest.raises(ConnectionFailedError):
            await stream.collect()
    assert len(server.requests) == 1
    assert sleeps == []


async def test_stream_idle_timeout(server: Server, sleeps: Sleeps) -> None:
    need_stream("openai-chat")
    server.recorder.schedule("latency=0.6")
    from toolwire.client import RequestTimeoutError

    timeouts = Timeouts(idle=0.2)
    async with client(
        server, "openai-chat", sleeps, timeouts=timeouts, retry=RetryPolicy(max_attempts=1)
    ) as c:
        with pytest.raises(RequestTimeoutError):
            await c.stream(native("openai-chat"))
