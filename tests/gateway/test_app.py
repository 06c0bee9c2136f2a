"""What only the ASGI shell does: ``/healthz``, ``/metrics``, the JSON access log line, the
error guard. Served on loopback with the emulator as upstream."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.gateway.shells import ENV, GATEWAY_KEY, UPSTREAM_KEY, client_headers
from toolwire.emulator import serve
from toolwire.gateway import GatewayApp, HopConfig, create_app

ASK = {"role": "user", "content": "What is the weather in Paris?"}
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}}]


@pytest.fixture(scope="module")
def app(config: HopConfig) -> GatewayApp:
    return create_app(config, env=ENV)


@pytest.fixture(scope="module")
def url(app: GatewayApp) -> Iterator[str]:
    with serve(app=app, log_level="critical") as base:
        yield base


def _access(caplog: pytest.LogCaptureFixture) -> list[dict[str, Any]]:
    return [json.loads(r.getMessage()) for r in caplog.records if r.name == "toolwire.gateway.access"]


def test_healthz(url: str) -> None:
    reply = httpx.get(f"{url}/healthz")
    assert (reply.status_code, reply.json()) == (200, {"status": "ok"})


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
def test_one_access_log_line_per_request_with_tokens_and_no_key(
    url: str, stream: bool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="toolwire.gateway.access")
    body = {"model": "to-anthropic", "messages": [ASK], "tools": TOOLS, "stream": stream}
    reply = httpx.post(f"{url}/v1/chat/completions", json=body, headers=client_headers("openai-chat"))
    assert reply.status_code == 200
    lines = _access(caplog)
    assert len(lines) == 1
    line = lines[0]
    assert line["request_id"].startswith("req_")
    expected = {
        "method": "POST",
        "path": "/v1/chat/completions",
        "client_format": "openai-chat",
        "operation": "generate",
        "upstream": "anthropic",
        "upstream_format": "anthropic",
        "model": "to-anthropic",
        "upstream_model": "claude-sonnet-4-5",
        "stream": stream,
        "status": 200,
        "error": None,
    }
    assert {k: line[k] for k in expected} == expected
    assert line["input_tokens"] > 0 and line["output_tokens"] > 0  # streams too
    assert line["latency_ms"] > 0 and isinstance(line["notes"], int)
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert GATEWAY_KEY not in text and UPSTREAM_KEY not in text


def test_a_refused_request_is_logged_with_its_status(url: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="toolwire.gateway.access")
    reply = httpx.post(f"{url}/v1/messages", json={"model": "m"}, headers={"x-api-key": "wrong"})
    assert reply.status_code == 401
    [line] = _access(caplog)
    assert (line["status"], line["client_format"], line["upstream"]) == (401, "anthropic", None)
    assert "wrong" not in json.dumps(line)


def test_metrics_count_requests_and_tokens(url: str) -> None:
    body = {"model": "to-gemini", "messages": [ASK], "tools": TOOLS}
    for _ in range(2):
        assert (
            httpx.post(
                f"{url}/v1/chat/completions", json=body, headers=client_headers("openai-chat")
            ).status_code
            == 200
        )
    text = httpx.get(f"{url}/metrics").text
    counts = [
        line
        for line in text.splitlines()
        if line.startswith("toolwire_gateway_requests_total{")
        and 'upstream="gemini"' in line
        and 'status="200"' in line
    ]
    assert len(counts) == 1 and float(counts[0].rsplit(" ", 1)[1]) >= 2
    assert "toolwire_gateway_open_streams 0" in text
    assert GATEWAY_KEY not in text


def test_the_error_guard_answers_a_bug_with_the_clients_500(
    url: str, app: GatewayApp, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug with a secret inside: " + GATEWAY_KEY)

    monkeypatch.setattr("toolwire.gateway.app.adrive", broken)
    caplog.set_level(logging.ERROR, logger="toolwire.gateway")
    reply = httpx.post(
        f"{url}/v1/messages",
        json={"model": "to-chat", "max_tokens": 5, "messages": [ASK]},
        headers=client_headers("anthropic"),
    )
    assert reply.status_code == 500
    body = reply.json()
    assert body["type"] == "error" and body["error"]["type"] == "api_error"
    assert "secret" not in reply.text and "Traceback" not in reply.text
