"""Broken-payload corpus for Anthropic Messages (one broken rule each)."""

from __future__ import annotations

from typing import Any

from tests.validate._mutate import Case, append, drop, many, put

_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
_SIG = "EqQBCkYIARgCKkB"

BASE: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 4096,
    "system": [{"type": "text", "text": "Be brief."}],
    "thinking": {"type": "enabled", "budget_tokens": 2048},
    "messages": [
        {"role": "user", "content": "Weather in Paris and Rome?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Two calls.", "signature": _SIG},
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}},
                {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {"city": "Rome"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_2",
                    "content": [{"type": "text", "text": "rainy"}],
                },
            ],
        },
    ],
    "tools": [
        {"name": "get_weather", "description": "Weather", "input_schema": _SCHEMA},
        {"type": "custom", "name": "get_time", "input_schema": {"type": "object"}},
        {"type": "web_search_20250305", "name": "web_search"},
    ],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": False},
    "temperature": 1,
    "stop_sequences": ["END"],
    "metadata": {"user_id": "u1"},
}

RESPONSE: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [
        {"type": "thinking", "thinking": "ok", "signature": _SIG},
        {"type": "text", "text": "Paris is sunny."},
        {"type": "tool_use", "id": "toolu_3", "name": "get_time", "input": {}},
    ],
    "stop_reason": "tool_use",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 5},
}

_M = "messages"
_A = (_M, 1, "content")
_U = (_M, 2, "content")
CASES = [
    Case("no max_tokens", drop(("max_tokens",)), "missing_required_parameter", "$.max_tokens"),
    Case("no model", drop(("model",)), "missing_required_parameter", "$.model"),
    Case("no messages", drop((_M,)), "missing_required_parameter", "$.messages"),
    Case("max_tokens string", put(("max_tokens",), "4096"), "invalid_type", "$.max_tokens"),
    Case("max_tokens negative", put(("max_tokens",), -1), "integer_below_min_value", "$.max_tokens"),
    Case("temperature above 1", put(("temperature",), 1.5), "decimal_above_max_value", "$.temperature"),
    Case("top_p negative", put(("top_p",), -0.1), "decimal_below_min_value", "$.top_p"),
    Case(
        "unknown top-level", put(("max_tokens_to_sample",), 5), "unknown_parameter", "$.max_tokens_to_sample"
    ),
    Case("system role message", put((_M, 0, "role"), "system"), "invalid_role", "$.messages[0].role"),
    Case("bad role", put((_M, 0, "role"), "human"), "invalid_value", "$.messages[0].role"),
    Case(
        "message no content", drop((_M, 0, "content")), "missing_required_parameter", "$.messages[0].content"
    ),
    Case("message extra field", put((_M, 0, "name"), "bob"), "unknown_parameter", "$.messages[0].name"),
    Case("content integer", put((_M, 0, "content"), 7), "invalid_type", "$.messages[0].content"),
    Case("empty content", put((_M, 0, "content"), ""), "empty_content", "$.messages[0].content"),
    Case(
        "block bad type",
        put((*_U, 0, "type"), "function_result"),
        "invalid_value",
        "$.messages[2].content[0].type",
    ),
    Case(
        "text block empty",
        put((_M, 0, "content"), [{"type": "text", "text": ""}]),
        "empty_string",
        "$.messages[0].content[0].text",
    ),
    Case(
        "text block no text",
        put((_M, 0, "content"), [{"type": "text"}]),
        "missing_required_parameter",
        "$.messages[0].content[0].text",
    ),
    Case(
        "image media type",
        put(
            (_M, 0, "content"),
            [{"type": "image", "source": {"type": "base64", "media_type": "image/bmp", "data": "AA"}}],
        ),
        "invalid_value",
        "$.messages[0].content[0].source.media_type",
    ),
    Case("tool_use no id", drop((*_A, 1, "id")), "missing_required_parameter", "$.messages[1].content[1].id"),
    Case(
        "tool_use id pattern",
        put((*_A, 1, "id"), "toolu 1"),
        "pattern_mismatch",
        "$.messages[1].content[1].id",
    ),
    Case(
        "tool_use input string",
        put((*_A, 1, "input"), '{"city":"Paris"}'),
        "invalid_type",
        "$.messages[1].content[1].input",
    ),
    Case(
        "tool_use no name",
        drop((*_A, 1, "name")),
        "missing_required_parameter",
        "$.messages[1].content[1].name",
    ),
    Case(
        "tool_result no id",
        drop((*_U, 0, "tool_use_id")),
        "missing_required_parameter",
        "$.messages[2].content[0].tool_use_id",
    ),
    Case(
        "tool_result is_error string",
        put((*_U, 0, "is_error"), "no"),
        "invalid_type",
        "$.messages[2].content[0].is_error",
    ),
    Case(
        "tool_result content int",
        put((*_U, 0, "content"), 3),
        "invalid_type",
        "$.messages[2].content[0].content",
    ),
    Case("tool_use unanswered", drop((*_U, 1)), "orphan_tool_call", "$.messages[1].content[2]"),
    Case(
        "no results at all",
        put((_M, 2), {"role": "user", "content": "go on"}),
        "orphan_tool_call",
        "$.messages[1].content[1]",
    ),
    Case(
        "result after text",
        put(
            _U,
            [
                {"type": "text", "text": "here"},
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "sunny"},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "rainy"},
            ],
        ),
        "orphan_tool_call",
        "$.messages[1].content[1]",
    ),
    Case(
        "result unknown id",
        put((*_U, 1, "tool_use_id"), "toolu_9"),
        "orphan_tool_result",
        "$.messages[2].content[1]",
    ),
    Case(
        "result without call",
        put((_M, 0, "content"), [{"type": "tool_result", "tool_use_id": "toolu_0", "content": "x"}]),
        "orphan_tool_result",
        "$.messages[0].content[0]",
    ),
    Case(
        "duplicate result",
        append(_U, {"type": "tool_result", "tool_use_id": "toolu_1", "content": "again"}),
        "duplicate_result",
        "$.messages[2].content[2]",
    ),
    Case(
        "duplicate tool_use id",
        put((*_A, 2, "id"), "toolu_1"),
        "duplicate_call_id",
        "$.messages[1].content[2]",
    ),
    Case(
        "tool_use in user turn",
        put((_M, 0, "content"), [{"type": "tool_use", "id": "toolu_0", "name": "get_time", "input": {}}]),
        "call_not_assistant",
        "$.messages[0].content[0]",
    ),
    Case(
        "thinking not first",
        put(
            _A,
            [
                {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}},
                {"type": "tool_use", "id": "toolu_2", "name": "get_weather", "input": {}},
            ],
        ),
        "thinking_placement",
        "$.messages[1].content[0].type",
    ),
    Case(
        "final thinking block",
        many(
            drop((_M, 2)),
            put(
                _A, [{"type": "text", "text": "x"}, {"type": "thinking", "thinking": "t", "signature": _SIG}]
            ),
        ),
        "thinking_placement",
        "$.messages[1].content[1]",
    ),
    Case(
        "thinking when disabled",
        many(
            drop(("thinking",)),
            drop((_M, 2)),
            put(
                _A, [{"type": "thinking", "thinking": "t", "signature": _SIG}, {"type": "text", "text": "x"}]
            ),
        ),
        "thinking_placement",
        "$.messages[1].content[0]",
    ),
    Case(
        "thinking no signature",
        drop((*_A, 0, "signature")),
        "missing_required_parameter",
        "$.messages[1].content[0].signature",
    ),
    Case(
        "budget below 1024",
        put(("thinking", "budget_tokens"), 512),
        "integer_below_min_value",
        "$.thinking.budget_tokens",
    ),
    Case(
        "budget >= max_tokens",
        put(("max_tokens",), 2048),
        "budget_exceeds_max_tokens",
        "$.thinking.budget_tokens",
    ),
    Case("thinking bad type", put(("thinking", "type"), "on"), "invalid_value", "$.thinking.type"),
    Case(
        "tool name pattern", put(("tools", 0, "name"), "get.weather"), "pattern_mismatch", "$.tools[0].name"
    ),
    Case(
        "tool name too long",
        put(("tools", 0, "name"), "z" * 129),
        "string_above_max_length",
        "$.tools[0].name",
    ),
    Case(
        "tool no input_schema",
        drop(("tools", 0, "input_schema")),
        "missing_required_parameter",
        "$.tools[0].input_schema",
    ),
    Case(
        "input_schema not object type",
        put(("tools", 0, "input_schema", "type"), "array"),
        "invalid_value",
        "$.tools[0].input_schema.type",
    ),
    Case(
        "openai-style tool",
        put(("tools", 1), {"type": "function", "function": {"name": "get_time"}}),
        "invalid_value",
        "$.tools[1].type",
    ),
    Case(
        "tool extra field", put(("tools", 0, "parameters"), {}), "unknown_parameter", "$.tools[0].parameters"
    ),
    Case(
        "duplicate tool names",
        put(("tools", 1, "name"), "get_weather"),
        "duplicate_tool_name",
        "$.tools[1].name",
    ),
    Case(
        "tool_choice missing tool",
        put(("tool_choice",), {"type": "tool", "name": "nope"}),
        "tool_choice_unknown_tool",
        "$.tool_choice.name",
    ),
    Case(
        "tool_choice bad type",
        put(("tool_choice",), {"type": "required"}),
        "invalid_value",
        "$.tool_choice.type",
    ),
    Case("tool_choice string", put(("tool_choice",), "auto"), "invalid_type", "$.tool_choice"),
    Case(
        "tool_choice without tools",
        many(drop(("tools",)), put(("tool_choice",), {"type": "any"})),
        "tool_choice_without_tools",
        "$.tool_choice",
    ),
    Case("system as object", put(("system",), {"text": "x"}), "invalid_type", "$.system"),
    Case("service tier", put(("service_tier",), "premium"), "invalid_value", "$.service_tier"),
    Case("response no usage", drop(("usage",)), "missing_required_parameter", "$.usage", "response"),
    Case("response stop reason", put(("stop_reason",), "done"), "invalid_value", "$.stop_reason", "response"),
    Case(
        "response tool_use input",
        put(("content", 2, "input"), "{}"),
        "invalid_type",
        "$.content[2].input",
        "response",
    ),
]
