"""Retries over loopback HTTP with injected faults; waits checked with an injected sleep."""

from __future__ import annotations

import socket
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from tests.client.conftest import KEY, Server, Sleeps
from tests.client.payloads import MODELS, native, need_stream
from toolwire.client import (
    Client,
    ConnectionFailedError,
    RetryPolicy,
    Timeouts,
    parse_retry_after,
)
from toolwire.errors import (
    AuthenticationError,
    InvalidRequestError,
    RateLimitError,
    ServerError,
    StreamError,
)

UNIT = 0.5  # the injected jitter draw
POLICY = RetryPolicy(max_attempts=3, initial=0.25, multiplier=2.0, max_delay=4.0, jitter=0.5)


def chat_client(server: Server, sleeps: Sleeps, policy: RetryPolicy = POLICY, **kwargs: object) -> Client:
    return Client(
        "openai-chat",
        base_url=server.url,
        api_key=KEY,
        retry=policy,
        sleep=sleeps,
        rng=lambda: UNIT,
        **kwargs,  # type: ignore[arg-type]
    )


def test_429_honours_retry_after(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("429=2")
    with chat_client(server, sleeps) as client:
        result = client.create(native("openai-chat"))
    assert sleeps == [2.0]
    assert result.attempts == 2
    assert len(server.requests) == 2


def test_429_without_retry_after_backs_off(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("429")
    server.recorder.strip_retry_after = True
    with chat_client(server, sleeps) as client:
        client.create(native("openai-chat"))
    assert sleeps == [POLICY.backoff(1, UNIT)]
    assert sleeps[0] == pytest.approx(0.25 * 1.25)


def test_retry_after_is_capped(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("429=100")
    policy = RetryPolicy(max_retry_after=5.0)
    with chat_client(server, sleeps, policy) as client:
        client.create(native("openai-chat"))
    assert sleeps == [5.0]


def test_503_backoff_grows(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("503", "503")
    with chat_client(server, sleeps) as client:
        result = client.create(native("openai-chat"))
    assert result.attempts == 3
    assert sleeps == [POLICY.backoff(1, UNIT), POLICY.backoff(2, UNIT)]
    assert sleeps[1] == pytest.approx(2 * sleeps[0])


def test_backoff_is_bounded_and_jittered() -> None:
    policy = RetryPolicy(initial=1.0, multiplier=3.0, max_delay=5.0, jitter=0.2)
    assert [policy.backoff(n, 0.0) for n in (1, 2, 3, 4)] == [1.0, 3.0, 5.0, 5.0]
    assert policy.backoff(4, 0.999) < 5.0 * 1.2
    assert policy.backoff(4, 0.999) > 5.0


def test_attempts_run_out(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("500", "500", "500", "500")
    with chat_client(server, sleeps) as client, pytest.raises(ServerError) as info:
        client.create(native("openai-chat"))
    assert info.value.status == 500
    assert len(server.requests) == POLICY.max_attempts
    assert len(sleeps) == POLICY.max_attempts - 1


def test_invalid_request_is_not_retried(server: Server, sleeps: Sleeps) -> None:
    body = native("openai-chat")
    body["messages"] = []  # refused by the server (local validation off)
    with chat_client(server, sleeps, validate=False) as client, pytest.raises(InvalidRequestError):
        client.create(body)
    assert len(server.requests) == 1
    assert sleeps == []


def test_401_refreshes_credentials_once(keyed: Server, sleeps: Sleeps) -> None:
    calls: list[int] = []

    def refresh() -> str:
        calls.append(1)
        return KEY

    client = Client("openai-chat", base_url=keyed.url, api_key="stale", auth_refresh=refresh, sleep=sleeps)
    with client:
        result = client.create(native("openai-chat"))
    assert calls == [1]
    assert result.status == 200
    assert [r.headers["authorization"] for r in keyed.requests] == ["Bearer stale", f"Bearer {KEY}"]
    assert sleeps == []


def test_401_after_refresh_is_raised(keyed: Server, sleeps: Sleeps) -> None:
    calls: list[int] = []

    def refresh() -> str:
        calls.append(1)
        return "still-wrong"

    client = Client("openai-chat", base_url=keyed.url, api_key="stale", auth_refresh=refresh, sleep=sleeps)
    with client, pytest.raises(AuthenticationError):
        client.create(native("openai-chat"))
    assert calls == [1]
    assert len(keyed.requests) == 2


def test_401_without_hook_is_raised_at_once(keyed: Server, sleeps: Sleeps) -> None:
    client = Client("openai-chat", base_url=keyed.url, api_key="nope", sleep=sleeps)
    with client, pytest.raises(AuthenticationError) as info:
        client.create(native("openai-chat"))
    assert info.value.status == 401
    assert len(keyed.requests) == 1


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_connection_refused_is_retried(sleeps: Sleeps) -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    client = Client("openai-chat", base_url=url, api_key=KEY, retry=POLICY, sleep=sleeps, rng=lambda: UNIT)
    with client, pytest.raises(ConnectionFailedError):
        client.create(native("openai-chat"))
    assert sleeps == [POLICY.backoff(1, UNIT), POLICY.backoff(2, UNIT)]


def test_disconnect_mid_body_is_retried(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("disconnect")
    with chat_client(server, sleeps) as client:
        result = client.create(native("openai-chat"))
    assert result.attempts == 2
    assert len(sleeps) == 1


def test_read_timeout_maps_and_retries(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("latency=0.6", "latency=0.6")
    timeouts = Timeouts(read=0.2)
    policy = RetryPolicy(max_attempts=2)
    with chat_client(server, sleeps, policy, timeouts=timeouts) as client:
        from toolwire.client import RequestTimeoutError

        with pytest.raises(RequestTimeoutError):
            client.create(native("openai-chat"))
    assert len(sleeps) == 1


def test_stream_retried_before_first_event(server: Server, sleeps: Sleeps) -> None:
    need_stream("openai-chat")
    server.recorder.schedule("503")
    with chat_client(server, sleeps) as client, client.stream(native("openai-chat")) as stream:
        response = stream.collect()
    assert stream.attempts == 2
    assert [c.name for c in response.tool_calls] == ["get_weather"]


def test_stream_not_retried_after_first_event(server: Server, sleeps: Sleeps) -> None:
    need_stream("openai-chat")
    server.recorder.schedule("disconnect")
    with chat_client(server, sleeps) as client:
        stream = client.stream(native("openai-chat"))
        received = []
        with pytest.raises(ConnectionFailedError):
            for event in stream:
                received.append(event)
    assert received  # events arrived before the cut
    assert len(server.requests) == 1
    assert sleeps == []


def test_stream_without_terminal_event(server: Server, sleeps: Sleeps) -> None:
    need_stream("gemini")  # Chat's decoder accepts a stream without [DONE], as many servers send
    server.recorder.schedule("drop-terminal")
    client = Client("gemini", base_url=server.url, api_key=KEY, model=MODELS["gemini"], sleep=sleeps)
    with client, pytest.raises(ConnectionFailedError, match="ended early"):
        client.stream(native("gemini")).collect()
    assert len(server.requests) == 1


def test_malformed_stream_event(server: Server, sleeps: Sleeps) -> None:
    need_stream("openai-chat")
    server.recorder.schedule("malformed")
    with chat_client(server, sleeps) as client, pytest.raises(StreamError, match="not JSON"):
        client.stream(native("openai-chat")).collect()


def test_rate_limit_surfaces_after_last_attempt(server: Server, sleeps: Sleeps) -> None:
    server.recorder.schedule("429=1", "429=1", "429=1")
    with chat_client(server, sleeps) as client, pytest.raises(RateLimitError) as info:
        client.create(native("openai-chat"))
    assert sleeps == [1.0, 1.0]
    assert getattr(info.value, "retry_after", None) == 1.0


def test_parse_retry_after() -> None:
    now = datetime(2026, 1, 1, tzinfo=UTC)
    later = format_datetime(now + timedelta(seconds=30), usegmt=True)
    assert parse_retry_after({"retry-after-ms": "1500", "retry-after": "9"}) == 1.5
    assert parse_retry_after({"retry-after": "3"}) == 3.0
    assert parse_retry_after({"retry-after": later}, now=now.timestamp) == pytest.approx(30.0)
    assert parse_retry_after({"retry-after": "soon"}) is None
    assert parse_retry_after({}) is None
