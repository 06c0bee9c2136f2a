"""The Chat writer of the pair lanes (``toolwire._plain.chat_write``): hand-written shapes.

A :class:`Plain` of every shape the writer takes is written as the general path writes it (the
same request from a Responses source); one-spot changes pin each guard of the writer. The
corpora, mutated and generated requests are in ``test_chat``.
"""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.harness import same_bytes
from toolwire._json import dumps
from toolwire._plain._form import ASSISTANT, RESULTS, SYSTEM, USER, Plain
from toolwire._plain.chat_write import write
from toolwire.translate import _general_request

CHAT = "openai-chat"


def plain() -> Plain:
    """A :class:`Plain` of every shape the writer takes (as an Anthropic reader gives it)."""
    out = Plain(
        "claude",
        [
            (SYSTEM, "system", "Be brief."),
            (USER, "Weather?"),
            (ASSISTANT, "Looking.", (("c1", "weather", {"city": "Oslo"}), ("c2", "time", ""))),
            (RESULTS, (("c2", "noon"), ("c1", ""))),
            (ASSISTANT, "Sunny at noon.", ()),
            (SYSTEM, "developer", "Keep it short."),
            (USER, "And now?"),
            (ASSISTANT, None, (("c3", "weather", '{"a": 1}'),)),
            (RESULTS, (("c3", "rain"),)),
        ],
    )
    out.tools = [
        ("weather", "weather it", {"type": "object"}, True),
        ("time", None, None, None),
        ("not_called", "n", {}, False),
    ]
    out.choice = ("tool", "weather")
    out.parallel = False
    out.max_tokens = 1
    out.temperature = 2
    out.top_p = 0.0
    out.stream = True
    out.user = "u-1"
    out.metadata = {"session": "s-1"}
    return out


def test_a_plain_copies_and_pickles_field_by_field() -> None:
    given = plain()
    given.noted = True  # every field set to something other than its default
    copies = (copy.copy(given), copy.deepcopy(given), pickle.loads(pickle.dumps(given)))
    for made in copies:
        assert type(made) is Plain and made is not given and made == given
        assert repr(made) == repr(given) and made.noted is True
    assert copies[0].turns is given.turns and copies[0].tools is given.tools  # shallow
    assert copies[1].turns is not given.turns and copies[1].metadata is not given.metadata  # deep


def test_the_plain_request_is_written() -> None:
    out = write(plain())
    assert out is not None
    assert list(out) == [
        *("model", "messages", "tools", "tool_choice", "parallel_tool_calls"),
        *("max_completion_tokens", "temperature", "top_p", "stream", "user", "metadata"),
    ]
    assert out["messages"][0] == {"role": "system", "content": "Be brief."}
    assert out["messages"][2] == {
        "role": "assistant",
        "content": "Looking.",
        "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city":"Oslo"}'}},
            {"id": "c2", "type": "function", "function": {"name": "time", "arguments": "{}"}},
        ],
    }
    assert out["messages"][3:5] == [
        {"role": "tool", "tool_call_id": "c2", "content": "noon"},
        {"role": "tool", "tool_call_id": "c1", "content": ""},
    ]
    assert out["messages"][8]["content"] is None and out["messages"][6]["role"] == "developer"
    assert out["tools"][1] == {"type": "function", "function": {"name": "time"}}
    assert out["tools"][0]["function"]["strict"] is True
    assert out["tool_choice"] == {"type": "function", "function": {"name": "weather"}}
    bare = Plain(None, [(USER, "Hi")])
    assert write(bare) == {"messages": [{"role": "user", "content": "Hi"}]}


def _plain_set(field: str, value: Any) -> Callable[[Plain], None]:
    return lambda p: setattr(p, field, value)


def _turn_set(index: int, turn: tuple[Any, ...]) -> Callable[[Plain], None]:
    def change(p: Plain) -> None:
        p.turns[index] = turn

    return change


def _turn_insert(index: int, turn: tuple[Any, ...]) -> Callable[[Plain], None]:
    return lambda p: p.turns.insert(index, turn)


def _answered_call(call_id: Any) -> Callable[[Plain], None]:
    """The last call turn's call (c3) and its result given the id ``call_id``."""

    def change(p: Plain) -> None:
        p.turns[7:9] = [(ASSISTANT, None, ((call_id, "weather", "{}"),)), (RESULTS, ((call_id, "rain"),))]

    return change


NOT_WRITTEN: dict[str, Callable[[Plain], None]] = {
    "no turns": _plain_set("turns", []),
    "unknown system role": _turn_set(0, (SYSTEM, "user", "Be brief.")),
    "empty system text": _turn_set(0, (SYSTEM, "system", "")),
    "empty user text": _turn_set(1, (USER, "")),
    "user text not a string": _turn_set(1, (USER, 3)),
    "empty assistant text": _turn_set(4, (ASSISTANT, "", ())),
    "assistant text not a string": _turn_set(4, (ASSISTANT, 3, ())),
    "empty assistant turn": _turn_set(4, (ASSISTANT, None, ())),
    "two assistant turns": _turn_insert(5, (ASSISTANT, "More.", ())),
    "call id not a string": _answered_call(3),
    "empty call id": _answered_call(""),
    "call id used twice": _answered_call("c1"),
    "call id used twice in one-call turns": lambda p: p.turns.extend(p.turns[7:9]),
    "call name Chat renames": _turn_set(7, (ASSISTANT, None, (("c3", "get.weather", "{}"),))),
    "call name not a string": _turn_set(7, (ASSISTANT, None, (("c3", None, "{}"),))),
    "call name a list": _turn_set(7, (ASSISTANT, None, (("c3", ["weather"], "{}"),))),
    "arguments not text or object": _turn_set(7, (ASSISTANT, None, (("c3", "weather", [1]),))),
    "arguments not encodable": _turn_set(7, (ASSISTANT, None, (("c3", "weather", {"a": object()}),))),
    "results without a call turn": _turn_insert(5, (RESULTS, (("c1", "x"),))),
    "results of another call": _turn_set(8, (RESULTS, (("c9", "rain"),))),
    "a result missing": _turn_set(3, (RESULTS, (("c2", "noon"),))),
    "a call answered twice": _turn_set(3, (RESULTS, (("c2", "noon"), ("c2", "noon")))),
    "result not text": _turn_set(8, (RESULTS, (("c3", None),))),
    "call turn unanswered": lambda p: p.turns.pop(),
    "call turn answered late": _turn_insert(8, (USER, "wait")),
    "tool name Chat renames": _plain_set("tools", [("get.weather", None, None, None)]),
    "tool name a list": _plain_set("tools", [(["weather"], None, None, None)]),
    "two tools of one name": _plain_set(
        "tools", [("weather", None, None, None), ("weather", None, None, None)]
    ),
    "no tools, a choice": _plain_set("tools", None),
    "empty tools": _plain_set("tools", []),
    "unknown mode": _plain_set("choice", "any"),
    "choice of no tool": _plain_set("choice", ("tool", "nope")),
    "choice of another kind": _plain_set("choice", ("builtin", "weather")),
    "token limit 0": _plain_set("max_tokens", 0),
    "token limit not an integer": _plain_set("max_tokens", 1.0),
    "temperature above 2": _plain_set("temperature", 2.5),
    "temperature below 0": _plain_set("temperature", -1),
    "temperature a boolean": _plain_set("temperature", True),
    "top_p above 1": _plain_set("top_p", 1.5),
    "top_p below 0": _plain_set("top_p", -0.1),
    "top_p not a number": _plain_set("top_p", "1"),
}


@pytest.mark.parametrize("change", NOT_WRITTEN.values(), ids=NOT_WRITTEN.keys())
def test_each_writer_guard(change: Callable[[Plain], None]) -> None:
    given_ = plain()
    assert write(given_) is not None
    change(given_)
    assert write(given_) is None


def test_parallel_without_tools_is_not_written() -> None:
    given_ = plain()
    given_.tools = given_.choice = None
    assert write(given_) is None
    given_.parallel = None
    assert write(given_) is not None


def test_what_the_writer_writes_is_what_the_general_path_writes_from_responses() -> None:
    """The writer's plain request as a Responses request: the general path writes the same."""
    payload = {
        "model": "claude",
        "instructions": "Be brief.",
        "input": [
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": "Looking."},
            {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": '{"city":"Oslo"}'},
            {"type": "function_call", "call_id": "c2", "name": "time", "arguments": ""},
            {"type": "function_call_output", "call_id": "c2", "output": "noon"},
            {"type": "function_call_output", "call_id": "c1", "output": ""},
            {"role": "assistant", "content": "Sunny at noon."},
            {"role": "developer", "content": "Keep it short."},
            {"role": "user", "content": "And now?"},
            {"type": "function_call", "call_id": "c3", "name": "weather", "arguments": '{"a": 1}'},
            {"type": "function_call_output", "call_id": "c3", "output": "rain"},
        ],
        "tools": [
            {
                "type": "function",
                "name": "weather",
                "description": "weather it",
                "parameters": {"type": "object"},
                "strict": True,
            },
            {"type": "function", "name": "time"},
            {"type": "function", "name": "not_called", "description": "n", "parameters": {}, "strict": False},
        ],
        "tool_choice": {"type": "function", "name": "weather"},
        "parallel_tool_calls": False,
        "max_output_tokens": 16,
        "temperature": 2,
        "top_p": 0.0,
        "stream": True,
        "user": "u-1",
        "metadata": {"session": "s-1"},
    }
    expected = _general_request(payload, "openai-responses", CHAT, "warn", None, None, None)  # type: ignore[arg-type]
    assert not expected.notes
    given_ = plain()
    given_.max_tokens = 16
    got = write(given_)
    same_bytes(dumps(got), dumps(expected.payload))
    assert json.loads(dumps(got)) == expected.payload
