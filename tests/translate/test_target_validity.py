"""Focused cases of issue 13: each translation is a payload the target accepts, or a refusal.

Each test pins one class of output a provider rejected: the exact translated shape (or the
exact error), plus ``toolwire.validate`` on the result.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.schema._util import Tracker
from toolwire import FormatName, validate
from toolwire.errors import ConversionError
from toolwire.formats import ToolConfig
from toolwire.formats.anthropic._generation import encode_thinking_cross
from toolwire.formats.openai_chat.tools import encode_config
from toolwire.ir.request import ReasoningConfig
from toolwire.ir.tools import BuiltinTool, ToolChoice
from toolwire.translate import translate_request, translate_response

GEMINI_TOOL = {
    "name": "pick",
    "description": "Pick one.",
    "parameters": {
        "type": "OBJECT",
        "properties": {
            "color": {"type": "STRING", "format": "enum", "enum": ["red", "blue"], "nullable": True},
            "count": {"type": "INTEGER", "minimum": 1},
        },
        "required": ["color"],
        "propertyOrdering": ["count", "color"],
    },
}
JSON_SCHEMA = {
    "type": "object",
    "properties": {
        "count": {"type": "integer", "minimum": 1},
        "color": {"type": ["string", "null"], "enum": ["red", "blue", None]},
    },
    "required": ["color"],
}


def _gemini_request() -> dict[str, Any]:
    return {
        "contents": [{"role": "user", "parts": [{"text": "pick"}]}],
        "tools": [{"functionDeclarations": [GEMINI_TOOL]}],
    }


def _valid(payload: dict[str, Any], target: str) -> None:
    assert validate(payload, format=target) == []  # type: ignore[arg-type]


def test_gemini_subset_schema_becomes_json_schema_for_anthropic() -> None:
    out = translate_request(_gemini_request(), source="gemini", target="anthropic", model="m").payload
    assert out["tools"] == [{"name": "pick", "description": "Pick one.", "input_schema": JSON_SCHEMA}]
    _valid(out, "anthropic")


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_gemini_subset_schema_becomes_json_schema_for_openai(target: FormatName) -> None:
    out = translate_request(_gemini_request(), source="gemini", target=target, model="m").payload
    tool = out["tools"][0]
    assert (tool.get("function") or tool)["parameters"] == JSON_SCHEMA
    assert list(JSON_SCHEMA["properties"]) == ["count", "color"], "propertyOrdering kept as key order"
    _valid(out, target)


def test_gemini_subset_schema_round_trips_unchanged() -> None:
    translation = translate_request(_gemini_request(), source="gemini", target="gemini", model="m")
    assert translation.payload["tools"] == [{"functionDeclarations": [GEMINI_TOOL]}]
    assert translation.notes == ()


def test_gemini_response_schema_becomes_json_schema() -> None:
    request = {
        **_gemini_request(),
        "generationConfig": {
            "responseMimeType": "application/json",
            "responseSchema": GEMINI_TOOL["parameters"],
        },
    }
    out = translate_request(request, source="gemini", target="openai-chat", model="m").payload
    assert out["response_format"]["json_schema"]["schema"] == JSON_SCHEMA
    _valid(out, "openai-chat")


def test_builtin_only_tools_send_no_empty_tools_or_tool_choice() -> None:
    request = {
        "model": "claude-x",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "run it"}],
        "tools": [{"type": "code_execution_20250522", "name": "code_execution"}],
        "tool_choice": {"type": "auto"},
    }
    translation = translate_request(request, source="anthropic", target="openai-chat")
    assert translation.payload == {
        "model": "claude-x",
        "messages": [{"role": "user", "content": "run it"}],
        "max_completion_tokens": 100,
    }
    _valid(translation.payload, "openai-chat")
    assert {(n.path, n.kind) for n in translation.notes} >= {
        ("$.tools[0]", "dropped"),
        ("$.tool_choice", "dropped"),
    }


@pytest.mark.parametrize(("mode", "lossy"), [("auto", False), ("none", False), ("required", True)])
def test_choice_without_surviving_tools_is_a_loss_only_when_forced(mode: str, lossy: bool) -> None:
    builtin = BuiltinTool(origin="anthropic", wire_type="code_execution_20250522", payload={})
    config = ToolConfig(tools=(builtin,), tool_choice=ToolChoice(mode=mode), parallel_tool_calls=False)  # type: ignore[arg-type]
    notes = Tracker()
    assert encode_config(config, notes, same=False) == {}
    assert [(n.path, n.kind) for n in notes.lossy] == [("$.tools[0]", "dropped")] + (
        [("$.tool_choice", "dropped")] if lossy else []
    )
    assert {n.path for n in notes.items} == {"$.tools[0]", "$.tool_choice", "$.parallel_tool_calls"}


# ---------------------------------------------------------------- built-in turns (Responses -> Chat)


def test_builtin_only_turn_leaves_no_empty_assistant_message() -> None:
    request = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "rate?"},
            {
                "type": "tool_search_call",
                "call_id": "c1",
                "arguments": {"queries": ["fx"]},
                "status": "completed",
            },
            {"type": "tool_search_output", "call_id": "c1", "tools": [], "status": "completed"},
            {"role": "user", "content": "and now?"},
        ],
    }
    translation = translate_request(request, source="openai-responses", target="openai-chat")
    assert translation.payload["messages"] == [
        {"role": "user", "content": "rate?"},
        {"role": "user", "content": "and now?"},
    ]
    _valid(translation.payload, "openai-chat")
    kinds = {n.message.split(" has ")[0] for n in translation.notes if n.kind == "dropped"}
    assert {"built-in tool call 'tool_search_call'", "built-in tool output 'tool_search_output'"} <= kinds


# ---------------------------------------------------------------- server-side state: refused


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "gemini"])
@pytest.mark.parametrize(("field", "value"), [("previous_response_id", "resp_1"), ("conversation", "conv_1")])
def test_stored_conversation_is_refused_for_stateless_targets(
    target: FormatName, field: str, value: str
) -> None:
    request = {
        "model": "gpt-5",
        field: value,
        "input": [{"type": "function_call_output", "call_id": "call_1", "output": "42"}],
    }
    with pytest.raises(ConversionError, match=f"{field} continues a conversation stored by OpenAI") as err:
        translate_request(request, source="openai-responses", target=target, policy="drop", model="m")
    assert err.value.path == f"$.{field}"


def test_item_reference_is_refused_for_stateless_targets() -> None:
    request = {
        "model": "gpt-5",
        "input": [{"role": "user", "content": "hi"}, {"type": "item_reference", "id": "msg_old"}],
    }
    with pytest.raises(ConversionError, match="item_reference 'msg_old' points at an item stored by OpenAI"):
        translate_request(request, source="openai-responses", target="anthropic", policy="drop")


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini"])
def test_orphan_tool_result_is_refused(target: FormatName) -> None:
    request = {
        "model": "claude-x",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "weather?"},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"}],
            },
        ],
    }
    with pytest.raises(ConversionError, match="tool result for call 'toolu_1' answers no tool call") as err:
        translate_request(request, source="anthropic", target=target, policy="drop")
    assert err.value.path == "$.messages[1]"


def test_chat_with_only_a_system_message_is_refused_for_gemini() -> None:
    request = {"model": "o3", "messages": [{"role": "system", "content": "You are a potato."}]}
    with pytest.raises(ConversionError, match="the request has no user or assistant turn; gemini requires"):
        translate_request(request, source="openai-chat", target="gemini", policy="drop")


# ---------------------------------------------------------------- ranges


def _chat(**fields: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": "hi"}], **fields}


@pytest.mark.parametrize(
    ("fields", "target", "key", "sent"),
    [
        ({"max_completion_tokens": 1}, "openai-responses", "max_output_tokens", 16),
        ({"temperature": 1.5}, "anthropic", "temperature", 1.0),
        ({"temperature": -1.0}, "gemini", "generationConfig", {"temperature": 0.0}),
        ({"top_p": 1.5}, "openai-responses", "top_p", 1.0),
    ],
)
def test_out_of_range_values_move_to_the_bound_with_a_loss_note(
    fields: dict[str, Any], target: FormatName, key: str, sent: Any
) -> None:
    translation = translate_request(_chat(**fields), source="openai-chat", target=target)
    assert translation.payload[key] == sent
    _valid(translation.payload, target)
    assert any("outside" in n.message and n.kind == "approximated" for n in translation.notes)
    with pytest.raises(ConversionError, match="outside"):
        translate_request(_chat(**fields), source="openai-chat", target=target, policy="strict")


def test_values_inside_the_range_are_untouched() -> None:
    out = translate_request(
        _chat(temperature=2.0, max_completion_tokens=16), source="openai-chat", target="openai-responses"
    )
    assert (out.payload["temperature"], out.payload["max_output_tokens"]) == (2.0, 16)
    assert not [n for n in out.notes if "outside" in n.message]


# ---------------------------------------------------------------- thinking


def _gemini_thinking(config: dict[str, Any]) -> dict[str, Any]:
    return {
        "contents": [{"role": "user", "parts": [{"text": "think"}]}],
        "generationConfig": {"maxOutputTokens": 20000, "thinkingConfig": config},
    }


@pytest.mark.parametrize(
    ("model", "thinking", "lossy"),
    [
        ("claude-opus-4-6", {"type": "adaptive"}, False),
        ("claude-sonnet-4-6-20260101", {"type": "adaptive"}, False),
        ("claude-sonnet-4-5", {"type": "enabled", "budget_tokens": 8192}, True),
        ("gemini-2.5-flash", {"type": "enabled", "budget_tokens": 8192}, True),
    ],
)
def test_dynamic_gemini_budget_becomes_adaptive_or_a_medium_budget(
    model: str, thinking: dict[str, Any], lossy: bool
) -> None:
    translation = translate_request(
        _gemini_thinking({"thinkingBudget": -1}), source="gemini", target="anthropic", model=model
    )
    assert translation.payload["thinking"] == thinking
    _valid(translation.payload, "anthropic")
    notes = Tracker()
    assert encode_thinking_cross(ReasoningConfig(budget_tokens=-1), notes, model) == thinking
    assert bool(notes.lossy) is lossy


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_dynamic_gemini_budget_becomes_medium_effort(target: FormatName) -> None:
    out = translate_request(
        _gemini_thinking({"thinkingBudget": -1}), source="gemini", target=target, model="gpt-5"
    ).payload
    effort = out["reasoning_effort"] if target == "openai-chat" else out["reasoning"]["effort"]
    assert effort == "medium"
    _valid(out, target)


def test_forced_tool_drops_enabled_thinking_for_anthropic() -> None:
    request = {
        "model": "gpt-5",
        "input": [{"role": "user", "content": "compute"}],
        "reasoning": {"effort": "low"},
        "tool_choice": "required",
        "tools": [{"type": "function", "name": "final_result", "parameters": {"type": "object"}}],
    }
    translation = translate_request(request, source="openai-responses", target="anthropic")
    assert "thinking" not in translation.payload
    assert translation.payload["tool_choice"] == {"type": "any"}
    _valid(translation.payload, "anthropic")
    assert ("$.reasoning", "dropped") in {(n.path, n.kind) for n in translation.notes}


# ---------------------------------------------------------------- responses


def test_gemini_response_without_id_or_model_gets_both_for_chat() -> None:
    response = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}]
    }
    translation = translate_response(response, source="gemini", target="openai-chat", policy="strict")
    out = translation.payload
    assert out["id"].startswith("chatcmpl-") and len(out["id"]) == len("chatcmpl-") + 32
    assert out["model"] == "unknown"
    assert translate_response(response, source="gemini", target="openai-chat").payload["id"] == out["id"]
    assert validate(out, format="openai-chat", kind="response") == []


# ---------------------------------------------------------------- refusals, interleaving, Gemini thinking


def test_chat_refusal_becomes_output_text_in_a_responses_input_message() -> None:
    request = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "do it"},
            {"role": "assistant", "content": None, "refusal": "I can't help with that."},
            {"role": "user", "content": "ok"},
        ],
    }
    translation = translate_request(request, source="openai-chat", target="openai-responses")
    assert translation.payload["input"][1] == {"role": "assistant", "content": "I can't help with that."}
    _valid(translation.payload, "openai-responses")
    assert any(n.kind == "approximated" and "refusal" in n.message for n in translation.notes)


def test_anthropic_text_between_tool_calls_is_a_loss_for_chat() -> None:
    request = {
        "model": "claude-x",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "a"},
                    {"type": "tool_use", "id": "t1", "name": "f", "input": {}},
                    {"type": "text", "text": "b"},
                    {"type": "tool_use", "id": "t2", "name": "f", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "t1", "content": "1"},
                    {"type": "tool_result", "tool_use_id": "t2", "content": "2"},
                ],
            },
        ],
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
    }
    translation = translate_request(request, source="anthropic", target="openai-chat")
    assert translation.payload["messages"][1]["content"] == [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
    ]
    _valid(translation.payload, "openai-chat")
    assert ("$.messages[1]", "approximated") in {(n.path, n.kind) for n in translation.notes}
    with pytest.raises(ConversionError, match="text between tool calls"):
        translate_request(request, source="anthropic", target="openai-chat", policy="strict")
    request["messages"][1]["content"] = request["messages"][1]["content"][:2]  # text, then one call
    request["messages"][2]["content"] = request["messages"][2]["content"][:1]
    plain = translate_request(request, source="anthropic", target="openai-chat")
    assert not [n for n in plain.notes if "between tool calls" in n.message]


@pytest.mark.parametrize(
    ("model", "config", "lossy"),
    [
        ("gemini-2.5-flash", {"thinkingBudget": 1024}, True),
        ("models/gemini-2.0-flash-thinking", {"thinkingBudget": 1024}, True),
        ("gemini-3-pro-preview", {"thinkingLevel": "LOW"}, False),
    ],
)
def test_openai_effort_goes_to_gemini_as_the_model_generation_takes_it(
    model: str, config: dict[str, Any], lossy: bool
) -> None:
    request = {"model": model, "messages": [{"role": "user", "content": "x"}], "reasoning_effort": "low"}
    translation = translate_request(request, source="openai-chat", target="gemini")
    assert translation.payload["generationConfig"]["thinkingConfig"] == config
    _valid(translation.payload, "gemini")
    assert any("thinkingBudget" in n.message for n in translation.notes) is lossy


def test_medium_effort_on_gemini_2_5_is_the_dynamic_budget() -> None:
    request = {
        "model": "gemini-2.5-pro",
        "messages": [{"role": "user", "content": "x"}],
        "reasoning_effort": "medium",
    }
    out = translate_request(request, source="openai-chat", target="gemini").payload
    assert out["generationConfig"]["thinkingConfig"] == {"thinkingBudget": -1}


# ---------------------------------------------------------------- histories no target takes


def _anthropic(messages: list[Any], **fields: Any) -> dict[str, Any]:
    tools = [{"name": "f", "input_schema": {"type": "object"}}]
    return {"model": "claude-x", "max_tokens": 100, "messages": messages, "tools": tools, **fields}


_CALL = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]}
_RESULT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "1"}]}
_ASK = {"role": "user", "content": "go"}


@pytest.mark.parametrize(
    ("messages", "error"),
    [
        ([_ASK, _CALL, _ASK], "tool call 't1' has no result in the history"),
        ([_ASK, _CALL, _RESULT, _CALL, _RESULT], "tool call id 't1' is used twice"),
        ([_ASK, _CALL, _RESULT, _RESULT], "tool call 't1' has two results"),
        ([_ASK, _CALL, _ASK, _RESULT], "the result of tool call 't1' does not follow its call's turn"),
    ],
)
@pytest.mark.parametrize("target", ["openai-chat"])
def test_histories_no_stateless_target_takes_are_refused(
    messages: list[Any], error: str, target: FormatName
) -> None:
    with pytest.raises(ConversionError, match=error):
        translate_request(_anthropic(messages), source="anthropic", target=target, policy="drop")


def test_a_late_result_is_fine_for_responses() -> None:
    out = translate_request(
        _anthropic([_ASK, _CALL, _ASK, _RESULT]), source="anthropic", target="openai-responses"
    )
    assert [item.get("type") for item in out.payload["input"]] == [
        None,
        "function_call",
        None,
        "function_call_output",
    ]


@pytest.mark.parametrize(
    ("fields", "error"),
    [
        ({"tool_choice": {"type": "tool", "name": "g"}}, "tool_choice names 'g', which is not among"),
        (
            {"tools": [{"name": "f", "input_schema": {}}, {"name": "f", "input_schema": {}}]},
            "tool 'f' is defined twice",
        ),
    ],
)
def test_tool_lists_no_target_takes_are_refused(fields: dict[str, Any], error: str) -> None:
    with pytest.raises(ConversionError, match=error):
        translate_request(
            _anthropic([_ASK], **fields), source="anthropic", target="openai-chat", policy="drop"
        )


def test_choice_without_tools_is_dropped() -> None:
    request = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}],
        "tool_choice": "auto",
        "parallel_tool_calls": True,
    }
    translation = translate_request(request, source="openai-chat", target="openai-responses", policy="strict")
    assert "tool_choice" not in translation.payload and "parallel_tool_calls" not in translation.payload
    _valid(translation.payload, "openai-responses")


def test_prefill_whitespace_is_stripped_for_anthropic() -> None:
    request = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "Sure: "}],
    }
    translation = translate_request(request, source="openai-chat", target="anthropic")
    assert translation.payload["messages"][-1]["content"] == [{"type": "text", "text": "Sure:"}]
    _valid(translation.payload, "anthropic")
    assert any("trailing whitespace" in n.message for n in translation.notes)


@pytest.mark.parametrize(
    ("prefill", "expected"),
    [
        (
            [{"type": "text", "text": "Sure:"}, {"type": "text", "text": "\r"}],
            [{"type": "text", "text": "Sure:"}],
        ),
        (
            [{"type": "text", "text": "Sure: "}, {"type": "text", "text": " \n"}],
            [{"type": "text", "text": "Sure:"}],
        ),
        ([{"type": "text", "text": " \r\n"}], None),
    ],
)
def test_a_prefill_left_empty_by_stripping_loses_its_empty_blocks(
    prefill: list[dict[str, Any]], expected: list[dict[str, Any]] | None
) -> None:
    """Stripping never leaves an empty text block (Anthropic refuses one), nor an empty prefill."""
    request = {
        "model": "m",
        "messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": prefill}],
    }
    translation = translate_request(request, source="openai-chat", target="anthropic")
    messages = translation.payload["messages"]
    if expected is None:
        assert [m["role"] for m in messages] == ["user"]
        assert any(n.path == "$.messages[1]" and n.kind == "dropped" for n in translation.notes)
    else:
        assert messages[-1] == {"role": "assistant", "content": expected}
    _valid(translation.payload, "anthropic")
