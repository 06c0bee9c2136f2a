"""The stream timeline of every client format in front of every upstream format: each side's
events marked by its own format's rules (first byte, a tool call's start and end, the end)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import httpx
import pytest

from tests.emulator.tools import SCHEMAS, anthropic_tools, chat_tools, responses_tools
from tests.gateway.shells import ENV, FORMATS, GATEWAY_KEY, ROUTE_MODELS, UPSTREAM_MODELS
from toolwire.emulator import serve
from toolwire.gateway import GatewayApp, HopConfig, TraceConfig
from toolwire.trace import TraceQuery, TraceRecord

ASK = "What is the weather in Paris?"


def _call(fmt: str, model: str) -> tuple[str, dict[str, str], dict[str, Any]]:
    """Path, headers and body of a streamed request in the client format ``fmt``."""
    user = {"role": "user", "content": ASK}
    if fmt == "openai-chat":
        body = {"model": model, "messages": [user], "tools": chat_tools(), "stream": True}
        return "/v1/chat/completions", {"authorization": f"Bearer {GATEWAY_KEY}"}, body
    if fmt == "openai-responses":
        body = {"model": model, "input": ASK, "tools": responses_tools(), "stream": True, "store": False}
        return "/v1/responses", {"authorization": f"Bearer {GATEWAY_KEY}"}, body
    if fmt == "anthropic":
        body = {
            "model": model,
            "max_tokens": 300,
            "messages": [user],
            "tools": anthropic_tools(),
            "stream": True,
        }
        return "/v1/messages", {"x-api-key": GATEWAY_KEY, "anthropic-version": "2023-06-01"}, body
    tools = [{"functionDeclarations": [{"name": n, "parametersJsonSchema": s} for n, s in SCHEMAS.items()]}]
    body = {"contents": [{"role": "user", "parts": [{"text": ASK}]}], "tools": tools}
    return f"/v1beta/models/{model}:streamGenerateContent?alt=sse", {"x-goog-api-key": GATEWAY_KEY}, body


@pytest.fixture(scope="module")
def traced(config: HopConfig) -> Iterator[tuple[str, GatewayApp]]:
    app = GatewayApp(replace(config, store="memory://", trace=TraceConfig(enabled=True)), env=ENV)
    with serve(app, log_level="critical") as url:
        yield url, app


def _trace(app: GatewayApp, before: int) -> TraceRecord:
    deadline = time.monotonic() + 60
    while app.metrics.traces["written"] <= before and time.monotonic() < deadline:
        time.sleep(0.01)
    store: Any = app.store._store
    newest = store._trace_order[-1][1]
    from toolwire.trace import decode_trace

    return decode_trace(store._traces[newest][2])


def _kinds(trace: TraceRecord, side: str) -> list[str]:
    return [e.kind for e in trace.events if e.side == side]


@pytest.mark.parametrize("upstream", FORMATS)
@pytest.mark.parametrize("client", FORMATS)
def test_each_side_is_marked_by_its_format(
    traced: tuple[str, GatewayApp], client: str, upstream: str
) -> None:
    url, app = traced
    path, headers, body = _call(client, ROUTE_MODELS[upstream])
    before = app.metrics.traces["written"]
    answer = httpx.post(url + path, json=body, headers=headers, timeout=60)
    assert answer.status_code == 200, answer.text
    trace = _trace(app, before)
    assert (trace.client_format, trace.upstream_format, trace.stream) == (client, upstream, True)
    assert trace.upstream_model == UPSTREAM_MODELS[upstream]
    for side in ("upstream_response", "client_response"):
        kinds = _kinds(trace, side)
        assert kinds[0] == "first_byte", (side, kinds)
        start, end = kinds.index("tool_call_start"), kinds.index("tool_call_end")
        assert start <= end < len(kinds) and "end" in kinds[end:], (side, kinds)
        marked = [e for e in trace.events if e.side == side and e.kind == "tool_call_start"]
        assert marked[0].index is not None and marked[0].data, (side, marked)
    assert trace.latency.first_byte is not None and trace.latency.upstream is not None
    assert TraceQuery(pair=f"{client}->{upstream}").matches(trace.summary())
