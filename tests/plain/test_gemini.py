"""The Gemini pair lane (``_plain.gemini_read`` / ``gemini_write``) agrees with the general path.

Every corpus request goes through every pair with Gemini on one side whose reader and writer both
exist (the harness: same payload, notes, IR, error, ``noted`` exactly). Beyond those pairs, the
reader is held to the IR the Gemini decoder makes (:func:`plain_of_ir`, the meaning a
:class:`Plain` must mirror), and the writer to the general path's Gemini payload for the Plain
of the IR of every Chat, Responses and Anthropic corpus request. Hand-written one-spot changes
of a plain request pin each guard.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.plain import harness
from tests.plain._ir_plain import plain_of_ir, spelled_as_ir
from tests.plain.harness import bench_requests, corpus, lane_pairs, same_both_ways
from tests.translate.test_properties import _encode, requests
from tests.translate.test_valid_or_refused_mutated import mutated
from toolwire._plain import READERS, WRITERS
from toolwire._plain._form import ASSISTANT, RESULTS
from toolwire._plain.gemini_read import read
from toolwire._plain.gemini_write import write
from toolwire.errors import PayloadError, ToolwireError
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import format_module, translate_request

FMT = "gemini"
OTHERS = ("openai-chat", "openai-responses", "anthropic")
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def _decoded(payload: Any, fmt: str, model: str | None = None) -> tuple[Request, bool] | None:
    notes = Notes("drop")
    try:
        ir = format_module(fmt).decode_request(payload, notes, model=model)
    except (ToolwireError, ValueError):
        return None
    return ir, bool(notes.items)


# ---------------------------------------------------------------- the checks


def reads_as_the_ir(payload: Any, model: str | None = None) -> bool:
    """Assert that the reader's Plain is the IR's (or that it leaves the request); whether it read it."""
    before = copy.deepcopy(payload)
    got = read(payload, model)
    assert payload == before
    if got is None:
        return False
    decoded = _decoded(payload, FMT, model)
    assert decoded is not None, "the reader took a request the decoder refuses"
    expected = plain_of_ir(decoded[0])
    assert expected is not None, decoded[0]
    assert not decoded[1] and not got.noted
    assert spelled_as_ir(got) == expected
    return True


def writes_as_the_general_path(payload: Any, source: str) -> bool:
    """The harness's check of the Gemini writer (from ``source``)."""
    return harness.writes_as_the_general_path(write, payload, source, FMT)


def test_the_tables_hold_the_gemini_lane() -> None:
    assert READERS[FMT] is read
    assert WRITERS[FMT] is write


@pytest.mark.parametrize("policy", ["warn", "drop", "strict"])
def test_every_corpus_request_translates_the_same_both_ways(policy: str) -> None:
    pairs = lane_pairs(FMT)
    assert len(pairs) == 6
    for source, target in pairs:
        taken = [same_both_ways(payload, source, target, policy) for payload in corpus(source)]
        # a Gemini request has no model for Responses nor max_tokens for Anthropic (noted): the
        # lane takes those under drop only
        assert sum(taken) >= (4 if policy == "drop" else 0), (source, target)


def test_the_lane_takes_the_benchmark_conversations() -> None:
    for source, target in lane_pairs(FMT):
        for payload in bench_requests(source):
            assert same_both_ways(payload, source, target, "drop"), (source, target)
    for payload in bench_requests(FMT):
        assert reads_as_the_ir(payload)
    for source in OTHERS:
        for payload in bench_requests(source):
            assert writes_as_the_general_path(payload, source), source


def test_every_gemini_corpus_request_reads_as_its_ir() -> None:
    requests_ = corpus(FMT)
    assert len(requests_) > 20
    assert sum(reads_as_the_ir(payload) for payload in requests_) >= 4


@pytest.mark.parametrize("source", OTHERS)
def test_every_corpus_request_of_another_format_writes_as_the_general_path(source: str) -> None:
    assert sum(writes_as_the_general_path(payload, source) for payload in corpus(source)) >= 4


def _cut_down(payload: dict[str, Any]) -> dict[str, Any]:
    keep = ("contents", "systemInstruction", "tools", "toolConfig", "generationConfig")
    return {key: value for key, value in payload.items() if key in keep}


def test_cut_down_gemini_corpus_requests_read_as_their_ir() -> None:
    taken = [reads_as_the_ir(_cut_down(p)) for p in corpus(FMT) if isinstance(p, dict)]
    assert sum(taken) >= 8


def test_mutated_corpus_requests_agree() -> None:
    @SETTINGS
    @given(st.sampled_from(FORMATS_ALL), st.data())
    def check(source: str, data: st.DataObject) -> None:
        sample = data.draw(mutated(source))
        if source == FMT:
            reads_as_the_ir(sample.payload, sample.model)
            reads_as_the_ir(_cut_down(sample.payload), sample.model)
        else:
            writes_as_the_general_path(sample.payload, source)
        for s, t in lane_pairs(FMT):
            if s == source:
                same_both_ways(sample.payload, s, t, "drop")

    check()


FORMATS_ALL = (FMT, *OTHERS)


def test_generated_conversations_agree() -> None:
    @SETTINGS
    @given(requests(), st.sampled_from(FORMATS_ALL))
    def check(request: Any, source: str) -> None:
        payload = _encode(request, source)
        if source == FMT:
            reads_as_the_ir(payload)
        else:
            writes_as_the_general_path(payload, source)
        for s, t in lane_pairs(FMT):
            if s == source:
                same_both_ways(payload, s, t, "drop")

    check()


# ---------------------------------------------------------------- hand-written shapes


def _call(call_id: str, name: str, args: Any) -> dict[str, Any]:
    return {"functionCall": {"name": name, "args": args, "id": call_id}}


def _response(call_id: str, response: Any, name: str | None = None) -> dict[str, Any]:
    inner: dict[str, Any] = {} if name is None else {"name": name}
    return {"functionResponse": {**inner, "id": call_id, "response": response}}


def plain_gemini() -> dict[str, Any]:
    """A Gemini request of every shape the reader takes."""
    schema = {"type": "object", "properties": {"city": {"type": "string"}}}
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather?"}]},
            {
                "role": "model",
                "parts": [
                    {"text": "Looking."},
                    _call("c1", "weather", {"city": "Oslo"}),
                    _call("c2", "time", {}),
                ],
            },
            {
                "role": "user",
                "parts": [_response("c2", {"output": "noon"}, "time"), _response("c1", {"a": 1, "b": [2]})],
            },
            {"role": "model", "parts": [{"text": "Sunny at noon."}]},
            {"role": "user", "parts": [{"text": "And now?"}]},
            {"role": "model", "parts": [_call("c3", "weather", {"city": "Oslo"})]},
            {"role": "user", "parts": [_response("c3", {"result": "rain"}, "weather")]},
        ],
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "tools": [
            {
                "functionDeclarations": [
                    {"name": "weather", "description": "Weather it", "parametersJsonSchema": schema}
                ]
            },
            {"functionDeclarations": [{"name": "time"}, {"name": "zone", "parameters": {"type": "object"}}]},
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["weather"]}},
        "generationConfig": {"maxOutputTokens": 100, "temperature": 1, "topP": 0.5},
    }


def test_the_plain_request_reads_as_its_ir() -> None:
    payload = plain_gemini()
    assert reads_as_the_ir(payload, "gemini-2.5-flash")
    got = read(payload, None)
    assert got is not None
    assert got.turns[3] == (RESULTS, (("c2", "noon"), ("c1", '{"a":1,"b":[2]}')))
    assert got.turns[2] == (ASSISTANT, "Looking.", (("c1", "weather", {"city": "Oslo"}), ("c2", "time", {})))
    assert got.choice == ("tool", "weather")
    assert (got.max_tokens, got.temperature, got.top_p) == (100, 1, 0.5)
    for mode, choice in (("AUTO", "auto"), ("NONE", "none"), ("ANY", "required")):
        payload["toolConfig"] = {"functionCallingConfig": {"mode": mode}}
        assert reads_as_the_ir(payload)
        assert read(payload, None).choice == choice  # type: ignore[union-attr]
    payload["systemInstruction"]["role"] = "user"  # a hint only a Gemini target sees
    payload["generationConfig"] = {}
    assert reads_as_the_ir(payload)


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(payload: dict[str, Any]) -> None:
        target: Any = payload
        for key in path[:-1]:
            target = target[key]
        if value is _DELETE:
            del target[path[-1]]
        elif type(target) is list and path[-1] == len(target):
            target.append(value)
        else:
            target[path[-1]] = value

    return change


_DELETE = object()

_C = "contents"
_FD = "functionDeclarations"
_FCC = ("toolConfig", "functionCallingConfig")
GUARDS: dict[str, Any] = {
    "a model field": _set(("model",), "gemini-2.5-pro"),
    "snake_case": _set(("system_instruction",), {"parts": [{"text": "x"}]}),
    "no contents": _set((_C,), []),
    "a system role not a string": _set(("systemInstruction", "role"), 1),
    "a system field": _set(("systemInstruction", "x"), 1),
    "two system parts": _set(("systemInstruction", "parts", 1), {"text": "More."}),
    "empty system text": _set(("systemInstruction", "parts", 0, "text"), ""),
    "a content field": _set((_C, 0, "x"), 1),
    "a function role": _set((_C, 0, "role"), "function"),
    "no parts": _set((_C, 0, "parts"), []),
    "empty user text": _set((_C, 0, "parts", 0, "text"), ""),
    "two user texts": _set((_C, 0, "parts", 1), {"text": "More."}),
    "a signature": _set((_C, 1, "parts", 1, "thoughtSignature"), "sig"),
    "a thought": _set((_C, 1, "parts", 0, "thought"), True),
    "empty model text": _set((_C, 1, "parts", 0, "text"), ""),
    "text after a call": _set((_C, 1, "parts", 3), {"text": "More."}),
    "a call without id": _set((_C, 1, "parts", 1, "functionCall", "id"), _DELETE),
    "an empty id": _set((_C, 1, "parts", 1, "functionCall", "id"), ""),
    "a repeated id": _set((_C, 5, "parts", 0, "functionCall", "id"), "c1"),
    "no args": _set((_C, 1, "parts", 1, "functionCall", "args"), _DELETE),
    "args not an object": _set((_C, 1, "parts", 1, "functionCall", "args"), [1]),
    "a call field": _set((_C, 1, "parts", 1, "functionCall", "x"), 1),
    "an empty name": _set((_C, 1, "parts", 1, "functionCall", "name"), ""),
    "a result of another name": _set((_C, 2, "parts", 0, "functionResponse", "name"), "weather"),
    "a result of no call": _set((_C, 2, "parts", 0, "functionResponse", "id"), "c9"),
    "a result without id": _set((_C, 2, "parts", 0, "functionResponse", "id"), _DELETE),
    "a result repeated": _set((_C, 2, "parts", 1), _response("c2", {"output": "noon"})),
    "an error result": _set((_C, 2, "parts", 0, "functionResponse", "response"), {"error": "boom"}),
    "an empty result": _set((_C, 2, "parts", 0, "functionResponse", "response"), {"output": ""}),
    "a result not an object": _set((_C, 2, "parts", 0, "functionResponse", "response"), "noon"),
    "a result field": _set((_C, 2, "parts", 0, "functionResponse", "parts"), []),
    "text beside results": _set((_C, 2, "parts", 2), {"text": "More."}),
    "a call unanswered": _set((_C, 2), {"role": "user", "parts": [{"text": "Hm?"}]}),
    "a call turn last": lambda p: p[_C].pop(),
    "a turn between": lambda p: p[_C].insert(2, {"role": "model", "parts": [{"text": "Wait."}]}),
    "results first": lambda p: p[_C].insert(0, p[_C][2]),
    "an empty lone model text": _set((_C, 3, "parts", 0, "text"), ""),
    "a lone model text not a string": _set((_C, 3, "parts", 0, "text"), 3),
    "a lone call without id": _set((_C, 5, "parts", 0, "functionCall", "id"), _DELETE),
    "a lone call field": _set((_C, 5, "parts", 0, "functionCall", "x"), 1),
    "a lone part of another kind": _set((_C, 5, "parts", 0), {"inlineData": {"data": ""}}),
    "a lone call while results are due": lambda p: p[_C].insert(6, p[_C][5]),
    "a lone result of another name": _set((_C, 6, "parts", 0, "functionResponse", "name"), "time"),
    "a lone result of no call": _set((_C, 6, "parts", 0, "functionResponse", "id"), "c9"),
    "a lone error result": _set((_C, 6, "parts", 0, "functionResponse", "response"), {"error": "boom"}),
    "a lone empty output": _set((_C, 6, "parts", 0, "functionResponse", "response"), {"output": ""}),
    "a lone result field": _set((_C, 6, "parts", 0, "functionResponse", "x"), 1),
    "a lone result of no response": _set((_C, 6, "parts", 0, "functionResponse", "response"), _DELETE),
    "tools empty": _set(("tools",), []),
    "a tools object": _set(("tools",), {_FD: [{"name": "weather"}]}),
    "a built-in tool": _set(("tools", 1, "googleSearch"), {}),
    "no declarations": _set(("tools", 1, _FD), []),
    "a declaration field": _set(("tools", 1, _FD, 0, "behavior"), "BLOCKING"),
    "a tool without name": _set(("tools", 1, _FD, 0, "name"), _DELETE),
    "a null description": _set(("tools", 1, _FD, 0, "description"), None),
    "a numeric description": _set(("tools", 1, _FD, 0, "description"), 1),
    "a schema not an object": _set(("tools", 0, _FD, 0, "parametersJsonSchema"), True),
    "two schemas": _set(("tools", 1, _FD, 1, "parametersJsonSchema"), {}),
    "an OpenAPI schema": _set(("tools", 1, _FD, 1, "parameters"), {"type": "OBJECT"}),
    "an OpenAPI schema the general path refuses": _set(("tools", 1, _FD, 1, "parameters", "properties"), 3),
    "two tools of one name": _set(("tools", 1, _FD, 0, "name"), "weather"),
    "a choice without tools": _set(("tools",), _DELETE),
    "a config field": _set(("toolConfig", "retrievalConfig"), {}),
    "no mode": _set((*_FCC, "mode"), _DELETE),
    "a VALIDATED mode": _set((*_FCC, "mode"), "VALIDATED"),
    "two allowed names": _set((*_FCC, "allowedFunctionNames"), ["weather", "time"]),
    "an allowed name not a tool": _set((*_FCC, "allowedFunctionNames"), ["nope"]),
    "AUTO with allowed names": _set((*_FCC, "mode"), "AUTO"),
    "a generation field": _set(("generationConfig", "topK"), 3),
    "generation config not an object": _set(("generationConfig",), []),
    "a float token limit": _set(("generationConfig", "maxOutputTokens"), 100.0),
    "a boolean temperature": _set(("generationConfig", "temperature"), True),
    "a string top_p": _set(("generationConfig", "topP"), "0.5"),
}


@pytest.mark.parametrize("name", sorted(GUARDS))
def test_each_guard_leaves_a_one_spot_change_to_the_general_path(name: str) -> None:
    payload = plain_gemini()
    GUARDS[name](payload)
    assert read(payload, None) is None
    reads_as_the_ir(payload)
    for source, target in lane_pairs(FMT):
        if source == FMT:
            same_both_ways(payload, source, target, "drop")


def test_args_go_to_an_object_target_as_the_object_and_to_a_text_target_as_its_text() -> None:
    """The reader passes a call's ``args`` object itself (no JSON text made and parsed back for
    Anthropic); a writer into Chat or Responses writes its text, and declines one it cannot
    write (a value JSON has no form for, in-memory input only): the general path refuses it."""
    payload = plain_gemini()
    args = payload["contents"][1]["parts"][1]["functionCall"]["args"]
    got = read(payload, None)
    assert got is not None and got.turns[2][2][0][2] is args
    out = translate_request(payload, source=FMT, target="anthropic", policy="drop").payload
    assert out["messages"][1]["content"][1]["input"] is args
    chat = translate_request(payload, source=FMT, target="openai-chat", policy="drop").payload
    assert chat["messages"][2]["tool_calls"][0]["function"]["arguments"] == '{"city":"Oslo"}'
    payload["contents"][1]["parts"][1]["functionCall"]["args"] = {"s": 1j}
    for target in ("openai-chat", "openai-responses"):
        with pytest.raises(PayloadError, match="cannot be serialized") as info:
            translate_request(payload, source=FMT, target=target, policy="drop")
        assert info.value.path == "$.contents[1].parts[1].functionCall.args"


# ---------------------------------------------------------------- the writer's guards, from Chat


_OBJECT = {"type": "object"}


def plain_chat() -> dict[str, Any]:
    """A Chat request the Chat reader takes and the Gemini writer writes (noted: results wrapped)."""
    call = {"id": "c1", "type": "function", "function": {"name": "weather", "arguments": '{"city":"Oslo"}'}}
    call2 = {"id": "c2", "type": "function", "function": {"name": "time", "arguments": ""}}
    return {
        "model": "gemini-2.5-flash",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Weather?"},
            {"role": "assistant", "content": "Looking.", "tool_calls": [call, call2]},
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            {"role": "tool", "tool_call_id": "c2", "content": "noon"},
            {"role": "user", "content": "Thanks."},
        ],
        "tools": [
            {"type": "function", "function": {"name": "weather", "description": "W", "parameters": _OBJECT}},
            {"type": "function", "function": {"name": "time"}},
        ],
        "tool_choice": {"type": "function", "function": {"name": "weather"}},
        "max_tokens": 100,
        "temperature": 2,
        "top_p": 1,
    }


def _chat_call(index: int) -> tuple[Any, ...]:
    return ("messages", 2, "tool_calls", index, "function")


WRITER_GUARDS: dict[str, Any] = {
    "a Gemini 3 model with calls": _set(("model",), "gemini-3-pro-preview"),
    "a call turn first": lambda p: p["messages"].pop(1),
    "arguments not an object": _set((*_chat_call(0), "arguments"), "[1]"),
    "a name Gemini renames": _set((*_chat_call(0), "name"), "1weather"),
    "a temperature above 2": _set(("temperature",), 2.5),
}
WRITER_NOTES: dict[str, Any] = {
    "a system message later": lambda p: p["messages"].append({"role": "system", "content": "Short."}),
    "a strict tool": _set(("tools", 0, "function", "strict"), True),
    "parallel calls off": _set(("parallel_tool_calls",), False),
    "a user": _set(("user",), "u-1"),
    "metadata": _set(("metadata",), {"k": "v"}),
}


def test_the_plain_chat_request_takes_the_lane_to_gemini() -> None:
    assert same_both_ways(plain_chat(), "openai-chat", FMT, "drop")
    assert not same_both_ways(plain_chat(), "openai-chat", FMT, "warn")  # noted: the general path notes
    payload = plain_chat()
    payload["messages"] = payload["messages"][:2]
    for mode in ("auto", "none", "required"):
        payload["tool_choice"] = mode
        assert same_both_ways(payload, "openai-chat", FMT, "strict")
    del payload["tools"], payload["tool_choice"]
    assert same_both_ways(payload, "openai-chat", FMT, "strict")
    payload["metadata"] = {}
    assert same_both_ways(payload, "openai-chat", FMT, "strict")


def test_results_are_written_in_call_order() -> None:
    """The plain Gemini request answers c1, c2 as c2, c1: written c1, c2 (as the general path puts
    them for Gemini); results not exactly of the calls before are left to the general path."""
    plain = read(plain_gemini(), None)
    assert plain is not None and plain.turns[3][0] == RESULTS
    out = write(plain)
    assert out is not None and plain.noted
    assert [p["functionResponse"]["id"] for p in out["contents"][2]["parts"]] == ["c1", "c2"]
    for results in ((("c1", "a"), ("c1", "b")), (("c1", "a"),), (("c1", "a"), ("c3", "b"))):
        plain.turns[3] = (RESULTS, results)
        assert write(plain) is None
    plain.turns[3] = (RESULTS, (("c1", "a"), ("c2", "b")))
    assert write(plain) is not None
    text, calls = plain.turns[2][1:]
    plain.turns[2] = (ASSISTANT, text, calls[:1])  # a turn of one call (c1): answered by c1 only
    for results, written in (((("c9", "a"),), False), ((("c1", "a"),), True)):
        plain.turns[3] = (RESULTS, results)
        assert (write(plain) is not None) is written
    plain.turns[2:4] = [(ASSISTANT, text, calls), (RESULTS, (("c1", "a"), ("c2", "b")))]
    for choice, tools in ((("tool", "nope"), plain.tools), ("auto", None), (None, None)):
        plain.choice, plain.tools, plain.parallel = choice, tools, True
        assert write(plain) is None  # a choice of no tool, without tools; parallel without tools


@pytest.mark.parametrize("name", sorted(WRITER_GUARDS))
def test_each_writer_guard_leaves_a_one_spot_change_to_the_general_path(name: str) -> None:
    payload = plain_chat()
    WRITER_GUARDS[name](payload)
    assert READERS["openai-chat"](payload, None) is not None  # the reader takes it: the writer refuses
    assert not same_both_ways(payload, "openai-chat", FMT, "drop")


@pytest.mark.parametrize("name", sorted(WRITER_NOTES))
def test_what_the_general_path_notes_is_noted(name: str) -> None:
    payload = plain_chat()
    payload["messages"] = payload["messages"][:2]  # no result: nothing else noted
    WRITER_NOTES[name](payload)
    assert same_both_ways(payload, "openai-chat", FMT, "drop")
    assert not same_both_ways(payload, "openai-chat", FMT, "warn")
