"""The flat turns of a :class:`Plain`: ``(CALL, call_id, name, arguments)`` and ``(RESULT, call_id,
output)``, what the readers write for a turn of one call (no text) and a turn of one result.

Every writer writes a flat turn exactly as the nested spelling of the same turn (``(ASSISTANT,
None, ((call_id, name, arguments),))``, ``(RESULTS, ((call_id, output),))``): the same payload,
the same notes, ``None`` for the same requests. A conversation of flat turns and one-spot changes
of it (each a guard of a writer's flat branches) go through each writer in both spellings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.harness import bench_requests
from toolwire._json import dumps
from toolwire._plain import READERS, WRITERS
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain

Turns = list[tuple[Any, ...]]


def _nested(turn: tuple[Any, ...]) -> tuple[Any, ...]:
    if turn[0] == CALL:
        return (ASSISTANT, None, (turn[1:],))
    if turn[0] == RESULT:
        return (RESULTS, (turn[1:],))
    return turn


def _plain(turns: Turns) -> Plain:
    plain = Plain("gpt-x", list(turns))
    plain.tools = [("weather", "Weather.", {"type": "object"}, None), ("time", None, None, None)]
    plain.choice = "auto"
    plain.max_tokens = 100
    return plain


def conversation() -> Turns:
    return [
        (SYSTEM, "system", "Be brief."),
        (USER, "Weather?"),
        (CALL, "c1", "weather", '{"city":"Oslo"}'),
        (RESULT, "c1", "sunny"),
        (ASSISTANT, "Looking.", (("c2", "time", ""),)),
        (RESULT, "c2", "noon"),
        (ASSISTANT, "Done.", ()),
        (USER, "Again?"),
        (CALL, "c3", "weather", {"city": "Bergen"}),  # an object: the Anthropic reader's
        (RESULT, "c3", "rain"),
        (USER, "Thanks."),
    ]


def _set(index: int, position: int, value: Any) -> Callable[[Turns], None]:
    def change(turns: Turns) -> None:
        turn = list(turns[index])
        turn[position] = value
        turns[index] = tuple(turn)

    return change


CHANGES: dict[str, Callable[[Turns], None]] = {
    "as it is": lambda turns: None,
    "a name every target renames": _set(2, 2, "weather now"),
    "a name Gemini renames": _set(2, 2, "1weather"),
    "a call id used twice": lambda t: [_set(8, 1, "c1")(t), _set(9, 1, "c1")(t)],
    "a call id Anthropic escapes": lambda t: [_set(2, 1, "c 1")(t), _set(3, 1, "c 1")(t)],
    "an empty call id": lambda t: [_set(2, 1, "")(t), _set(3, 1, "")(t)],
    "a result of another call": _set(3, 1, "c9"),
    "a result of another call after a text turn": _set(5, 1, "c9"),
    "a result without its call turn": lambda t: t.pop(2),
    "a call turn unanswered": lambda t: t.pop(3),
    "a call turn answered by a text": lambda t: t.insert(3, (USER, "Hm?")),
    "a call turn last": lambda t: t.pop(),
    "two results": lambda t: t.insert(3, t[3]),
    "a call turn after an assistant text": lambda t: t.insert(2, (ASSISTANT, "Hm.", ())),
    "a call turn first": lambda t: t.pop(1),
    "arguments not an object": _set(2, 3, "[1]"),
    "arguments not JSON": _set(2, 3, "{"),
    "empty arguments": _set(2, 3, ""),
    "empty object arguments": _set(8, 3, {}),
    "object arguments too deep to write": _set(8, 3, {"a": [[[[[[[[]]]]]]]] * 1}),
    "an empty result": _set(3, 2, ""),
    "a result not a string": _set(3, 2, 3),
    "a call name not a string": _set(2, 2, 3),
    "a call id not a string": lambda t: [_set(2, 1, 3)(t), _set(3, 1, 3)(t)],
}
"""One-spot changes of :func:`conversation` (the flat turns' guards in every writer)."""


@pytest.mark.parametrize("target", sorted(WRITERS))
@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_a_flat_turn_is_written_as_its_nested_spelling(target: str, change: Callable[[Turns], None]) -> None:
    turns = conversation()
    change(turns)
    flat, nested = _plain(turns), _plain([_nested(turn) for turn in turns])
    got, expected = _outcome(WRITERS[target], flat), _outcome(WRITERS[target], nested)
    assert got == expected
    assert flat.noted == nested.noted


def _outcome(write: Callable[[Plain], Any], plain: Plain) -> Any:
    """What ``write`` gives for ``plain``: the payload as JSON, ``None``, or the type of what it
    raises (a call id not a string: no reader makes one)."""
    try:
        out = write(plain)
    except Exception as exc:
        return type(exc)
    return None if out is None else dumps(out)


@pytest.mark.parametrize("target", sorted(WRITERS))
def test_each_writer_writes_the_flat_conversation(target: str) -> None:
    """The conversation as it is goes through every writer (the flat branches run); a call name no
    target takes is left to the general path by each."""
    assert WRITERS[target](_plain(conversation())) is not None
    turns = conversation()
    CHANGES["a name every target renames"](turns)
    assert WRITERS[target](_plain(turns)) is None


def test_the_readers_write_one_call_turns_and_their_results_flat() -> None:
    """Every reader reads the benchmark conversations' turns of one call and their results flat:
    no nested turn of one call without text, no nested turn of one result."""
    for source, read in READERS.items():
        for payload in bench_requests(source):
            plain = read(payload, "gemini-2.5-flash")
            assert plain is not None, source
            kinds = [turn[0] for turn in plain.turns]
            if len(kinds) > 3:
                assert CALL in kinds and RESULT in kinds, source
            for turn in plain.turns:
                assert not (turn[0] == ASSISTANT and turn[1] is None and len(turn[2]) == 1), (source, turn)
                assert not (turn[0] == RESULTS and len(turn[1]) == 1), (source, turn)
