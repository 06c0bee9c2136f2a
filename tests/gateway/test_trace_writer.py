"""The trace writer and its limits: the ``[trace]`` config section, body caps (redaction before
the cut), retention while the gateway runs, a full queue that drops and counts, and
``toolwire serve --trace`` as a real process."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest

from tests.gateway.test_serve_cli import _free_port, _wait_healthy
from tests.gateway.traced import FAKE, traced_config, traced_gateway
from tests.store.conftest import Backend, backend, redis_server
from toolwire.cli import main
from toolwire.gateway import ConfigError, TraceConfig
from toolwire.gateway._metrics import Metrics
from toolwire.gateway._store import AsyncStoreHandle
from toolwire.gateway._tracing import TraceWriter
from toolwire.hop._capture import SLACK, HopCapture, Payload
from toolwire.hop._config import decode_config
from toolwire.hop._steps import HopRecord
from toolwire.store import open_store
from toolwire.trace import TraceBody, TraceQuery
from toolwire.trace.build import REDACTED, Redactor, build_trace

__all__ = ["backend", "redis_server"]

UPSTREAMS = {"upstreams": {"u": {"format": "anthropic", "base_url": "http://127.0.0.1:1"}}}


def test_trace_section_decodes_with_defaults_and_zero_as_no_bound() -> None:
    assert decode_config(UPSTREAMS).trace == TraceConfig()
    assert TraceConfig().enabled is False and TraceConfig().max_body_bytes == 256 * 1024
    config = decode_config(
        {
            **UPSTREAMS,
            "trace": {"enabled": True, "max_body_bytes": 1000, "max_age": 0, "max_count": 0, "queue": 5},
        }
    )
    assert config.trace == TraceConfig(
        enabled=True, max_body_bytes=1000, max_age=None, max_count=None, queue=5
    )
    assert decode_config({**UPSTREAMS, "trace": {"max_age": 3600, "max_count": 50}}).trace.max_age == 3600.0


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"enabled": "yes"}, "trace.enabled: expected bool, got str"),
        ({"max_body_bytes": 0}, "trace.max_body_bytes: must be positive"),
        ({"max_count": -1}, "trace.max_count: must be positive"),
        ({"max_age": "1d"}, "trace.max_age: expected int or float, got str"),
        ({"queue": 1.5}, "trace.queue: expected int, got float"),
        ({"max_bytes": 1}, "trace: unknown key 'max_bytes'"),
        ("on", "$.trace: expected a table, got str"),
    ],
)
def test_trace_section_mistakes_name_their_path(section: Any, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        decode_config({**UPSTREAMS, "trace": section})
    assert info.value.message.startswith(message), info.value.message


def test_redaction_comes_before_the_cut() -> None:
    redactor = Redactor([FAKE, "", "a/b\\key"], cap=40)
    text = "x" * 30 + FAKE + " and a/b\\\\key in JSON"
    cut = redactor.cut(text)
    assert cut == "x" * 30 + REDACTED and not any(FAKE[:n] in cut for n in range(3, len(FAKE)))
    assert redactor.redact('"a/b\\\\key"') == f'"{REDACTED}"'  # the JSON spelling of a\\b
    body = redactor.body(Payload(("é" * 30).encode(), 60))  # the cut never splits a character
    assert body is not None and (body.size, body.truncated, body.text) == (60, True, "é" * 20)
    assert redactor.body(Payload(b'{"a": 1}', 8)) == TraceBody(text='{"a": 1}', size=8)
    assert redactor.body(None) is None


def test_a_payload_is_kept_to_its_budget_and_a_key_across_the_cut_is_still_redacted() -> None:
    capture = HopCapture(budget=1000)
    body = b"a" * 995 + FAKE.encode() + b"b" * 100_000
    capture.keep("client_request", body, {"content-type": "text/plain"})
    kept = capture.payloads["client_request"]
    assert (len(kept.data), kept.size, kept.content_type) == (1000 + SLACK, len(body), "text/plain")
    record = HopRecord("req_1", "POST", "/v1/messages", status=200, capture=capture)
    trace = build_trace(record, capture, created_at=0.0, done=1.0, secrets=[FAKE])
    assert trace.client_request == TraceBody(
        text="a" * 995 + REDACTED[:5], size=len(body), truncated=True, content_type="text/plain"
    )


def test_bearer_and_query_keys_are_secrets() -> None:
    capture = HopCapture()
    capture.inbound({"Authorization": f"Bearer {FAKE}", "x-other": "visible"}, f"alt=sse&key={FAKE}2", b"{}")
    capture.sent(b"{}", {"x-api-key": "upstream-k", "content-type": "application/json; charset=utf-8"})
    assert capture.secrets == {f"Bearer {FAKE}", FAKE, f"{FAKE}2", "upstream-k"}
    assert capture.payloads["upstream_request"] == Payload(b"{}", 2, "application/json")


def test_big_bodies_and_streams_are_capped(backend: Backend, emulator_url: str) -> None:
    big = "weather " * 2000  # 16000 bytes of the user's text
    with traced_gateway(traced_config(emulator_url, backend.url, max_body_bytes=1500)) as (url, app):
        client = openai.OpenAI(base_url=f"{url}/v1", api_key=FAKE, max_retries=0)
        client.chat.completions.create(model="to-anthropic", messages=[{"role": "user", "content": big}])
        with client.chat.completions.stream(
            model="to-anthropic", messages=[{"role": "user", "content": big}]
        ) as s:
            text = "".join(e.delta for e in s if e.type == "content.delta")  # type: ignore[union-attr]
        from tests.gateway.traced import kept

        streamed, whole = kept(backend, app, 2)
    for trace in (whole, streamed):
        body = trace.client_request
        assert body is not None and body.truncated and body.size > 16000
        assert len(body.text.encode()) == 1500 and body.text.startswith("{") and "weather " * 150 in body.text
        assert trace.upstream_request is not None and trace.upstream_request.truncated
    for body in (whole.upstream_response, whole.client_response):  # the scripted model echoes the text
        assert body is not None and body.truncated and body.size > 16000 and len(body.text.encode()) <= 1500
    cut = [e for e in streamed.events if e.name == "truncated"]
    assert len(text) > 16000 and [e.side for e in cut] == ["upstream_response", "client_response"]
    assert all(
        e.data.startswith("later events are not kept: ") and e.data.endswith(" bytes, 1500 kept") for e in cut
    )
    assert int(cut[1].data.split()[5]) > 16000  # the whole stream's size, counted past the cap
    assert all(len(e.data.encode()) <= 1500 for e in streamed.events)


def test_retention_keeps_the_newest_while_serving(
    backend: Backend, emulator_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("toolwire.gateway._tracing.PRUNE_EVERY", 0.0)  # prune after every write
    with traced_gateway(traced_config(emulator_url, backend.url, max_count=2)) as (url, app):
        client = openai.OpenAI(base_url=f"{url}/v1", api_key=FAKE, max_retries=0)
        for n in range(5):
            client.chat.completions.create(
                model="to-anthropic", messages=[{"role": "user", "content": f"call {n}"}]
            )
        from tests.gateway.traced import kept

        kept(backend, app, 5)

        async def listed() -> list[str]:
            store = app.store._store if backend.name == "memory" else await open_store(backend.url)
            rows = await store.list_traces(TraceQuery())
            records = [await store.get_trace(row.id) for row in rows]
            if backend.name != "memory":
                await store.aclose()
            return [json.loads(r.client_request.text)["messages"][0]["content"] for r in records if r]

        assert asyncio.run(listed()) == ["call 4", "call 3"]


def test_a_full_queue_drops_and_counts_never_waits() -> None:
    config = decode_config({**UPSTREAMS, "trace": {"enabled": True, "queue": 2}})
    metrics = Metrics()
    handle = AsyncStoreHandle("memory://")

    def record(n: int) -> HopRecord:
        capture = HopCapture(started=1.0, created_at=time.time() + n)
        return HopRecord(f"req_{n}", "POST", "/v1/messages", status=200, capture=capture)

    async def go() -> list[str]:
        writer = TraceWriter(config, handle, metrics)
        for n in range(5):  # no await between: the writer task has not run yet
            writer.offer(record(n), 2.0)
        await writer.aclose()
        store = await handle.opened()
        rows = await store.list_traces(TraceQuery())
        await handle.aclose()
        return [row.id for row in rows]

    assert asyncio.run(go()) == ["req_1", "req_0"]
    assert dict(metrics.traces) == {"dropped": 3, "written": 2}
    page = metrics.render()
    assert 'toolwire_gateway_traces_total{outcome="dropped"} 3\n' in page
    assert 'toolwire_gateway_traces_total{outcome="written"} 2\n' in page


def test_serve_trace_keeps_calls_and_writes_them_before_exit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    store = f"sqlite://{tmp_path / 'traces.db'}"
    argv = [sys.executable, "-m", "toolwire", "serve", "--trace", "--store", store, "--port", str(port)]
    proc = subprocess.Popen(
        [*argv, "--log-level", "warning", "--no-access-log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        _wait_healthy(url, proc)
        body = {"model": "gpt-5", "messages": [{"role": "user", "content": "hello"}]}
        assert httpx.post(f"{url}/v1/chat/completions", json=body, timeout=30).status_code == 200
        assert (
            httpx.post(f"{url}/v1/chat/completions", json={**body, "stream": True}, timeout=30).status_code
            == 200
        )
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    assert proc.returncode == 0, err
    assert f"tracing every call into {store} (toolwire trace ls --store {store})" in err.decode()
    assert main(["trace", "ls", "--store", store, "--json"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["stream"], r["status"], r["client_format"], r["upstream_format"]) for r in rows] == [
        (True, 200, "openai-chat", "anthropic"),
        (False, 200, "openai-chat", "anthropic"),
    ]


def test_a_store_that_fails_is_counted_and_the_writer_lives_on(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "file").write_text("not a folder")
    config = decode_config({**UPSTREAMS, "trace": {"enabled": True}})
    metrics = Metrics()
    handle = AsyncStoreHandle(f"sqlite://{tmp_path / 'file' / 'traces.db'}")  # cannot be created

    async def go() -> None:
        writer = TraceWriter(config, handle, metrics)
        for n in range(3):
            capture = HopCapture(started=1.0, created_at=time.time())
            writer.offer(HopRecord(f"req_{n}", "POST", "/v1/messages", status=200, capture=capture), 2.0)
            await writer.flush()  # each in its own batch: the writer survived the one before
        await writer.aclose()

    asyncio.run(go())
    assert dict(metrics.traces) == {"failed": 3}
    assert [r.getMessage() for r in caplog.records if r.name == "toolwire.gateway"] == [
        f"could not keep the trace of request req_{n}" for n in range(3)
    ]
