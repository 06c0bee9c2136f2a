"""The runner's contract with its caller: the turn limit, the hooks (what they see, and that a
replacement they return is what goes to the model or back into the conversation) and
``RunState.result()`` timing. Real client, real emulator over loopback."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import msgspec
import pytest

from toolwire import ToolwireError
from toolwire.client import Client
from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.ir import Message, Request, Response, TextPart, ToolCall, ToolResult, Usage
from toolwire.runner import Hooks, RunResult, RunState, RunUsageError, Toolbox, run, run_stream
from toolwire.usage import Price, Prices

from .test_loop import SCRIPT, first_request, toolbox


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(script=SCRIPT)), log_level="critical") as base:
        yield base


class Sent:
    """A client that keeps every request it sends (what the model was asked)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.requests: list[Request] = []

    def create(self, request: Request) -> Any:
        self.requests.append(request)
        return self.client.create(request)


def _texts(result: ToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, TextPart))


@pytest.mark.parametrize("turns", [0, -1])
def test_max_turns_below_one_is_refused_before_any_call(url: str, turns: int) -> None:
    with Client("anthropic", base_url=url, api_key="k") as client:
        sent = Sent(client)
        with pytest.raises(RunUsageError, match=rf"^max_turns must be at least 1 \(got {turns}\)$") as info:
            run(sent, first_request(), toolbox(), max_turns=turns)
        with pytest.raises(RunUsageError):
            list(run_stream(client, first_request(), toolbox(), max_turns=turns))
    assert sent.requests == []
    assert isinstance(info.value, ToolwireError) and isinstance(info.value, ValueError)


def test_max_turns_one_makes_exactly_one_call(url: str) -> None:
    with Client("anthropic", base_url=url, api_key="k") as client:
        sent = Sent(client)
        result = run(sent, first_request(), toolbox(), max_turns=1)
    assert len(sent.requests) == 1
    assert (result.turns, result.stop) == (1, "max_turns")
    # the unanswered calls are answered "not run", so the conversation is still a valid request
    last = result.messages[-1]
    assert last.role == "tool" and len(last.parts) == 3
    assert all(
        isinstance(p, ToolResult) and p.is_error and "max_turns reached" in _texts(p) for p in last.parts
    )


def test_hooks_get_the_turn_number(url: str) -> None:
    seen: list[tuple[str, int]] = []
    hooks = Hooks(
        before_request=lambda turn, _request: seen.append(("request", turn)),
        after_response=lambda turn, _response: seen.append(("response", turn)),
    )
    with Client("openai-chat", base_url=url, api_key="k") as client:
        result = run(client, first_request(), toolbox(), hooks=hooks)
    assert result.turns == 3
    assert seen == [
        ("request", 1),
        ("response", 1),
        ("request", 2),
        ("response", 2),
        ("request", 3),
        ("response", 3),
    ]


def test_a_before_request_replacement_is_what_the_model_gets(url: str) -> None:
    def bump(turn: int, request: Request) -> Request | None:
        if turn == 2:
            return msgspec.structs.replace(request, max_tokens=777, temperature=0.25)
        return None  # keep the request as built

    with Client("openai-responses", base_url=url, api_key="k") as client:
        sent = Sent(client)
        result = run(sent, first_request(), toolbox(), hooks=Hooks(before_request=bump))
    # the replacement is sent, and later turns build on it (only the messages are rebuilt)
    assert [r.max_tokens for r in sent.requests] == [2048, 777, 777]
    assert [r.temperature for r in sent.requests] == [None, 0.25, 0.25]
    assert result.request == sent.requests[-1]
    # the replacement is sent with the conversation so far (turn 2 carries turn 1's three results)
    assert [sum(m.role == "tool" for m in r.messages) for r in sent.requests] == [0, 1, 2]


def test_an_after_tool_replacement_reaches_the_model(url: str) -> None:
    seen: list[str] = []

    def redact(call: ToolCall, result: ToolResult) -> ToolResult | None:
        seen.append(call.name)
        if call.name == "get_time":
            return msgspec.structs.replace(result, content=(TextPart(text="13:30 CET"),))
        return None

    with Client("gemini", base_url=url, api_key="k") as client:
        sent = Sent(client)
        result = run(sent, first_request(), toolbox(), hooks=Hooks(after_tool=redact))
    assert seen == ["get_weather", "explode", "add", "get_time"]
    assert result.text == "Results: get_time -> 13:30 CET"
    results = [p for m in result.messages if m.role == "tool" for p in m.parts if isinstance(p, ToolResult)]
    assert [_texts(r) for r in results][-1] == "13:30 CET"
    assert '"temp_c": 21' in _texts(results[0])  # None kept the original result
    assert results[-1] in sent.requests[-1].messages[-1].parts


def test_an_after_response_replacement_is_recorded(url: str) -> None:
    def answer(turn: int, response: Response) -> Response | None:
        return msgspec.structs.replace(response, parts=(TextPart(text="no tools today"),))

    with Client("anthropic", base_url=url, api_key="k") as client:
        sent = Sent(client)
        result = run(sent, first_request(), toolbox(), hooks=Hooks(after_response=answer))
    assert len(sent.requests) == 1
    assert (result.turns, result.stop, result.text) == (1, "completed", "no tools today")
    assert result.messages[-1] == Message(role="assistant", parts=(TextPart(text="no tools today"),))
    assert result.responses == (result.response,)


def test_result_is_refused_until_the_run_ends(url: str) -> None:
    box = toolbox()
    state = RunState(first_request(), box, max_turns=5)
    with pytest.raises(RunUsageError, match=r"^the run has not ended"):
        state.result()
    with Client("anthropic", base_url=url, api_key="k") as client:

        def answer(calls: list[ToolCall]) -> None:
            state.take_results(
                calls, [ToolResult(call_id=c.id or "", content=(TextPart(text="x"),)) for c in calls]
            )

        calls = state.take_response(client.create(state.next_request()).response)
        assert len(calls) == 3 and not state.done
        with pytest.raises(RunUsageError, match=r"^the run has not ended"):
            state.result()
        answer(calls)
        while not state.done:
            calls = state.take_response(client.create(state.next_request()).response)
            answer(calls)
    result = state.result()
    assert (result.turns, result.stop) == (3, "completed")


def test_toolbox_tools_are_added_to_the_request_once(url: str) -> None:
    box = Toolbox()

    @box.register
    def get_time(zone: str) -> str:
        """Current time in a time zone."""
        return zone

    state = RunState(first_request(), box, max_turns=2)
    assert [t.name for t in state.next_request().tools] == ["get_time"]  # type: ignore[union-attr]
    again = RunState(state.request, box, max_turns=2)
    assert [t.name for t in again.next_request().tools] == ["get_time"]  # type: ignore[union-attr]


def test_results_must_answer_every_call(url: str) -> None:
    state = RunState(first_request(), toolbox(), max_turns=5, hooks=Hooks(after_tool=lambda c, r: None))
    with Client("anthropic", base_url=url, api_key="k") as client:
        calls = state.take_response(client.create(state.next_request()).response)
    results = [ToolResult(call_id=c.id or "", content=(TextPart(text="ok"),)) for c in calls]
    with pytest.raises(RunUsageError, match=r"^2 tool results for 3 tool calls: one per call$"):
        state.take_results(calls, results[:2])
    assert [m.role for m in state.messages] == ["user", "assistant"]  # nothing recorded
    state.take_results(calls, results)
    assert state.messages[-1] == Message(role="tool", parts=tuple(results))


def test_cost_prices_each_turn_by_the_model_that_answered() -> None:
    usage = Usage(input_tokens=1_000_000, output_tokens=0)
    request = Request(model="big", messages=(Message(role="user", parts=(TextPart(text="hi"),)),))
    turns = (Response(model="small", usage=usage), Response(model=None, usage=usage))
    result = RunResult(turns[-1], request.messages, 2, "completed", request, turns)
    prices = Prices({"big": Price(input=10, output=0), "small": Price(input=1, output=0)})
    assert result.cost(prices) == Decimal(11)  # "small" for the turn that named it, else "big"


def test_at_the_turn_limit_take_response_returns_no_calls(url: str) -> None:
    state = RunState(first_request(), toolbox(), max_turns=1)
    with Client("anthropic", base_url=url, api_key="k") as client:
        calls = state.take_response(client.create(state.next_request()).response)
    assert calls == [] and isinstance(calls, list)  # "the tool calls to run": an empty list, not None
    assert state.done and state.result().stop == "max_turns"
