"""The Anthropic and Gemini writers' calls: one helper per writer for a call of any turn, and the
Anthropic writer's call ids checked all at once (issue 18).

Each writer writes a call with one helper (``anthropic_write.tool_use``,
``gemini_write.function_call``), whether the call is a flat CALL turn or one of an assistant
turn's calls: a call written in either turn is the same block or part. The Anthropic writer
gathers the call ids of a conversation and checks them in one match at the end
(``anthropic_write.ids_ok``): an id the general path escapes anywhere in a long conversation,
an empty one, one not a string, still leaves the request to the general path (``None``, never
an exception); each one-spot change below pins a guard.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.harness import same_both_ways
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain
from toolwire._plain.anthropic_write import ids_ok, tool_use
from toolwire._plain.anthropic_write import write as write_anthropic
from toolwire._plain.gemini_write import function_call
from toolwire._plain.gemini_write import write as write_gemini

Turns = list[tuple[Any, ...]]


def conversation(calls: int = 6) -> Turns:
    """``calls`` rounds of a question, a flat call turn and its result, then a text and a call."""
    turns: Turns = [(SYSTEM, "system", "Be brief.")]
    for n in range(calls):
        turns += [
            (USER, f"Weather {n}?"),
            (CALL, f"c{n}", "weather", f'{{"n": {n}}}'),
            (RESULT, f"c{n}", "sunny"),
        ]
    turns += [
        (ASSISTANT, "Looking.", (("t1", "time", ""), ("t2", "weather", {"n": 9}))),
        (RESULTS, (("t1", "noon"), ("t2", "rain"))),
    ]
    return turns


def _plain(turns: Turns) -> Plain:
    plain = Plain("gpt-x", turns)
    plain.tools = [("weather", None, {"type": "object"}, None), ("time", None, None, None)]
    plain.max_tokens = 100
    return plain


def _set(index: int, position: int, value: Any) -> Callable[[Turns], None]:
    def change(turns: Turns) -> None:
        turn = list(turns[index])
        turn[position] = value
        turns[index] = tuple(turn)

    return change


def _call_id(index: int, value: Any) -> Callable[[Turns], None]:
    """The flat call turn at ``index`` and its result given the call id ``value``."""
    return lambda t: [_set(index, 1, value)(t), _set(index + 1, 1, value)(t)]


def _inner_call(position: int, call_id: Any) -> Callable[[Turns], None]:
    """The last assistant turn's call at ``position`` (and its result) given the id ``call_id``."""

    def change(turns: Turns) -> None:
        calls, results = list(turns[-2][2]), list(turns[-1][1])
        calls[position] = (call_id, *calls[position][1:])
        results[position] = (call_id, results[position][1])
        turns[-2:] = [(ASSISTANT, "Looking.", tuple(calls)), (RESULTS, tuple(results))]

    return change


def test_the_conversation_is_written_as_the_general_path_writes_it() -> None:
    for target, write in (("anthropic", write_anthropic), ("gemini", write_gemini)):
        out = write(_plain(conversation()))
        assert out is not None, target


ANTHROPIC_GUARDS: dict[str, Callable[[Turns], None]] = {
    "the last flat call's id to escape": _call_id(17, "c.5"),
    "a middle flat call's id to escape": _call_id(8, "c 2"),
    "an empty flat call id": _call_id(11, ""),
    "a flat call id not a string": _call_id(14, 4),
    "an assistant turn's second call id to escape": _inner_call(1, "t:2"),
    "an assistant turn's call id empty": _inner_call(0, ""),
    "an assistant turn's call id not a string": _inner_call(0, ("t", 1)),
    "a flat result id to escape, of no call": _set(18, 1, "c.9"),
    "a flat result id not a string, of no call": _set(18, 1, 9),
    "a result id to escape among results": lambda t: t.__setitem__(
        -1, (RESULTS, (("t1", "noon"), ("t.2", "rain")))
    ),
    "a flat call's name to rename": _set(17, 2, "weather now"),
    "a flat call's arguments not an object": _set(17, 3, "[1]"),
    "a flat call's arguments neither text nor object": _set(17, 3, 3),
    "an assistant turn's call arguments not JSON": lambda t: t.__setitem__(
        -2, (ASSISTANT, "Looking.", (("t1", "time", "{"), ("t2", "weather", {})))
    ),
    "a flat call turn after an assistant text": lambda t: t.insert(17, (ASSISTANT, "Hm.", ())),
}
"""One-spot changes of :func:`conversation` the Anthropic writer leaves to the general path."""


@pytest.mark.parametrize("change", ANTHROPIC_GUARDS.values(), ids=ANTHROPIC_GUARDS.keys())
def test_each_anthropic_call_guard(change: Callable[[Turns], None]) -> None:
    turns = conversation()
    change(turns)
    assert write_anthropic(_plain(turns)) is None


@pytest.mark.parametrize(
    ("ids", "ok"),
    [
        (set(), True),
        ({"c1", "toolu_01-x"}, True),
        ({"c1", "c.2"}, False),
        ({""}, False),
        ({"c1", 2}, False),
        ({"c1", "c2\n"}, False),
        ({"c1", "c2", "toolu_01-x"}, True),
        ({"c1", "c2", "c.3"}, False),
        ({"c1", "c2", ""}, False),  # joined, an empty id would vanish: found in the set
        ({"c1", "c2", 3}, False),  # not a string: no TypeError
        ({"c1", "c2", "c3\n"}, False),
    ],
)
def test_the_call_ids_are_checked_at_once(ids: set[Any], ok: bool) -> None:
    assert ids_ok(ids) is ok


def test_the_id_rule_is_one_character_class_repeated() -> None:
    """``ids_ok`` matches the ids joined: that equals matching each one only while the rule
    sanitize_call_id keeps an id by is one character class repeated (a rule with a length bound,
    an anchor or a sequence could pass a join of ids it escapes one by one)."""
    import re

    from toolwire._callids import _VALID

    assert re.fullmatch(r"\[[^\]]+\]\+", _VALID.pattern)
    long_ids = {f"toolu_{n:02d}" + "x" * 90 for n in range(5)}  # 480 characters joined
    assert ids_ok(long_ids) is True


def test_a_call_is_one_block_in_either_turn() -> None:
    """The flat call turn and the assistant turn of one call write the same ``tool_use`` block."""
    flat = write_anthropic(_plain([(USER, "Hi"), (CALL, "c1", "weather", '{"a": 1}'), (RESULT, "c1", "x")]))
    nested = write_anthropic(
        _plain([(USER, "Hi"), (ASSISTANT, "So.", (("c1", "weather", '{"a": 1}'),)), (RESULT, "c1", "x")])
    )
    assert flat is not None and nested is not None
    block = {"type": "tool_use", "id": "c1", "name": "weather", "input": {"a": 1}}
    assert flat["messages"][1]["content"] == [block]
    assert nested["messages"][1]["content"] == [{"type": "text", "text": "So."}, block]
    assert tool_use("c1", "weather", "", False) == {
        "type": "tool_use",
        "id": "c1",
        "name": "weather",
        "input": {},
    }
    assert tool_use("c1", "weather", {"a": 1}, False) == block
    assert tool_use("c1", 3, "{}", False) is None


GEMINI_GUARDS: dict[str, Callable[[Turns], None]] = {
    "a flat call id used before": _call_id(17, "c1"),
    "an assistant turn's call id used before": _inner_call(1, "c3"),
    "a flat call's name to rename": _set(17, 2, "1weather"),
    "a flat call's arguments not an object": _set(17, 3, "[1]"),
    "an assistant turn's call arguments not JSON": lambda t: t.__setitem__(
        -2, (ASSISTANT, "Looking.", (("t1", "time", "{"), ("t2", "weather", {})))
    ),
    "a flat result of another call": _set(18, 1, "c9"),
    "one flat result for an assistant turn of two calls": lambda t: t.__setitem__(-1, (RESULT, "t1", "noon")),
    "a system turn awaiting results": lambda t: t.insert(18, (SYSTEM, "system", "Late.")),
    "a call turn awaiting results": lambda t: t.insert(18, (CALL, "c9", "time", "")),
    "an assistant turn awaiting results": lambda t: t.insert(18, (ASSISTANT, "Hm.", ())),
    "results of no call turn": lambda t: t.insert(1, (RESULTS, (("c0", "x"),))),
    "an unknown turn kind": lambda t: t.insert(1, (9, "x")),
}
"""One-spot changes of :func:`conversation` the Gemini writer leaves to the general path."""


@pytest.mark.parametrize("change", GEMINI_GUARDS.values(), ids=GEMINI_GUARDS.keys())
def test_each_gemini_call_guard(change: Callable[[Turns], None]) -> None:
    turns = conversation()
    change(turns)
    assert write_gemini(_plain(turns)) is None


def test_a_one_call_assistant_turn_takes_a_flat_result_in_gemini() -> None:
    """``(ASSISTANT, text, (call,))`` then ``(RESULT, ...)``: the result named after its call."""
    turns: Turns = [(USER, "Hi"), (ASSISTANT, "So.", (("c1", "weather", ""),)), (RESULT, "c1", "x")]
    out = write_gemini(_plain(turns))
    assert out is not None
    assert out["contents"][1:] == [
        {"role": "model", "parts": [{"text": "So."}, {"functionCall": {"name": "weather", "id": "c1"}}]},
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "weather", "id": "c1", "response": {"output": "x"}}}],
        },
    ]
    assert function_call("c1", "weather", "", set(), False) == {
        "functionCall": {"name": "weather", "id": "c1"}
    }
    assert function_call("c1", "weather", "", {"c1"}, False) is None


REQUEST = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "Weather?"},
        *(
            message
            for n in range(6)
            for message in (
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": f"c{n}",
                            "type": "function",
                            "function": {"name": "weather", "arguments": "{}"},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": f"c{n}", "content": "sunny"},
            )
        ),
    ],
    "tools": [{"type": "function", "function": {"name": "weather"}}],
}


@pytest.mark.parametrize("target", ["anthropic", "gemini"])
def test_many_flat_calls_go_the_same_both_ways(target: str) -> None:
    assert same_both_ways(REQUEST, "openai-chat", target, "drop")


@pytest.mark.parametrize(
    ("turns", "written"),
    [
        ([(USER, "Hi"), (ASSISTANT, "Sure. ", ())], False),  # a prefill ending in whitespace
        ([(USER, "Hi"), (ASSISTANT, "Sure. ", ()), (SYSTEM, "system", "Late.")], False),  # the last message's
        ([(USER, "Hi"), (ASSISTANT, "Sure.", ()), (SYSTEM, "system", "Late.")], True),
        ([(USER, "Hi "), (SYSTEM, "system", "Late.")], True),  # a user message's text is kept
        ([(USER, "Hi"), (ASSISTANT, "Sure. ", (("c1", "weather", ""),)), (RESULT, "c1", "x")], True),
        ([(USER, "Hi"), (ASSISTANT, "Sure. ", (("c1", "weather", ""),))], True),  # ends in a tool_use block
    ],
)
def test_the_anthropic_prefill_check_reads_the_last_message_turn(turns: Turns, written: bool) -> None:
    assert (write_anthropic(_plain(list(turns))) is not None) is written


@pytest.mark.parametrize("text", ["Sure.", "Sure. "])
def test_a_prefill_before_a_late_system_message_goes_the_same_both_ways(text: str) -> None:
    request = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "Hi"},
            {"role": "assistant", "content": text},
            {"role": "system", "content": "Late."},
        ],
    }
    same_both_ways(request, "openai-chat", "anthropic", "drop")
