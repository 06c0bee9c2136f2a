"""Traces of a real gateway: the official openai SDK -> the gateway (``[trace]`` on) -> the
emulator's Anthropic API, a whole tool loop, whole and streamed, on every store backend."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.emulator.tools import chat_tools, result_for
from tests.gateway.traced import FAKE, kept, traced_config, traced_gateway
from tests.store.conftest import Backend, backend, redis_server
from toolwire.trace import TraceRecord

__all__ = ["backend", "redis_server"]

USER = "What is the weather in Paris?"


def tool_loop(url: str, stream: bool, *, extra: str = "") -> str:
    """Two turns: the model calls get_weather, the result goes back, the model answers."""
    client = openai.OpenAI(
        base_url=f"{url}/v1",
        api_key=FAKE,
        max_retries=0,
        default_headers={"x-api-key": FAKE, "x-goog-api-key": FAKE},
        default_query={"key": FAKE},
    )
    messages: list[Any] = [{"role": "user", "content": USER + extra}]

    def turn() -> Any:
        if not stream:
            return (
                client.chat.completions.create(model="to-anthropic", messages=messages, tools=chat_tools())
                .choices[0]
                .message
            )  # type: ignore[arg-type]
        with client.chat.completions.stream(model="to-anthropic", messages=messages, tools=chat_tools()) as s:  # type: ignore[arg-type]
            for _ in s:
                pass
            return s.get_final_completion().choices[0].message

    first = turn()
    calls = first.tool_calls or []
    assert [c.function.name for c in calls] == ["get_weather"]
    messages.append({"role": "assistant", "content": None, "tool_calls": [c.model_dump() for c in calls]})
    messages += [
        {"role": "tool", "tool_call_id": c.id, "content": result_for(c.function.name)} for c in calls
    ]
    final = turn()
    return str(final.content)


def _common(trace: TraceRecord, stream: bool) -> None:
    assert (trace.method, trace.path, trace.status, trace.stream) == (
        "POST",
        "/v1/chat/completions",
        200,
        stream,
    )
    assert (trace.client_format, trace.upstream_format, trace.upstream) == (
        "openai-chat",
        "anthropic",
        "claude",
    )
    assert (trace.route, trace.client_model, trace.upstream_model) == (
        "to-anthropic",
        "to-anthropic",
        "claude-sonnet-4-5",
    )
    assert trace.input_tokens and trace.output_tokens
    latency = trace.latency
    assert latency.total > 0 and latency.upstream is not None and 0 < latency.upstream <= latency.total
    assert latency.first_byte is not None and 0 < latency.first_byte <= latency.total
    assert trace.client_request is not None and USER in trace.client_request.text
    assert json.loads(trace.client_request.text)["model"] == "to-anthropic"
    assert trace.upstream_request is not None
    sent = json.loads(trace.upstream_request.text)
    assert sent["model"] == "claude-sonnet-4-5" and sent["max_tokens"] > 0 and sent["stream"] is stream
    assert not trace.client_request.truncated and trace.client_request.size == len(trace.client_request.text)
    request_notes = [n for n in trace.notes if n.side == "client_request"]
    assert any(n.target_side == "upstream_request" and n.path.startswith("$") for n in request_notes), (
        trace.notes
    )


def test_whole_tool_loop_traces_both_payloads(backend: Backend, emulator_url: str) -> None:
    with traced_gateway(traced_config(emulator_url, backend.url)) as (url, app):
        answer = tool_loop(url, stream=False)
        second, first = kept(backend, app, 2)
    assert result_for("get_weather") in answer
    for trace in (first, second):
        _common(trace, stream=False)
        assert trace.events == []
    assert first.created_at <= second.created_at
    assert json.loads(first.upstream_response.text)["stop_reason"] == "tool_use"  # type: ignore[union-attr]
    calls = json.loads(first.client_response.text)["choices"][0]["message"]["tool_calls"]  # type: ignore[union-attr]
    assert calls[0]["function"]["name"] == "get_weather"
    assert json.loads(second.upstream_request.text)["messages"][-1]["content"][0]["type"] == "tool_result"  # type: ignore[union-attr]
    assert json.loads(second.client_response.text)["choices"][0]["message"]["content"] == answer  # type: ignore[union-attr]


def _marks(trace: TraceRecord, side: str) -> list[str]:
    return [e.kind for e in trace.events if e.side == side and e.kind != "other"]


def test_streamed_tool_loop_traces_the_timeline(backend: Backend, emulator_url: str) -> None:
    with traced_gateway(traced_config(emulator_url, backend.url)) as (url, app):
        answer = tool_loop(url, stream=True)
        second, first = kept(backend, app, 2)
    assert result_for("get_weather") in answer
    for trace in (first, second):
        _common(trace, stream=True)
        assert trace.upstream_response is None and trace.client_response is None
        times = [e.t_ms for e in trace.events]
        assert times == sorted(times) and times[0] > 0 and times[-1] <= trace.latency.total
    up, down = _marks(first, "upstream_response"), _marks(first, "client_response")
    assert up[0] == "first_byte" and up.index("tool_call_start") < up.index("tool_call_end") < up.index("end")
    assert down[0] == "first_byte" and down.index("tool_call_start") < down.index(
        "tool_call_end"
    ) < down.index("end")
    starts = [e for e in first.events if e.kind == "tool_call_start"]
    assert {e.side for e in starts} == {"upstream_response", "client_response"}
    assert any(e.name == "content_block_start" and "get_weather" in e.data for e in starts)
    assert "text" in _marks(second, "client_response") and "text" in _marks(second, "upstream_response")
    text = "".join(
        json.loads(e.data)["choices"][0]["delta"].get("content") or ""
        for e in second.events
        if e.side == "client_response" and e.kind == "text"
    )
    assert text == answer
    down_first = next(e for e in first.events if e.side == "client_response")
    assert first.latency.first_byte is not None and first.latency.first_byte == down_first.t_ms


def _raw(backend: Backend, app: Any, tmp_path: Path, redis: Any) -> bytes:
    """Every byte the backend holds: the memory store's values, the SQLite files (WAL too),
    the Redis server's append-only files."""
    if backend.name == "memory":
        store = app.store._store
        return b"".join(b"".join(v[1:]) for v in store._traces.values())
    if backend.name == "sqlite":
        return b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    return b"".join(p.read_bytes() for p in Path(redis.folder).rglob("*") if p.is_file())


@pytest.mark.parametrize("stream", [False, True])
def test_no_key_is_ever_stored(
    backend: Backend, emulator_url: str, tmp_path: Path, request: pytest.FixtureRequest, stream: bool
) -> None:
    """The fake key is the upstream key, the gateway key, three request headers, the ``key``
    query parameter, and it is in the user's message: no trace holds it, in any spelling."""
    redis = request.getfixturevalue("redis_server") if backend.name == "redis" else None
    with traced_gateway(traced_config(emulator_url, backend.url)) as (url, app):
        tool_loop(url, stream=stream, extra=f" My key is {FAKE}.")
        traces = kept(backend, app, 2)
        raw = _raw(backend, app, tmp_path, redis)
    assert len(raw) > 1000 and b"[redacted]" in raw and b"Paris" in raw
    assert FAKE.encode() not in raw and b"FAKEKEY" not in raw
    for trace in traces:
        assert "[redacted]" in trace.client_request.text  # type: ignore[union-attr]
        assert trace.path == "/v1/chat/completions"
