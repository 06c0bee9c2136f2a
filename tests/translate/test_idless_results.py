"""Id-less Gemini results sent to targets that pair by id: answered by name, else by position, else refused.

Gemini pairs ``functionResponse`` with ``functionCall`` by position and neither needs an id;
Anthropic and Bedrock pair ``tool_result``/``toolResult`` with the call by id. The translation
must give every result the id of a call of the turn before (valid for the target) or refuse.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolwire import translate_request, validate
from toolwire.errors import ConversionError

TARGETS = {
    "anthropic": lambda p: [
        b["tool_use_id"] for m in p["messages"] for b in m["content"] if b["type"] == "tool_result"
    ],
    "bedrock-converse": lambda p: [
        b["toolResult"]["toolUseId"] for m in p["messages"] for b in m["content"] if "toolResult" in b
    ],
}
CALL_IDS = {
    "anthropic": lambda p: [b["id"] for m in p["messages"] for b in m["content"] if b["type"] == "tool_use"],
    "bedrock-converse": lambda p: [
        b["toolUse"]["toolUseId"] for m in p["messages"] for b in m["content"] if "toolUse" in b
    ],
}


def _gemini(calls: list[str], results: list[str]) -> dict[str, Any]:
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [{"functionCall": {"name": n, "args": {}}} for n in calls]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": n, "response": {"ok": n}}} for n in results],
            },
        ],
        "tools": [{"functionDeclarations": [{"name": "a"}, {"name": "b"}]}],
    }


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_result_of_another_name_answers_the_call_at_its_position(target: str) -> None:
    result = translate_request(_gemini(["a"], ["b"]), source="gemini", target=target, model="m")
    assert validate(result.payload, format=target) == []
    assert TARGETS[target](result.payload) == CALL_IDS[target](result.payload)
    [note] = [n for n in result.notes if n.kind == "approximated"]
    assert note.loss and note.path == "$.contents[2].parts[0]"
    assert "'b'" in note.message and "by position" in note.message
    with pytest.raises(ConversionError) as strict:
        translate_request(_gemini(["a"], ["b"]), source="gemini", target=target, model="m", policy="strict")
    assert strict.value.path == "$.contents[2].parts[0]"


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_results_answer_calls_by_name_before_position(target: str) -> None:
    result = translate_request(_gemini(["a", "b"], ["b", "a"]), source="gemini", target=target, model="m")
    assert validate(result.payload, format=target) == []
    calls = CALL_IDS[target](result.payload)
    assert TARGETS[target](result.payload) == [calls[1], calls[0]]
    assert not [n for n in result.notes if n.kind == "approximated"]


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_a_result_with_no_call_left_is_refused(target: str) -> None:
    with pytest.raises(ConversionError) as refused:
        translate_request(
            _gemini(["a"], ["a", "b"]), source="gemini", target=target, model="m", policy="drop"
        )
    assert refused.value.path == "$.contents[2]"
    assert "a tool result without id answers no earlier tool call" in str(refused.value)
