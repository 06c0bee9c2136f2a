"""Broken-payload corpus for Bedrock Converse (one broken rule each)."""

from __future__ import annotations

from typing import Any

from tests.validate._mutate import Case, append, drop, many, put

BASE: dict[str, Any] = {
    "system": [{"text": "Be brief."}, {"cachePoint": {"type": "default"}}],
    "messages": [
        {"role": "user", "content": [{"text": "Weather in Paris and Rome?"}]},
        {
            "role": "assistant",
            "content": [
                {"reasoningContent": {"reasoningText": {"text": "Two cities.", "signature": "c2ln"}}},
                {"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": {"city": "Paris"}}},
                {"toolUse": {"toolUseId": "tooluse_2", "name": "get_weather", "input": {"city": "Rome"}}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "tooluse_1", "content": [{"json": {"sky": "sunny"}}]}},
                {
                    "toolResult": {
                        "toolUseId": "tooluse_2",
                        "content": [{"text": "no data"}],
                        "status": "error",
                    }
                },
                {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}},
            ],
        },
    ],
    "inferenceConfig": {"maxTokens": 256, "temperature": 0.5, "topP": 0.9, "stopSequences": ["END"]},
    "toolConfig": {
        "tools": [
            {
                "toolSpec": {
                    "name": "get_weather",
                    "description": "Weather",
                    "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}}}},
                }
            },
            {"toolSpec": {"name": "get_time", "inputSchema": {"json": {"type": "object"}}}},
        ],
        "toolChoice": {"tool": {"name": "get_weather"}},
    },
    "additionalModelRequestFields": {"thinking": {"type": "enabled", "budget_tokens": 1024}},
}

RESPONSE: dict[str, Any] = {
    "output": {
        "message": {
            "role": "assistant",
            "content": [
                {"text": "Checking."},
                {"toolUse": {"toolUseId": "tooluse_3", "name": "get_time", "input": {}}},
            ],
        }
    },
    "stopReason": "tool_use",
    "usage": {"inputTokens": 5, "outputTokens": 2, "totalTokens": 7},
    "metrics": {"latencyMs": 120},
}

_M = "messages"
_TU = (_M, 1, "content", 1, "toolUse")
_TR = (_M, 2, "content", 0, "toolResult")
_SPEC = ("toolConfig", "tools", 0, "toolSpec")
_IMAGE = (_M, 2, "content", 2, "image")
CASES = [
    Case("messages empty", put((_M,), []), "empty_messages", "$.messages"),
    Case("messages string", put((_M,), "hi"), "invalid_type", "$.messages"),
    Case("unknown top-level", put(("contents",), []), "unknown_parameter", "$.contents"),
    Case("unknown message field", put((_M, 0, "name"), "x"), "unknown_parameter", "$.messages[0].name"),
    Case("system role", put((_M, 0, "role"), "system"), "invalid_value", "$.messages[0].role"),
    Case("role missing", drop((_M, 0, "role")), "missing_required_parameter", "$.messages[0].role"),
    Case("content missing", drop((_M, 0, "content")), "missing_required_parameter", "$.messages[0].content"),
    Case("content empty", put((_M, 0, "content"), []), "empty_content", "$.messages[0].content"),
    Case("content string", put((_M, 0, "content"), "hi"), "invalid_type", "$.messages[0].content"),
    Case("empty text", put((_M, 0, "content", 0, "text"), ""), "blank_text", "$.messages[0].content[0].text"),
    Case(
        "text not string",
        put((_M, 0, "content", 0, "text"), 5),
        "invalid_type",
        "$.messages[0].content[0].text",
    ),
    Case(
        "block with a type",
        put((_M, 0, "content", 0, "type"), "text"),
        "unknown_parameter",
        "$.messages[0].content[0].type",
    ),
    Case(
        "block two members",
        put((_M, 0, "content", 0, "image"), {"format": "png", "source": {"bytes": "AA"}}),
        "oneof_conflict",
        "$.messages[0].content[0]",
    ),
    Case("block no member", put((_M, 0, "content", 0), {}), "empty_part", "$.messages[0].content[0]"),
    Case("roles repeat", put((_M, 1, "role"), "user"), "roles_not_alternating", "$.messages[1].role"),
    Case(
        "two user turns",
        append((_M,), {"role": "user", "content": [{"text": "and?"}]}),
        "roles_not_alternating",
        "$.messages[3].role",
    ),
    Case(
        "toolUse id missing",
        drop((*_TU, "toolUseId")),
        "missing_required_parameter",
        "$.messages[1].content[1].toolUse.toolUseId",
    ),
    Case(
        "toolUse id bad",
        put((*_TU, "toolUseId"), "a b"),
        "pattern_mismatch",
        "$.messages[1].content[1].toolUse.toolUseId",
    ),
    Case(
        "toolUse id long",
        put((*_TU, "toolUseId"), "a" * 65),
        "string_above_max_length",
        "$.messages[1].content[1].toolUse.toolUseId",
    ),
    Case(
        "toolUse name bad",
        put((*_TU, "name"), "get.weather"),
        "pattern_mismatch",
        "$.messages[1].content[1].toolUse.name",
    ),
    Case(
        "toolUse input missing",
        drop((*_TU, "input")),
        "missing_required_parameter",
        "$.messages[1].content[1].toolUse.input",
    ),
    Case(
        "toolUse in user turn",
        append((_M, 0, "content"), {"toolUse": {"toolUseId": "t9", "name": "get_time", "input": {}}}),
        "call_not_assistant",
        "$.messages[0].content[1]",
    ),
    Case(
        "toolResult in assistant turn",
        append((_M, 1, "content"), {"toolResult": {"toolUseId": "tooluse_1", "content": []}}),
        "result_not_user",
        "$.messages[1].content[3]",
    ),
    Case(
        "call unanswered", drop((_M, 2, "content", 1)), "orphan_tool_call", "$.messages[1].content[2].toolUse"
    ),
    Case(
        "result answers nothing",
        put((*_TR, "toolUseId"), "tooluse_9"),
        "orphan_tool_result",
        "$.messages[2].content[0].toolResult.toolUseId",
    ),
    Case(
        "duplicate call id",
        put((_M, 1, "content", 2, "toolUse", "toolUseId"), "tooluse_1"),
        "duplicate_call_id",
        "$.messages[1].content[2].toolUse.toolUseId",
    ),
    Case(
        "result content missing",
        drop((*_TR, "content")),
        "missing_required_parameter",
        "$.messages[2].content[0].toolResult.content",
    ),
    Case(
        "result status bad",
        put((*_TR, "status"), "failed"),
        "invalid_value",
        "$.messages[2].content[0].toolResult.status",
    ),
    Case(
        "result item two members",
        put((*_TR, "content", 0, "text"), "x"),
        "oneof_conflict",
        "$.messages[2].content[0].toolResult.content[0]",
    ),
    Case(
        "result item unknown",
        put((*_TR, "content", 0), {"html": "<p>"}),
        "unknown_parameter",
        "$.messages[2].content[0].toolResult.content[0].html",
    ),
    Case(
        "image format bad",
        put((*_IMAGE, "format"), "bmp"),
        "invalid_value",
        "$.messages[2].content[2].image.format",
    ),
    Case(
        "image source missing",
        drop((*_IMAGE, "source")),
        "missing_required_parameter",
        "$.messages[2].content[2].image.source",
    ),
    Case(
        "image source two",
        put((*_IMAGE, "source", "s3Location"), {"uri": "s3://b/k"}),
        "oneof_conflict",
        "$.messages[2].content[2].image.source",
    ),
    Case(
        "document without name",
        put((_M, 2, "content", 2), {"document": {"format": "pdf", "source": {"bytes": "JVBER"}}}),
        "missing_required_parameter",
        "$.messages[2].content[2].document.name",
    ),
    Case(
        "reasoning two members",
        put((_M, 1, "content", 0, "reasoningContent", "redactedContent"), "AA"),
        "oneof_conflict",
        "$.messages[1].content[0].reasoningContent",
    ),
    Case(
        "reasoning text missing",
        drop((_M, 1, "content", 0, "reasoningContent", "reasoningText", "text")),
        "missing_required_parameter",
        "$.messages[1].content[0].reasoningContent.reasoningText.text",
    ),
    Case("system string", put(("system",), "Be brief."), "invalid_type", "$.system"),
    Case("system empty text", put(("system", 0, "text"), ""), "empty_string", "$.system[0].text"),
    Case("system block two", put(("system", 1, "text"), "x"), "oneof_conflict", "$.system[1]"),
    Case(
        "cache point type",
        put(("system", 1, "cachePoint", "type"), "ephemeral"),
        "invalid_value",
        "$.system[1].cachePoint.type",
    ),
    Case(
        "temperature high",
        put(("inferenceConfig", "temperature"), 1.5),
        "decimal_above_max_value",
        "$.inferenceConfig.temperature",
    ),
    Case(
        "max tokens zero",
        put(("inferenceConfig", "maxTokens"), 0),
        "integer_below_min_value",
        "$.inferenceConfig.maxTokens",
    ),
    Case(
        "inference unknown",
        put(("inferenceConfig", "topK"), 5),
        "unknown_parameter",
        "$.inferenceConfig.topK",
    ),
    Case("tools empty", put(("toolConfig", "tools"), []), "empty_array", "$.toolConfig.tools"),
    Case("tools missing", drop(("toolConfig", "tools")), "missing_required_parameter", "$.toolConfig.tools"),
    Case("tool config missing", drop(("toolConfig",)), "tool_config_missing", "$.toolConfig"),
    Case(
        "tool name bad",
        put((*_SPEC, "name"), "get weather"),
        "pattern_mismatch",
        "$.toolConfig.tools[0].toolSpec.name",
    ),
    Case(
        "tool name long",
        put((*_SPEC, "name"), "n" * 65),
        "string_above_max_length",
        "$.toolConfig.tools[0].toolSpec.name",
    ),
    Case(
        "tool schema missing",
        drop((*_SPEC, "inputSchema")),
        "missing_required_parameter",
        "$.toolConfig.tools[0].toolSpec.inputSchema",
    ),
    Case(
        "tool description empty",
        put((*_SPEC, "description"), ""),
        "empty_string",
        "$.toolConfig.tools[0].toolSpec.description",
    ),
    Case(
        "tool OpenAI shape",
        put(("toolConfig", "tools", 1), {"type": "function", "function": {"name": "f"}}),
        "unknown_parameter",
        "$.toolConfig.tools[1].type",
    ),
    Case(
        "tool two members",
        put(("toolConfig", "tools", 1, "cachePoint"), {"type": "default"}),
        "oneof_conflict",
        "$.toolConfig.tools[1]",
    ),
    Case(
        "duplicate tool name",
        put(("toolConfig", "tools", 1, "toolSpec", "name"), "get_weather"),
        "duplicate_tool_name",
        "$.toolConfig.tools[1].toolSpec.name",
    ),
    Case(
        "choice unknown tool",
        put(("toolConfig", "toolChoice", "tool", "name"), "nope"),
        "tool_choice_unknown_tool",
        "$.toolConfig.toolChoice.tool.name",
    ),
    Case(
        "choice two members",
        put(("toolConfig", "toolChoice", "auto"), {}),
        "oneof_conflict",
        "$.toolConfig.toolChoice",
    ),
    Case(
        "choice none",
        put(("toolConfig", "toolChoice"), {"none": {}}),
        "unknown_parameter",
        "$.toolConfig.toolChoice.none",
    ),
    Case("metadata not strings", put(("requestMetadata",), {"k": 1}), "invalid_type", "$.requestMetadata.k"),
    Case(
        "turn with only a bad result",
        many(put((_M, 2, "content"), [{"toolResult": {"toolUseId": "zzz", "content": []}}])),
        "orphan_tool_result",
        "$.messages[2].content[0].toolResult.toolUseId",
    ),
    Case("response no output", drop(("output",)), "missing_required_parameter", "$.output", kind="response"),
    Case(
        "response stop reason bad",
        put(("stopReason",), "stop"),
        "invalid_value",
        "$.stopReason",
        kind="response",
    ),
    Case("response no usage", drop(("usage",)), "missing_required_parameter", "$.usage", kind="response"),
    Case(
        "response usage count missing",
        drop(("usage", "totalTokens")),
        "missing_required_parameter",
        "$.usage.totalTokens",
        kind="response",
    ),
    Case(
        "response no metrics", drop(("metrics",)), "missing_required_parameter", "$.metrics", kind="response"
    ),
    Case(
        "response block two",
        put(("output", "message", "content", 0, "toolUse"), {"toolUseId": "t", "name": "n", "input": {}}),
        "oneof_conflict",
        "$.output.message.content[0]",
        kind="response",
    ),
    Case(
        "response role bad",
        put(("output", "message", "role"), "model"),
        "invalid_value",
        "$.output.message.role",
        kind="response",
    ),
]
