"""The Responses -> Chat pair lane (the Responses reader, ``toolwire._plain.responses_read``, and the
Chat writer) writes what the general path writes.

Every Responses request of the corpora (recorded fixtures, the real clients' requests, the
benchmark conversations), each also cut down to the lane's fields, mutated corpus requests and
generated conversations go through both paths: the same payload (byte for byte), the same notes,
the same error. Hand-written one-spot changes of a plain request pin each guard of the lane:
the lane takes the plain shapes and leaves every other one to the general path.
"""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.plain import harness
from tests.plain.harness import drop_at as _drop
from tests.plain.harness import set_at as _set
from tests.translate.test_properties import _encode, requests
from tests.translate.test_valid_or_refused_mutated import mutated
from toolwire import translate_request_bytes
from toolwire._json import dumps
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER
from toolwire._plain.responses_read import read
from toolwire.translate import Translation, _general_request, pair_lane, translate_request

SOURCE, TARGET = "openai-responses", "openai-chat"
LANE_FIELDS = (
    *("model", "instructions", "input", "tools", "tool_choice", "parallel_tool_calls"),
    *("max_output_tokens", "temperature", "top_p", "stream", "user", "metadata"),
)
SETTINGS = settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def same_both_ways(payload: Any, policy: str = "warn") -> bool:
    """The harness's check of one request (the public API and the general path agree, the lane
    notes exactly what the general path notes) for this pair; whether the lane took it."""
    return harness.same_both_ways(payload, SOURCE, TARGET, policy)


def _corpus() -> list[Any]:
    return harness.corpus(SOURCE)


def _cut_down(payload: dict[str, Any]) -> dict[str, Any]:
    """``payload`` with the lane's top-level fields only, and items without ``id`` / ``status``."""
    out = {key: value for key, value in payload.items() if key in LANE_FIELDS}
    if isinstance(out.get("input"), list):
        out["input"] = [
            {k: v for k, v in item.items() if k not in ("id", "status")} if isinstance(item, dict) else item
            for item in out["input"]
        ]
    return out


def test_every_corpus_request_translates_the_same_both_ways() -> None:
    corpus = _corpus()
    assert len(corpus) > 150
    taken = [same_both_ways(payload) for payload in corpus]
    assert sum(taken) >= 10  # the lane runs on real payloads, not only on made-up ones


def test_every_cut_down_corpus_request_translates_the_same_both_ways() -> None:
    taken = [
        same_both_ways(_cut_down(payload), policy) for payload in _corpus() for policy in ("strict", "drop")
    ]
    assert sum(taken) >= 60


def test_mutated_corpus_requests_translate_the_same_both_ways() -> None:
    @SETTINGS
    @given(mutated(SOURCE), st.booleans())
    def check(sample: Any, cut: bool) -> None:
        same_both_ways(_cut_down(sample.payload) if cut else sample.payload)

    check()


def test_generated_conversations_translate_the_same_both_ways() -> None:
    @SETTINGS
    @given(requests(), st.booleans())
    def check(request: Any, cut: bool) -> None:
        payload = _encode(request, SOURCE)
        same_both_ways(_cut_down(payload) if cut else payload)

    check()


# ---------------------------------------------------------------- hand-written shapes


def _tool(name: str, **fields: Any) -> dict[str, Any]:
    return {"type": "function", "name": name, "description": f"{name} it", **fields}


def plain() -> dict[str, Any]:
    """A request of every shape the lane takes."""
    return {
        "model": "gpt-4o",
        "instructions": "Be brief.",
        "input": [
            {"role": "developer", "content": "Use tools."},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Weather?"}]},
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Looking."}],
            },
            {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": '{"city":"Oslo"}'},
            {"type": "function_call", "call_id": "c2", "name": "time", "arguments": ""},
            {"type": "function_call_output", "call_id": "c2", "output": "noon"},
            {"type": "function_call_output", "call_id": "c1", "output": ""},
            {"role": "assistant", "content": "Sunny at noon."},
            {"role": "system", "content": "Keep it short."},
            {"type": "message", "role": "user", "content": [{"type": "output_text", "text": "And now?"}]},
            {"type": "function_call", "call_id": "c3", "name": "weather", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c3", "output": "rain"},
        ],
        "tools": [
            _tool("weather", parameters={"type": "object", "properties": {}}, strict=True),
            {"type": "function", "name": "time"},
            _tool("not_called", parameters={}, strict=False),
        ],
        "tool_choice": {"type": "function", "name": "weather"},
        "parallel_tool_calls": False,
        "max_output_tokens": 1,
        "temperature": 2,
        "top_p": 0.0,
        "stream": True,
        "user": "u-1",
        "metadata": {"session": "s-1"},
        "include": [],
    }


def test_the_plain_request_takes_the_lane() -> None:
    assert same_both_ways(plain())
    lane = pair_lane(plain(), SOURCE, TARGET, "warn")
    assert lane is not None
    out, noted = lane
    assert not noted
    assert [m["role"] for m in out["messages"]] == [
        *("system", "developer", "user", "assistant", "tool", "tool"),
        *("assistant", "system", "user", "assistant", "tool"),
    ]
    assert out["messages"][4]["tool_call_id"] == "c2"
    assert out["messages"][3]["tool_calls"][1]["function"]["arguments"] == "{}"
    assert list(out) == [
        *("model", "messages", "tools", "tool_choice", "parallel_tool_calls"),
        *("max_completion_tokens", "temperature", "top_p", "stream", "user", "metadata"),
    ]


def _insert(index: int, item: Any) -> Callable[[dict[str, Any]], None]:
    return lambda payload: payload["input"].insert(index, item)


def _call(call_id: str, name: str = "weather") -> dict[str, Any]:
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"}


def _result(call_id: str) -> dict[str, Any]:
    return {"type": "function_call_output", "call_id": call_id, "output": "ok"}


TAKEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "no instructions": _drop(("instructions",)),
    "input as a string": _set(("input",), "Hello"),
    "no tools": lambda p: [p.pop(key) for key in ("tools", "tool_choice", "parallel_tool_calls")],
    "tool_choice auto": _set(("tool_choice",), "auto"),
    "tool_choice none": _set(("tool_choice",), "none"),
    "tool_choice required": _set(("tool_choice",), "required"),
    "no tool_choice": _drop(("tool_choice",)),
    "no stream": _drop(("stream",)),
    "stream false": _set(("stream",), False),
    "no include": _drop(("include",)),
    "no sampling fields": lambda p: [p.pop(key) for key in ("max_output_tokens", "temperature", "top_p")],
    "a float temperature": _set(("temperature",), 0.7),
    "a zero temperature": _set(("temperature",), 0),
    "an integer top_p": _set(("top_p",), 1),
    "a top_p of 1.0": _set(("top_p",), 1.0),
    "many output tokens": _set(("max_output_tokens",), 100000),
    "an empty user": _set(("user",), ""),
    "empty metadata": _set(("metadata",), {}),
    "no user or metadata": lambda p: [p.pop("user"), p.pop("metadata")],
    "a tool's empty description": _set(("tools", 0, "description"), ""),
    "a tool without strict": _drop(("tools", 0, "strict")),
    "a tool without parameters": _drop(("tools", 0, "parameters")),
    "a tool without description": _drop(("tools", 0, "description")),
    "a call turn without text": _drop(("input", 2)),
    "results in another order": lambda p: p["input"].insert(5, p["input"].pop(6)),
    "a text-only assistant turn last": lambda p: [
        p["input"].pop(),
        p["input"].pop(),
        p["input"].append({"role": "assistant", "content": "Bye."}),
    ],
}
"""One-spot changes of :func:`plain` the lane still takes."""

FALLS_BACK: dict[str, Callable[[dict[str, Any]], None]] = {
    "not a dict": lambda p: None,  # replaced below
    "an unknown field": _set(("store",), False),
    "a non-empty include": _set(("include",), ["reasoning.encrypted_content"]),
    "no model": _drop(("model",)),
    "an empty model": _set(("model",), ""),
    "a model not a string": _set(("model",), 4),
    "null instructions": _set(("instructions",), None),
    "empty instructions": _set(("instructions",), ""),
    "instructions as items": _set(("instructions",), [{"role": "system", "content": "x"}]),
    "no input": _drop(("input",)),
    "empty input": _set(("input",), []),
    "an empty input string": _set(("input",), ""),
    "input not a list": _set(("input",), {"role": "user"}),
    "an item not a dict": _insert(0, "hello"),
    "an unknown item type": _insert(0, {"type": "reasoning", "summary": []}),
    "a message with an id": _set(("input", 1, "id"), "msg_1"),
    "an assistant message with an id": _set(("input", 2, "id"), "msg_2"),
    "a message with a status": _set(("input", 1, "status"), "completed"),
    "a message without a role": _drop(("input", 0, "role")),
    "an unknown role": _set(("input", 0, "role"), "tool"),
    "a role not a string": _set(("input", 0, "role"), ["user"]),
    "a part type not a string": _set(("input", 1, "content", 0, "type"), ["input_text"]),
    "an unknown part type": _set(("input", 1, "content", 0, "type"), "text"),
    "a result call id not a string": _set(("input", 5, "call_id"), ["c2"]),
    "an empty string content": _set(("input", 0, "content"), ""),
    "an empty assistant content": _set(("input", 7, "content"), ""),
    "content not text": _set(("input", 0, "content"), 5),
    "a typed message with string content": _set(("input", 1, "content"), "Weather?"),
    "two parts": lambda p: p["input"][1]["content"].append({"type": "input_text", "text": "more"}),
    "no part": _set(("input", 1, "content"), []),
    "an image part": _set(
        ("input", 1, "content", 0), {"type": "input_image", "image_url": "https://x/y.png"}
    ),
    "a part with annotations": _set(("input", 2, "content", 0, "annotations"), []),
    "an empty part text": _set(("input", 1, "content", 0, "text"), ""),
    "a part text not a string": _set(("input", 1, "content", 0, "text"), ["x"]),
    "a part not a dict": _set(("input", 1, "content", 0), "Weather?"),
    "a message type null": _set(("input", 0, "type"), None),
    "a two-key item not role and content": _set(("input", 0), {"role": "user", "text": "Hi."}),
    "a two-key typed message": _set(("input", 0), {"type": "message", "content": "Hi."}),
    "a four-key item with a call's fields of another type": _set(("input", 3, "type"), "custom_tool_call"),
    "a three-key call": _drop(("input", 3, "arguments")),
    "two assistant texts in one turn": _insert(3, {"role": "assistant", "content": "More."}),
    "assistant text after a call": _insert(4, {"role": "assistant", "content": "Wait."}),
    "a call with an id": _set(("input", 3, "id"), "fc_1"),
    "a call with a status": _set(("input", 3, "status"), "completed"),
    "a call id not a string": _set(("input", 3, "call_id"), 1),
    "an empty call id": lambda p: [
        _set(("input", 3, "call_id"), "")(p),
        _set(("input", 6, "call_id"), "")(p),
    ],
    "arguments not a string": _set(("input", 3, "arguments"), {"city": "Oslo"}),
    "a call name to rename": lambda p: [_set(("input", 3, "name"), "get weather")(p)],
    "an empty call name": _set(("input", 3, "name"), ""),
    "a call name not a string": _set(("input", 3, "name"), None),
    "a call id used twice": lambda p: [
        _set(("input", 10, "call_id"), "c1")(p),
        _set(("input", 11, "call_id"), "c1")(p),
    ],
    "a call without its result": _drop(("input", 11)),
    "a call left open by a message": _set(("input", 11), {"role": "user", "content": "next"}),
    "results missing at the end": lambda p: p.update(input=p["input"][:6]),
    "a call answered after a message": _insert(5, {"role": "user", "content": "hurry"}),
    "a call answered late by a second call turn": _insert(5, _call("c9")),
    "a result without its call": _insert(1, _result("c0")),
    "a result after a text-only turn": _insert(8, _result("c1")),
    "a result answering an earlier turn": _insert(12, _result("c1")),
    "a result twice": _insert(6, _result("c2")),
    "a result with an id": _set(("input", 5, "id"), "fco_1"),
    "a result output not a string": _set(("input", 5, "output"), [{"type": "input_text", "text": "noon"}]),
    "a result without call id": _drop(("input", 5, "call_id")),
    "a message while results are due": lambda p: p["input"].insert(6, {"role": "user", "content": "?"}),
    "a call while results are due": _insert(6, _call("c8")),
    "a call turn answered while results are due": lambda p: p["input"].__setitem__(
        slice(6, 7), [_call("c8"), _result("c8")]
    ),
    "tools not a list": _set(("tools",), {"type": "function", "name": "weather"}),
    "empty tools": lambda p: [p.pop("tool_choice"), _set(("tools",), [])(p)],
    "null tools": lambda p: [p.pop("tool_choice"), _set(("tools",), None)(p)],
    "a custom tool": _set(("tools", 2), {"type": "custom", "name": "not_called"}),
    "a built-in tool": _set(("tools", 2), {"type": "web_search"}),
    "a namespace": _set(("tools", 2), {"type": "namespace", "name": "ns", "tools": [_tool("inner")]}),
    "a tool not a dict": _set(("tools", 2), "weather"),
    "a tool with an unknown field": _set(("tools", 2, "defer_loading"), True),
    "a tool of five fields, one unknown": lambda p: p["tools"][1].update(
        description="d", parameters={}, defer_loading=True
    ),
    "a tool of some fields, one unknown": _set(("tools", 1, "defer_loading"), True),
    "a tool of five fields not a function": _set(("tools", 2, "type"), "custom"),
    "a tool of five fields, the name not a string": _set(("tools", 2, "name"), 3),
    "a tool of five fields, the name empty": _set(("tools", 2, "name"), ""),
    "null parameters of a tool of five fields": _set(("tools", 0, "parameters"), None),
    "a null description of a tool of some fields": _set(("tools", 1, "description"), None),
    "parameters not an object in a tool of some fields": _set(("tools", 1, "parameters"), "{}"),
    "strict not a boolean in a tool of some fields": _set(("tools", 1, "strict"), 0),
    "a tool without a name": _drop(("tools", 2, "name")),
    "a tool name to rename": _set(("tools", 2, "name"), "not.called"),
    "a too long tool name": _set(("tools", 2, "name"), "x" * 65),
    "two tools of one name": _set(("tools", 2, "name"), "weather"),
    "a null description": _set(("tools", 2, "description"), None),
    "a description not a string": _set(("tools", 2, "description"), 3),
    "null parameters": _set(("tools", 2, "parameters"), None),
    "parameters not an object": _set(("tools", 2, "parameters"), []),
    "null strict": _set(("tools", 2, "strict"), None),
    "strict not a boolean": _set(("tools", 2, "strict"), "yes"),
    "an unknown tool_choice": _set(("tool_choice",), "any"),
    "a tool_choice naming no tool": _set(("tool_choice", "name"), "nope"),
    "a tool_choice with a name not a string": _set(("tool_choice", "name"), 1),
    "a custom tool_choice": _set(("tool_choice", "type"), "custom"),
    "a tool_choice with more fields": _set(("tool_choice", "strict"), True),
    "an allowed_tools choice": _set(("tool_choice",), {"type": "allowed_tools", "mode": "auto", "tools": []}),
    "a null tool_choice": _set(("tool_choice",), None),
    "a tool_choice without tools": _drop(("tools",)),
    "parallel_tool_calls without tools": lambda p: [p.pop("tools"), p.pop("tool_choice")],
    "a tool_choice alone": lambda p: [
        p.pop("tools"),
        p.pop("parallel_tool_calls"),
        _set(("tool_choice",), "auto")(p),
    ],
    "null tools alone": lambda p: [
        p.pop("tool_choice"),
        p.pop("parallel_tool_calls"),
        _set(("tools",), None)(p),
    ],
    "parallel_tool_calls not a boolean": _set(("parallel_tool_calls",), "no"),
    "stream not a boolean": _set(("stream",), 1),
    "null stream": _set(("stream",), None),
    "a user not a string": _set(("user",), 7),
    "null user": _set(("user",), None),
    "metadata not an object": _set(("metadata",), [["session", "s-1"]]),
    "null metadata": _set(("metadata",), None),
    "no output tokens": _set(("max_output_tokens",), 0),
    "a float token count": _set(("max_output_tokens",), 100.0),
    "a boolean token count": _set(("max_output_tokens",), True),
    "null max_output_tokens": _set(("max_output_tokens",), None),
    "a string temperature": _set(("temperature",), "0.5"),
    "a boolean temperature": _set(("temperature",), False),
    "a negative temperature": _set(("temperature",), -0.1),
    "a temperature over 2": _set(("temperature",), 2.5),
    "an integer temperature over 2": _set(("temperature",), 3),
    "null temperature": _set(("temperature",), None),
    "a top_p over 1": _set(("top_p",), 1.01),
    "a negative top_p": _set(("top_p",), -1),
    "a top_p not a number": _set(("top_p",), [1]),
    "a sampling field Chat lacks": _set(("top_k",), 5),
    "text format": _set(("text",), {"format": {"type": "text"}}),
    "reasoning": _set(("reasoning",), {"effort": "low"}),
    "previous_response_id": _set(("previous_response_id",), "resp_1"),
}
"""One-spot changes of :func:`plain` the lane leaves to the general path (which notes, refuses
or writes something else)."""


@pytest.mark.parametrize("name", list(TAKEN))
def test_plain_shapes_take_the_lane(name: str) -> None:
    payload = plain()
    TAKEN[name](payload)
    assert same_both_ways(payload)


@pytest.mark.parametrize("name", list(FALLS_BACK))
@pytest.mark.parametrize("policy", ["warn", "strict"])
def test_other_shapes_take_the_general_path(name: str, policy: str) -> None:
    payload: Any = plain()
    if name == "not a dict":
        payload = [payload]
    else:
        FALLS_BACK[name](payload)
    assert pair_lane(payload, SOURCE, TARGET, policy) is None
    assert not same_both_ways(payload, policy)


def test_an_unknown_policy_is_refused_by_the_general_path() -> None:
    assert pair_lane(plain(), SOURCE, TARGET, "loud") is None
    with pytest.raises(ValueError, match="policy"):
        translate_request(plain(), source=SOURCE, target=TARGET, policy="loud")  # type: ignore[arg-type]


@pytest.mark.parametrize("policy", [["drop"], {"drop": 1}, None, 3])
def test_a_policy_not_a_string_is_refused_by_the_general_path(policy: Any) -> None:
    """An unhashable policy too: the lane dispatch leaves it (no TypeError of a set look-up),
    and the general path refuses it with its ValueError, from the dict and the bytes API."""
    assert pair_lane(plain(), SOURCE, TARGET, policy) is None
    with pytest.raises(ValueError, match="policy"):
        translate_request(plain(), source=SOURCE, target=TARGET, policy=policy)
    with pytest.raises(ValueError, match="policy"):
        translate_request_bytes(dumps(plain()), source=SOURCE, target=TARGET, policy=policy)


def test_dialects_and_other_pairs_take_the_general_path() -> None:
    assert pair_lane(plain(), TARGET, SOURCE, "warn") is None  # not a Chat request
    assert pair_lane(plain(), SOURCE, SOURCE, "warn") is None  # a format to itself
    assert pair_lane(plain(), SOURCE, "bedrock-converse", "warn") is None  # no Bedrock writer
    expected = _general_request(plain(), SOURCE, TARGET, "warn", None, None, "mistral")  # type: ignore[arg-type]
    got = translate_request(plain(), source=SOURCE, target=TARGET, target_dialect="mistral")
    assert type(got) is Translation
    assert got == expected


def test_a_lane_translation_builds_its_ir_once_and_stays_frozen() -> None:
    got = translate_request(plain(), source=SOURCE, target=TARGET)
    expected = _general_request(plain(), SOURCE, TARGET, "warn", None, None, None)  # type: ignore[arg-type]
    first = got.ir
    assert first == expected.ir
    assert got.ir is first
    assert repr(got) == repr(expected)
    with pytest.raises(AttributeError):
        got.ir = None  # type: ignore[misc]
    assert got != Translation(got.payload, (), None)
    made = Translation(expected.payload, expected.notes, expected.ir)
    fresh = lambda: translate_request(plain(), source=SOURCE, target=TARGET)  # noqa: E731
    assert copy.copy(fresh()) == made
    assert type(pickle.loads(pickle.dumps(fresh()))) is Translation
    assert pickle.loads(pickle.dumps(fresh())) == made
    assert dataclasses.asdict(fresh()) == dataclasses.asdict(made)
    assert dataclasses.replace(fresh(), ir=None) == Translation(made.payload, (), None)


def test_the_reader_itself_refuses_what_its_writers_would_refuse_too() -> None:
    """Guards of the reader that every writer repeats (so the public API can't tell them apart):
    a call id used in two turns, a named tool choice naming no tool. The reader's own promise
    (see ``_plain._form``) is that a :class:`Plain` never holds them."""
    assert read(plain(), None) is not None
    twice = plain()
    twice["input"][10]["call_id"] = "c1"  # c1 was called (and answered) in the first call turn
    twice["input"][11]["call_id"] = "c1"
    assert read(twice, None) is None
    unknown = plain()
    unknown["tool_choice"] = {"type": "function", "name": "nowhere"}
    assert read(unknown, None) is None
    for index in (5, 11):  # a result answering no call of its turn (of two calls; of one)
        other = plain()
        other["input"][index]["call_id"] = "c9"
        assert read(other, None) is None
    answered_twice = plain()  # c2 answered twice, c1 never (as many results as calls)
    answered_twice["input"][6]["call_id"] = "c2"
    assert read(answered_twice, None) is None


def test_the_reader_gives_each_turn_its_calls_and_results() -> None:
    """The :class:`Plain` turns of :func:`plain`: a text turn's calls added to it (a tuple until its
    first call), results in the order given, a turn of one call and its result flat."""
    got = read(plain(), None)
    assert got is not None
    assert got.turns[3:8] == [
        (ASSISTANT, "Looking.", [("c1", "weather", '{"city":"Oslo"}'), ("c2", "time", "")]),
        (RESULTS, [("c2", "noon"), ("c1", "")]),
        (ASSISTANT, "Sunny at noon.", ()),
        (SYSTEM, "system", "Keep it short."),
        (USER, "And now?"),
    ]
    # a turn of one call and its result: flat (a list of calls from a turn's second call on)
    assert got.turns[8:] == [(CALL, "c3", "weather", "{}"), (RESULT, "c3", "rain")]
