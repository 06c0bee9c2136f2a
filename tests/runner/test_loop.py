"""The runner end to end: real client, real emulator over loopback, all four formats.

One scenario, every format, sync and async, streaming and not: two rounds of tool calls (the
first with three parallel calls: one fine, one whose tool raises, one with invalid arguments),
then the model's final answer, which quotes the last results. Every follow-up request is checked
by the validator, every result must have reached the model, and the reasoning state the emulator
signs must come back byte-exact (the emulator itself refuses a request whose state changed).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

from toolwire.client import AsyncClient, Client
from toolwire.emulator import EmulatorConfig, Script, ScriptedCall, Turn, create_app, serve
from toolwire.ir import (
    FORMATS,
    Message,
    ReasoningConfig,
    ReasoningPart,
    Request,
    Response,
    TextPart,
    ToolCall,
    ToolResult,
)
from toolwire.runner import (
    Hooks,
    RunEnd,
    RunResult,
    Toolbox,
    ToolResultEvent,
    TurnEnd,
    arun,
    arun_stream,
    run,
    run_stream,
)
from toolwire.validate import validate

SCRIPT = Script(
    turns=(
        Turn(
            tool_calls=(
                ScriptedCall("get_weather", '{"city": "Paris"}'),
                ScriptedCall("explode", "{}"),
                ScriptedCall("add", '{"a": "two", "b": 3}'),
            )
        ),
        Turn(tool_calls=(ScriptedCall("get_time", '{"zone": "CET"}'),)),
    )
)


def toolbox() -> Toolbox:
    box = Toolbox()

    @box.register
    def get_weather(city: str) -> dict[str, Any]:
        """Current weather of a city."""
        return {"city": city, "temp_c": 21}

    @box.register
    def get_time(zone: str) -> str:
        """Current time in a time zone."""
        return f"12:00 {zone}"

    @box.register
    def explode() -> str:
        """A tool that fails."""
        raise ValueError("sensor offline")

    @box.register
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return box


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(script=SCRIPT)), log_level="critical") as base:
        yield base


MODELS = {"bedrock-converse": "anthropic.claude-sonnet-4-5-20250929-v1:0"}
"""Bedrock sends thinking only to Claude model ids (``additionalModelRequestFields`` is per model)."""


def first_request(fmt: str = "") -> Request:
    return Request(
        model=MODELS.get(fmt, "emulated-model"),
        messages=(Message(role="user", parts=(TextPart(text="Weather and time please"),)),),
        max_tokens=2048,
        reasoning=ReasoningConfig(enabled=True, effort="low", budget_tokens=1024, include_thoughts=True),
    )


class Recorder:
    """Hooks that keep every request and response of the run."""

    def __init__(self) -> None:
        self.requests: list[Request] = []
        self.responses: list[Response] = []
        self.hooks = Hooks(before_request=self._request, after_response=self._response)

    def _request(self, turn: int, request: Request) -> None:
        self.requests.append(request)

    def _response(self, turn: int, response: Response) -> None:
        self.responses.append(response)


def opaque_states(response: Response) -> list[str]:
    """Every opaque reasoning state in a response: signatures, encrypted content, thought signatures."""
    out: list[str] = []
    for part in response.parts:
        if isinstance(part, ReasoningPart):
            out += [s for s in (part.signature, part.encrypted, part.redacted) if s]
        if isinstance(part, (ToolCall, TextPart)) and part.thought_signature:
            out.append(part.thought_signature)
    return out


def check(fmt: str, result: RunResult, rec: Recorder) -> None:
    assert result.stop == "completed" and result.turns == 3
    assert result.text == "Results: get_time -> 12:00 CET"
    # the follow-ups were valid requests of the provider's format, and carried every result
    tool_messages = [m for m in result.messages if m.role == "tool"]
    assert len(tool_messages) == 2
    first = tool_messages[0].parts
    assert all(isinstance(p, ToolResult) for p in first) and len(first) == 3
    texts = [
        "".join(c.text for c in p.content if isinstance(c, TextPart))
        for p in first
        if isinstance(p, ToolResult)
    ]
    assert json.loads(texts[0]) == {"city": "Paris", "temp_c": 21}
    assert "ValueError: sensor offline" in texts[1]
    assert "invalid arguments for 'add'" in texts[2] and "$.a" in texts[2]
    assert [p.is_error for p in first if isinstance(p, ToolResult)] == [None, True, True]
    calls = [p for p in rec.responses[0].parts if isinstance(p, ToolCall)]
    assert [p.call_id for p in first if isinstance(p, ToolResult)] == [c.id for c in calls]
    native = result.native(fmt)
    assert validate(native, format=fmt, kind="request") == []
    # the results reached the model: the emulator decodes each request; the last one quotes get_time,
    # and the request it answered holds all four results
    sent = json.dumps(native)
    for text in texts:
        assert json.dumps(text)[1:-1] in sent
    # reasoning state: byte-exact in the next request
    states = [s for r in rec.responses[:-1] for s in opaque_states(r)]
    if fmt != "openai-chat":
        assert states, f"the emulator emitted no reasoning state for {fmt}"
    for state in states:
        assert state in sent


def client_for(fmt: str, url: str) -> Client:
    return Client(fmt, base_url=url, api_key="test-key")


@pytest.mark.parametrize("fmt", FORMATS)
def test_run_sync(fmt: str, url: str) -> None:
    rec = Recorder()
    with client_for(fmt, url) as client:
        result = run(client, first_request(fmt), toolbox(), hooks=rec.hooks)
    check(fmt, result, rec)


@pytest.mark.parametrize("fmt", FORMATS)
def test_run_async(fmt: str, url: str) -> None:
    async def go() -> RunResult:
        async with AsyncClient(fmt, base_url=url, api_key="test-key") as client:
            return await arun(client, first_request(fmt), toolbox(), hooks=rec.hooks)

    rec = Recorder()
    check(fmt, asyncio.run(go()), rec)


@pytest.mark.parametrize("fmt", FORMATS)
def test_run_stream(fmt: str, url: str) -> None:
    rec = Recorder()
    with client_for(fmt, url) as client:
        events = list(run_stream(client, first_request(fmt), toolbox(), hooks=rec.hooks))
    end = events[-1]
    assert isinstance(end, RunEnd)
    check(fmt, end.result, rec)
    assert [e.turn for e in events if isinstance(e, TurnEnd)] == [1, 2, 3]
    assert len([e for e in events if isinstance(e, ToolResultEvent)]) == 4


@pytest.mark.parametrize("fmt", FORMATS)
def test_run_stream_async(fmt: str, url: str) -> None:
    async def go() -> list[Any]:
        async with AsyncClient(fmt, base_url=url, api_key="test-key") as client:
            return [e async for e in arun_stream(client, first_request(fmt), toolbox(), hooks=rec.hooks)]

    rec = Recorder()
    events = asyncio.run(go())
    assert isinstance(events[-1], RunEnd)
    check(fmt, events[-1].result, rec)


def test_max_turns(url: str) -> None:
    with client_for("anthropic", url) as client:
        result = run(client, first_request(), toolbox(), max_turns=2)
    assert result.stop == "max_turns" and result.turns == 2
    assert result.response.tool_calls  # the last answer still asked for tools
