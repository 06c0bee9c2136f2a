"""The Chat -> Gemini pair in one pass (``chat_gemini``, issue 18).

It must write exactly what the pair's lane (the Chat reader, then the Gemini writer) writes,
dicts and Structs, and note what it notes, and leave to that lane every request it is not sure
of: the requests it takes go the same both ways (public API and general path) and equal the
lane's payload; one-spot changes of them pin each guard. A differential fuzz with a fixed seed
compares both with mutated requests (``_chat_fuzz``, checked by ``_responses_fuzz``'s checks).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from benchmarks._conversation import chat_request
from benchmarks.bench_pairs import sized_chat_request

from tests.compiled import pure_only
from tests.plain import _chat_fuzz, _responses_fuzz
from tests.plain.harness import drop_at as _drop
from tests.plain.harness import set_at as _set
from tests.plain.test_chat_anthropic_pass import _both, _calls, _fn, _insert, _out, _replace, _text, _tool
from toolwire import translate_request, translate_request_bytes
from toolwire._json import dumps
from toolwire._plain import NOTING_PASSES, READERS, WIRE_WRITERS, WRITERS, chat_read

SOURCE, TARGET = "openai-chat", "gemini"
TARGETS = (TARGET,)
CALL = "update_repository_0"


def translate(payload: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    return NOTING_PASSES[SOURCE, TARGET](copy.deepcopy(payload), wire)


def _lane(payload: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    plain = chat_read.read(copy.deepcopy(payload), None)
    out = None if plain is None else (WIRE_WRITERS if wire else WRITERS)[TARGET](plain)
    return None if out is None or plain is None else (out, plain.noted)


def request() -> dict[str, Any]:
    """A request of every shape the pass takes: a text and a call in one message, a turn of two
    calls (one of empty arguments), a user text after results (merged into their content), a
    turn of one call, system texts after the conversation started, an assistant text after one
    and a system text (merged), then calls after them (merged too)."""
    return {
        "model": "gpt-4o",
        "messages": [
            _text("system", "Be brief."),
            _text("user", "Q"),
            _calls("Let me.", _fn("a", arguments='{"x":1}')),
            _out("a", "1"),
            _calls(None, _fn("b", arguments=""), _fn("c", "time")),
            _out("b", "3"),
            _out("c", "2"),
            _text("user", "more"),
            _calls(None, _fn("d")),
            _out("d", "4"),
            _text("developer", "D"),
            _text("system", "S"),
            _text("assistant", "Done."),
            _text("system", "S2"),
            _text("assistant", "Also."),
            _text("developer", "D2"),
            _calls(None, _fn("e")),
            _out("e", "5"),
            _text("user", "ok"),
        ],
        "tools": [_tool(CALL, "u"), _tool("time", "", strict=True)],
        "tool_choice": "auto",
        "max_tokens": 16,
        "temperature": 1,
    }


def _texts() -> dict[str, Any]:
    """A request of texts only, no system text after the start: nothing noted."""
    messages = [_text("system", "S"), _text("user", "Q"), _text("user", "Q2"), _text("assistant", "A")]
    return {"model": "gpt-4o", "messages": messages}


def _takes(payload: dict[str, Any]) -> None:
    _responses_fuzz.agrees(payload, SOURCE, TARGET, False)


@pytest.mark.parametrize("size", [None, (2, 1), (10, 5), (100, 5)])
def test_the_benchmark_requests_are_taken(size: tuple[int, int] | None) -> None:
    _takes(chat_request() if size is None else sized_chat_request(*size))


def test_every_shape_it_takes() -> None:
    payload = request()
    _takes(payload)
    assert translate(payload, True)[1]  # type: ignore[index] # results wrapped, system texts moved
    payload = _texts()
    _takes(payload)
    assert not translate(payload, False)[1]  # type: ignore[index]
    assert not translate(payload, True)[1]  # type: ignore[index]
    payload["messages"].append(_text("developer", "D"))
    _takes(payload)
    assert translate(payload, False)[1]  # type: ignore[index] # a system text after the start
    payload = _texts()
    payload["metadata"] = {"k": "v"}
    _takes(payload)
    assert translate(payload, True)[1]  # type: ignore[index]


def test_the_contents_merge_as_the_writer_merges() -> None:
    """A user text after results joins their content; an assistant text, a system text, an
    assistant text and calls make one model content."""
    got = translate(request(), False)
    assert got is not None
    contents = got[0]["contents"]
    assert [content["role"] for content in contents] == ["user", *("model", "user") * 4]
    assert [len(content["parts"]) for content in contents] == [1, 2, 1, 2, 3, 1, 1, 3, 2]
    assert [part.get("text") for part in contents[4]["parts"] + contents[7]["parts"]] == [
        *(None, None, "more", "Done.", "Also.", None)
    ]
    assert got[0]["systemInstruction"]["parts"][1:] == [{"text": t} for t in ("D", "S", "S2", "D2")]


@pure_only
def test_the_pair_takes_the_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the pair's reader off, its requests of the one pass's shape still translate."""
    expected = _lane(request(), False)
    assert expected is not None
    monkeypatch.setitem(READERS, SOURCE, lambda payload, model: None)
    got = translate_request(request(), source=SOURCE, target=TARGET, policy="drop")
    assert got.payload == expected[0]
    body = dumps(request())
    assert translate_request_bytes(body, source=SOURCE, target=TARGET, policy="drop") == dumps(expected[0])
    assert translate_request(request(), source=SOURCE, target=TARGET).notes  # warn: the general path


_M = ("messages",)
_F = (*_M, 2, "tool_calls", 0, "function")
DECLINES: dict[str, Callable[[dict[str, Any]], object]] = {
    "not an object": lambda p: p.clear(),
    "an unknown field": _set(("n",), 1),
    "a null field": _set(("user",), None),
    "no model (the caller's is not passed)": _drop(("model",)),
    "model not a string": _set(("model",), 1),
    "messages a string": _set(_M, "hi"),
    "empty messages": _set(_M, []),
    "a message not an object": _set((*_M, 1), "hi"),
    "a message of two keys without content": _set((*_M, 1), {"role": "user", "text": "Q"}),
    "a message of one key": _set((*_M, 1), {"role": "user"}),
    "a message of four keys": _set((*_M, 1, "name"), "n"),
    "an unknown role": _set((*_M, 1, "role"), "tool"),
    "empty text": _set((*_M, 1, "content"), ""),
    "text not a string": _set((*_M, 1, "content"), [{"type": "text", "text": "Q"}]),
    "empty assistant text": _set((*_M, 12, "content"), ""),
    "empty system text": _set((*_M, 11, "content"), ""),
    "an assistant text after an assistant text": _insert(13, _text("assistant", "x")),
    "calls after an assistant text": _insert(13, _calls(None, _fn("x")), _out("x", "5")),
    "a call message of another role": _set((*_M, 2, "role"), "user"),
    "a call message of three keys without tool_calls": _set(
        (*_M, 2), {"role": "assistant", "content": "x", "name": "n"}
    ),
    "a call message of four keys": _set((*_M, 8, "name"), "n"),
    "empty call text": _set((*_M, 2, "content"), ""),
    "call text not a string": _set((*_M, 2, "content"), [{"type": "text", "text": "x"}]),
    "empty call text, two calls": _set((*_M, 4, "content"), ""),
    "tool_calls not a list": _set((*_M, 2, "tool_calls"), {}),
    "no calls": _set((*_M, 2, "tool_calls"), []),
    "a call not an object": _set((*_M, 2, "tool_calls", 0), "x"),
    "a call not an object, two calls": _set((*_M, 4, "tool_calls", 1), "x"),
    "a call of another type": _set((*_M, 2, "tool_calls", 0, "type"), "custom"),
    "a call without its function": _set((*_M, 8, "tool_calls", 0), {"id": "d", "type": "function", "x": 1}),
    "empty call id": _both(_set((*_M, 2, "tool_calls", 0, "id"), ""), _set((*_M, 3, "tool_call_id"), "")),
    "a call id used again": _both(
        _set((*_M, 8, "tool_calls", 0, "id"), "a"), _set((*_M, 9, "tool_call_id"), "a")
    ),
    "a call id used again, two calls": _both(
        _set((*_M, 4, "tool_calls", 1, "id"), "a"), _set((*_M, 6, "tool_call_id"), "a")
    ),
    "a call id twice in one turn": _both(
        _set((*_M, 4, "tool_calls", 1, "id"), "b"), _set((*_M, 6, "tool_call_id"), "b")
    ),
    "empty name": _set((*_F, "name"), ""),
    "a name Gemini renames": _set((*_F, "name"), "a b"),
    "a name Gemini renames, in a turn of two": _set((*_M, 4, "tool_calls", 1, "function", "name"), "a b"),
    "arguments not text": _set((*_F, "arguments"), {}),
    "arguments not an object": _set((*_F, "arguments"), "[1]"),
    "arguments not JSON": _set((*_F, "arguments"), '{"x":'),
    "arguments not an object, one call": _set((*_M, 8, "tool_calls", 0, "function", "arguments"), "1"),
    "arguments not an object, two calls": _set((*_M, 4, "tool_calls", 1, "function", "arguments"), "1"),
    "a call's function of three keys": _set((*_F, "x"), 1),
    "a result of another call": _set((*_M, 3, "tool_call_id"), "z"),
    "a result of another call, two calls": _set((*_M, 6, "tool_call_id"), "z"),
    "a result of another call, one call": _set((*_M, 9, "tool_call_id"), "z"),
    "results out of order": _replace(5, 7, _out("c", "2"), _out("b", "3")),
    "a result missing at the end": lambda p: p.update(messages=p["messages"][:9]),
    "a result missing at the end, two calls": lambda p: p.update(messages=p["messages"][:6]),
    "a result of another role": _set((*_M, 3, "role"), "user"),
    "empty output": _set((*_M, 3, "content"), ""),
    "empty output, one call": _set((*_M, 9, "content"), ""),
    "empty output, two calls": _set((*_M, 6, "content"), ""),
    "output not text": _set((*_M, 3, "content"), [{"type": "text", "text": "1"}]),
    "a result of four keys": _set((*_M, 3, "name"), "n"),
    "a result without its id": _set((*_M, 9), {"role": "tool", "content": "4", "name": "n"}),
    "a result after a user text": _insert(2, _out("a", "1")),
    "only system texts": _set(_M, [_text("system", "S")]),
    "calls first": lambda p: p["messages"].__delitem__(slice(0, 2)),
    "calls after a system text first": lambda p: p["messages"].__delitem__(1),
    "a text and calls first": lambda p: (
        p["messages"].__delitem__(slice(0, 2)) or p["messages"][0].update(content="x")
    ),
    "a Gemini 3 model with calls": _set(("model",), "gemini-3-pro-preview"),
    "a tool not plain": _set(("tools", 0, "type"), "custom"),
    "a tool name Gemini renames": _set(("tools", 1, "function", "name"), "a b"),
    "a choice naming no tool": _set(("tool_choice",), {"type": "function", "function": {"name": "nope"}}),
    "temperature out of range": _set(("temperature",), 2.5),
    "max_tokens under Gemini's least": _set(("max_tokens",), 0),
}
"""One-spot changes the pass leaves to the lane."""

TAKES: dict[str, Callable[[dict[str, Any]], object]] = {
    "empty arguments": _set((*_F, "arguments"), ""),
    "a call id Anthropic escapes": _both(
        _set((*_M, 8, "tool_calls", 0, "id"), "d e"), _set((*_M, 9, "tool_call_id"), "d e")
    ),
    "a name seen first in a call": _set((*_M, 8, "tool_calls", 0, "function", "name"), "first_seen_here"),
    "a turn of three calls": _replace(
        4, 7, _calls(None, _fn("b"), _fn("c"), _fn("x")), _out("b", "3"), _out("c", "2"), _out("x", "0")
    ),
    "a turn of two calls and a text": _set((*_M, 4, "content"), "Two."),
    "a turn of one call and a text": _set((*_M, 8, "content"), "One."),
    "a turn of one call and a text after an assistant text": _set((*_M, 16, "content"), "One."),
    "a turn of two calls after an assistant text": _replace(
        16, 18, _calls(None, _fn("e"), _fn("f")), _out("e", "5"), _out("f", "6")
    ),
    "a turn of two calls and a text after an assistant text": _replace(
        16, 18, _calls("Two.", _fn("e"), _fn("f")), _out("e", "5"), _out("f", "6")
    ),
    "no user text after results": _drop((*_M, 7)),
    "user texts after results": _insert(8, _text("user", "and"), _text("user", "also")),
    "a text before the first user text": _insert(1, _text("assistant", "Hi.")),
    "a text first": lambda p: p["messages"].__setitem__(0, _text("assistant", "Hi.")),
    "a user text first": lambda p: p["messages"].pop(0),
    "a developer text first": _set((*_M, 0, "role"), "developer"),
    "no system text after the start": lambda p: p["messages"].__delitem__(slice(10, 12)),
    "a last assistant text": lambda p: p["messages"].__delitem__(slice(14, 19)),
    "an assistant text ending in whitespace": _set((*_M, 12, "content"), "Done. "),
    "a last call turn": lambda p: p["messages"].pop(),
    "a last system text": lambda p: p["messages"].append(_text("system", "end")),
    "parallel calls off": _set(("parallel_tool_calls",), False),
    "strict tools": _set(("tools", 0, "function", "strict"), True),
    "no tools": lambda p: [p.pop("tools"), p.pop("tool_choice")],
    "a named choice": _set(("tool_choice",), {"type": "function", "function": {"name": "time"}}),
    "user and metadata": lambda p: p.update(user="u", metadata={"k": "v"}),
    "stream": _set(("stream",), True),
    "max_completion_tokens": lambda p: p.update(max_completion_tokens=p.pop("max_tokens")),
    "a Gemini 3 model without calls": lambda p: p.update(
        model="gemini-3-pro-preview", messages=[_text("user", "Q"), _text("assistant", "A")]
    ),
    "a Gemini 2.5 model": _set(("model",), "gemini-2.5-flash"),
}
"""One-spot changes the pass still takes (when the lane does), writing the lane's payload."""

_CASES = [
    *((name, change, True) for name, change in DECLINES.items()),
    *((n, c, False) for n, c in TAKES.items()),
]


@pytest.mark.parametrize(
    ("change", "declines"), [case[1:] for case in _CASES], ids=[case[0] for case in _CASES]
)
def test_each_guard(change: Callable[[dict[str, Any]], object], declines: bool) -> None:
    payload = request()
    change(payload)
    _responses_fuzz.agrees(payload, SOURCE, TARGET, declines)


def test_mutated_requests() -> None:
    """The differential fuzz, a fixed seed, moderate size: no difference."""
    taken = _responses_fuzz.run(_chat_fuzz.requests(seed=19, count=1500), SOURCE, TARGETS)
    assert taken > 300  # the pass took many of them (dicts and Structs: 3,000 tries)
