"""The writers' inline path for the common turn: one call and its one result (issue 18).

The Chat, Anthropic and Gemini writers write a turn of one call of a name already found valid,
with text arguments, and the one result after it, inline; every other turn goes through their
call-by-call helpers. Both must write the same thing: a conversation of one-call turns goes the
same both ways (public API and general path), the inline path writes what the helpers write for
the same calls with object arguments, and one-spot changes of a one-call turn pin each guard of
the inline paths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.harness import same_both_ways
from toolwire._plain import WRITERS
from toolwire._plain._form import ASSISTANT, RESULTS, SYSTEM, USER, Plain

SOURCE = "openai-responses"
TARGETS = ("openai-chat", "anthropic", "gemini")


def request() -> dict[str, Any]:
    """A Responses request of one-call turns (the second call's arguments empty)."""
    return {
        "model": "gpt-4o",
        "instructions": "Be brief.",
        "input": [
            {"role": "user", "content": "Weather?"},
            {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": '{"city":"Oslo"}'},
            {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
            {"role": "assistant", "content": "Sunny."},
            {"role": "user", "content": "And the time?"},
            {"type": "function_call", "call_id": "c2", "name": "time", "arguments": ""},
            {"type": "function_call_output", "call_id": "c2", "output": "noon"},
        ],
        "tools": [{"type": "function", "name": "weather"}, {"type": "function", "name": "time"}],
        "max_output_tokens": 100,
    }


def plain(arguments: Any = '{"city":"Oslo"}') -> Plain:
    """The :class:`Plain` of :func:`request` (the first call's arguments ``arguments``)."""
    out = Plain(
        "gpt-4o",
        [
            (SYSTEM, "system", "Be brief."),
            (USER, "Weather?"),
            (ASSISTANT, None, [("c1", "weather", arguments)]),
            (RESULTS, [("c1", "sunny")]),
            (ASSISTANT, "Sunny.", ()),
            (USER, "And the time?"),
            (ASSISTANT, None, [("c2", "time", "")]),
            (RESULTS, [("c2", "noon")]),
        ],
    )
    out.tools = [("weather", None, None, None), ("time", None, None, None)]
    out.max_tokens = 100
    return out


@pytest.mark.parametrize("target", TARGETS)
def test_one_call_turns_go_the_same_both_ways(target: str) -> None:
    for _ in range(2):  # the second time, every name is known valid: the inline path
        assert same_both_ways(request(), SOURCE, target, "drop")


@pytest.mark.parametrize("target", TARGETS)
def test_the_inline_path_writes_what_the_helpers_write(target: str) -> None:
    """Object arguments (an Anthropic or Gemini source) take the call-by-call helper."""
    write = WRITERS[target]
    for _ in range(2):
        text = write(plain())
        assert text is not None
        assert write(plain({"city": "Oslo"})) == text


def _call(call_id: Any, name: Any = "weather", arguments: Any = "{}") -> Callable[[Plain], None]:
    """The first call turn's call changed (its result's id too)."""

    def change(p: Plain) -> None:
        p.turns[2:4] = [(ASSISTANT, None, [(call_id, name, arguments)]), (RESULTS, [(call_id, "sunny")])]

    return change


def _call_again(p: Plain) -> None:
    """The second call turn calls c1 again (with arguments: the inline path)."""
    p.turns[6:8] = [(ASSISTANT, None, [("c1", "time", "{}")]), (RESULTS, [("c1", "noon")])]


def _result(call_id: str, output: str) -> Callable[[Plain], None]:
    return lambda p: p.turns.__setitem__(3, (RESULTS, [(call_id, output)]))


GUARDS: dict[str, tuple[Callable[[Plain], None], tuple[str, ...]]] = {
    "a call name to rename": (_call("c1", "get weather"), TARGETS),
    "arguments not an object": (_call("c1", arguments="[1]"), ("anthropic", "gemini")),
    "arguments not JSON": (_call("c1", arguments="{"), ("anthropic", "gemini")),
    "a call id to escape": (_call("c.1"), ("anthropic",)),
    "a call id used before": (_call_again, ("openai-chat", "gemini")),
    "a result of another call": (_result("c9", "sunny"), ("openai-chat", "gemini")),
    "an empty result": (_result("c1", ""), ("anthropic",)),
    "a result id to escape": (_result("c.1", "sunny"), TARGETS),  # of another call too
}
"""One-spot changes of the first one-call turn, and the writers that leave them to the general
path (the others write them, or their readers never give them)."""


@pytest.mark.parametrize("name", sorted(GUARDS))
@pytest.mark.parametrize("target", TARGETS)
def test_each_inline_guard(name: str, target: str) -> None:
    change, refused_by = GUARDS[name]
    write = WRITERS[target]
    assert write(plain()) is not None  # every name known valid from here on
    changed = plain()
    change(changed)
    assert (write(changed) is None) is (target in refused_by)
