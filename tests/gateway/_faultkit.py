"""Shared pieces of the gateway fault and production tests.

One gateway config routes a model name per (fault, upstream format) to an emulator upstream that
injects that fault (the ``x-toolwire-fault`` header is sent as the upstream's extra header), so a
test picks its fault by the model it asks for. The emulator requires :data:`UPSTREAM_KEY` and the
gateway requires :data:`GATEWAY_KEY`; both are distinctive fake keys that tests look for in every
log record and every byte a client gets.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest

from toolwire.emulator import FAULT_HEADER
from toolwire.hop._config import GatewayKey, HopConfig, Limits, Route, Upstream
from toolwire.streaming import KEEPALIVE, WireReader

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
GATEWAY_KEY = "tw-gwkey-FAKEgateway-7Qx91"
UPSTREAM_KEY = "sk-upkey-FAKEupstream-Zr58"
BAD_UPSTREAM_KEY = "sk-upkey-FAKEwrongkey-Jm24"
WRONG_KEY = "tw-gwkey-FAKEwrongclient-Hd63"
SECRETS = (GATEWAY_KEY, UPSTREAM_KEY, BAD_UPSTREAM_KEY, WRONG_KEY)
FRAGMENTS = ("FAKEgateway", "FAKEupstream", "FAKEwrong", "7Qx91", "Zr58", "Jm24", "Hd63")
"""Pieces of the keys: a masked key (``sk-*****Jm24``) still gives its tail away."""
ENV = {"TW_UP_KEY": UPSTREAM_KEY, "TW_UP_BAD_KEY": BAD_UPSTREAM_KEY}
IDLE = 1.5
"""The slow-start upstreams' timeout and the stall tests' stream idle limit, seconds."""
CALM = 30.0
"""The stream idle limit of :func:`fault_config` unless a test sets one: a stream's limit also
bounds its wait for the upstream's first byte, and a short one turned a slow CI machine's
ordinary answer into a 504."""
MAX_BODY = 64 * 1024
TEST_SECONDS = 60
"""No test may take longer (a watchdog interrupts it)."""

FAULTS: dict[str, str | None] = {
    "ok": None,
    "r429": "429=2",
    "e500": "500",
    "o529": "529",
    "reset": "disconnect",
    "malformed": "malformed",
    "slowstart": "latency=6",
    "badkey": None,
}
"""Fault name -> the emulator fault spec its upstream injects (``badkey``: a wrong upstream key)."""

UPSTREAM_OF = {
    "openai-chat": "anthropic",
    "openai-responses": "gemini",
    "anthropic": "openai-chat",
    "gemini": "openai-responses",
}
"""The (other) upstream format each client format is sent to."""

_PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
}
TOOL = {"name": "get_weather", "schema": {"type": "object", "properties": {"city": {"type": "string"}}}}
TEXT = "What is the weather in Paris?"


def model_name(fault: str, upstream: str) -> str:
    """The model a client asks for to reach ``fault`` on an ``upstream``-format emulator."""
    return f"{fault}-{upstream}"


def fault_upstreams(emulator_url: str) -> dict[str, Upstream]:
    """One upstream per (fault, format) on the emulator at ``emulator_url``."""
    out: dict[str, Upstream] = {}
    for fault, spec in FAULTS.items():
        for fmt in FORMATS:
            name = model_name(fault, fmt)
            headers = {FAULT_HEADER: spec} if spec else {}
            key_env = "TW_UP_BAD_KEY" if fault == "badkey" else "TW_UP_KEY"
            timeout = IDLE if fault == "slowstart" else 30.0
            base = emulator_url + "/v1" if fmt.startswith("openai") else emulator_url  # as the SDKs take it
            out[name] = Upstream(name, fmt, base, key_env, headers, timeout)  # type: ignore[arg-type]
    return out


def fault_config(emulator_url: str, extra: dict[str, Upstream] | None = None, **limits: Any) -> HopConfig:
    """The gateway config of the fault tests (a model per upstream, gateway key required)."""
    upstreams = {**fault_upstreams(emulator_url), **(extra or {})}
    routes = tuple(Route(name, name, "emulated-model") for name in upstreams)
    bounds = Limits(**{"max_body_bytes": MAX_BODY, "stream_idle_timeout": CALM, **limits})
    return HopConfig(upstreams, routes, None, (GatewayKey(GATEWAY_KEY),), bounds)


def key_headers(client: str, key: str = GATEWAY_KEY) -> dict[str, str]:
    """The gateway key as a client of ``client``'s family presents it."""
    if client.startswith("openai"):
        return {"authorization": f"Bearer {key}"}
    return {"x-api-key": key} if client == "anthropic" else {"x-goog-api-key": key}


def request(client: str, model: str, *, stream: bool, padding: int = 0) -> tuple[str, dict[str, Any]]:
    """The path and JSON body of a one-tool request in ``client``'s format."""
    text = TEXT + " " * padding
    if client == "gemini":
        method = "streamGenerateContent?alt=sse" if stream else "generateContent"
        decl = {"name": TOOL["name"], "parameters": TOOL["schema"]}
        body: dict[str, Any] = {
            "contents": [{"role": "user", "parts": [{"text": text}]}],
            "tools": [{"functionDeclarations": [decl]}],
        }
        return f"/v1beta/models/{model}:{method}", body
    tools: dict[str, list[dict[str, Any]]] = {
        "openai-chat": [
            {"type": "function", "function": {"name": TOOL["name"], "parameters": TOOL["schema"]}}
        ],
        "openai-responses": [{"type": "function", "name": TOOL["name"], "parameters": TOOL["schema"]}],
        "anthropic": [{"name": TOOL["name"], "input_schema": TOOL["schema"]}],
    }
    body = {"model": model, "stream": stream, "tools": tools[client]}
    if client == "openai-responses":
        body["input"] = text
    else:
        body["messages"] = [{"role": "user", "content": text}]
    if client == "anthropic":
        body["max_tokens"] = 256
    return _PATHS[client], body


def error_kind(client: str, status: int, body: Any) -> str:
    """The error's type in ``client``'s own error shape (asserts the shape)."""
    assert isinstance(body, dict), body
    if client == "anthropic":
        assert body["type"] == "error" and set(body) == {"type", "error"}, body
        assert isinstance(body["error"]["message"], str) and body["error"]["message"]
        return str(body["error"]["type"])
    assert set(body) == {"error"}, body
    error = body["error"]
    assert isinstance(error["message"], str) and error["message"]
    if client == "gemini":
        assert error["code"] == status, body
        return str(error["status"])
    assert set(error) >= {"message", "type", "code", "param"}, body
    return str(error["type"])


def events(data: bytes) -> list[dict[str, Any]]:
    """The JSON events of an SSE body (keep-alives left out)."""
    reader = WireReader(keepalives=True)
    out = [*reader.feed(data), *reader.close()]
    return [e for e in out if e is not KEEPALIVE and isinstance(e, dict)]


def stream_error(client: str, evs: list[dict[str, Any]]) -> dict[str, Any]:
    """The client's own terminal error event of a stream that failed (asserts it is last)."""
    assert evs, "no events"
    last = evs[-1]
    if client == "openai-responses":
        assert last["type"] == "response.failed", last
        error: dict[str, Any] = last["response"]["error"]
        return error
    if client == "anthropic":
        assert last["type"] == "error", last
        error = last["error"]
        return error
    assert set(last) == {"error"}, last
    error = last["error"]
    return error


def assert_clean(*texts: str | bytes) -> None:
    """No key, and no piece of one, in any of ``texts``."""
    for text in texts:
        value = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        for secret in (*SECRETS, *FRAGMENTS):
            assert secret not in value, f"{secret!r} leaked in {value[:300]!r}"


def headers_text(headers: httpx.Headers) -> str:
    """Response headers as one string, to look for keys in."""
    return "\n".join(f"{k}: {v}" for k, v in headers.multi_items())


@pytest.fixture(autouse=True)
def no_key_in_logs(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Capture every log record (access log, error log, httpx, uvicorn) at DEBUG; after the test,
    none may hold a key."""
    access = logging.getLogger("toolwire.gateway.access")
    old = access.propagate
    access.propagate = True
    caplog.set_level(logging.DEBUG)
    yield caplog
    access.propagate = old
    for record in caplog.records:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        assert_clean(text, repr(record.args))


def access_lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    """The access log lines captured so far, decoded."""
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "toolwire.gateway.access"]


def await_access_lines(caplog: pytest.LogCaptureFixture, count: int) -> list[dict[str, Any]]:
    """The access lines, once ``count`` are written or 4 s passed: the server writes a request's
    line after its last byte, so a client can read the response before the line exists (a
    loaded machine shows it)."""
    for _ in range(200):
        lines = access_lines(caplog)
        if len(lines) >= count:
            return lines
        time.sleep(0.02)
    return access_lines(caplog)


@pytest.fixture(autouse=True)
def watchdog() -> Iterator[None]:
    """Interrupt a test that runs past :data:`TEST_SECONDS` (a hang fails, it never blocks CI)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"the test ran past {TEST_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(TEST_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


_STALL_EVENTS = (
    ("message_start", {
        "type": "message_start",
        "message": {
            "id": "msg_stall", "type": "message", "role": "assistant", "model": "emulated-model",
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 5, "output_tokens": 1},
        },
    }),
    ("content_block_start", {"type": "content_block_start", "index": 0,
                             "content_block": {"type": "text", "text": ""}}),
    ("content_block_delta", {"type": "content_block_delta", "index": 0,
                             "delta": {"type": "text_delta", "text": "partial answer"}}),
)  # fmt: skip


@dataclass
class StallCall:
    """One call the stalling upstream took."""

    headers: dict[str, str]
    sent: threading.Event = field(default_factory=threading.Event)
    closed: threading.Event = field(default_factory=threading.Event)


class StallingUpstream:
    """An Anthropic upstream (ASGI) that sends a stream's first events, then nothing: it waits
    for its client to go away and records that it did (:attr:`StallCall.closed`)."""

    def __init__(self) -> None:
        self.calls: list[StallCall] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        call = StallCall({k.decode(): v.decode() for k, v in scope["headers"]})
        self.calls.append(call)
        while (await receive()).get("more_body"):
            pass
        start = {"type": "http.response.start", "status": 200,
                 "headers": [(b"content-type", b"text/event-stream")]}  # fmt: skip
        await send(start)
        for name, data in _STALL_EVENTS:
            chunk = f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()
            await send({"type": "http.response.body", "body": chunk, "more_body": True})
        call.sent.set()
        try:
            async with asyncio.timeout(TEST_SECONDS):
                while (await receive())["type"] != "http.disconnect":
                    pass
        finally:
            call.closed.set()

    def last(self, timeout: float = 10.0) -> StallCall:
        """The latest call, once its first events are sent."""
        for _ in range(int(timeout * 50)):
            if self.calls and self.calls[-1].sent.is_set():
                return self.calls[-1]
            threading.Event().wait(0.02)
        raise AssertionError("the stalling upstream got no call")
