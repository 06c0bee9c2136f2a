"""The Anthropic reader's inline assistant message of a text and one call (issue 18).

The hot loop reads ``[{"type": "text"}, {"type": "tool_use"}]`` itself (the common call turn
after a text) instead of the reader's methods; it must read what they read and refuse what they
refuse: the message reads as its IR, and one-spot changes of it pin each guard.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.harness import set_at as _set
from tests.plain.test_anthropic import anthropic, reader_agrees
from toolwire._plain._form import ASSISTANT, RESULT
from toolwire._plain.anthropic_read import read


def _text_and_one_call(payload: dict[str, Any]) -> None:
    """Message 1 a text and one call (c1), message 2 its one result."""
    payload["messages"][1]["content"].pop()
    payload["messages"][2]["content"] = [{"type": "tool_result", "tool_use_id": "c1", "content": "sunny"}]


def test_a_text_and_one_call_reads_as_its_ir() -> None:
    payload = anthropic()
    _text_and_one_call(payload)
    assert reader_agrees(payload)
    got = read(payload, None)
    assert got is not None
    assert got.turns[2:4] == [
        (ASSISTANT, "Looking.", [("c1", "weather", {"city": "Oslo"})]),
        (RESULT, "c1", "sunny"),
    ]


_USE = ("messages", 1, "content", 1)
GUARDS: dict[str, Callable[[dict[str, Any]], None]] = {
    "empty text": _set(("messages", 1, "content", 0, "text"), ""),
    "text not a string": _set(("messages", 1, "content", 0, "text"), 3),
    "text block of two keys without text": _set(("messages", 1, "content", 0), {"type": "text", "txt": "x"}),
    "call not an object": _set(_USE, "c1"),
    "call of three keys": _set(_USE, {"type": "tool_use", "id": "c1", "name": "weather"}),
    "call of another type": _set((*_USE, "type"), "server_tool_use"),
    "call of four keys without input": _set(
        _USE, {"type": "tool_use", "id": "c1", "name": "weather", "x": {}}
    ),
    "empty id": _set((*_USE, "id"), ""),
    "id not a string": _set((*_USE, "id"), 1),
    "escaped id": _set((*_USE, "id"), "c--1"),
    "empty name": _set((*_USE, "name"), ""),
    "input not an object": _set((*_USE, "input"), [1]),
    "after an assistant message": lambda p: p["messages"].insert(1, {"role": "assistant", "content": "Hm."}),
    "an id used again": lambda p: p["messages"][6]["content"][0].update(id="c1"),
}


@pytest.mark.parametrize("change", GUARDS.values(), ids=GUARDS.keys())
def test_each_guard_of_a_text_and_one_call(change: Callable[[dict[str, Any]], None]) -> None:
    payload = anthropic()
    _text_and_one_call(payload)
    change(payload)
    assert read(payload, None) is None
    reader_agrees(payload)
