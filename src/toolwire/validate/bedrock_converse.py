"""Validation tables and cross-item rules for Amazon Bedrock ``Converse`` (``bedrock-converse``).

Structure follows ``ConverseRequest`` / ``ConverseResponse`` of the Bedrock Runtime service model
(``tests/data/specs/bedrock-runtime-service-2.json``): closed structures, required members,
enums (roles, image and document formats, tool-result status, stop reasons), name and id
patterns (``ToolName`` ``[a-zA-Z0-9_-]+``, ``ToolUseId`` ``[a-zA-Z0-9_.:-]+``, both 1 to 64),
inference ranges (``temperature``/``topP`` 0 to 1, ``maxTokens`` >= 1). ``modelId`` lives in the URL.
Cross-item rules: see :mod:`toolwire.validate._bedrock_rules`.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate._bedrock_rules import (
    BedrockDialect,
    check_conversation,
    check_message_unions,
    check_tools,
    check_unions,
)
from toolwire.validate._engine import Anything, Arr, Bool, Ctx, Int, Map, Num, Obj, Str, opt, req

__all__ = [
    "DIALECT",
    "REQUEST",
    "RESPONSE",
    "STOP_REASONS",
    "TOOL_NAME_PATTERN",
    "check_request",
    "check_response",
]

DIALECT = BedrockDialect()
TOOL_NAME_PATTERN = r"^[a-zA-Z0-9_-]+$"
TOOL_USE_ID_PATTERN = r"^[a-zA-Z0-9_.:-]+$"
STOP_REASONS = (
    "end_turn",
    "tool_use",
    "max_tokens",
    "stop_sequence",
    "guardrail_intervened",
    "content_filtered",
    "malformed_model_output",
    "malformed_tool_use",
    "model_context_window_exceeded",
)

_S = Str()
_OBJ = Anything("object")
_NAME = Str(pattern=TOOL_NAME_PATTERN, min_len=1, max_len=64)
_ID = Str(pattern=TOOL_USE_ID_PATTERN, min_len=1, max_len=64)
_S3 = Obj({"uri": req(_S), "bucketOwner": opt(_S)}, closed=True, name="S3Location")
_CACHE_POINT = Obj({"type": req(Str(enum=("default",))), "ttl": opt(_S)}, closed=True, name="CachePointBlock")
IMAGE = Obj(
    {
        "format": req(Str(enum=("png", "jpeg", "gif", "webp"))),
        "source": req(Obj({"bytes": opt(_S), "s3Location": opt(_S3)}, closed=True, name="ImageSource")),
        "error": opt(_OBJ),
    },
    closed=True,
    name="ImageBlock",
)
DOCUMENT = Obj(
    {
        "format": opt(Str(enum=("pdf", "csv", "doc", "docx", "xls", "xlsx", "html", "txt", "md"))),
        "name": req(Str(min_len=1, max_len=200)),
        "source": req(
            Obj(
                {"bytes": opt(_S), "s3Location": opt(_S3), "text": opt(_S), "content": opt(Arr(_OBJ))},
                closed=True,
                name="DocumentSource",
            )
        ),
        "context": opt(_S),
        "citations": opt(_OBJ),
    },
    closed=True,
    name="DocumentBlock",
)
_RESULT_ITEM = Obj(
    {
        "json": opt(Anything()),
        "text": opt(_S),
        "image": opt(IMAGE),
        "document": opt(DOCUMENT),
        "video": opt(_OBJ),
        "searchResult": opt(_OBJ),
    },
    closed=True,
    name="ToolResultContentBlock",
)
CONTENT_BLOCK = Obj(
    {
        "text": opt(_S),
        "image": opt(IMAGE),
        "document": opt(DOCUMENT),
        "video": opt(_OBJ),
        "audio": opt(_OBJ),
        "toolUse": opt(
            Obj(
                {"toolUseId": req(_ID), "name": req(_NAME), "input": req(Anything()), "type": opt(_S)},
                closed=True,
                name="ToolUseBlock",
            )
        ),
        "toolResult": opt(
            Obj(
                {
                    "toolUseId": req(_ID),
                    "content": req(Arr(_RESULT_ITEM)),
                    "status": opt(Str(enum=("success", "error"))),
                    "type": opt(_S),
                },
                closed=True,
                name="ToolResultBlock",
            )
        ),
        "guardContent": opt(_OBJ),
        "cachePoint": opt(_CACHE_POINT),
        "reasoningContent": opt(
            Obj(
                {
                    "reasoningText": opt(
                        Obj({"text": req(_S), "signature": opt(_S)}, closed=True, name="ReasoningTextBlock")
                    ),
                    "redactedContent": opt(_S),
                },
                closed=True,
                name="ReasoningContentBlock",
            )
        ),
        "citationsContent": opt(_OBJ),
        "searchResult": opt(_OBJ),
        "toolAddition": opt(_OBJ),
        "toolRemoval": opt(_OBJ),
    },
    closed=True,
    name="ContentBlock",
)
MESSAGE = Obj(
    {"role": req(Str(enum=("user", "assistant"))), "content": req(Arr(CONTENT_BLOCK))},
    closed=True,
    name="Message",
)
_SYSTEM_BLOCK = Obj(
    {"text": opt(Str(min_len=1)), "guardContent": opt(_OBJ), "cachePoint": opt(_CACHE_POINT)},
    closed=True,
    name="SystemContentBlock",
)
_TOOL_SPEC = Obj(
    {
        "name": req(_NAME),
        "description": opt(Str(min_len=1)),
        "inputSchema": req(Obj({"json": opt(Anything())}, closed=True, name="ToolInputSchema")),
        "strict": opt(Bool()),
    },
    closed=True,
    name="ToolSpecification",
)
TOOL_CONFIG = Obj(
    {
        "tools": req(
            Arr(
                Obj(
                    {"toolSpec": opt(_TOOL_SPEC), "systemTool": opt(_OBJ), "cachePoint": opt(_CACHE_POINT)},
                    closed=True,
                    name="Tool",
                ),
                min_items=1,
            )
        ),
        "toolChoice": opt(
            Obj(
                {
                    "auto": opt(_OBJ),
                    "any": opt(_OBJ),
                    "tool": opt(Obj({"name": req(_NAME)}, closed=True, name="SpecificToolChoice")),
                },
                closed=True,
                name="ToolChoice",
            )
        ),
    },
    closed=True,
    name="ToolConfiguration",
)
INFERENCE = Obj(
    {
        "maxTokens": opt(Int(1)),
        "temperature": opt(Num(0, 1)),
        "topP": opt(Num(0, 1)),
        "stopSequences": opt(Arr(Str(min_len=1), max_items=2500)),
    },
    closed=True,
    name="InferenceConfiguration",
)
REQUEST = Obj(
    {
        "messages": opt(Arr(MESSAGE)),
        "system": opt(Arr(_SYSTEM_BLOCK)),
        "inferenceConfig": opt(INFERENCE),
        "toolConfig": opt(TOOL_CONFIG),
        "guardrailConfig": opt(_OBJ),
        "additionalModelRequestFields": opt(Anything()),
        "promptVariables": opt(Map(_OBJ)),
        "additionalModelResponseFieldPaths": opt(Arr(_S)),
        "requestMetadata": opt(Map(_S)),
        "performanceConfig": opt(_OBJ),
        "serviceTier": opt(_OBJ),
        "outputConfig": opt(_OBJ),
        "modelId": opt(_S),  # normally in the URL
    },
    closed=True,
    name="ConverseRequest",
)
_USAGE = Obj(
    {"inputTokens": req(Int(0)), "outputTokens": req(Int(0)), "totalTokens": req(Int(0))},
    name="TokenUsage",
)
RESPONSE = Obj(
    {
        "output": req(Obj({"message": opt(MESSAGE)}, closed=True, name="ConverseOutput")),
        "stopReason": req(Str(enum=STOP_REASONS)),
        "usage": req(_USAGE),
        "metrics": req(Obj({"latencyMs": req(Int(0))}, closed=True, name="ConverseMetrics")),
        "additionalModelResponseFields": opt(Anything()),
        "trace": opt(_OBJ),
        "performanceConfig": opt(_OBJ),
        "serviceTier": opt(_OBJ),
    },
    closed=True,
    name="ConverseResponse",
)


def check_request(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure, unions, then the conversation and tool rules."""
    REQUEST.check(payload, (), ctx)
    check_unions(payload, ctx)
    check_conversation(payload, ctx)
    check_tools(payload, ctx)


def check_response(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure of a non-streamed ConverseResponse, and one member per content block."""
    RESPONSE.check(payload, (), ctx)
    output = payload.get("output")
    if isinstance(output, dict):
        check_message_unions(output.get("message"), ("output", "message"), ctx)
