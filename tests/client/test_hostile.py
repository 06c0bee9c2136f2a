"""Hostile servers and keys (issue 19): no key leaks anywhere, bounded bodies, bounded time.

A tiny threaded socket server on 127.0.0.1 answers each request with bytes a test scripts: error
bodies quoting the key (plainly, JSON-escaped, or in a stream error event), bodies dripping a byte
at a time, endless error bodies, invalid ``Retry-After`` values.
"""

from __future__ import annotations

import asyncio
import logging
import socket
import threading
import time
import traceback
from collections.abc import Callable, Iterator

import pytest

from toolwire.client import AsyncClient, Client, RetryPolicy, Timeouts
from toolwire.errors import (
    InvalidRequestError,
    ProviderError,
    RateLimitError,
    RequestTimeoutError,
    ServerError,
    ToolwireError,
)

KEY = "sk-hostile-7f3a9c1e5b2d4f60-KEY"
"""A recognizable fake key: it must never show up anywhere."""

ESCAPED = "".join(f"\\u{ord(c):04x}" if i % 2 == 0 else c for i, c in enumerate(KEY))
"""The key with every other character written as a JSON ``\\uXXXX`` escape."""

Respond = Callable[[socket.socket], None]

PAYLOAD = {"model": "m", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}


def _read_request(conn: socket.socket) -> None:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = conn.recv(65536)
        if not chunk:
            return
        body += chunk


class RawServer:
    """Answers every request on 127.0.0.1 with ``respond(conn)``; counts the requests."""

    def __init__(self, respond: Respond) -> None:
        self.respond = respond
        self.requests = 0
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self._stop = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._handle, args=(conn,), daemon=True).start()

    def _handle(self, conn: socket.socket) -> None:
        with conn:
            try:
                _read_request(conn)
                self.requests += 1
                self.respond(conn)
            except OSError:
                pass

    def close(self) -> None:
        self._stop.set()
        self.sock.close()


@pytest.fixture
def raw() -> Iterator[Callable[[Respond], RawServer]]:
    servers: list[RawServer] = []

    def make(respond: Respond) -> RawServer:
        servers.append(RawServer(respond))
        return servers[-1]

    yield make
    for server in servers:
        server.close()


def answer(status: str, body: bytes, headers: str = "content-type: application/json\r\n") -> Respond:
    def respond(conn: socket.socket) -> None:
        head = f"HTTP/1.1 {status}\r\n{headers}content-length: {len(body)}\r\nconnection: close\r\n\r\n"
        conn.sendall(head.encode() + body)

    return respond


def everything(exc: BaseException, caplog: pytest.LogCaptureFixture) -> list[str]:
    """Every text a user could see: message, repr, args, body, traceback with chained causes, logs."""
    texts = [str(exc), repr(exc), repr(exc.args), repr(getattr(exc, "body", None))]
    texts.append("".join(traceback.format_exception(exc)))
    for record in caplog.records:
        texts += [record.getMessage(), repr(record.args), repr(record.exc_info), str(record.msg)]
    return texts


def assert_no_key(exc: BaseException, caplog: pytest.LogCaptureFixture, key: str = KEY) -> None:
    for text in everything(exc, caplog):
        assert key not in text
        assert key.strip() not in text


def debug_logs(caplog: pytest.LogCaptureFixture) -> None:
    for name in ("toolwire", "httpx", "httpcore"):
        caplog.set_level(1, logger=name)
    caplog.set_level(1)


def no_retry() -> RetryPolicy:
    return RetryPolicy(max_attempts=1)


@pytest.mark.parametrize("suffix", ["\n", "\r\n", " \t", "\r"])
def test_a_key_with_surrounding_whitespace_is_stripped(
    raw: Callable[[Respond], RawServer], suffix: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Before: the newline reached the header, h11 refused it quoting the key, and it was retried 3 times."""
    debug_logs(caplog)
    seen: list[bytes] = []

    def respond(conn: socket.socket) -> None:
        seen.append(b"")
        answer("401 Unauthorized", b'{"error": {"type": "authentication_error", "message": "no"}}')(conn)

    server = raw(respond)
    with Client("anthropic", base_url=server.url, api_key=KEY + suffix) as client:
        assert client.core.api_key == KEY
        with pytest.raises(ProviderError) as info:
            client.create(PAYLOAD)
    assert info.value.status == 401
    assert server.requests == 1  # sent once, not retried as a transport error
    assert_no_key(info.value, caplog)


@pytest.mark.parametrize(
    ("bad", "kind", "index"),
    [
        (KEY[:5] + "\n" + KEY[5:], "a control character", 5),
        (KEY[:7] + "\x00" + KEY[7:], "a control character", 7),
        (KEY[:9] + "\x7f" + KEY[9:], "a control character", 9),
        (KEY[:3] + "é" + KEY[3:], "a non-ASCII character", 3),
        (KEY + "\u2028", "a non-ASCII character", len(KEY)),
    ],
)
def test_a_key_with_control_or_non_ascii_characters_is_refused_without_showing_it(
    bad: str, kind: str, index: int, caplog: pytest.LogCaptureFixture
) -> None:
    debug_logs(caplog)
    with pytest.raises(ToolwireError) as info:
        Client("openai-chat", base_url="http://127.0.0.1:9", api_key=bad)
    assert type(info.value) is ToolwireError
    assert str(info.value) == f"the API key contains {kind} at index {index} (keys are printable ASCII)"
    assert info.value.__cause__ is None and info.value.__context__ is None
    assert_no_key(info.value, caplog, bad)
    assert_no_key(info.value, caplog)


def test_a_bad_key_from_the_environment_is_refused_naming_the_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY + "ü")
    with pytest.raises(ToolwireError) as info:
        Client("anthropic", base_url="http://127.0.0.1:9")
    assert "$ANTHROPIC_API_KEY" in str(info.value) and KEY not in str(info.value)


def test_a_bad_refreshed_key_is_refused(raw: Callable[[Respond], RawServer]) -> None:
    server = raw(answer("401 Unauthorized", b'{"error": {"type": "authentication_error", "message": "no"}}'))
    client = Client("anthropic", base_url=server.url, api_key=KEY, auth_refresh=lambda: "new\n" + KEY)
    with client, pytest.raises(ToolwireError) as info:
        client.create(PAYLOAD)
    assert "refreshed API key contains a control character at index 3" in str(info.value)
    assert KEY not in str(info.value)


@pytest.mark.parametrize("form", ["plain", "escaped"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_key_quoted_in_an_error_body_is_redacted(
    raw: Callable[[Respond], RawServer], form: str, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    debug_logs(caplog)
    quoted = KEY if form == "plain" else ESCAPED
    body = ('{"error": {"type": "invalid_request_error", "message": "bad key ' + quoted + '"}}').encode()
    server = raw(answer("400 Bad Request", body))
    exc = _create(mode, server.url, no_retry())
    assert isinstance(exc, InvalidRequestError)
    assert "[REDACTED]" in str(exc)
    assert_no_key(exc, caplog)


def test_a_key_escaped_in_a_non_json_error_body_is_redacted(raw: Callable[[Respond], RawServer]) -> None:
    server = raw(
        answer("502 Bad Gateway", f"<html>upstream refused {ESCAPED}".encode(), "content-type: text/html\r\n")
    )
    exc = _create("sync", server.url, no_retry())
    assert isinstance(exc, ServerError)
    assert "[REDACTED]" in str(exc) and KEY not in str(exc)


def _create(mode: str, url: str, retry: RetryPolicy, timeouts: Timeouts | None = None) -> BaseException:
    """The exception ``create`` raised, sync or async."""
    if mode == "sync":
        with Client("anthropic", base_url=url, api_key=KEY, retry=retry, timeouts=timeouts) as client:
            try:
                client.create(PAYLOAD)
            except Exception as exc:
                return exc
        raise AssertionError("create did not raise")

    async def go() -> BaseException:
        async with AsyncClient(
            "anthropic", base_url=url, api_key=KEY, retry=retry, timeouts=timeouts
        ) as client:
            try:
                await client.create(PAYLOAD)
            except Exception as exc:
                return exc
        raise AssertionError("create did not raise")

    return asyncio.run(go())


def _sse(events: list[tuple[str, str]]) -> bytes:
    return "".join(f"event: {name}\ndata: {data}\n\n" for name, data in events).encode()


@pytest.mark.parametrize("form", ["plain", "escaped"])
@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_key_quoted_in_a_stream_error_event_is_redacted(
    raw: Callable[[Respond], RawServer], form: str, mode: str, caplog: pytest.LogCaptureFixture
) -> None:
    debug_logs(caplog)
    quoted = KEY if form == "plain" else ESCAPED
    start = '{"type": "message_start", "message": {"id": "m1", "type": "message", "role": "assistant", '
    start += (
        '"model": "m", "content": [], "stop_reason": null, "usage": {"input_tokens": 1, "output_tokens": 0}}}'
    )
    error = (
        '{"type": "error", "error": {"type": "overloaded_error", "message": "key ' + quoted + ' is busy"}}'
    )
    body = _sse([("message_start", start), ("error", error)])
    server = raw(answer("200 OK", body, "content-type: text/event-stream\r\n"))
    payload = {**PAYLOAD, "stream": True}

    def sync() -> BaseException:
        with Client("anthropic", base_url=server.url, api_key=KEY, retry=no_retry()) as client:
            try:
                with client.stream(payload) as stream:
                    list(stream)
            except Exception as exc:
                return exc
        raise AssertionError("the stream did not raise")

    async def go() -> BaseException:
        async with AsyncClient("anthropic", base_url=server.url, api_key=KEY, retry=no_retry()) as client:
            try:
                async with await client.stream(payload) as stream:
                    async for _ in stream:
                        pass
            except Exception as exc:
                return exc
        raise AssertionError("the stream did not raise")

    exc = sync() if mode == "sync" else asyncio.run(go())
    assert isinstance(exc, ProviderError)
    assert "[REDACTED]" in str(exc)
    assert_no_key(exc, caplog)


def endless_error_body(conn: socket.socket) -> None:
    conn.sendall(b"HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain\r\n")
    conn.sendall(b"transfer-encoding: chunked\r\n\r\n")
    chunk = b"x" * 65536
    frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        conn.sendall(frame)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_an_endless_error_body_is_cut_at_1_mib(raw: Callable[[Respond], RawServer], mode: str) -> None:
    """Before: the client read the 5xx body until the server stopped (here: 30 s, ~GiBs)."""
    server = raw(endless_error_body)
    started = time.monotonic()
    exc = _create(mode, server.url, no_retry())
    assert time.monotonic() - started < 10
    assert isinstance(exc, ServerError)
    assert exc.status == 500
    assert len(exc.message) <= 1000  # the message shows the start of the body, not 1 MiB of it


def drip(conn: socket.socket) -> None:
    body = b'{"id": "msg_1", "type": "message"' + b" " * 200 + b"}"
    conn.sendall(
        f"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n".encode()
    )
    for byte in body:
        conn.sendall(bytes([byte]))
        time.sleep(0.05)


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_a_dripping_body_hits_the_total_deadline(raw: Callable[[Respond], RawServer], mode: str) -> None:
    """Each byte comes well within the read timeout; the whole body would take ~12 s."""
    server = raw(drip)
    started = time.monotonic()
    exc = _create(mode, server.url, no_retry(), Timeouts(read=2.0, total=1.0))
    elapsed = time.monotonic() - started
    assert isinstance(exc, RequestTimeoutError)
    assert "total timeout" in str(exc)
    assert elapsed < 5


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "NaN", "soon"])
def test_an_invalid_retry_after_is_ignored(raw: Callable[[Respond], RawServer], value: str) -> None:
    body = b'{"error": {"type": "rate_limit_error", "message": "slow down"}}'
    server = raw(
        answer("429 Too Many Requests", body, f"content-type: application/json\r\nretry-after: {value}\r\n")
    )
    waits: list[float] = []
    retry = RetryPolicy(max_attempts=2, jitter=0.0)
    client = Client("anthropic", base_url=server.url, api_key=KEY, retry=retry, sleep=waits.append)
    with client, pytest.raises(RateLimitError) as info:
        client.create(PAYLOAD)
    assert getattr(info.value, "retry_after", "missing") is None
    assert waits == [0.5]  # the policy's own first backoff
    assert server.requests == 2


def test_logs_at_every_level_never_hold_the_key(
    raw: Callable[[Respond], RawServer], caplog: pytest.LogCaptureFixture
) -> None:
    """A whole exchange (a 429 retried, then a 400 quoting the key) logged at level 1 everywhere."""
    debug_logs(caplog)
    answers = iter(
        [
            answer("429 Too Many Requests", b'{"error": {"type": "rate_limit_error", "message": "wait"}}'),
            answer("400 Bad Request", ('{"error": {"message": "' + ESCAPED + '"}}').encode()),
        ]
    )
    server = raw(lambda conn: next(answers)(conn))
    client = Client("anthropic", base_url=server.url, api_key=KEY, sleep=lambda s: None)
    with client, pytest.raises(ProviderError) as info:
        client.create(PAYLOAD)
    assert any(r.name.startswith(("httpx", "httpcore")) for r in caplog.records)
    assert any(r.levelno < logging.DEBUG for r in caplog.records)  # TRACE request logs too
    assert_no_key(info.value, caplog)
