"""Streams that stall or lose their client, and requests refused before the hop, in both shells.

The upstream here is :class:`~tests.gateway._faultkit.StallingUpstream`: it sends a stream's first
events, then nothing, and records when its connection closes. A stall past the idle limit ends
the client's stream with the client's own error event and closes the upstream call; a client
that goes away closes it at once (long before the idle limit).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import httpx
import pytest

from tests.gateway._faultkit import (
    ENV,
    FORMATS,
    IDLE,
    MAX_BODY,
    UPSTREAM_KEY,
    StallingUpstream,
    access_lines,
    assert_clean,
    error_kind,
    events,
    fault_config,
    headers_text,
    key_headers,
    model_name,
    no_key_in_logs,
    request,
    stream_error,
    watchdog,
)
from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.gateway import Transport
from toolwire.gateway import create_app as gateway_app
from toolwire.hop._config import HopConfig, Upstream

__all__ = ["no_key_in_logs", "watchdog"]

STALL = "stall"
PARTIAL = b"partial answer"
TOO_LARGE = {
    "openai-chat": "invalid_request_error",
    "openai-responses": "invalid_request_error",
    "anthropic": "request_too_large",
    "gemini": "INVALID_ARGUMENT",
}
"""The error type (Gemini: status name) of a 413 in each client format."""
LONG_IDLE = 30.0
"""The idle limit of the disconnect tests: far longer than any of them may take."""


@pytest.fixture(scope="module")
def stalling() -> Iterator[tuple[StallingUpstream, str]]:
    upstream = StallingUpstream()
    with serve(upstream, log_level="critical") as url:
        yield upstream, url


@pytest.fixture(scope="module")
def emulator() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(api_keys=(UPSTREAM_KEY,))), log_level="critical") as url:
        yield url


def _config(emulator: str, stall_url: str, idle: float) -> HopConfig:
    stall = Upstream(STALL, "anthropic", stall_url, "TW_UP_KEY")
    return fault_config(emulator, {STALL: stall}, stream_idle_timeout=idle)


@pytest.fixture(scope="module")
def config(emulator: str, stalling: tuple[StallingUpstream, str]) -> HopConfig:
    return _config(emulator, stalling[1], IDLE)


@pytest.fixture(scope="module")
def patient_config(emulator: str, stalling: tuple[StallingUpstream, str]) -> HopConfig:
    return _config(emulator, stalling[1], LONG_IDLE)


def _served(config: HopConfig) -> Iterator[str]:
    with serve(gateway_app(config, env=ENV), log_level="critical") as url:
        yield url


@pytest.fixture(scope="module")
def gateway(config: HopConfig) -> Iterator[str]:
    yield from _served(config)


@pytest.fixture(scope="module")
def patient_gateway(patient_config: HopConfig) -> Iterator[str]:
    """A gateway whose idle limit is far away: only the client's leaving can close a stall."""
    yield from _served(patient_config)


@pytest.fixture(params=("asgi", "transport"))
def http(request: pytest.FixtureRequest, gateway: str, config: HopConfig) -> Iterator[httpx.Client]:
    if request.param == "asgi":
        with httpx.Client(base_url=gateway, timeout=20) as client:
            yield client
        return
    with (
        Transport(config, env=ENV) as transport,
        httpx.Client(transport=transport, base_url="http://gateway.test", timeout=20) as client,
    ):
        yield client


@pytest.mark.parametrize("client", FORMATS)
def test_a_stall_past_the_idle_limit_ends_the_stream_with_the_clients_error(
    http: httpx.Client, stalling: tuple[StallingUpstream, str], client: str
) -> None:
    upstream, _ = stalling
    path, body = request(client, STALL, stream=True)
    started = time.monotonic()
    with http.stream("POST", path, json=body, headers=key_headers(client)) as response:
        data = response.read()
    elapsed = time.monotonic() - started
    assert response.status_code == 200
    assert PARTIAL in data  # what came before the stall reached the client
    error = stream_error(client, events(data))
    assert error["message"]
    assert IDLE - 0.2 < elapsed < IDLE + 8
    call = upstream.last()
    assert call.headers["x-api-key"] == UPSTREAM_KEY
    assert call.closed.wait(5), "the gateway kept the stalled upstream call open"
    assert_clean(data, headers_text(response.headers))


def _read_until_partial(chunks: Iterator[bytes]) -> None:
    """Read ``chunks`` up to the partial answer. The caller keeps ``chunks`` referenced: a
    dropped iterator is closed, and httpx closes the connection with it."""
    seen = b""
    while PARTIAL not in seen:
        seen += next(chunks)


@pytest.mark.parametrize("client", FORMATS)
def test_a_client_leaving_an_asgi_stream_closes_the_upstream_call(
    patient_gateway: str,
    stalling: tuple[StallingUpstream, str],
    client: str,
    no_key_in_logs: pytest.LogCaptureFixture,
) -> None:
    upstream, _ = stalling
    path, body = request(client, STALL, stream=True)
    with (
        httpx.Client(base_url=patient_gateway, timeout=20) as http,
        http.stream("POST", path, json=body, headers=key_headers(client)) as response,
    ):
        chunks = response.iter_bytes()
        _read_until_partial(chunks)
        call = upstream.last()
        time.sleep(0.2)
        assert not call.closed.is_set()
    started = time.monotonic()
    assert call.closed.wait(10), "the upstream call outlived its client"
    assert time.monotonic() - started < 10 < LONG_IDLE
    for _ in range(100):  # the access line is written once the gateway has let go
        lines = [line for line in access_lines(no_key_in_logs) if line["model"] == STALL]
        if lines:
            break
        time.sleep(0.05)
    assert [(line["status"], line["error"]) for line in lines] == [(499, "client disconnected")]


@pytest.mark.parametrize("client", FORMATS)
def test_closing_a_transport_stream_closes_the_upstream_call(
    patient_config: HopConfig, stalling: tuple[StallingUpstream, str], client: str
) -> None:
    upstream, _ = stalling
    path, body = request(client, STALL, stream=True)
    with (
        Transport(patient_config, env=ENV) as transport,
        httpx.Client(transport=transport, base_url="http://gateway.test", timeout=20) as http,
        http.stream("POST", path, json=body, headers=key_headers(client)) as response,
    ):
        chunks = response.iter_bytes()
        _read_until_partial(chunks)
        call = upstream.last()
        assert not call.closed.is_set()
    assert call.closed.wait(10), "the upstream call outlived the closed response"


@pytest.mark.parametrize("client", FORMATS)
def test_closing_an_async_transport_stream_closes_the_upstream_call(
    patient_config: HopConfig, stalling: tuple[StallingUpstream, str], client: str
) -> None:
    upstream, _ = stalling
    path, body = request(client, STALL, stream=True)

    async def leave_early() -> None:
        transport = Transport(patient_config, env=ENV)
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://gateway.test", timeout=20) as http,
            http.stream("POST", path, json=body, headers=key_headers(client)) as response,
        ):
            async for chunk in response.aiter_bytes():
                if PARTIAL in chunk:
                    break
        await transport.aclose()

    asyncio.run(asyncio.wait_for(leave_early(), 20))
    assert upstream.last().closed.wait(10), "the upstream call outlived the closed response"


def _chunks(total: int, size: int = 16 * 1024) -> Iterator[bytes]:
    yield b'{"model": "x", "pad": "'
    for _ in range(total // size):
        yield b"y" * size
    yield b'"}'


@pytest.mark.parametrize("client", FORMATS)
def test_a_chunked_body_past_the_limit_is_a_413_in_the_clients_shape(http: httpx.Client, client: str) -> None:
    """No content-length to trust: the gateway counts the bytes as they come."""
    path, _ = request(client, model_name("ok", "anthropic"), stream=False)
    response = http.post(path, content=_chunks(4 * MAX_BODY), headers=key_headers(client))
    assert response.status_code == 413
    assert error_kind(client, 413, response.json()) == TOO_LARGE[client]
    assert str(MAX_BODY) in response.text


@pytest.mark.parametrize("client", FORMATS)
def test_a_missing_gateway_key_is_a_401_in_the_clients_shape(http: httpx.Client, client: str) -> None:
    path, body = request(client, model_name("ok", "anthropic"), stream=False)
    response = http.post(path, json=body)
    assert response.status_code == 401
    kind = error_kind(client, 401, response.json())
    assert kind == ("UNAUTHENTICATED" if client == "gemini" else "authentication_error")
