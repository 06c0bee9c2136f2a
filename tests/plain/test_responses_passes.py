"""The Responses -> Anthropic and -> Gemini pairs in one pass (``responses_anthropic``,
``responses_gemini``, issue 18).

Each must write exactly what the pair's lane (the Responses reader, then the target's writer)
writes, dicts and Structs, and note what it notes, and leave to that lane every request it is
not sure of: the requests it takes go the same both ways (public API and general path) and
equal the lane's payload; one-spot changes of them pin each guard (it leaves them, or still
writes the lane's payload, and they go the same both ways). A differential fuzz with a fixed
seed compares both with mutated requests (``_responses_fuzz``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from benchmarks._conversation import chat_request
from benchmarks.bench_pairs import _in_each_format, sized_chat_request

from tests.compiled import pure_only
from tests.plain import _responses_fuzz
from tests.plain.harness import drop_at as _drop
from tests.plain.harness import set_at as _set
from toolwire import translate_request, translate_request_bytes
from toolwire._json import dumps, loads
from toolwire._plain import NOTING_PASSES, READERS, WIRE_WRITERS, WRITERS, responses_read

SOURCE = "openai-responses"
TARGETS = ("anthropic", "gemini")
CALL = "update_repository_0"


def translate(payload: Any, target: str, wire: bool) -> tuple[dict[str, Any], bool] | None:
    return NOTING_PASSES[SOURCE, target](copy.deepcopy(payload), wire)


def _lane(payload: Any, target: str, wire: bool) -> tuple[dict[str, Any], bool] | None:
    plain = responses_read.read(copy.deepcopy(payload), None)
    out = None if plain is None else (WIRE_WRITERS if wire else WRITERS)[target](plain)
    return None if out is None or plain is None else (out, plain.noted)


def _fn(call_id: str, name: str = CALL, arguments: str = "{}") -> dict[str, Any]:
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": arguments}


def _out(call_id: str, output: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": output}


def _text(role: str, text: str) -> dict[str, Any]:
    return {"role": role, "content": text}


def request() -> dict[str, Any]:
    """A request of every shape the one passes take: a text and a call in one turn, a turn of
    two calls answered out of order (one of empty arguments), a user text after results, a turn
    of one call, system texts after the conversation started."""
    return {
        "model": "gpt-4o",
        "instructions": "Be brief.",
        "input": [
            {"role": "user", "content": "Q"},
            {"role": "assistant", "content": "Let me."},
            _fn("a", arguments='{"x":1}'),
            _out("a", "1"),
            _fn("b", arguments=""),
            _fn("c", "time"),
            _out("c", "2"),
            _out("b", "3"),
            {"role": "user", "content": "more"},
            _fn("d"),
            _out("d", "4"),
            {"role": "developer", "content": "D"},
            {"role": "system", "content": "S"},
            {"role": "assistant", "content": "Done."},
            {"role": "user", "content": "ok"},
        ],
        "tools": [
            {"type": "function", "name": CALL, "description": "u", "parameters": {}, "strict": False},
            {
                "type": "function",
                "name": "time",
                "description": "",
                "parameters": {"type": "object"},
                "strict": True,
            },
        ],
        "tool_choice": "auto",
        "max_output_tokens": 16,
        "temperature": 1,
    }


def _takes(payload: dict[str, Any], target: str) -> None:
    _responses_fuzz.agrees(payload, SOURCE, target, False)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("size", [None, (2, 1), (10, 5), (100, 5)])
def test_the_benchmark_requests_are_taken(size: tuple[int, int] | None, target: str) -> None:
    chat = chat_request() if size is None else sized_chat_request(*size)
    _takes(loads(_in_each_format(chat)[SOURCE]), target)


@pytest.mark.parametrize("target", TARGETS)
def test_every_shape_it_takes(target: str) -> None:
    payload = request()
    _takes(payload, target)
    assert translate(payload, target, True)[1]  # type: ignore[index] # the system texts moved: noted
    del payload["input"][11:13]
    _takes(payload, target)
    for key in ("tools", "tool_choice", "instructions", "max_output_tokens", "temperature"):
        del payload[key]
    _takes(payload, target)
    assert translate(payload, target, False)[1]  # type: ignore[index] # no max_tokens / a result wrapped


@pure_only
@pytest.mark.parametrize("target", TARGETS)
def test_the_pair_takes_the_one_pass(monkeypatch: pytest.MonkeyPatch, target: str) -> None:
    """With the pair's reader off, its requests of the one pass's shape still translate."""
    expected = _lane(request(), target, False)
    assert expected is not None
    monkeypatch.setitem(READERS, SOURCE, lambda payload, model: None)
    got = translate_request(request(), source=SOURCE, target=target, policy="drop")  # type: ignore[arg-type]
    assert got.payload == expected[0]
    body = dumps(request())
    assert translate_request_bytes(body, source=SOURCE, target=target, policy="drop") == dumps(expected[0])  # type: ignore[arg-type]
    assert translate_request(request(), source=SOURCE, target=target).notes  # warn: the general path  # type: ignore[arg-type]


_I = ("input",)
DECLINES: dict[str, Callable[[dict[str, Any]], object]] = {
    "not an object": lambda p: p.clear(),
    "an unknown field": _set(("store",), False),
    "include": _set(("include",), ["x"]),
    "no model": _drop(("model",)),
    "input a string": _set(("input",), "hi"),
    "empty input": _set(("input",), []),
    "empty instructions": _set(("instructions",), ""),
    "instructions not text": _set(("instructions",), ["x"]),
    "an item not an object": _set((*_I, 0), "hi"),
    "a typed message": _set((*_I, 0), {"type": "message", "role": "user", "content": "Q"}),
    "a message of two keys without content": _set((*_I, 0), {"role": "user", "text": "Q"}),
    "an unknown role": _set((*_I, 0, "role"), "tool"),
    "empty text": _set((*_I, 0, "content"), ""),
    "text not a string": _set((*_I, 0, "content"), [{"type": "input_text", "text": "Q"}]),
    "two texts in one turn": lambda p: p["input"].insert(2, {"role": "assistant", "content": "More."}),
    "a text after a call": _set((*_I, 3), {"role": "user", "content": "More."}),
    "a text while results are owed": lambda p: p["input"].insert(7, {"role": "user", "content": "x"}),
    "a call of another type": _set((*_I, 2, "type"), "custom_tool_call"),
    "a call of four keys without arguments": _set(
        (*_I, 2), {"type": "function_call", "call_id": "a", "name": "x", "id": "1"}
    ),
    "empty call id": _set((*_I, 2, "call_id"), ""),
    "call id not a string": _set((*_I, 2, "call_id"), 1),
    "a call id used again": lambda p: [p["input"][i].update(call_id="a") for i in (9, 10)],
    "arguments not text": _set((*_I, 2, "arguments"), {}),
    "arguments not an object": _set((*_I, 2, "arguments"), "[1]"),
    "arguments not JSON": _set((*_I, 2, "arguments"), '{"x":'),
    "arguments not an object, empty name check first": _set((*_I, 5, "arguments"), "1"),
    "empty name": _set((*_I, 2, "name"), ""),
    "name not a string": _set((*_I, 2, "name"), 1),
    "a name the target renames": _set((*_I, 2, "name"), "a b"),
    "a call while results are owed": lambda p: p["input"].insert(7, _fn("e")),
    "a result of another call": _set((*_I, 3, "call_id"), "z"),
    "a result of another call of two": _set((*_I, 6, "call_id"), "z"),
    "a result twice": _set((*_I, 7, "call_id"), "c"),
    "a result after no call": lambda p: p["input"].insert(1, _out("a", "1")),
    "a result after a text": lambda p: p["input"].insert(2, _out("a", "1")),
    "a result not text": _set((*_I, 3, "output"), [{"type": "input_text", "text": "1"}]),
    "a result id not a string": _set((*_I, 3, "call_id"), 1),
    "an item of three keys of another type": _set((*_I, 3, "type"), "custom_tool_call_output"),
    "an item of five keys": _set((*_I, 2, "status"), "completed"),
    "an item of one key": _set((*_I, 2), {"type": "function_call"}),
    "a call unanswered": lambda p: p["input"].append(_fn("e")),
    "results owed at the end": lambda p: p["input"].__delitem__(slice(7, 15)),
    "a tool not plain": _set(("tools", 0, "type"), "custom"),
    "a choice naming no tool": _set(("tool_choice",), {"type": "function", "name": "nope"}),
    "temperature out of range": _set(("temperature",), 2.5),
}
"""One-spot changes both passes leave to the lane."""

ANTHROPIC_DECLINES: dict[str, Callable[[dict[str, Any]], object]] = {
    "empty output": _set((*_I, 3, "output"), ""),
    "an assistant text after an assistant message": lambda p: p["input"].__setitem__(
        slice(14, 15), [_text("system", "S"), _text("assistant", "More.")]
    ),
    "a call turn after an assistant message": lambda p: p["input"].__setitem__(
        slice(14, 15), [{"role": "system", "content": "S"}, _fn("e"), _out("e", "5")]
    ),
    "a call id Anthropic escapes": lambda p: [p["input"][i].update(call_id="a b") for i in (9, 10)],
    "a prefill ending in whitespace": lambda p: p["input"].__setitem__(
        slice(13, 15), [_text("assistant", "x ")]
    ),
    "only system texts": _set(("input",), [{"role": "system", "content": "S"}]),
    "max_output_tokens under Anthropic's least": _set(("max_output_tokens",), 0),
}
"""One-spot changes the Anthropic pass leaves to the lane (the Gemini one may take them)."""

GEMINI_DECLINES: dict[str, Callable[[dict[str, Any]], object]] = {
    "a call turn first": lambda p: p["input"].__delitem__(slice(0, 2)),
    "a Gemini 3 model with calls": _set(("model",), "gemini-3-pro-preview"),
    "only system texts": _set(("input",), [{"role": "system", "content": "S"}]),
}
"""One-spot changes the Gemini pass leaves to the lane."""

TAKES: dict[str, Callable[[dict[str, Any]], object]] = {
    "no instructions": _drop(("instructions",)),
    "empty arguments": _set((*_I, 2, "arguments"), ""),
    "a name seen first in a call": _set((*_I, 9, "name"), "first_seen_here"),
    "results in call order": lambda p: p["input"].__setitem__(slice(6, 8), [_out("b", "3"), _out("c", "2")]),
    "a turn of three calls": lambda p: p["input"].__setitem__(
        slice(4, 8), [_fn("b"), _fn("c"), _fn("e"), _out("e", "0"), _out("b", "3"), _out("c", "2")]
    ),
    "no user text after results": _drop((*_I, 8)),
    "a text before the first user text": lambda p: p["input"].insert(
        0, {"role": "assistant", "content": "Hi."}
    ),
    "a system text first": lambda p: p["input"].insert(0, {"role": "developer", "content": "D"}),
    "no system text after the start": lambda p: p["input"].__delitem__(slice(11, 13)),
    "a last assistant text": lambda p: p["input"].pop(),
    "parallel calls off": _set(("parallel_tool_calls",), False),
    "user and metadata": lambda p: p.update(user="u", metadata={"k": "v"}),
    "stream": _set(("stream",), True),
}
"""One-spot changes a pass still takes (when the lane does), writing the lane's payload."""

_CASES = [
    *((name, change, target, True) for name, change in DECLINES.items() for target in TARGETS),
    *((name, change, "anthropic", True) for name, change in ANTHROPIC_DECLINES.items()),
    *((name, change, "gemini", True) for name, change in GEMINI_DECLINES.items()),
    *((name, change, target, False) for name, change in TAKES.items() for target in TARGETS),
]


@pytest.mark.parametrize(
    ("change", "target", "declines"),
    [case[1:] for case in _CASES],
    ids=[f"{case[2]}: {case[0]}" for case in _CASES],
)
def test_each_guard(change: Callable[[dict[str, Any]], object], target: str, declines: bool) -> None:
    payload = request()
    change(payload)
    _responses_fuzz.agrees(payload, SOURCE, target, declines)


def test_mutated_requests() -> None:
    """The differential fuzz, a fixed seed, moderate size: no difference."""
    taken = _responses_fuzz.run(_responses_fuzz.requests(seed=18, count=1500), SOURCE, TARGETS)
    assert taken > 500  # the passes took many of them
