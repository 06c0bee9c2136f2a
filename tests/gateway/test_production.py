"""The gateway's production behaviour: access log, metrics, health, concurrency limit, shutdown.

Real pieces only: the emulator (and small ASGI upstreams that stall or trickle) on loopback,
the gateway served by uvicorn, and for shutdown ``toolwire serve`` as its own process.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.gateway._faultkit import (
    ENV,
    FORMATS,
    UPSTREAM_KEY,
    StallingUpstream,
    access_lines,
    await_access_lines,
    error_kind,
    events,
    fault_config,
    key_headers,
    model_name,
    no_key_in_logs,
    request,
    watchdog,
)
from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.gateway import create_app as gateway_app
from toolwire.hop._config import Upstream

__all__ = ["no_key_in_logs", "watchdog"]

ACCESS_FIELDS = {
    "request_id", "method", "path", "client_format", "operation", "upstream", "upstream_format", "model",
    "upstream_model", "stream", "status", "latency_ms", "input_tokens", "output_tokens", "notes", "error",
}  # fmt: skip


@pytest.fixture(scope="module")
def emulator() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(api_keys=(UPSTREAM_KEY,))), log_level="critical") as url:
        yield url


@pytest.fixture(scope="module")
def gateway(emulator: str) -> Iterator[str]:
    with serve(gateway_app(fault_config(emulator), env=ENV), log_level="critical") as url:
        yield url


def _post(gateway: str, client: str, upstream: str, *, stream: bool) -> tuple[httpx.Response, float]:
    path, body = request(client, model_name("ok", upstream), stream=stream)
    if client == "openai-chat" and stream:  # a Chat client sees usage only when it asks, as OpenAI's
        body["stream_options"] = {"include_usage": True}
    started = time.monotonic()
    response = httpx.post(gateway + path, json=body, headers=key_headers(client), timeout=20)
    return response, time.monotonic() - started


def _client_usage(client: str, data: bytes, stream: bool) -> tuple[int, int]:
    """The (input, output) tokens the client itself was told, from its own answer."""
    if not stream:
        usage = json.loads(data).get("usage") or json.loads(data)["usageMetadata"]
        return _pair(client, usage)
    evs = events(data)
    if client == "openai-chat":
        return _pair(client, [e for e in evs if e.get("usage")][-1]["usage"])
    if client == "openai-responses":
        return _pair(client, next(e for e in evs if e["type"] == "response.completed")["response"]["usage"])
    if client == "anthropic":
        start = next(e for e in evs if e["type"] == "message_start")["message"]["usage"]
        end = next(e for e in evs if e["type"] == "message_delta")["usage"]
        return int(end.get("input_tokens", start["input_tokens"])), int(end["output_tokens"])
    return _pair(client, [e for e in evs if "usageMetadata" in e][-1]["usageMetadata"])


def _pair(client: str, usage: dict[str, Any]) -> tuple[int, int]:
    names = {
        "openai-chat": ("prompt_tokens", "completion_tokens"),
        "gemini": ("promptTokenCount", "candidatesTokenCount"),
    }.get(client, ("input_tokens", "output_tokens"))
    return int(usage[names[0]]), int(usage[names[1]])


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize(("client", "upstream"), [(c, u) for c in FORMATS for u in FORMATS])
def test_one_access_line_per_request_with_its_fields_and_tokens(
    gateway: str, client: str, upstream: str, stream: bool, no_key_in_logs: pytest.LogCaptureFixture
) -> None:
    response, elapsed = _post(gateway, client, upstream, stream=stream)
    assert response.status_code == 200, response.text
    lines = await_access_lines(no_key_in_logs, 1)
    assert len(lines) == 1
    line = lines[0]
    assert set(line) == ACCESS_FIELDS
    path, _ = request(client, model_name("ok", upstream), stream=stream)
    assert (line["method"], line["path"]) == ("POST", path.partition("?")[0])
    assert (line["client_format"], line["upstream_format"], line["operation"]) == (
        client,
        upstream,
        "generate",
    )
    assert (line["model"], line["upstream_model"]) == (model_name("ok", upstream), "emulated-model")
    assert (line["stream"], line["status"], line["error"]) == (stream, 200, None)
    assert re.fullmatch(r"req_[0-9a-f]{32}", line["request_id"])
    assert 0 < line["latency_ms"] <= elapsed * 1000 + 1
    assert isinstance(line["notes"], int) and line["notes"] >= 0
    assert (line["input_tokens"], line["output_tokens"]) == _client_usage(client, response.content, stream)
    assert line["output_tokens"] > 0


_SAMPLE = re.compile(
    r'([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\n]|\\[\\"n])*",?)*\})? (\S+)'
)
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"')


def parse_metrics(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples of a Prometheus text exposition (0.0.4), strictly: every line is a HELP, a
    TYPE or a sample of a family whose TYPE came before it; values are numbers."""
    types: dict[str, str] = {}
    samples: dict[tuple[str, tuple[tuple[str, str], ...]], float] = {}
    assert text.endswith("\n")
    for line in text.splitlines():
        if line.startswith("# HELP "):
            continue
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ")
            assert kind in {"counter", "gauge", "histogram", "summary", "untyped"} and name not in types
            types[name] = kind
            continue
        match = _SAMPLE.fullmatch(line)
        assert match, f"not a sample line: {line!r}"
        name, labels, value = match.groups()
        family = re.sub(r"_(bucket|sum|count)$", "", name) if name not in types else name
        assert family in types, f"{name} has no TYPE"
        key = (name, tuple(_LABEL.findall(labels or "")))
        assert key not in samples, f"duplicate sample {line!r}"
        samples[key] = float(value)
    return samples


def _sum(samples: dict[Any, float], name: str, **labels: str) -> float:
    wanted = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and wanted <= set(ls))


def test_metrics_parse_and_move_with_each_request(
    gateway: str, no_key_in_logs: pytest.LogCaptureFixture
) -> None:
    before = parse_metrics(httpx.get(gateway + "/metrics", timeout=10).text)
    label = {"client": "anthropic", "upstream": model_name("ok", "gemini")}
    for stream in (False, True, True):
        assert _post(gateway, "anthropic", "gemini", stream=stream)[0].status_code == 200
    assert _post(gateway, "anthropic", "gemini", stream=False)[0].status_code == 200
    lines = await_access_lines(no_key_in_logs, 4)
    page = httpx.get(gateway + "/metrics", timeout=10)
    assert page.headers["content-type"].startswith("text/plain; version=0.0.4")
    after = parse_metrics(page.text)
    name = "toolwire_gateway_requests_total"
    assert _sum(after, name, status="200", **label) - _sum(before, name, status="200", **label) == 4
    hist = "toolwire_gateway_request_duration_seconds"
    assert _sum(after, f"{hist}_count", **label) - _sum(before, f"{hist}_count", **label) == 4
    inf = _sum(after, f"{hist}_bucket", le="+Inf", **label)
    assert inf == _sum(after, f"{hist}_count", **label)
    tokens = sum(line["output_tokens"] for line in lines)
    out = "toolwire_gateway_tokens_total"
    assert _sum(after, out, direction="output") - _sum(before, out, direction="output") == tokens > 0
    assert after[("toolwire_gateway_open_streams", ())] == 0


def test_an_upstream_error_moves_its_counter(gateway: str) -> None:
    name = "toolwire_gateway_upstream_errors_total"
    labels = {"upstream": model_name("r429", "anthropic"), "error": "upstream 429"}
    before = _sum(parse_metrics(httpx.get(gateway + "/metrics", timeout=10).text), name, **labels)
    path, body = request("openai-chat", model_name("r429", "anthropic"), stream=False)
    assert (
        httpx.post(gateway + path, json=body, headers=key_headers("openai-chat"), timeout=20).status_code
        == 429
    )
    after = _sum(parse_metrics(httpx.get(gateway + "/metrics", timeout=10).text), name, **labels)
    assert after - before == 1


def test_healthz_answers_without_a_key(gateway: str) -> None:
    response = httpx.get(gateway + "/healthz", timeout=10)
    assert (response.status_code, response.json()) == (200, {"status": "ok"})
    assert response.headers["content-type"] == "application/json"


# -- the concurrency limit ---------------------------------------------------------------------

QUEUE = 0.5


@pytest.fixture(scope="module")
def stalling() -> Iterator[tuple[StallingUpstream, str]]:
    upstream = StallingUpstream()
    with serve(upstream, log_level="critical") as url:
        yield upstream, url


@pytest.fixture(scope="module")
def narrow(emulator: str, stalling: tuple[StallingUpstream, str]) -> Iterator[str]:
    """A gateway that handles one request at a time and queues others for :data:`QUEUE` s."""
    stall = Upstream("stall", "anthropic", stalling[1], "TW_UP_KEY")
    config = fault_config(
        emulator, {"stall": stall}, max_concurrency=1, queue_timeout=QUEUE, stream_idle_timeout=30
    )
    with serve(gateway_app(config, env=ENV), log_level="critical") as url:
        yield url


@pytest.mark.parametrize("client", FORMATS)
def test_past_the_concurrency_limit_a_request_waits_then_gets_a_503(
    narrow: str, stalling: tuple[StallingUpstream, str], client: str, no_key_in_logs: pytest.LogCaptureFixture
) -> None:
    path, body = request(client, "stall", stream=True)
    with (
        httpx.Client(base_url=narrow, timeout=20) as first,
        first.stream("POST", path, json=body, headers=key_headers(client)) as held,
    ):
        assert held.status_code == 200
        call = stalling[0].last()  # the one slot is taken by an open stream
        started = time.monotonic()
        refused, _ = _post(narrow, client, "anthropic", stream=False)
        waited = time.monotonic() - started
        assert refused.status_code == 503
        assert error_kind(client, 503, refused.json())
        assert QUEUE - 0.05 < waited < QUEUE + 5
    assert call.closed.wait(10)
    for _ in range(100):  # the slot is free again once the first stream is let go
        answer, _ = _post(narrow, client, "anthropic", stream=False)
        if answer.status_code == 200:
            break
    assert answer.status_code == 200
    assert 503 in [line["status"] for line in access_lines(no_key_in_logs)]


# -- graceful shutdown of ``toolwire serve`` ---------------------------------------------------

TRICKLE = 12
GAP = 0.15


class TricklingUpstream:
    """An Anthropic upstream whose one streamed answer takes ``TRICKLE * GAP`` seconds."""

    def __init__(self) -> None:
        self.started = threading.Event()

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        while (await receive()).get("more_body"):
            pass
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [(b"content-type", b"text/event-stream")],
            }
        )
        self.started.set()
        for event in _trickle_events():
            await send({"type": "http.response.body", "body": event, "more_body": True})
            await asyncio.sleep(GAP)
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def _sse(data: dict[str, Any]) -> bytes:
    return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()


def _trickle_events() -> Iterator[bytes]:
    usage = {"input_tokens": 3, "output_tokens": 1}
    message = {"id": "msg_trickle", "type": "message", "role": "assistant", "model": "m", "content": [],
               "stop_reason": None, "stop_sequence": None, "usage": usage}  # fmt: skip
    yield _sse({"type": "message_start", "message": message})
    yield _sse({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})
    for i in range(TRICKLE):
        yield _sse(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": f"w{i} "}}
        )
    yield _sse({"type": "content_block_stop", "index": 0})
    yield _sse({"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None},
                "usage": {"output_tokens": TRICKLE}})  # fmt: skip
    yield _sse({"type": "message_stop"})


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _wait_healthy(url: str, process: subprocess.Popen[bytes]) -> None:
    for _ in range(300):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""  # type: ignore[union-attr]
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    raise AssertionError("toolwire serve did not start")


def test_sigterm_lets_an_open_stream_finish_then_the_process_exits_0() -> None:
    upstream = TricklingUpstream()
    port = _free_port()
    with serve(upstream, log_level="critical") as upstream_url:
        argv = [sys.executable, "-m", "toolwire.cli", "serve", "--port", str(port), "--upstream-format",
                "anthropic", "--upstream-url", upstream_url, "--graceful-timeout", "20"]  # fmt: skip
        process = subprocess.Popen(argv, stderr=subprocess.PIPE, env={**os.environ, "PYTHONUNBUFFERED": "1"})
        try:
            url = f"http://127.0.0.1:{port}"
            _wait_healthy(url, process)
            path, body = request("openai-chat", "any-model", stream=True)
            with httpx.stream("POST", url + path, json=body, timeout=20) as response:
                chunks = response.iter_bytes()
                data = next(chunks)
                assert upstream.started.wait(5)
                process.send_signal(signal.SIGTERM)
                data += b"".join(chunks)
            code = process.wait(timeout=20)
            log = process.stderr.read().decode() if process.stderr else ""
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(10)
    assert response.status_code == 200
    evs = events(data)
    text = "".join(c["delta"].get("content") or "" for e in evs for c in e.get("choices", []))
    assert text == "".join(f"w{i} " for i in range(TRICKLE))  # every word, after the SIGTERM too
    assert [c["finish_reason"] for e in evs for c in e.get("choices", []) if c.get("finish_reason")] == [
        "stop"
    ]
    assert data.endswith(b"data: [DONE]\n\n")
    assert code == 0, log
    lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
    assert [(line["status"], line["output_tokens"]) for line in lines if line["stream"]] == [(200, TRICKLE)]
