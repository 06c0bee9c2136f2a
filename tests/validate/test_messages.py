"""Provider wording and locations of the problems users meet most, and the validator's speed."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.validate import cases_anthropic, cases_gemini, cases_openai
from toolwire.validate import Problem, validate


def _first(payload: dict[str, Any], fmt: str, code: str) -> Problem:
    problems = [p for p in validate(payload, format=fmt) if p.code == code]
    assert problems, validate(payload, format=fmt)
    return problems[0]


def _base(base: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(base)


def test_responses_chat_style_tool() -> None:
    payload = _base(cases_openai.RESPONSES_BASE)
    payload["tools"] = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
    payload.pop("tool_choice")
    problem = _first(payload, "openai-responses", "missing_required_parameter")
    assert (problem.path, problem.param) == ("$.tools[0].name", "tools[0].name")
    assert problem.message == "Missing required parameter: 'tools[0].name'."


def test_responses_item_without_content() -> None:
    payload = _base(cases_openai.RESPONSES_BASE)
    payload["input"].insert(2, {"role": "assistant"})
    problem = _first(payload, "openai-responses", "missing_required_parameter")
    assert problem.message == "Missing required parameter: 'input[2].content'."


def test_chat_wrong_content_type_and_role() -> None:
    payload = _base(cases_openai.CHAT_BASE)
    payload["messages"][1]["content"] = 5
    assert _first(payload, "openai-chat", "invalid_type").message == (
        "Invalid type for 'messages[1].content': expected one of a string or array of objects, "
        "but got an integer instead."
    )
    payload = _base(cases_openai.CHAT_BASE)
    payload["messages"][0]["role"] = "bot"
    assert _first(payload, "openai-chat", "invalid_value").message == (
        "Invalid value: 'bot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', "
        "and 'developer'."
    )


def test_chat_unanswered_tool_calls() -> None:
    payload = _base(cases_openai.CHAT_BASE)
    del payload["messages"][4]
    problem = _first(payload, "openai-chat", "orphan_tool_call")
    assert problem.param == "messages.[4].role"
    assert problem.message.endswith("The following tool_call_ids did not have response messages: call_2")


def test_strict_schema_wording() -> None:
    payload = _base(cases_openai.RESPONSES_BASE)
    payload["tools"][0]["parameters"]["properties"]["when"] = {
        "type": "object",
        "properties": {"day": {"type": "string"}},
        "required": ["day"],
    }
    payload["tools"][0]["parameters"]["required"].append("when")
    problem = _first(payload, "openai-responses", "invalid_function_parameters")
    assert (problem.path, problem.param) == ("$.tools[0].parameters", "tools[0].parameters")
    assert problem.message == (
        "Invalid schema for function 'get_weather': In context=('properties', 'when'), "
        "'additionalProperties' is required to be supplied and to be false."
    )


def test_chat_unknown_top_level_argument() -> None:
    payload = {**cases_openai.CHAT_BASE, "foo": 1}
    assert (
        _first(payload, "openai-chat", "unknown_parameter").message
        == "Unrecognized request argument supplied: foo"
    )


def test_anthropic_wording() -> None:
    payload = _base(cases_anthropic.BASE)
    del payload["max_tokens"]
    problem = _first(payload, "anthropic", "missing_required_parameter")
    assert (problem.message, problem.param) == ("max_tokens: Field required", "max_tokens")

    payload = _base(cases_anthropic.BASE)
    del payload["messages"][2]["content"][1]
    problem = _first(payload, "anthropic", "orphan_tool_call")
    assert problem.param == "messages.1"
    assert problem.message == (
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_2. "
        "Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    )

    payload = _base(cases_anthropic.BASE)
    payload["tools"][0]["name"] = "caldav-mcp.create-event"
    assert _first(payload, "anthropic", "pattern_mismatch").message == (
        "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"
    )
    payload["tools"][0]["name"] = "get_time"
    assert _first(payload, "anthropic", "duplicate_tool_name").message == "tools: Tool names must be unique."


def test_anthropic_merges_consecutive_turns() -> None:
    """Consecutive same-role messages are one turn: a second user message is not an error."""
    payload = _base(cases_anthropic.BASE)
    payload["messages"][2:2] = [{"role": "user", "content": "also"}]
    problems = validate(payload, format="anthropic")
    assert [p.code for p in problems] == ["orphan_tool_call"]  # the results no longer come first


def test_gemini_wording() -> None:
    payload = _base(cases_gemini.BASE)
    payload["contents"][2]["parts"][0]["functionResponse"]["response"] = "sunny"
    assert _first(payload, "gemini", "invalid_type").message == (
        "Invalid value at 'contents[2].parts[0].function_response.response' "
        '(type.googleapis.com/google.protobuf.Struct), "sunny"'
    )
    payload = _base(cases_gemini.BASE)
    payload["tools"][0]["functionDeclarations"][1]["name"] = "9lives"
    assert _first(payload, "gemini", "pattern_mismatch").message.startswith(
        "* GenerateContentRequest.tools[0].function_declarations[1].name: Invalid function name. "
        "Must start with a letter or an underscore."
    )
    payload = _base(cases_gemini.BASE)
    del payload["contents"][2]["parts"][1]
    assert _first(payload, "gemini", "orphan_tool_call").message == (
        "Please ensure that the number of function response parts is equal to the number of function call "
        "parts of the function call turn."
    )
    payload = _base(cases_gemini.BASE)
    payload["tools"][0]["functionDeclarations"][0]["parameters"]["additionalProperties"] = False
    assert _first(payload, "gemini", "unknown_parameter").message == (
        'Invalid JSON payload received. Unknown name "additionalProperties" at '
        "'tools[0].function_declarations[0].parameters': Cannot find field."
    )
    assert _first({}, "gemini", "missing_required_parameter").message == (
        "* GenerateContentRequest.contents: contents is not specified"
    )


def test_gemini_snake_case_and_lone_repeated_values() -> None:
    payload = {
        "contents": {"role": "user", "parts": {"text": "hi"}},
        "tools": {
            "function_declarations": [{"name": "f", "parameters": {"type": "object", "properties": {}}}]
        },
        "generation_config": {"max_output_tokens": 5, "thinking_config": {"include_thoughts": True}},
    }
    assert validate(payload, format="gemini") == []


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        validate({}, format="mistral")
    with pytest.raises(ValueError):
        validate({}, format="gemini", kind="stream")  # type: ignore[arg-type]
    problems = validate([1], format="anthropic")
    assert [p.code for p in problems] == ["invalid_type"]


def test_bedrock_wording() -> None:
    """AWS validation wording: wire names, list members 1-based as ``<n>.member``; the turn and
    tool rules in the API's sentences."""
    from tests.validate import cases_bedrock

    payload = _base(cases_bedrock.BASE)
    payload["messages"][0]["role"] = "system"
    assert _first(payload, "bedrock-converse", "invalid_value").message == (
        "1 validation error detected: Value 'system' at 'messages.1.member.role' failed to satisfy "
        "constraint: Member must satisfy enum value set: [user, assistant]"
    )
    payload = _base(cases_bedrock.BASE)
    del payload["messages"][2]["content"][1]
    assert _first(payload, "bedrock-converse", "orphan_tool_call").message == (
        "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_2"
    )
    payload = _base(cases_bedrock.BASE)
    payload["messages"][1]["role"] = "user"
    problem = _first(payload, "bedrock-converse", "roles_not_alternating")
    assert problem.message.startswith("A conversation must alternate between user and assistant roles.")
    assert problem.param == "messages.2.member.role"
