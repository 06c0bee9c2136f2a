"""The Gemini lane's turns of one call (issue 18): the reader's inline branches for a lone
result, a model text and one call, and the writer's one-call turn of object arguments.

Split from ``test_gemini.py`` (its request and helpers are reused): each branch reads or writes
what the general path makes of the same request, and each guard leaves its change to it.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.plain.harness import same_both_ways
from tests.plain.test_gemini import _C, FMT, _call, _response, _set, plain_gemini, reads_as_the_ir
from toolwire._plain import READERS
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS
from toolwire._plain.gemini_read import read
from toolwire._plain.gemini_write import write


@pytest.mark.parametrize(
    ("response", "text"),
    [({"output": "rain"}, "rain"), ({"output": 3}, '{"output":3}'), ({"result": "rain"}, "rain"), ({}, "{}")],
)
def test_the_one_result_of_a_one_call_turn_reads_as_its_ir(response: Any, text: str) -> None:
    payload = plain_gemini()
    payload["contents"][6]["parts"][0]["functionResponse"]["response"] = response
    assert reads_as_the_ir(payload)
    got = read(payload, None)
    assert got is not None
    assert got.turns[-1] == (RESULT, "c3", text)  # flat, as the turn of one call before it
    assert got.turns[-2] == (CALL, "c3", "weather", {"city": "Oslo"})


def _text_and_one_call(payload: dict[str, Any]) -> None:
    """Content 1 a text and one call (c1), content 2 its one result."""
    del payload["contents"][1]["parts"][2]
    payload["contents"][2]["parts"] = [_response("c1", {"output": "sunny"}, "weather")]


def test_a_model_text_and_one_call_reads_as_its_ir() -> None:
    payload = plain_gemini()
    _text_and_one_call(payload)
    assert reads_as_the_ir(payload)
    got = read(payload, None)
    assert got is not None
    assert got.turns[2:4] == [
        (ASSISTANT, "Looking.", (("c1", "weather", {"city": "Oslo"}),)),
        (RESULT, "c1", "sunny"),
    ]


@pytest.mark.parametrize(
    ("path", "value"),
    [
        ((1, "parts", 0, "text"), ""),
        ((1, "parts", 0, "text"), None),
        ((1, "parts", 0, "thought"), True),
        ((1, "parts", 1, "thoughtSignature"), "sig"),
        ((1, "parts", 1, "functionCall", "id"), ""),
        ((1, "parts", 1, "functionCall", "args"), [1]),
        ((1, "parts", 1, "functionCall", "id"), 7),
        ((1, "parts", 1, "functionCall", "name"), ""),
        ((1, "parts", 1, "functionCall"), {"name": "weather", "args": {}, "callId": "c1"}),
        ((1, "parts", 1, "functionCall"), {"name": "weather", "args": {}}),
        ((1, "parts", 1), {"text": "More."}),
        ((1, "parts", 1), {"functionCall": {"name": "weather", "args": {}, "id": "c1"}, "x": 1}),
        ((2, "parts", 0, "functionResponse", "id"), "c9"),
    ],
)
def test_each_guard_of_a_model_text_and_one_call(path: tuple[Any, ...], value: Any) -> None:
    payload = plain_gemini()
    _text_and_one_call(payload)
    _set((_C, *path), value)(payload)
    got = read(payload, None)
    assert got is None
    reads_as_the_ir(payload)


def _anthropic_calls(*calls: tuple[str, str, Any]) -> dict[str, Any]:
    """An Anthropic request of a turn of one call (its ``input`` an object) per ``calls``."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Weather?"}]
    for call_id, name, arguments in calls:
        use = {"type": "tool_use", "id": call_id, "name": name, "input": arguments}
        result = {"type": "tool_result", "tool_use_id": call_id, "content": "sunny"}
        messages += [{"role": "assistant", "content": [use]}, {"role": "user", "content": [result]}]
    return {"model": "claude-x", "messages": messages, "max_tokens": 100}


def test_a_one_call_turn_of_object_arguments_is_written_as_given() -> None:
    """The Anthropic reader's calls carry their ``input`` object: the writer's one-call turn
    writes it as ``args`` as it is (empty too: no text to leave out); a call id used twice or a
    name Gemini renames is left to the general path."""
    city = {"city": "Oslo"}
    payload = _anthropic_calls(("c1", "weather", city), ("c2", "time", {}))
    assert same_both_ways(payload, "anthropic", FMT, "drop")
    plain = READERS["anthropic"](payload, None)
    assert plain is not None
    out = write(plain)
    assert out is not None
    assert out["contents"][1]["parts"] == [{"functionCall": {"name": "weather", "args": city, "id": "c1"}}]
    assert out["contents"][1]["parts"][0]["functionCall"]["args"] is city
    assert out["contents"][3]["parts"] == [{"functionCall": {"name": "time", "args": {}, "id": "c2"}}]
    plain.turns[3:5] = [(ASSISTANT, None, [("c1", "time", {})]), (RESULTS, [("c1", "noon")])]
    assert write(plain) is None  # c1 called twice
    plain.turns[3:5] = [(ASSISTANT, None, [("c2", "time", {})]), (RESULTS, [("c2", "noon")])]
    assert write(plain) is not None
    plain.turns[3] = (ASSISTANT, None, [("c2", "1time", {})])
    assert write(plain) is None  # a name Gemini renames
    for name in ("1time", "time"):
        payload = _anthropic_calls(("c1", "weather", city), ("c2", name, {}))
        assert same_both_ways(payload, "anthropic", FMT, "drop") is (name == "time")


@pytest.mark.parametrize(
    ("inner", "taken"),
    [
        ({"id": "c3", "response": {"output": "rain"}}, True),  # two keys: no name
        ({"name": "weather", "id": "c3", "response": {"output": "rain"}}, True),
        ({"name": "time", "id": "c3", "response": {"output": "rain"}}, False),  # another call's name
        ({"id": "c9", "response": {"output": "rain"}}, False),
        ({"name": "weather", "response": {"output": "rain"}}, False),  # two keys, no id
        ({"id": "c3", "output": "rain"}, False),  # two keys, no response
        ({"name": "weather", "id": "c3", "extra": 1}, False),  # three keys, no response
        ({"name": "weather", "id": "c3", "response": {"output": "rain"}, "extra": 1}, False),
        ({"response": {"output": "rain"}}, False),
        ({"id": "c3", "response": {"output": ""}}, False),  # an empty output: an empty result
        ({"id": "c3", "response": {"error": "down"}}, False),
        ({"id": "c3", "response": {"output": ["a"]}}, True),  # another output: its JSON text
        ({"id": "c3", "response": "rain"}, False),
    ],
)
def test_the_inline_one_result_reads_as_its_ir(inner: dict[str, Any], taken: bool) -> None:
    """The reader's inline result of a turn of one call (a local ``(id, name)``, fields read by
    subscript once the size says which): each shape it takes reads as the IR, the others leave."""
    payload = plain_gemini()
    payload["contents"][6]["parts"][0] = {"functionResponse": inner}
    assert reads_as_the_ir(payload) is taken
    assert same_both_ways(payload, FMT, "openai-chat", "drop") is taken


@pytest.mark.parametrize(
    "decl",
    [
        {"name": "weather", "description": "Weather it", "parameters": {"type": "object"}},
        {"name": "weather", "parametersJsonSchema": {"type": "object"}, "strict": True},
        {"name": "weather", "description": "Weather it", "parametersJsonSchema": []},
        {"name": "", "description": "Weather it", "parametersJsonSchema": {}},
        {"name": "weather", "description": 3, "parametersJsonSchema": {}},
        {"name": "weather", "description": None, "parametersJsonSchema": {}},
    ],
)
def test_a_declaration_of_three_keys_not_the_common_one_is_read_field_by_field(decl: dict[str, Any]) -> None:
    """Three keys but not name, description and a JSON Schema: the inline read gives way to
    the field-by-field one, which takes or leaves it as the decoder does."""
    payload = plain_gemini()
    payload["tools"][0]["functionDeclarations"][0] = decl
    taken = reads_as_the_ir(payload)
    assert taken is (decl.get("parameters") == {"type": "object"})
    assert same_both_ways(payload, FMT, "anthropic", "drop") is taken


def test_a_turn_of_more_parts_after_a_text_and_one_call_is_read() -> None:
    """A model text and one call (read by the methods, its one result inline) leaves no call
    open: the model content of more parts after its result is read (compiled too: the open turn
    the methods set is cleared where the reader takes it over)."""
    payload = plain_gemini()
    _text_and_one_call(payload)
    payload["contents"][3]["parts"] = [{"text": "Sunny."}, _call("c4", "time", {}), _call("c5", "time", {})]
    results = [_response("c4", {"output": "noon"}), _response("c5", {"output": "one"})]
    payload["contents"].insert(4, {"role": "user", "parts": results})
    assert reads_as_the_ir(payload)
    got = read(payload, None)
    assert got is not None
    calls = (("c4", "time", {}), ("c5", "time", {}))
    assert got.turns[4:6] == [(ASSISTANT, "Sunny.", calls), (RESULTS, (("c4", "noon"), ("c5", "one")))]
