"""Broken-payload corpora for OpenAI Chat Completions and Responses (one broken rule each)."""

from __future__ import annotations

from typing import Any

from tests.validate._mutate import Case, append, drop, many, put

_PARAMS = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
_STRICT = {**_PARAMS, "additionalProperties": False}

CHAT_BASE: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "Weather in Paris and Rome?"}]},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": '{"city":"Rome"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        {"role": "tool", "tool_call_id": "call_2", "content": "rainy"},
        {"role": "user", "content": "Thanks"},
    ],
    "tools": [
        {
            "type": "function",
            "function": {"name": "get_weather", "description": "Weather", "parameters": _PARAMS},
        },
        {
            "type": "function",
            "function": {"name": "get_time", "parameters": {"type": "object", "properties": {}}},
        },
    ],
    "tool_choice": {"type": "function", "function": {"name": "get_weather"}},
    "parallel_tool_calls": True,
    "temperature": 0.5,
    "top_p": 1,
    "n": 1,
    "max_completion_tokens": 100,
    "stop": ["END"],
    "response_format": {"type": "text"},
    "stream": False,
    "reasoning_effort": "low",
}

CHAT_RESPONSE: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1700000000,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "message": {"role": "assistant", "content": "Hi", "refusal": None},
            "finish_reason": "stop",
            "logprobs": None,
        }
    ],
    "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6},
}

_M = "messages"
_T0 = ("tools", 0, "function")
_T1 = ("tools", 1, "function")
CHAT_CASES = [
    Case("no model", drop(("model",)), "missing_required_parameter", "$.model"),
    Case("no messages", drop((_M,)), "missing_required_parameter", "$.messages"),
    Case("messages empty", put((_M,), []), "empty_array", "$.messages"),
    Case("messages not array", put((_M,), "hi"), "invalid_type", "$.messages"),
    Case("content integer", put((_M, 1, "content"), 5), "invalid_type", "$.messages[1].content"),
    Case("content empty array", put((_M, 1, "content"), []), "empty_array", "$.messages[1].content"),
    Case("unknown role", put((_M, 0, "role"), "bot"), "invalid_value", "$.messages[0].role"),
    Case("no role", drop((_M, 0, "role")), "missing_required_parameter", "$.messages[0].role"),
    Case(
        "user part bad type",
        put((_M, 1, "content", 0, "type"), "txt"),
        "invalid_value",
        "$.messages[1].content[0].type",
    ),
    Case(
        "text part no text",
        drop((_M, 1, "content", 0, "text")),
        "missing_required_parameter",
        "$.messages[1].content[0].text",
    ),
    Case(
        "image detail",
        put((_M, 1, "content"), [{"type": "image_url", "image_url": {"url": "u", "detail": "max"}}]),
        "invalid_value",
        "$.messages[1].content[0].image_url.detail",
    ),
    Case(
        "tool call no id",
        drop((_M, 2, "tool_calls", 0, "id")),
        "missing_required_parameter",
        "$.messages[2].tool_calls[0].id",
    ),
    Case(
        "tool call args object",
        put((_M, 2, "tool_calls", 0, "function", "arguments"), {"city": "Paris"}),
        "invalid_type",
        "$.messages[2].tool_calls[0].function.arguments",
    ),
    Case(
        "tool call bad type",
        put((_M, 2, "tool_calls", 0, "type"), "fn"),
        "invalid_value",
        "$.messages[2].tool_calls[0].type",
    ),
    Case(
        "tool msg no call id",
        drop((_M, 3, "tool_call_id")),
        "missing_required_parameter",
        "$.messages[3].tool_call_id",
    ),
    Case(
        "tool msg no content", drop((_M, 4, "content")), "missing_required_parameter", "$.messages[4].content"
    ),
    Case("call unanswered", drop((_M, 4)), "orphan_tool_call", "$.messages[2].tool_calls"),
    Case(
        "result unknown id",
        put((_M, 4, "tool_call_id"), "call_9"),
        "orphan_tool_result",
        "$.messages[4].tool_call_id",
    ),
    Case(
        "tool msg without calls",
        put((_M, 2), {"role": "assistant", "content": "ok"}),
        "orphan_tool_result",
        "$.messages[3]",
    ),
    Case(
        "text between call and result",
        many(put((_M, 4), {"role": "user", "content": "wait"})),
        "orphan_tool_call",
        "$.messages[2].tool_calls",
    ),
    Case(
        "duplicate call id",
        put((_M, 2, "tool_calls", 1, "id"), "call_1"),
        "duplicate_call_id",
        "$.messages[2].tool_calls[1].id",
    ),
    Case(
        "assistant without content",
        put((_M, 5), {"role": "assistant"}),
        "missing_content",
        "$.messages[5].content",
    ),
    Case(
        "tool name pattern", put((*_T1, "name"), "get time"), "pattern_mismatch", "$.tools[1].function.name"
    ),
    Case(
        "tool name too long",
        put((*_T1, "name"), "x" * 65),
        "string_above_max_length",
        "$.tools[1].function.name",
    ),
    Case("tool no name", drop((*_T1, "name")), "missing_required_parameter", "$.tools[1].function.name"),
    Case(
        "tool no function",
        drop(("tools", 1, "function")),
        "missing_required_parameter",
        "$.tools[1].function",
    ),
    Case("tool bad type", put(("tools", 1, "type"), "fn"), "invalid_value", "$.tools[1].type"),
    Case(
        "tool unknown field",
        put((*_T0, "parametrs"), {}),
        "unknown_parameter",
        "$.tools[0].function.parametrs",
    ),
    Case(
        "parameters not object",
        put((*_T0, "parameters"), "object"),
        "invalid_type",
        "$.tools[0].function.parameters",
    ),
    Case(
        "too many tools",
        put(("tools",), [{"type": "function", "function": {"name": f"t{i}"}} for i in range(129)]),
        "array_above_max_length",
        "$.tools",
    ),
    Case(
        "duplicate tool names",
        put((*_T1, "name"), "get_weather"),
        "duplicate_tool_name",
        "$.tools[1].function.name",
    ),
    Case(
        "tool_choice missing tool",
        put(("tool_choice", "function", "name"), "nope"),
        "tool_choice_unknown_tool",
        "$.tool_choice.function.name",
    ),
    Case("tool_choice bad string", put(("tool_choice",), "always"), "invalid_value", "$.tool_choice"),
    Case("tool_choice without tools", drop(("tools",)), "tool_choice_without_tools", "$.tool_choice"),
    Case("temperature too high", put(("temperature",), 3), "decimal_above_max_value", "$.temperature"),
    Case("temperature negative", put(("temperature",), -1), "decimal_below_min_value", "$.temperature"),
    Case("top_p too high", put(("top_p",), 1.5), "decimal_above_max_value", "$.top_p"),
    Case("n zero", put(("n",), 0), "integer_below_min_value", "$.n"),
    Case(
        "max tokens string", put(("max_completion_tokens",), "100"), "invalid_type", "$.max_completion_tokens"
    ),
    Case("stop too many", put(("stop",), ["a", "b", "c", "d", "e"]), "array_above_max_length", "$.stop"),
    Case("unknown top-level", put(("temprature",), 1), "unknown_parameter", "$.temprature"),
    Case("reasoning effort", put(("reasoning_effort",), "huge"), "invalid_value", "$.reasoning_effort"),
    Case(
        "response_format type",
        put(("response_format", "type"), "yaml"),
        "invalid_value",
        "$.response_format.type",
    ),
    Case("stream not bool", put(("stream",), "yes"), "invalid_type", "$.stream"),
    Case(
        "parallel without tools",
        many(drop(("tools",)), drop(("tool_choice",))),
        "tool_choice_without_tools",
        "$.parallel_tool_calls",
    ),
    Case("response no choices", drop(("choices",)), "missing_required_parameter", "$.choices", "response"),
    Case("response bad object", put(("object",), "completion"), "invalid_value", "$.object", "response"),
    Case(
        "response finish reason",
        put(("choices", 0, "finish_reason"), "done"),
        "invalid_value",
        "$.choices[0].finish_reason",
        "response",
    ),
]

RESPONSES_BASE: dict[str, Any] = {
    "model": "gpt-5",
    "instructions": "Be brief.",
    "input": [
        {"role": "user", "content": "Weather in Paris?"},
        {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAA"},
        {
            "type": "function_call",
            "id": "fc_1",
            "call_id": "call_1",
            "name": "get_weather",
            "arguments": '{"city":"Paris"}',
        },
        {"type": "function_call_output", "call_id": "call_1", "output": "sunny"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Thanks"}]},
    ],
    "tools": [
        {
            "type": "function",
            "name": "get_weather",
            "description": "Weather",
            "parameters": _STRICT,
            "strict": True,
        },
        {
            "type": "function",
            "name": "get_time",
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        },
        {"type": "web_search"},
    ],
    "tool_choice": {"type": "function", "name": "get_weather"},
    "reasoning": {"effort": "low", "summary": "auto"},
    "include": ["reasoning.encrypted_content"],
    "temperature": 1,
    "max_output_tokens": 500,
    "store": False,
}

RESPONSES_RESPONSE: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1700000000,
    "status": "completed",
    "model": "gpt-5",
    "output": [
        {"type": "reasoning", "id": "rs_2", "summary": []},
        {
            "type": "function_call",
            "id": "fc_2",
            "call_id": "call_2",
            "name": "get_time",
            "arguments": "{}",
            "status": "completed",
        },
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "status": "completed",
            "content": [{"type": "output_text", "text": "Hi", "annotations": []}],
        },
    ],
    "usage": {"input_tokens": 5, "output_tokens": 1, "total_tokens": 6},
}

_I = "input"
RESPONSES_CASES = [
    Case("input integer", put((_I,), 5), "invalid_type", "$.input"),
    Case("message no content", drop((_I, 0, "content")), "missing_required_parameter", "$.input[0].content"),
    Case("message no role", drop((_I, 0, "role")), "missing_required_parameter", "$.input[0].role"),
    Case("message bad role", put((_I, 0, "role"), "tool"), "invalid_value", "$.input[0].role"),
    Case("message content integer", put((_I, 0, "content"), 1), "invalid_type", "$.input[0].content"),
    Case(
        "part bad type",
        put((_I, 4, "content", 0, "type"), "text"),
        "invalid_value",
        "$.input[4].content[0].type",
    ),
    Case(
        "part no text",
        drop((_I, 4, "content", 0, "text")),
        "missing_required_parameter",
        "$.input[4].content[0].text",
    ),
    Case("item bad type", put((_I, 3, "type"), "tool_result"), "invalid_value", "$.input[3].type"),
    Case("call no call_id", drop((_I, 2, "call_id")), "missing_required_parameter", "$.input[2].call_id"),
    Case("call no name", drop((_I, 2, "name")), "missing_required_parameter", "$.input[2].name"),
    Case(
        "call no arguments", drop((_I, 2, "arguments")), "missing_required_parameter", "$.input[2].arguments"
    ),
    Case("call arguments object", put((_I, 2, "arguments"), {}), "invalid_type", "$.input[2].arguments"),
    Case("call bad status", put((_I, 2, "status"), "done"), "invalid_value", "$.input[2].status"),
    Case("output no call_id", drop((_I, 3, "call_id")), "missing_required_parameter", "$.input[3].call_id"),
    Case("output no output", drop((_I, 3, "output")), "missing_required_parameter", "$.input[3].output"),
    Case("output integer", put((_I, 3, "output"), 42), "invalid_type", "$.input[3].output"),
    Case(
        "output call_id too long",
        put((_I, 3, "call_id"), "c" * 65),
        "string_above_max_length",
        "$.input[3].call_id",
    ),
    Case(
        "output for unknown call",
        put((_I, 3, "call_id"), "call_9"),
        "orphan_tool_result",
        "$.input[3].call_id",
    ),
    Case("call without output", drop((_I, 3)), "orphan_tool_call", "$.input[2]"),
    Case(
        "duplicate call_id",
        many(
            append(
                (_I,), {"type": "function_call", "call_id": "call_1", "name": "get_time", "arguments": "{}"}
            )
        ),
        "duplicate_call_id",
        "$.input[5].call_id",
    ),
    Case(
        "duplicate item id",
        append((_I,), {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "x"}),
        "duplicate_item_id",
        "$.input[5].id",
    ),
    Case(
        "reasoning last",
        append((_I,), {"type": "reasoning", "id": "rs_9", "summary": []}),
        "reasoning_without_follower",
        "$.input[5]",
    ),
    Case(
        "reasoning before user",
        put((_I, 2), {"role": "user", "content": "hi"}),
        "reasoning_without_follower",
        "$.input[1]",
    ),
    Case("reasoning id not a string", put((_I, 1, "id"), 7), "invalid_type", "$.input[1].id"),
    Case(
        "reasoning no summary", drop((_I, 1, "summary")), "missing_required_parameter", "$.input[1].summary"
    ),
    Case(
        "summary bad type",
        put((_I, 1, "summary"), [{"type": "text", "text": "x"}]),
        "invalid_value",
        "$.input[1].summary[0].type",
    ),
    Case("tool no name", drop(("tools", 1, "name")), "missing_required_parameter", "$.tools[1].name"),
    Case("tool name pattern", put(("tools", 1, "name"), "get.time"), "pattern_mismatch", "$.tools[1].name"),
    Case(
        "tool name too long",
        put(("tools", 1, "name"), "y" * 65),
        "string_above_max_length",
        "$.tools[1].name",
    ),
    Case(
        "tool chat-style",
        put(("tools", 1), {"type": "function", "name": "get_time", "function": {"name": "get_time"}}),
        "unknown_parameter",
        "$.tools[1].function",
    ),
    Case("tool unknown type", put(("tools", 2, "type"), "browser"), "invalid_value", "$.tools[2].type"),
    Case("tool strict string", put(("tools", 0, "strict"), "yes"), "invalid_type", "$.tools[0].strict"),
    Case(
        "too many tools",
        put(("tools",), [{"type": "function", "name": f"t{i}"} for i in range(129)]),
        "array_above_max_length",
        "$.tools",
    ),
    Case(
        "duplicate tool names",
        put(("tools", 1, "name"), "get_weather"),
        "duplicate_tool_name",
        "$.tools[1].name",
    ),
    Case(
        "tool_choice missing tool",
        put(("tool_choice", "name"), "nope"),
        "tool_choice_unknown_tool",
        "$.tool_choice.name",
    ),
    Case("tool_choice bad string", put(("tool_choice",), "any"), "invalid_value", "$.tool_choice"),
    Case("reasoning effort", put(("reasoning", "effort"), "extreme"), "invalid_value", "$.reasoning.effort"),
    Case("include value", put(("include",), ["reasoning.content"]), "invalid_value", "$.include[0]"),
    Case("temperature", put(("temperature",), 2.5), "decimal_above_max_value", "$.temperature"),
    Case(
        "max_output_tokens", put(("max_output_tokens",), 4), "integer_below_min_value", "$.max_output_tokens"
    ),
    Case("unknown top-level", put(("messages",), []), "unknown_parameter", "$.messages"),
    Case("store string", put(("store",), "no"), "invalid_type", "$.store"),
    Case("response no output", drop(("output",)), "missing_required_parameter", "$.output", "response"),
    Case("response status", put(("status",), "done"), "invalid_value", "$.status", "response"),
    Case(
        "response message no id",
        drop(("output", 2, "id")),
        "missing_required_parameter",
        "$.output[2].id",
        "response",
    ),
]
