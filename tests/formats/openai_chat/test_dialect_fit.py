"""A Chat request fitted to a provider's dialect: reasoning replayed only to its writer, and
only as far as that provider takes it back; ids, fields, roles and modes as it spells them."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from toolwire import validate
from toolwire.errors import ConversionError, ToolwireError
from toolwire.formats import openai_chat as chat
from toolwire.ir import Notes
from toolwire.ir.content import ReasoningPart
from toolwire.translate import Exchange, translate_request, translate_response

CALL = {
    "id": "call_00_sXqYgMESDht75NCLLZtt9804",
    "type": "function",
    "function": {"name": "f", "arguments": "{}"},
}
DETAILS = [
    {"type": "reasoning.text", "text": "We need", "index": 0, "format": None},
    {
        "type": "reasoning.encrypted",
        "data": "gAAAAB==opaque",
        "id": "rs_1",
        "index": 1,
        "format": "openai-v1",
    },
]


def _history() -> dict[str, Any]:
    """Two user turns; the second is a tool loop. Reasoning on both assistant turns."""
    return {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello", "reasoning_content": "earlier turn"},
            {"role": "user", "content": "roll"},
            {"role": "assistant", "content": None, "reasoning_content": "this turn", "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": CALL["id"], "content": "4"},
        ],
    }


def _fit(payload: dict[str, Any], source: str | None, target: str, policy: str = "drop") -> Any:
    return translate_request(
        copy.deepcopy(payload),
        source="openai-chat",
        target="openai-chat",
        policy=policy,  # type: ignore[arg-type]
        source_dialect=source,
        target_dialect=target,
    )


def test_deepseek_takes_back_reasoning_of_the_tool_loop_only() -> None:
    result = _fit(_history(), None, "deepseek")
    messages = result.payload["messages"]
    assert "reasoning_content" not in messages[1]
    assert messages[3]["reasoning_content"] == "this turn"
    [note] = [n for n in result.notes if "reasoning_content" in n.path]
    assert note.path == "$.messages[1].reasoning_content" and not note.loss


def test_deepseek_history_goes_back_to_deepseek_unchanged() -> None:
    payload = _history()
    result = _fit(payload, "deepseek", "deepseek", policy="strict")
    assert result.payload == payload and not result.notes


@pytest.mark.parametrize("target", ["mistral", "openrouter", "openai", "groq"])
def test_deepseek_reasoning_goes_to_no_other_provider(target: str) -> None:
    result = _fit(_history(), "deepseek", target)
    assert all("reasoning_content" not in m for m in result.payload["messages"])
    assert {n.path for n in result.notes if n.loss} >= {
        "$.messages[1].reasoning_content",
        "$.messages[3].reasoning_content",
    }
    with pytest.raises(ConversionError):
        _fit(_history(), "deepseek", target, policy="strict")


def _openrouter() -> dict[str, Any]:
    payload = _history()
    assistant = payload["messages"][3]
    del assistant["reasoning_content"]
    assistant["reasoning"] = "We need"
    assistant["reasoning_details"] = DETAILS
    return payload


def test_openrouter_reasoning_details_return_byte_exact_to_openrouter() -> None:
    payload = _openrouter()
    ir = chat.decode_request(copy.deepcopy(payload), Notes("strict"), dialect="openrouter")
    [part] = [p for p in ir.messages[3].parts if isinstance(p, ReasoningPart)]
    assert part.text == "We need" and part.extra["reasoning_details"] == DETAILS
    out = chat.encode_request(ir, Notes("strict"), dialect="openrouter")
    assert out["messages"][3]["reasoning_details"] == DETAILS
    assert out == payload


@pytest.mark.parametrize("target", ["deepseek", "mistral", "openai", "xai"])
def test_openrouter_reasoning_details_go_nowhere_else(target: str) -> None:
    result = _fit(_openrouter(), "openrouter", target)
    assistant = result.payload["messages"][3]
    assert "reasoning_details" not in assistant and "reasoning" not in assistant
    assert "$.messages[3].reasoning_details" in {n.path for n in result.notes if n.loss}


def test_openrouter_reasoning_details_do_not_reach_other_formats() -> None:
    out = translate_request(
        _openrouter(), source="openai-chat", target="anthropic", policy="drop", source_dialect="openrouter"
    )
    assert "gAAAAB==opaque" not in repr(out.payload)
    assert validate(out.payload, format="anthropic") == []


def _mistral_thinking() -> dict[str, Any]:
    thinking = {"type": "thinking", "thinking": [{"type": "text", "text": "Let me think."}]}
    return {
        "model": "magistral-medium-latest",
        "messages": [
            {"role": "user", "content": "2+2?"},
            {"role": "assistant", "content": [thinking, {"type": "text", "text": "4"}], "prefix": False},
            {"role": "user", "content": "and 3+3?"},
        ],
        "tool_choice": "any",
        "tools": [{"function": {"name": "f", "parameters": {"type": "object"}}}],
    }


def test_mistral_thinking_goes_back_to_mistral_only() -> None:
    payload = _mistral_thinking()
    assert _fit(payload, "mistral", "mistral", policy="strict").payload == payload
    result = _fit(payload, "mistral", "deepseek")
    assistant = result.payload["messages"][1]
    assert assistant == {"role": "assistant", "content": [{"type": "text", "text": "4"}]}
    assert {n.path for n in result.notes} >= {"$.messages[1].content", "$.messages[1].prefix"}
    assert validate(result.payload, format="openai-chat", dialect="deepseek") == []


def test_mistral_forms_become_chat_for_openai() -> None:
    result = _fit(_mistral_thinking(), "mistral", "openai")
    out = result.payload
    assert out["tool_choice"] == "required"
    assert out["tools"] == [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]
    assert validate(out, format="openai-chat") == []
    [renamed] = [n for n in result.notes if n.path == "$.tool_choice"]
    assert not renamed.loss


def test_mistral_forms_need_the_dialect_to_decode() -> None:
    with pytest.raises(ToolwireError, match="unknown tool_choice 'any'"):
        chat.decode_request(_mistral_thinking(), Notes())


def test_requests_fitted_to_mistral() -> None:
    payload = {
        "model": "m",
        "user": "u-1",
        "max_completion_tokens": 50,
        "stream_options": {"include_usage": True},
        "messages": [
            {"role": "developer", "content": "terse"},
            {"role": "user", "content": "go", "name": "ann"},
            {"role": "assistant", "content": None, "tool_calls": [CALL]},
            {"role": "tool", "tool_call_id": CALL["id"], "content": "4"},
        ],
        "tools": [{"type": "function", "function": {"name": "f"}}],
    }
    result = _fit(payload, None, "mistral")
    out = result.payload
    short = chat.mistral_call_id(CALL["id"])
    assert out["messages"] == [
        {"role": "system", "content": "terse"},
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": None, "tool_calls": [{**CALL, "id": short}]},
        {"role": "tool", "tool_call_id": short, "content": "4"},
    ]
    assert out["max_tokens"] == 50
    assert "user" not in out and "stream_options" not in out and "max_completion_tokens" not in out
    assert out["tools"][0]["function"]["parameters"] == {"type": "object", "properties": {}}
    assert validate(out, format="openai-chat", dialect="mistral") == []
    assert validate(payload, format="openai-chat", dialect="mistral") != []
    losses = {n.path for n in result.notes if n.loss}
    assert losses == {"$.user", "$.stream_options", "$.messages[1].name"}


def test_dialects_of_other_formats_are_refused() -> None:
    with pytest.raises(ToolwireError, match="dialects are Chat Completions providers"):
        translate_request(_history(), source="openai-chat", target="anthropic", target_dialect="mistral")
    with pytest.raises(ToolwireError, match="did you mean 'deepseek'"):
        Exchange("openai-chat", "openai-chat", upstream_dialect="deepsek")


def test_a_hop_from_anthropic_to_mistral_keeps_the_conversation_paired() -> None:
    anthropic = {
        "model": "claude",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "roll"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_01A", "name": "f", "input": {}}],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_01A", "content": "4"}],
            },
        ],
        "tool_choice": {"type": "any"},
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
    }
    ex = Exchange("anthropic", "openai-chat", upstream_dialect="mistral", policy="drop")
    out = ex.request(anthropic)
    assert validate(out, format="openai-chat", dialect="mistral") == []
    assert out["messages"][1]["tool_calls"][0]["id"] == out["messages"][2]["tool_call_id"]
    answer = {
        "id": "x",
        "object": "chat.completion",
        "created": 1,
        "model": "mistral-large-latest",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [
                        {"id": "rHU0eZiMa", "function": {"name": "f", "arguments": "{}"}, "index": 0}
                    ],
                },
            }
        ],
    }
    back = ex.response(answer)
    assert [b["id"] for b in back["content"] if b["type"] == "tool_use"] == ["rHU0eZiMa"]
    assert validate(back, format="anthropic", kind="response") == []


def test_deepseek_response_reasoning_is_tagged_for_the_way_back() -> None:
    answer = {
        "id": "x",
        "object": "chat.completion",
        "created": 1,
        "model": "deepseek-reasoner",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": "3", "reasoning_content": "r"},
            }
        ],
    }
    ir = translate_response(answer, source="openai-chat", target="openai-chat", source_dialect="deepseek").ir
    [part] = [p for p in ir.parts if isinstance(p, ReasoningPart)]
    assert part.extra["~dialect"] == "deepseek"
