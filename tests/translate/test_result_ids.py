"""A Gemini client's id-less ``functionResponse`` parts, paired by id for an upstream that needs ids."""

from __future__ import annotations

from typing import Any

import pytest

import toolwire
from toolwire import Exchange


def _gemini_turn(call_ids: list[str | None], names: list[str], answers: list[str]) -> dict[str, Any]:
    calls = [
        {"functionCall": {"name": n, "args": {"city": f"c{i}"}, **({"id": cid} if cid else {})}}
        for i, (cid, n) in enumerate(zip(call_ids, names, strict=True))
    ]
    results = [{"functionResponse": {"name": n, "response": {"output": n}}} for n in answers]
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "weather and time?"}]},
            {"role": "model", "parts": calls},
            {"role": "user", "parts": results},
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {"name": n, "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}
                    for n in ("get_weather", "get_time")
                ]
            }
        ],
    }


def _chat_pairs(body: dict[str, Any]) -> tuple[list[tuple[str, str]], list[str]]:
    calls = [(c["id"], c["function"]["name"]) for c in body["messages"][1]["tool_calls"]]
    return calls, [m["tool_call_id"] for m in body["messages"][2:]]


@pytest.mark.parametrize(
    ("answers", "expected"),
    [
        (["get_weather", "get_time"], ["call_a", "call_b"]),
        (["get_time", "get_weather"], ["call_a", "call_b"]),  # answered out of order: put in call order
    ],
)
def test_id_less_results_take_the_ids_of_their_calls(answers: list[str], expected: list[str]) -> None:
    ex = Exchange("gemini", "openai-chat", client_model="gemini-2.5-flash")
    body = ex.request(_gemini_turn(["call_a", "call_b"], ["get_weather", "get_time"], answers))
    calls, results = _chat_pairs(body)
    assert calls == [("call_a", "get_weather"), ("call_b", "get_time")]
    assert sorted(results) == expected
    assert toolwire.validate(body, format="openai-chat") == []


def test_same_name_calls_are_answered_in_order() -> None:
    ex = Exchange("gemini", "anthropic", client_model="gemini-2.5-flash")
    body = ex.request(_gemini_turn(["call_a", "call_b"], ["get_weather"] * 2, ["get_weather"] * 2))
    uses = [b["id"] for b in body["messages"][1]["content"] if b["type"] == "tool_use"]
    answered = [b["tool_use_id"] for b in body["messages"][2]["content"] if b["type"] == "tool_result"]
    assert uses == answered == ["call_a", "call_b"]
    assert toolwire.validate(body, format="anthropic") == []
