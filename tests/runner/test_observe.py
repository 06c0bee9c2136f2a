"""Observers (toolwire.hooks) and the OpenTelemetry adapter, through real runs against the emulator.

The scenario is tests/runner/test_loop.py's: three turns; the first runs get_weather (fine),
explode (raises) and add (invalid arguments, never started), the second get_time.
"""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind, StatusCode

from tests.runner.test_loop import SCRIPT, first_request, toolbox
from toolwire.client import AsyncClient, Client
from toolwire.emulator import FAULT_HEADER, EmulatorConfig, create_app, serve
from toolwire.errors import AuthenticationError, ToolwireError
from toolwire.hooks import EVENTS, CallInfo, ConversionInfo, Observer, Observers
from toolwire.ir import Response, ToolCall, ToolResult
from toolwire.otel import OpenTelemetryObserver
from toolwire.runner import RunEnd, RunResult, arun, run, run_stream

TOOL_EVENTS = ("on_tool_start", "on_tool_end")
KEY = "sk-observed-key"


class Record(Observer):
    """Keeps every event as ``(name, args)``."""

    def __init__(self) -> None:
        self.events: list[tuple[str, tuple[Any, ...]]] = []

    def on_conversion(self, conversion: ConversionInfo) -> None:
        self.events.append(("on_conversion", (conversion,)))

    def on_request(self, call: CallInfo) -> None:
        self.events.append(("on_request", (call,)))

    def on_response(self, call: CallInfo, response: Response) -> None:
        self.events.append(("on_response", (call, response)))

    def on_error(self, call: CallInfo, error: BaseException) -> None:
        self.events.append(("on_error", (call, error)))

    def on_tool_start(self, call: ToolCall) -> None:
        self.events.append(("on_tool_start", (call,)))

    def on_tool_end(self, call: ToolCall, result: ToolResult, seconds: float) -> None:
        self.events.append(("on_tool_end", (call, result, seconds)))

    def names(self, *, tools: bool) -> list[str]:
        return [name for name, _ in self.events if (name in TOOL_EVENTS) == tools]

    def of(self, name: str) -> list[tuple[Any, ...]]:
        return [args for n, args in self.events if n == name]


def _boom(event: str) -> Any:
    def method(self: Observer, *args: Any) -> None:
        raise RuntimeError(f"boom in {event}")

    return method


class Explode(Observer):
    """Raises from every method."""

    on_conversion = _boom("on_conversion")
    on_request = _boom("on_request")
    on_response = _boom("on_response")
    on_error = _boom("on_error")
    on_tool_start = _boom("on_tool_start")
    on_tool_end = _boom("on_tool_end")


assert {name for name in vars(Explode) if name.startswith("on_")} == set(EVENTS)


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(script=SCRIPT)), log_level="critical") as base:
        yield base


@pytest.fixture(scope="module")
def keyed_url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(api_keys=(KEY,))), log_level="critical") as base:
        yield base


def check_tools(rec: Record, result: RunResult) -> None:
    """One end per call with the result the model got; a start before it only for calls that ran."""
    results = [list(m.parts) for m in result.messages if m.role == "tool"]
    asking = [r for r in result.responses if r.tool_calls]
    sent = [
        (c, r)
        for resp, parts in zip(asking, results, strict=True)
        for c, r in zip(resp.tool_calls, parts, strict=True)
    ]
    ends = [(c, r) for c, r, _ in rec.of("on_tool_end")]
    assert len(ends) == len(sent) == 4
    assert all(pair in sent for pair in ends) and all(pair in ends for pair in sent)
    started = [c.name for (c,) in rec.of("on_tool_start")]
    assert sorted(started) == ["explode", "get_time", "get_weather"]  # add's arguments were invalid
    tool_events = [(n, id(a[0])) for n, a in rec.events if n in TOOL_EVENTS]
    for (call,) in rec.of("on_tool_start"):
        assert tool_events.index(("on_tool_start", id(call))) < tool_events.index(("on_tool_end", id(call)))
    seconds = {c.name: s for c, _, s in rec.of("on_tool_end")}
    assert seconds["add"] == 0 and all(s >= 0 for s in seconds.values())


def test_run_reports_calls_conversions_and_tools_in_order(url: str) -> None:
    rec = Record()
    with Client("anthropic", base_url=url, api_key="k", observer=rec) as client:
        result = run(client, first_request(), toolbox())
    assert rec.names(tools=False) == ["on_conversion", "on_request", "on_conversion", "on_response"] * 3
    calls = rec.of("on_request")
    assert len({id(c) for (c,) in calls}) == 3
    assert [a[0] for a in rec.of("on_response")] == [c for (c,) in calls]  # the same CallInfo per call
    first: CallInfo = calls[0][0]
    assert (first.provider, first.format, first.model, first.stream, first.source) == (
        "anthropic",
        "anthropic",
        "emulated-model",
        False,
        None,
    )
    assert first.url == f"{url}/v1/messages" and first.started_ns > 0
    assert [r for _, r in rec.of("on_response")] == list(result.responses)
    conversions = [c for (c,) in rec.of("on_conversion")]
    assert [(c.source, c.target, c.kind) for c in conversions[:2]] == [
        ("ir", "anthropic", "request"),
        ("anthropic", "ir", "response"),
    ]
    assert all(c.started_ns <= c.ended_ns for c in conversions)
    check_tools(rec, result)
    # tools of turn 1 come after that turn's response and before turn 2's request
    order = [n for n, _ in rec.events]
    assert order.index("on_tool_end") > order.index("on_response")


def test_native_request_conversion_notes_are_reported(url: str) -> None:
    rec = Record()
    chat = {"model": "emulated-model", "messages": [{"role": "user", "content": "hi"}], "seed": 7}
    with Client("anthropic", base_url=url, api_key="k", observer=rec) as client:
        client.create(chat, format="openai-chat")
    (request,) = [c for (c,) in rec.of("on_conversion") if c.kind == "request"]
    assert (request.source, request.target) == ("openai-chat", "anthropic")
    assert [(n.path, n.target) for n in request.notes] == [("$", "$.max_tokens"), ("$.seed", None)]
    (call,) = rec.of("on_request")
    assert call[0].source == "openai-chat"


def test_stream_run_reports_each_stream_at_its_end(url: str) -> None:
    on_client, on_run = Record(), Record()
    with Client("openai-responses", base_url=url, api_key="k", observer=on_client) as client:
        events = list(run_stream(client, first_request(), toolbox(), observer=on_run))
    result = events[-1].result if isinstance(events[-1], RunEnd) else None
    assert result is not None and result.turns == 3
    # the run's observer gets the tools; the client's the calls (streams convert event by event)
    assert on_client.names(tools=False) == ["on_conversion", "on_request", "on_response"] * 3
    assert on_client.names(tools=True) == [] and on_run.names(tools=False) == []
    assert all(c.stream for (c,) in on_client.of("on_request"))
    usages = [r.usage for _, r in on_client.of("on_response")]
    assert usages == list(result.turns_usage) and all(u and u.output_tokens for u in usages)
    check_tools(on_run, result)


def test_async_run_reports_the_same(url: str) -> None:
    rec = Record()

    async def go() -> RunResult:
        async with AsyncClient("gemini", base_url=url, api_key="k", observer=rec) as client:
            return await arun(client, first_request(), toolbox())

    result = asyncio.run(go())
    assert rec.names(tools=False) == ["on_conversion", "on_request", "on_conversion", "on_response"] * 3
    check_tools(rec, result)


def test_failed_call_reports_the_error(keyed_url: str) -> None:
    rec = Record()
    with Client("openai-chat", base_url=keyed_url, api_key="wrong", observer=rec) as client:
        with pytest.raises(AuthenticationError) as raised:
            client.create(first_request())
        with pytest.raises(AuthenticationError):
            client.stream(first_request())
    assert rec.names(tools=False) == ["on_conversion", "on_request", "on_error"] * 2
    (call, error), _ = rec.of("on_error")
    assert error is raised.value and call is rec.of("on_request")[0][0]


def test_raising_observer_never_breaks_the_run(url: str, caplog: pytest.LogCaptureFixture) -> None:
    rec = Record()
    with (
        caplog.at_level(logging.ERROR, logger="toolwire.hooks"),
        Client("openai-chat", base_url=url, api_key="k", observer=Observers([Explode(), rec])) as client,
    ):
        result = run(client, first_request(), toolbox())
    assert result.stop == "completed" and result.text == "Results: get_time -> 12:00 CET"
    assert len(rec.events) == 12 + 3 + 4  # every event still reached the second observer
    failures = [r for r in caplog.records if r.name == "toolwire.hooks"]
    assert len(failures) == len(rec.events)
    assert failures[0].getMessage() == "observer Explode.on_conversion raised; ignored"
    assert all(r.exc_info and "boom in" in str(r.exc_info[1]) for r in failures)


# -- OpenTelemetry -------------------------------------------------------------------------------


def traced() -> tuple[InMemorySpanExporter, TracerProvider]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    return exporter, provider


def by_name(spans: tuple[ReadableSpan, ...], prefix: str) -> list[ReadableSpan]:
    return [s for s in spans if s.name.startswith(prefix)]


def test_otel_spans_for_calls_tools_and_conversions(url: str) -> None:
    exporter, provider = traced()
    tracer = provider.get_tracer("test")
    with (
        tracer.start_as_current_span("app") as app,
        Client("anthropic", base_url=url, api_key=KEY, observer=OpenTelemetryObserver(tracer)) as client,
    ):
        result = run(client, first_request(), toolbox())
    spans = exporter.get_finished_spans()
    chats = by_name(spans, "chat ")
    assert [s.name for s in chats] == ["chat emulated-model"] * 3
    assert all(s.kind == SpanKind.CLIENT for s in chats)
    attrs = dict(chats[0].attributes or {})
    assert attrs["gen_ai.system"] == "anthropic" and attrs["gen_ai.operation.name"] == "chat"
    assert attrs["gen_ai.request.model"] == "emulated-model" and attrs["server.address"] == "127.0.0.1"
    assert attrs["gen_ai.response.finish_reasons"] == ("tool_use",)
    usage = [(s.attributes or {}).get("gen_ai.usage.input_tokens") for s in chats]
    assert usage == [u.input_tokens for u in result.turns_usage]
    outputs = [(s.attributes or {}).get("gen_ai.usage.output_tokens") for s in chats]
    assert outputs == [u.output_tokens for u in result.turns_usage]
    tools = by_name(spans, "execute_tool ")
    assert sorted(s.name for s in tools) == [
        "execute_tool add",
        "execute_tool explode",
        "execute_tool get_time",
        "execute_tool get_weather",
    ]
    status = {s.name: s.status.status_code for s in tools}
    assert (
        status["execute_tool explode"] == StatusCode.ERROR and status["execute_tool add"] == StatusCode.ERROR
    )
    assert status["execute_tool get_weather"] == StatusCode.UNSET
    assert all((s.attributes or {})["gen_ai.tool.call.id"] for s in tools)
    conversions = by_name(spans, "toolwire.convert ")
    assert len(conversions) == 6
    # every span, tools run in worker threads included, nests under the application's span
    assert all(
        s.parent is not None and s.parent.span_id == app.get_span_context().span_id for s in chats + tools
    )
    assert all(s.end_time and s.start_time and s.start_time <= s.end_time for s in spans)
    assert KEY not in repr([dict(s.attributes or {}) for s in spans])


def test_otel_error_span(keyed_url: str) -> None:
    exporter, provider = traced()
    observer = OpenTelemetryObserver(provider.get_tracer("test"))
    with (
        Client("gemini", base_url=keyed_url, api_key="wrong", observer=observer) as client,
        pytest.raises(AuthenticationError),
    ):
        client.create(first_request())
    (span,) = by_name(exporter.get_finished_spans(), "chat ")
    assert span.status.status_code == StatusCode.ERROR
    assert (span.attributes or {})["error.type"] == "AuthenticationError"
    assert (span.attributes or {})["gen_ai.system"] == "gcp.gemini"
    assert [e.name for e in span.events] == ["exception"]


def test_otel_missing_names_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['opentelemetry'] = None\n"
        "from toolwire.otel import OpenTelemetryObserver\n"
        "try:\n"
        "    OpenTelemetryObserver()\n"
        "except ImportError as exc:\n"
        "    print(type(exc).__name__, exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert (
        out.stdout.strip()
        == "MissingDependencyError toolwire.otel needs the otel extra: pip install 'toolwire[otel]'"
    )


def test_stream_reports_its_end_its_break_or_nothing(url: str) -> None:
    rec = Record()
    with Client("openai-chat", base_url=url, api_key="k", observer=rec) as client:
        with client.stream(first_request()) as whole:
            response = whole.collect()
        with (
            client.stream(first_request(), headers={FAULT_HEADER: "malformed"}) as broken,
            pytest.raises(ToolwireError) as raised,
        ):
            list(broken)
        with client.stream(first_request()) as abandoned:
            next(iter(abandoned))
    sent = ["on_conversion", "on_request"]
    # the whole stream: its response; the broken one: its error; the abandoned one: nothing
    assert rec.names(tools=False) == [*sent, "on_response", *sent, "on_error", *sent]
    (_, done), (_, error) = rec.of("on_response")[0], rec.of("on_error")[0]
    assert done == response and error is raised.value


def test_async_stream_reports_its_break(url: str) -> None:
    rec = Record()

    async def go() -> BaseException:
        async with AsyncClient("anthropic", base_url=url, api_key="k", observer=rec) as client:
            stream = await client.stream(first_request(), headers={FAULT_HEADER: "disconnect"})
            with pytest.raises(ToolwireError) as raised:
                async with stream:
                    async for _ in stream:
                        pass
            return raised.value

    error = asyncio.run(go())
    assert rec.names(tools=False) == ["on_conversion", "on_request", "on_error"]
    assert rec.of("on_error")[0][1] is error
