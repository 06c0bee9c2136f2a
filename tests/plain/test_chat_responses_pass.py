"""The Chat -> Responses pair in one pass (``chat_responses``, issue 18).

It must write exactly what the pair's lane (the Chat reader, then the Responses writer) writes
and note what it notes, and leave to that lane every request it is not sure of: the requests it
takes go the same both ways (public API and general path) and equal the lane's payload; one-spot
changes of them pin each guard. A differential fuzz with a fixed seed compares both with mutated
requests (``_chat_fuzz``, checked by ``_responses_fuzz``'s checks).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from benchmarks._conversation import chat_request
from benchmarks.bench_pairs import sized_chat_request

from tests.plain import _chat_fuzz, _responses_fuzz
from tests.plain.test_chat_anthropic_pass import (
    _both,
    _calls,
    _fn,
    _insert,
    _out,
    _replace,
    _text,
    request,
)
from toolwire._plain import NOTING_PASSES

SOURCE, TARGET = "openai-chat", "openai-responses"
TARGETS = (TARGET,)


def translate(payload: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    return NOTING_PASSES[SOURCE, TARGET](copy.deepcopy(payload), wire)


@pytest.mark.parametrize("size", [None, (2, 1), (10, 5), (100, 5)])
def test_the_benchmark_requests_are_taken(size: tuple[int, int] | None) -> None:
    _responses_fuzz.agrees(
        chat_request() if size is None else sized_chat_request(*size),
        SOURCE,
        TARGET,
        False,
    )


def test_every_shape_it_takes() -> None:
    payload = request()
    _responses_fuzz.agrees(payload, SOURCE, TARGET, False)
    assert "instructions" in translate(payload, False)[0]  # type: ignore[index]
    for key in ("tools", "tool_choice", "max_tokens", "temperature"):
        del payload[key]
    _responses_fuzz.agrees(payload, SOURCE, TARGET, False)


def _first(p: dict[str, Any]) -> object:
    return p["messages"].insert(0, p["messages"].pop(1))


_CASES: list[tuple[str, Callable[[dict[str, Any]], object], bool]] = [
    ("system not first", _first, False),
    ("developer first", _replace(0, 1, _text("developer", "Be brief.")), False),
    ("two system texts first", _insert(0, _text("system", "One.")), False),
    ("an empty system text", _replace(0, 1, _text("system", "")), True),
    ("a tool text", _insert(1, _text("tool", "x")), True),
    (
        "two assistant texts",
        _insert(1, _text("assistant", "a"), _text("assistant", "b")),
        True,
    ),
    (
        "an assistant text, then calls",
        _insert(1, _text("assistant", "a"), _calls(None, _fn("c9")), _out("c9", "r")),
        True,
    ),
    (
        "calls with a text",
        _insert(
            1,
            _calls("Let me see.", _fn("c9"), _fn("c8")),
            _out("c9", "r"),
            _out("c8", "s"),
        ),
        False,
    ),
    (
        "results out of order",
        _insert(1, _calls(None, _fn("c9"), _fn("c8")), _out("c8", "s"), _out("c9", "r")),
        True,
    ),
    ("a result missing", _insert(1, _calls(None, _fn("c9")), _text("user", "x")), True),
    (
        "a call id used twice",
        _insert(
            1,
            _calls(None, _fn("c9")),
            _out("c9", "r"),
            _calls(None, _fn("c9")),
            _out("c9", "r"),
        ),
        True,
    ),
    (
        "a name Responses renames",
        _insert(1, _calls(None, _fn("c9", "a b")), _out("c9", "r")),
        True,
    ),
    (
        "an empty call list",
        _insert(1, {"role": "assistant", "content": None, "tool_calls": []}),
        True,
    ),
    ("no model", lambda p: p.pop("model"), True),
    (
        "an empty text call turn",
        _insert(1, _calls("", _fn("c9")), _out("c9", "r")),
        True,
    ),
    (
        "the first system message again, one dict",
        lambda p: p["messages"].append(p["messages"][0]),
        False,
    ),
    (
        "a system message alone",
        lambda p: p.__setitem__("messages", [_text("system", "S")]),
        False,
    ),
    ("both changes", _both(_first, _insert(0, _text("developer", "x"))), False),
]


@pytest.mark.parametrize(
    ("change", "declines"),
    [case[1:] for case in _CASES],
    ids=[case[0] for case in _CASES],
)
def test_each_guard(change: Callable[[dict[str, Any]], object], declines: bool) -> None:
    payload = request()
    change(payload)
    _responses_fuzz.agrees(payload, SOURCE, TARGET, declines)


def test_mutated_requests() -> None:
    """The differential fuzz, a fixed seed, moderate size: no difference."""
    taken = _responses_fuzz.run(_chat_fuzz.requests(seed=18, count=1500), SOURCE, TARGETS)
    assert taken > 300  # the pass took many of them (3,000 tries)
