"""The Responses -> Chat pair in one pass (``toolwire._plain.responses_chat``, issue 18).

It must write exactly what the pair's lane (the Responses reader, then the Chat writer) writes,
and leave to that lane every request it is not sure of: the requests it takes go the same both
ways (public API and general path) and equal the lane's payload; one-spot changes of them pin
each guard (it leaves them, and they still go the same both ways).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from benchmarks._conversation import chat_request
from benchmarks.bench_pairs import _in_each_format, sized_chat_request

from tests.plain import harness
from tests.plain.harness import drop_at as _drop
from tests.plain.harness import set_at as _set
from toolwire import translate_request, translate_request_bytes
from toolwire._json import dumps, loads
from toolwire._plain import READERS, chat_write, responses_read
from toolwire._plain.responses_chat import translate

SOURCE, TARGET = "openai-responses", "openai-chat"


def _lane(payload: dict[str, Any]) -> dict[str, Any] | None:
    plain = responses_read.read(payload, None)
    return None if plain is None else chat_write.write(plain)


def request() -> dict[str, Any]:
    """A request of every shape the one pass takes: texts of each role, a turn of a text and one
    call, of one call, of two calls answered out of order, empty arguments and output."""
    call = "update_repository_0"
    return {
        "model": "gpt-4o",
        "instructions": "Be brief.",
        "input": [
            {"role": "user", "content": "Q"},
            {"role": "assistant", "content": "Let me."},
            {"type": "function_call", "call_id": "a", "name": call, "arguments": '{"x":1}'},
            {"type": "function_call_output", "call_id": "a", "output": "1"},
            {"type": "function_call", "call_id": "b", "name": call, "arguments": ""},
            {"type": "function_call", "call_id": "c", "name": "time", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c", "output": ""},
            {"type": "function_call_output", "call_id": "b", "output": "2"},
            {"type": "function_call", "call_id": "d", "name": call, "arguments": "{}"},
            {"type": "function_call_output", "call_id": "d", "output": "3"},
            {"role": "developer", "content": "D"},
            {"role": "system", "content": "S"},
            {"role": "assistant", "content": "Done."},
            {"role": "user", "content": "ok"},
        ],
        "tools": [
            {"type": "function", "name": call, "description": "u", "parameters": {}, "strict": False},
            {
                "type": "function",
                "name": "time",
                "description": "",
                "parameters": {"type": "object"},
                "strict": True,
            },
        ],
        "tool_choice": "auto",
        "max_output_tokens": 1,
        "temperature": 2,
    }


def _takes(payload: dict[str, Any]) -> None:
    got = translate(copy.deepcopy(payload))
    assert got is not None
    assert got == _lane(payload)
    assert dumps(got) == dumps(_lane(payload))
    assert harness.same_both_ways(payload, SOURCE, TARGET)


@pytest.mark.parametrize("size", [None, (2, 1), (10, 5), (100, 5)])
def test_the_benchmark_requests_are_taken(size: tuple[int, int] | None) -> None:
    chat = chat_request() if size is None else sized_chat_request(*size)
    _takes(loads(_in_each_format(chat)[SOURCE]))


def test_every_shape_it_takes() -> None:
    _takes(request())
    no_tools = request()
    del no_tools["tools"], no_tools["tool_choice"], no_tools["instructions"]
    _takes(no_tools)


def test_the_pair_takes_the_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the pair's reader off, its requests of the one pass's shape still translate."""
    expected = _lane(request())
    monkeypatch.setitem(READERS, SOURCE, lambda payload, model: None)
    assert translate_request(request(), source=SOURCE, target=TARGET).payload == expected
    body = dumps(request())
    assert translate_request_bytes(body, source=SOURCE, target=TARGET) == dumps(expected)


_ITEMS = ("input",)
GUARDS: dict[str, Callable[[dict[str, Any]], None]] = {
    "not an object": lambda p: p.clear(),
    "include": _set(("include",), []),
    "parallel_tool_calls": _set(("parallel_tool_calls",), True),
    "top_p": _set(("top_p",), 1),
    "stream": _set(("stream",), False),
    "no model": _drop(("model",)),
    "empty model": _set(("model",), ""),
    "input a string": _set(("input",), "hi"),
    "empty input": _set(("input",), []),
    "empty instructions": _set(("instructions",), ""),
    "instructions not text": _set(("instructions",), 1),
    "an item not an object": _set((*_ITEMS, 0), "hi"),
    "a typed message": _set((*_ITEMS, 0), {"type": "message", "role": "user", "content": "Q"}),
    "a message of two keys without content": _set((*_ITEMS, 0), {"role": "user", "text": "Q"}),
    "an unknown role": _set((*_ITEMS, 0, "role"), "tool"),
    "empty text": _set((*_ITEMS, 0, "content"), ""),
    "text not a string": _set((*_ITEMS, 0, "content"), ["Q"]),
    "a role not a string": _set((*_ITEMS, 0, "role"), ["user"]),
    "two texts in one turn": _set((*_ITEMS, 2), {"role": "assistant", "content": "More."}),
    "a text after a call": _set((*_ITEMS, 3), {"role": "assistant", "content": "More."}),
    "a call of another type": _set((*_ITEMS, 2, "type"), "custom_tool_call"),
    "a call of four keys without arguments": _set(
        (*_ITEMS, 2), {"type": "function_call", "call_id": "a", "name": "x", "id": "1"}
    ),
    "empty call id": _set((*_ITEMS, 2, "call_id"), ""),
    "call id not a string": _set((*_ITEMS, 2, "call_id"), 1),
    "a call id used again": lambda p: [p["input"][i].update(call_id="a") for i in (8, 9)],
    "arguments not text": _set((*_ITEMS, 2, "arguments"), {}),
    "empty name": _set((*_ITEMS, 2, "name"), ""),
    "name not a string": _set((*_ITEMS, 2, "name"), 1),
    "a name Chat renames": _set((*_ITEMS, 2, "name"), "a b"),
    "a call after its result came": _set(
        (*_ITEMS, 7), {"type": "function_call", "call_id": "e", "name": "time", "arguments": ""}
    ),
    "a result of another call": _set((*_ITEMS, 3, "call_id"), "z"),
    "a result of another call of two": _set((*_ITEMS, 6, "call_id"), "z"),
    "a result twice": _set((*_ITEMS, 7, "call_id"), "c"),
    "a result after no call": lambda p: p["input"].insert(
        1, {"type": "function_call_output", "call_id": "a", "output": "1"}
    ),
    "a result without a call turn": _drop((*_ITEMS, 2)),
    "a result not text": _set((*_ITEMS, 3, "output"), ["1"]),
    "an item of three keys of another type": _set((*_ITEMS, 3, "type"), "function_call_output_x"),
    "an item of five keys": _set((*_ITEMS, 2, "status"), "completed"),
    "a call unanswered": lambda p: p["input"].append(
        {"type": "function_call", "call_id": "e", "name": "time", "arguments": ""}
    ),
    "tools empty": _set(("tools",), []),
    "tools null": _set(("tools",), None),
    "a tool not an object": _set(("tools", 0), "t"),
    "a tool of four keys": _drop(("tools", 0, "strict")),
    "a tool of five keys without strict": _set(
        ("tools", 0), {"type": "function", "name": "n", "description": "", "parameters": {}, "x": 1}
    ),
    "a tool of another type": _set(("tools", 0, "type"), "custom"),
    "a tool description not text": _set(("tools", 0, "description"), None),
    "tool parameters not an object": _set(("tools", 0, "parameters"), []),
    "tool strict not a boolean": _set(("tools", 0, "strict"), 1),
    "empty tool name": _set(("tools", 0, "name"), ""),
    "a tool name Chat renames": _set(("tools", 1, "name"), "a b"),
    "two tools of one name": _set(("tools", 1, "name"), "update_repository_0"),
    "a named choice": _set(("tool_choice",), {"type": "function", "name": "time"}),
    "an unknown choice": _set(("tool_choice",), "any"),
    "a choice without tools": lambda p: [p.pop("tools")],
    "max_output_tokens 0": _set(("max_output_tokens",), 0),
    "max_output_tokens a float": _set(("max_output_tokens",), 1.0),
    "max_output_tokens a boolean": _set(("max_output_tokens",), True),
    "temperature above 2": _set(("temperature",), 2.5),
    "temperature below 0": _set(("temperature",), -0.1),
    "temperature a string": _set(("temperature",), "1"),
}


@pytest.mark.parametrize("change", GUARDS.values(), ids=GUARDS.keys())
def test_each_guard(change: Callable[[dict[str, Any]], None]) -> None:
    payload = request()
    change(payload)
    assert translate(copy.deepcopy(payload)) is None
    harness.same_both_ways(payload, SOURCE, TARGET)
