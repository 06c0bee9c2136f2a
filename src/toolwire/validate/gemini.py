"""Validation tables and cross-item rules for Gemini ``generateContent`` (``gemini``).

Structure follows ``GenerateContentRequest`` / ``GenerateContentResponse`` of the
``generativelanguage`` v1beta protos, as their JSON mapping is parsed: both ``functionCall`` and
``function_call`` spellings are accepted, enum names are accepted in any case, a single object
stands for a one-element repeated field, unknown fields are rejected. The ``model`` field lives in
the URL (``models/{m}:generateContent``), not the body. Cross-item rules: roles ``user``/``model``,
non-empty parts with exactly one data field, function call turns answered by a turn of as many
function responses, ``functionResponse.response`` an object, function names, tool config.
"""

from __future__ import annotations

from typing import Any, get_args

from toolwire.formats.gemini.wire import FinishReason
from toolwire.validate._engine import (
    Anything,
    Arr,
    Bool,
    Ctx,
    Either,
    Field,
    Int,
    Map,
    Num,
    Obj,
    Spec,
    Str,
    opt,
    req,
)
from toolwire.validate._gemini_dialect import GeminiDialect, camel, request_check, snake
from toolwire.validate._gemini_rules import ROLES, check_contents, check_parameter_roots, declared_names, get
from toolwire.validate._rules import tool_choice_names_missing, unique_names

__all__ = [
    "DIALECT",
    "FUNCTION_NAME_PATTERN",
    "REQUEST",
    "RESPONSE",
    "ROLES",
    "check_request",
    "check_response",
]

DIALECT = GeminiDialect()
FUNCTION_NAME_PATTERN = r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$"
FUNCTION_NAME_MESSAGE = request_check(
    "{param}",
    "Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), "
    "underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.",
)

_VALUE = Anything()
_STRUCT = Anything("object")
_S = Str()


def _obj(name: str, fields: dict[str, Field], *, closed: bool = True) -> Obj:
    """A proto message: closed, named, accepting snake_case spellings; ``null`` means unset."""
    for key, spec in fields.items():
        fields[key] = Field(spec.spec, spec.required, nullable=True)
    return Obj(fields, closed=closed, name=name, normalize=camel)


def _rep(spec: Spec) -> Either:
    """A repeated field: an array, or (as the JSON parser allows) a single element."""
    return Either((Arr(spec), spec))


def _enum(name: str, *values: str) -> Str:
    """A proto enum (names accepted in upper or lower case)."""
    return Str(enum=values + tuple(v.lower() for v in values), name=name)


_BLOB = _obj("Blob", {"mimeType": req(_S), "data": req(_S)})
_FUNCTION_CALL = _obj("FunctionCall", {"id": opt(_S), "name": req(_S), "args": opt(_STRUCT)})
_FUNCTION_RESPONSE = _obj(
    "FunctionResponse",
    {
        "id": opt(_S),
        "name": req(_S),
        "response": req(_STRUCT),
        "parts": opt(Arr(_STRUCT)),
        "willContinue": opt(Bool()),
        "scheduling": opt(
            _enum("FunctionResponse.Scheduling", "SCHEDULING_UNSPECIFIED", "SILENT", "WHEN_IDLE", "INTERRUPT")
        ),
    },
)
PART = _obj(
    "Part",
    {
        "text": opt(_S),
        "inlineData": opt(_BLOB),
        "functionCall": opt(_FUNCTION_CALL),
        "functionResponse": opt(_FUNCTION_RESPONSE),
        "fileData": opt(_obj("FileData", {"mimeType": opt(_S), "fileUri": req(_S)})),
        "executableCode": opt(
            _obj(
                "ExecutableCode",
                {
                    "language": req(_enum("ExecutableCode.Language", "LANGUAGE_UNSPECIFIED", "PYTHON")),
                    "code": req(_S),
                },
            )
        ),
        "codeExecutionResult": opt(_obj("CodeExecutionResult", {"outcome": req(_S), "output": opt(_S)})),
        "toolCall": opt(_STRUCT),  # server-side tool invocations (includeServerSideToolInvocations)
        "toolResponse": opt(_STRUCT),
        "videoMetadata": opt(_STRUCT),
        "thought": opt(Bool()),
        "thoughtSignature": opt(_S),
        "partMetadata": opt(_STRUCT),
        "mediaResolution": opt(_STRUCT),
    },
)
CONTENT = _obj("Content", {"parts": opt(_rep(PART)), "role": opt(_S)})

_SCHEMA_FIELDS: dict[str, Field] = {}
SCHEMA = _obj("Schema", _SCHEMA_FIELDS)
_SCHEMA_FIELDS.update(
    {  # filled after SCHEMA exists (it is recursive); null means unset as in every proto message
        "type": opt(
            _enum(
                "Type",
                "TYPE_UNSPECIFIED",
                "STRING",
                "NUMBER",
                "INTEGER",
                "BOOLEAN",
                "ARRAY",
                "OBJECT",
                "NULL",
            )
        ),
        "format": opt(_S),
        "title": opt(_S),
        "description": opt(_S),
        "nullable": opt(Bool()),
        "enum": opt(Arr(_S)),
        "items": opt(SCHEMA),
        "maxItems": opt(Either((Int(), _S))),
        "minItems": opt(Either((Int(), _S))),
        "properties": opt(Map(SCHEMA)),
        "required": opt(Arr(_S)),
        "minProperties": opt(Either((Int(), _S))),
        "maxProperties": opt(Either((Int(), _S))),
        "minimum": opt(Num()),
        "maximum": opt(Num()),
        "minLength": opt(Either((Int(), _S))),
        "maxLength": opt(Either((Int(), _S))),
        "pattern": opt(_S),
        "example": opt(_VALUE),
        "anyOf": opt(Arr(SCHEMA)),
        "propertyOrdering": opt(Arr(_S)),
        "default": opt(_VALUE),
    }
)
for _key, _field in _SCHEMA_FIELDS.items():
    _SCHEMA_FIELDS[_key] = Field(_field.spec, _field.required, nullable=True)
FUNCTION_DECLARATION = _obj(
    "FunctionDeclaration",
    {
        "name": req(Str(pattern=FUNCTION_NAME_PATTERN, pattern_message=FUNCTION_NAME_MESSAGE)),
        "description": opt(_S),
        "parameters": opt(SCHEMA),
        "parametersJsonSchema": opt(_VALUE),
        "response": opt(SCHEMA),
        "responseJsonSchema": opt(_VALUE),
        "behavior": opt(_enum("FunctionDeclaration.Behavior", "UNSPECIFIED", "BLOCKING", "NON_BLOCKING")),
    },
)
TOOL = _obj(
    "Tool",
    {
        "functionDeclarations": opt(_rep(FUNCTION_DECLARATION)),
        "googleSearchRetrieval": opt(_STRUCT),
        "codeExecution": opt(_STRUCT),
        "googleSearch": opt(_STRUCT),
        "computerUse": opt(_STRUCT),
        "urlContext": opt(_STRUCT),
        "fileSearch": opt(_STRUCT),
        "googleMaps": opt(_STRUCT),
        "retrieval": opt(_STRUCT),
        "enterpriseWebSearch": opt(_STRUCT),
    },
)
MODES = ("MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED")
TOOL_CONFIG = _obj(
    "ToolConfig",
    {
        "functionCallingConfig": opt(
            _obj(
                "FunctionCallingConfig",
                {
                    "mode": opt(_enum("FunctionCallingConfig.Mode", *MODES)),
                    "allowedFunctionNames": opt(Arr(_S)),
                },
            )
        ),
        "retrievalConfig": opt(_STRUCT),
        "includeServerSideToolInvocations": opt(Bool()),
    },
)
_HARM = (
    "HARM_CATEGORY_UNSPECIFIED",
    "HARM_CATEGORY_DEROGATORY",
    "HARM_CATEGORY_TOXICITY",
    "HARM_CATEGORY_VIOLENCE",
    "HARM_CATEGORY_SEXUAL",
    "HARM_CATEGORY_MEDICAL",
    "HARM_CATEGORY_DANGEROUS",
    "HARM_CATEGORY_HARASSMENT",
    "HARM_CATEGORY_HATE_SPEECH",
    "HARM_CATEGORY_SEXUALLY_EXPLICIT",
    "HARM_CATEGORY_DANGEROUS_CONTENT",
    "HARM_CATEGORY_CIVIC_INTEGRITY",
    "HARM_CATEGORY_IMAGE_HATE",
    "HARM_CATEGORY_IMAGE_DANGEROUS_CONTENT",
    "HARM_CATEGORY_IMAGE_HARASSMENT",
    "HARM_CATEGORY_IMAGE_SEXUALLY_EXPLICIT",
    "HARM_CATEGORY_JAILBREAK",
)
SAFETY_SETTING = _obj(
    "SafetySetting",
    {
        "category": req(_enum("HarmCategory", *_HARM)),
        "threshold": req(
            _enum(
                "SafetySetting.HarmBlockThreshold",
                "HARM_BLOCK_THRESHOLD_UNSPECIFIED",
                "BLOCK_LOW_AND_ABOVE",
                "BLOCK_MEDIUM_AND_ABOVE",
                "BLOCK_ONLY_HIGH",
                "BLOCK_NONE",
                "OFF",
            )
        ),
        "method": opt(_S),
    },
)
GENERATION_CONFIG = _obj(
    "GenerationConfig",
    {
        "candidateCount": opt(Int(1)),
        "stopSequences": opt(Arr(_S, max_items=5)),
        "maxOutputTokens": opt(Int(1)),
        "temperature": opt(Num(0, 2)),
        "topP": opt(Num(0, 1)),
        "topK": opt(Int(1)),
        "seed": opt(Int()),
        "responseMimeType": opt(_S),
        "responseSchema": opt(SCHEMA),
        "responseJsonSchema": opt(_VALUE),
        "_responseJsonSchema": opt(_VALUE),
        "presencePenalty": opt(Num()),
        "frequencyPenalty": opt(Num()),
        "responseLogprobs": opt(Bool()),
        "logprobs": opt(Int(0, 20)),
        "enableEnhancedCivicAnswers": opt(Bool()),
        "responseModalities": opt(
            Arr(_enum("GenerationConfig.Modality", "MODALITY_UNSPECIFIED", "TEXT", "IMAGE", "AUDIO"))
        ),
        "speechConfig": opt(_STRUCT),
        "thinkingConfig": opt(
            _obj(
                "ThinkingConfig",
                {"includeThoughts": opt(Bool()), "thinkingBudget": opt(Int()), "thinkingLevel": opt(_S)},
            )
        ),
        "imageConfig": opt(_STRUCT),
        "mediaResolution": opt(_S),
        "audioTimestamp": opt(Bool()),
        "responseFormat": opt(_STRUCT),
    },
)
REQUEST = _obj(
    "GenerateContentRequest",
    {
        "contents": req(_rep(CONTENT)),
        "systemInstruction": opt(CONTENT),
        "tools": opt(_rep(TOOL)),
        "toolConfig": opt(TOOL_CONFIG),
        "safetySettings": opt(_rep(SAFETY_SETTING)),
        "generationConfig": opt(GENERATION_CONFIG),
        "cachedContent": opt(_S),
        "labels": opt(_STRUCT),  # Vertex AI
        "model": opt(_S),  # normally in the URL; accepted in the body too
    },
)

# --- response -------------------------------------------------------------------------------------

FINISH_REASONS = get_args(FinishReason)
_CANDIDATE = Obj(
    {
        "content": opt(Obj({"parts": opt(Arr(PART)), "role": opt(_S)}, normalize=camel)),
        "finishReason": opt(Str(enum=FINISH_REASONS, name="Candidate.FinishReason")),
        "index": opt(Int(0)),
    },
    name="Candidate",
    normalize=camel,
)
RESPONSE = Obj(
    {
        "candidates": opt(Arr(_CANDIDATE)),
        "promptFeedback": opt(_STRUCT),
        "usageMetadata": opt(_STRUCT),
        "modelVersion": opt(_S),
        "responseId": opt(_S),
    },
    name="GenerateContentResponse",
    normalize=camel,
)


def check_request(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure, then the conversation and tool rules."""
    REQUEST.check(payload, (), ctx)
    contents = get(payload, "contents")
    if isinstance(contents, dict):
        contents = [contents]
    if isinstance(contents, list):
        check_contents(contents, ctx)
    if contents == []:
        ctx.add(("contents",), "empty_contents", request_check("contents", "contents is not specified"))
    check_parameter_roots(payload, ctx)
    names = declared_names(payload)
    unique_names(
        names, ("tools",), ctx, request_check("tools", "Duplicate function declaration found: {name}")
    )
    _check_allowed_names(payload, {n for _, n, _ in names}, ctx)


def check_response(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure of a non-streamed GenerateContentResponse."""
    RESPONSE.check(payload, (), ctx)


def _check_allowed_names(payload: dict[str, Any], names: set[str], ctx: Ctx) -> None:
    """``allowedFunctionNames`` must name declared functions."""
    path: list[str] = []
    node: Any = payload
    for name in ("toolConfig", "functionCallingConfig", "allowedFunctionNames"):
        if not isinstance(node, dict):
            return
        key = name if name in node else snake(name)
        path.append(key)
        node = node.get(key)
    if isinstance(node, list):
        tool_choice_names_missing(
            [n for n in node if isinstance(n, str)],
            names,
            tuple(path),
            ctx,
            request_check(
                "tool_config.function_calling_config.allowed_function_names",
                "function name '{name}' is not among the function declarations.",
            ),
        )
