"""Broken-payload corpus for Gemini generateContent (one broken rule each)."""

from __future__ import annotations

from typing import Any

from tests.validate._mutate import Case, append, drop, many, put

BASE: dict[str, Any] = {
    "systemInstruction": {"parts": [{"text": "Be brief."}]},
    "contents": [
        {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]},
        {
            "role": "model",
            "parts": [
                {
                    "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                    "thoughtSignature": "c2ln",
                },
                {"functionCall": {"name": "get_weather", "args": {"city": "Rome"}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {"functionResponse": {"name": "get_weather", "response": {"result": "sunny"}}},
                {"functionResponse": {"name": "get_weather", "response": {"result": "rainy"}}},
            ],
        },
    ],
    "tools": [
        {
            "functionDeclarations": [
                {
                    "name": "get_weather",
                    "description": "Weather",
                    "parameters": {
                        "type": "OBJECT",
                        "properties": {"city": {"type": "STRING"}},
                        "required": ["city"],
                    },
                },
                {
                    "name": "get_time",
                    "parametersJsonSchema": {"type": "object", "additionalProperties": False},
                },
            ]
        },
        {"googleSearch": {}},
    ],
    "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["get_weather"]}},
    "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}],
    "generationConfig": {
        "temperature": 0.5,
        "topP": 0.9,
        "maxOutputTokens": 256,
        "stopSequences": ["END"],
        "thinkingConfig": {"includeThoughts": True},
    },
}

RESPONSE: dict[str, Any] = {
    "candidates": [
        {
            "content": {
                "role": "model",
                "parts": [{"text": "Sunny."}, {"functionCall": {"name": "get_time", "args": {}}}],
            },
            "finishReason": "STOP",
            "index": 0,
        }
    ],
    "usageMetadata": {"promptTokenCount": 5, "candidatesTokenCount": 2, "totalTokenCount": 7},
    "modelVersion": "gemini-2.5-flash",
}

_C = "contents"
_FD = ("tools", 0, "functionDeclarations")
_P = ("tools", 0, "functionDeclarations", 0, "parameters")
CASES = [
    Case("no contents", drop((_C,)), "missing_required_parameter", "$.contents"),
    Case("contents string", put((_C,), "hi"), "invalid_type", "$.contents"),
    Case("unknown top-level", put(("messages",), []), "unknown_parameter", "$.messages"),
    Case("unknown content field", put((_C, 0, "text"), "hi"), "unknown_parameter", "$.contents[0].text"),
    Case("bad role", put((_C, 1, "role"), "assistant"), "invalid_role", "$.contents[1].role"),
    Case("role integer", put((_C, 0, "role"), 1), "invalid_type", "$.contents[0].role"),
    Case("parts empty", put((_C, 0, "parts"), []), "empty_content", "$.contents[0].parts"),
    Case("parts missing", drop((_C, 0, "parts")), "empty_content", "$.contents[0].parts"),
    Case(
        "part without data",
        put((_C, 0, "parts", 0), {"thought": True}),
        "empty_part",
        "$.contents[0].parts[0]",
    ),
    Case(
        "part two data fields",
        put((_C, 0, "parts", 0, "inlineData"), {"mimeType": "image/png", "data": "AA"}),
        "oneof_conflict",
        "$.contents[0].parts[0].inlineData",
    ),
    Case(
        "unknown part field",
        put((_C, 0, "parts", 0, "image"), "x"),
        "unknown_parameter",
        "$.contents[0].parts[0].image",
    ),
    Case(
        "text not string", put((_C, 0, "parts", 0, "text"), 5), "invalid_type", "$.contents[0].parts[0].text"
    ),
    Case(
        "inlineData no mime",
        put((_C, 0, "parts", 0), {"inlineData": {"data": "AA"}}),
        "missing_required_parameter",
        "$.contents[0].parts[0].inlineData.mimeType",
    ),
    Case(
        "call no name",
        drop((_C, 1, "parts", 0, "functionCall", "name")),
        "missing_required_parameter",
        "$.contents[1].parts[0].functionCall.name",
    ),
    Case(
        "call args string",
        put((_C, 1, "parts", 0, "functionCall", "args"), '{"city":"Paris"}'),
        "invalid_type",
        "$.contents[1].parts[0].functionCall.args",
    ),
    Case(
        "call arguments key",
        put((_C, 1, "parts", 0, "functionCall", "arguments"), {}),
        "unknown_parameter",
        "$.contents[1].parts[0].functionCall.arguments",
    ),
    Case(
        "response not object",
        put((_C, 2, "parts", 0, "functionResponse", "response"), "sunny"),
        "invalid_type",
        "$.contents[2].parts[0].functionResponse.response",
    ),
    Case(
        "response list",
        put((_C, 2, "parts", 0, "functionResponse", "response"), ["sunny"]),
        "invalid_type",
        "$.contents[2].parts[0].functionResponse.response",
    ),
    Case(
        "response missing",
        drop((_C, 2, "parts", 0, "functionResponse", "response")),
        "missing_required_parameter",
        "$.contents[2].parts[0].functionResponse.response",
    ),
    Case(
        "response no name",
        drop((_C, 2, "parts", 0, "functionResponse", "name")),
        "missing_required_parameter",
        "$.contents[2].parts[0].functionResponse.name",
    ),
    Case("fewer responses", drop((_C, 2, "parts", 1)), "orphan_tool_call", "$.contents[2]"),
    Case(
        "more responses",
        append((_C, 2, "parts"), {"functionResponse": {"name": "get_time", "response": {}}}),
        "orphan_tool_call",
        "$.contents[2]",
    ),
    Case(
        "response without call",
        put((_C, 1, "parts"), [{"text": "ok"}]),
        "orphan_tool_result",
        "$.contents[2]",
    ),
    Case(
        "response in first turn",
        put((_C, 0, "parts"), [{"functionResponse": {"name": "x", "response": {}}}]),
        "orphan_tool_result",
        "$.contents[0]",
    ),
    Case(
        "call after model turn", many(put((_C, 0, "role"), "model")), "call_not_after_user", "$.contents[1]"
    ),
    Case(
        "thoughtSignature not string",
        put((_C, 1, "parts", 0, "thoughtSignature"), 1),
        "invalid_type",
        "$.contents[1].parts[0].thoughtSignature",
    ),
    Case(
        "tools not array of tools",
        put(("tools", 1), {"search": {}}),
        "unknown_parameter",
        "$.tools[1].search",
    ),
    Case(
        "declaration no name",
        drop((*_FD, 1, "name")),
        "missing_required_parameter",
        "$.tools[0].functionDeclarations[1].name",
    ),
    Case(
        "name starts with digit",
        put((*_FD, 1, "name"), "1time"),
        "pattern_mismatch",
        "$.tools[0].functionDeclarations[1].name",
    ),
    Case(
        "name with space",
        put((*_FD, 1, "name"), "get time"),
        "pattern_mismatch",
        "$.tools[0].functionDeclarations[1].name",
    ),
    Case(
        "name too long",
        put((*_FD, 1, "name"), "n" * 65),
        "pattern_mismatch",
        "$.tools[0].functionDeclarations[1].name",
    ),
    Case(
        "duplicate declaration",
        put((*_FD, 1, "name"), "get_weather"),
        "duplicate_tool_name",
        "$.tools[0].functionDeclarations[1].name",
    ),
    Case(
        "additionalProperties in parameters",
        put((*_P, "additionalProperties"), False),
        "unknown_parameter",
        "$.tools[0].functionDeclarations[0].parameters.additionalProperties",
    ),
    Case(
        "schema bad type",
        put((*_P, "type"), "dict"),
        "invalid_value",
        "$.tools[0].functionDeclarations[0].parameters.type",
    ),
    Case(
        "nested schema bad type",
        put((*_P, "properties", "city", "type"), "text"),
        "invalid_value",
        "$.tools[0].functionDeclarations[0].parameters.properties.city.type",
    ),
    Case(
        "nested $ref",
        put((*_P, "properties", "city"), {"$ref": "#/defs/City"}),
        "unknown_parameter",
        '$.tools[0].functionDeclarations[0].parameters.properties.city["$ref"]',
    ),
    Case(
        "required not array",
        put((*_P, "required"), "city"),
        "invalid_type",
        "$.tools[0].functionDeclarations[0].parameters.required",
    ),
    Case(
        "mode unknown",
        put(("toolConfig", "functionCallingConfig", "mode"), "REQUIRED"),
        "invalid_value",
        "$.toolConfig.functionCallingConfig.mode",
    ),
    Case(
        "allowed name missing",
        put(("toolConfig", "functionCallingConfig", "allowedFunctionNames"), ["nope"]),
        "tool_choice_unknown_tool",
        "$.toolConfig.functionCallingConfig.allowedFunctionNames",
    ),
    Case(
        "safety category",
        put(("safetySettings", 0, "category"), "HARASSMENT"),
        "invalid_value",
        "$.safetySettings[0].category",
    ),
    Case(
        "safety no threshold",
        drop(("safetySettings", 0, "threshold")),
        "missing_required_parameter",
        "$.safetySettings[0].threshold",
    ),
    Case(
        "temperature above 2",
        put(("generationConfig", "temperature"), 2.5),
        "decimal_above_max_value",
        "$.generationConfig.temperature",
    ),
    Case(
        "topP above 1",
        put(("generationConfig", "topP"), 1.2),
        "decimal_above_max_value",
        "$.generationConfig.topP",
    ),
    Case(
        "stop sequences > 5",
        put(("generationConfig", "stopSequences"), list("abcdef")),
        "array_above_max_length",
        "$.generationConfig.stopSequences",
    ),
    Case(
        "maxOutputTokens string word",
        put(("generationConfig", "maxOutputTokens"), "many"),
        "invalid_type",
        "$.generationConfig.maxOutputTokens",
    ),
    Case(
        "unknown generation field",
        put(("generationConfig", "max_tokens"), 5),
        "unknown_parameter",
        "$.generationConfig.max_tokens",
    ),
    Case(
        "response finish reason",
        put(("candidates", 0, "finishReason"), "DONE"),
        "invalid_value",
        "$.candidates[0].finishReason",
        "response",
    ),
    Case("response candidates object", put(("candidates",), "x"), "invalid_type", "$.candidates", "response"),
]
