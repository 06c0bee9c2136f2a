"""Upstream faults through both gateway shells end in the client's own error shape and status.

The emulator injects each fault (429 with ``Retry-After``, 500, 529, a connection cut mid-body,
a malformed event, a slow answer, a wrong upstream key); every client format asks through the
ASGI gateway on loopback and through :class:`~toolwire.gateway.Transport`, streaming and not.
Each answer is checked in the client's own error shape (and, over HTTP, with the official SDK's
exception type), within a bound time, with no key in the bytes, the headers or any log record.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.gateway._faultkit import (
    ENV,
    FORMATS,
    IDLE,
    UPSTREAM_KEY,
    UPSTREAM_OF,
    assert_clean,
    await_access_lines,
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
from toolwire.hop._config import HopConfig

__all__ = ["no_key_in_logs", "watchdog"]  # autouse fixtures of the kit, active in this module

SHELLS = ("asgi", "transport")

STATUS: dict[str, dict[str, int]] = {
    "r429": dict.fromkeys(FORMATS, 429),
    "e500": dict.fromkeys(FORMATS, 500),
    "o529": {"openai-chat": 503, "openai-responses": 503, "anthropic": 529, "gemini": 503},
    "badkey": dict.fromkeys(FORMATS, 401),
    "reset": dict.fromkeys(FORMATS, 502),
    "malformed": dict.fromkeys(FORMATS, 502),
    "slowstart": dict.fromkeys(FORMATS, 504),
}
"""Fault -> client format -> the status of the client's answer to a non-streaming call."""

KIND: dict[str, dict[int, str]] = {
    "openai-chat": {429: "rate_limit_error", 500: "server_error", 503: "server_error",
                    401: "authentication_error", 502: "server_error", 504: "server_error"},
    "openai-responses": {429: "rate_limit_error", 500: "server_error", 503: "server_error",
                         401: "authentication_error", 502: "server_error", 504: "server_error"},
    "anthropic": {429: "rate_limit_error", 500: "api_error", 529: "overloaded_error",
                  401: "authentication_error", 502: "api_error", 504: "timeout_error"},
    "gemini": {429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE",
               401: "UNAUTHENTICATED", 502: "INTERNAL", 504: "DEADLINE_EXCEEDED"},
}  # fmt: skip
"""Client format -> status -> the error type (Gemini: status name) in its own error body."""

MID_STREAM = ("reset", "malformed")
"""Faults that break a stream after it started: the client gets its own error event last."""


def _upstream(fault: str, client: str) -> str:
    return "anthropic" if fault == "o529" else UPSTREAM_OF[client]


@pytest.fixture(scope="module")
def config() -> Iterator[HopConfig]:
    emulator = create_app(EmulatorConfig(api_keys=(UPSTREAM_KEY,)))
    with serve(emulator, log_level="critical") as url:
        yield fault_config(url)


@pytest.fixture(scope="module")
def gateway(config: HopConfig) -> Iterator[str]:
    with serve(gateway_app(config, env=ENV), log_level="critical") as url:
        yield url


@pytest.fixture(params=SHELLS)
def http(request: pytest.FixtureRequest, gateway: str, config: HopConfig) -> Iterator[httpx.Client]:
    """A client of the gateway: over loopback HTTP, or in-process through the Transport."""
    if request.param == "asgi":
        with httpx.Client(base_url=gateway, timeout=20) as client:
            yield client
        return
    transport = Transport(config, env=ENV)
    with httpx.Client(transport=transport, base_url="http://gateway.test", timeout=20) as client:
        yield client
    transport.close()


def _call(
    http: httpx.Client, client: str, fault: str, *, stream: bool
) -> tuple[httpx.Response, bytes, float]:
    path, body = request(client, model_name(fault, _upstream(fault, client)), stream=stream)
    started = time.monotonic()
    with http.stream("POST", path, json=body, headers=key_headers(client)) as response:
        data = response.read()
    return response, data, time.monotonic() - started


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize("fault", list(STATUS))
def test_an_upstream_fault_is_the_clients_own_error(
    http: httpx.Client, client: str, fault: str, stream: bool, no_key_in_logs: pytest.LogCaptureFixture
) -> None:
    response, data, elapsed = _call(http, client, fault, stream=stream)
    assert_clean(data, headers_text(response.headers))
    assert elapsed < IDLE + 10
    if stream and fault in MID_STREAM:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        error = stream_error(client, events(data))
        assert error["message"]
        return
    status = STATUS[fault][client]
    assert response.status_code == status, data
    assert error_kind(client, status, response.json()) == KIND[client][status]
    if fault == "r429":
        assert response.headers["retry-after"] == "2"
    if fault == "slowstart":  # the upstream's own timeout (IDLE) bounds its first byte
        assert elapsed > IDLE - 0.2
    if http.base_url.host != "gateway.test":  # the ASGI shell logs one line per request
        lines = await_access_lines(no_key_in_logs, 1)
        assert [line["status"] for line in lines] == [status]
        assert lines[0]["model"] == model_name(fault, _upstream(fault, client))


@pytest.mark.parametrize("client", FORMATS)
def test_the_upstreams_refusal_of_the_gateways_key_shows_no_piece_of_it(
    http: httpx.Client, client: str
) -> None:
    """OpenAI-style upstreams echo a masked key (``sk-*****Jm24``); the client never sees it."""
    response, data, _ = _call(http, client, "badkey", stream=False)
    assert response.status_code == 401
    message = str(response.json()["error"]["message"])
    assert "gateway" in message
    assert_clean(data)


@pytest.mark.parametrize("client", FORMATS)
def test_a_healthy_route_of_the_same_gateway_answers(http: httpx.Client, client: str) -> None:
    """The control: the same gateway, keys and calls without a fault give a tool call."""
    for stream in (False, True):
        response, data, _ = _call(http, client, "ok", stream=stream)
        assert response.status_code == 200, data
        assert b"get_weather" in data
        assert_clean(data, headers_text(response.headers))


def _sdk_error(exc: Any) -> tuple[type, int | None]:
    return type(exc), getattr(exc, "status_code", getattr(exc, "code", None))
