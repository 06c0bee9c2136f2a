"""TypedDicts of the Chat Completions JSON this codec accepts and emits.

They follow the official OpenAPI description (``CreateChatCompletionRequest``,
``ChatCompletionRequest*Message``, ``ChatCompletionTool``, ``CustomToolChatCompletions``,
``ChatCompletionToolChoiceOption``, ``CreateChatCompletionResponse``, ``ErrorResponse``).
They document the shapes; decoders still check every value at run time.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "AllowedTools",
    "AllowedToolsChoice",
    "AssistantMessage",
    "AudioContentPart",
    "Choice",
    "ChatCompletion",
    "CompletionUsage",
    "CustomTool",
    "CustomToolCall",
    "CustomToolChoice",
    "DeveloperMessage",
    "ErrorBody",
    "ErrorObject",
    "FileContentPart",
    "FunctionCall",
    "FunctionDefinition",
    "FunctionMessage",
    "FunctionTool",
    "FunctionToolCall",
    "FunctionToolChoice",
    "ImageContentPart",
    "JsonSchemaFormat",
    "LegacyFunction",
    "RefusalContentPart",
    "Request",
    "ResponseFormat",
    "ResponseMessage",
    "SystemMessage",
    "TextContentPart",
    "ToolMessage",
    "UserMessage",
]


class TextContentPart(TypedDict):
    type: Literal["text"]
    text: str


class _ImageUrl(TypedDict):
    url: str
    detail: NotRequired[Literal["auto", "low", "high"]]


class ImageContentPart(TypedDict):
    type: Literal["image_url"]
    image_url: _ImageUrl


class _InputAudio(TypedDict):
    data: str
    format: Literal["wav", "mp3"]


class AudioContentPart(TypedDict):
    type: Literal["input_audio"]
    input_audio: _InputAudio


class _File(TypedDict, total=False):
    filename: str
    file_data: str  # in practice a data: URL
    file_id: str


class FileContentPart(TypedDict):
    type: Literal["file"]
    file: _File


class RefusalContentPart(TypedDict):
    type: Literal["refusal"]
    refusal: str


UserContentPart = TextContentPart | ImageContentPart | AudioContentPart | FileContentPart


class SystemMessage(TypedDict):
    role: Literal["system"]
    content: str | list[TextContentPart]
    name: NotRequired[str]


class DeveloperMessage(TypedDict):
    role: Literal["developer"]
    content: str | list[TextContentPart]
    name: NotRequired[str]


class UserMessage(TypedDict):
    role: Literal["user"]
    content: str | list[UserContentPart]
    name: NotRequired[str]


class FunctionCall(TypedDict):
    """``{"name", "arguments"}`` of a function tool call or a legacy ``function_call``."""

    name: str
    arguments: str


class FunctionToolCall(TypedDict):
    id: str
    type: Literal["function"]
    function: FunctionCall


class _CustomCall(TypedDict):
    name: str
    input: str


class CustomToolCall(TypedDict):
    id: str
    type: Literal["custom"]
    custom: _CustomCall


class _AudioRef(TypedDict):
    id: str


class AssistantMessage(TypedDict):
    role: Literal["assistant"]
    content: NotRequired[str | list[TextContentPart | RefusalContentPart] | None]
    refusal: NotRequired[str | None]
    name: NotRequired[str]
    audio: NotRequired[_AudioRef | None]
    tool_calls: NotRequired[list[FunctionToolCall | CustomToolCall]]
    function_call: NotRequired[FunctionCall | None]  # legacy


class ToolMessage(TypedDict):
    role: Literal["tool"]
    tool_call_id: str
    content: str | list[TextContentPart]


class FunctionMessage(TypedDict):
    """Legacy result of a ``function_call``."""

    role: Literal["function"]
    name: str
    content: str | None


class FunctionDefinition(TypedDict):
    name: str
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]
    strict: NotRequired[bool | None]


class FunctionTool(TypedDict):
    type: Literal["function"]
    function: FunctionDefinition


class _CustomDefinition(TypedDict):
    name: str
    description: NotRequired[str]
    # {"type": "text"} or {"type": "grammar", "grammar": {"definition": str, "syntax": "lark"|"regex"}}
    format: NotRequired[dict[str, Any]]


class CustomTool(TypedDict):
    type: Literal["custom"]
    custom: _CustomDefinition


class LegacyFunction(TypedDict):
    """An entry of the legacy top-level ``functions`` list."""

    name: str
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]


class _Name(TypedDict):
    name: str


class FunctionToolChoice(TypedDict):
    type: Literal["function"]
    function: _Name


class CustomToolChoice(TypedDict):
    type: Literal["custom"]
    custom: _Name


class AllowedTools(TypedDict):
    mode: Literal["auto", "required"]
    tools: list[dict[str, Any]]  # {"type": "function", "function": {"name"}} / custom


class AllowedToolsChoice(TypedDict):
    type: Literal["allowed_tools"]
    allowed_tools: AllowedTools


ToolChoice = Literal["none", "auto", "required"] | FunctionToolChoice | CustomToolChoice | AllowedToolsChoice


class JsonSchemaFormat(TypedDict):
    name: str
    description: NotRequired[str]
    schema: NotRequired[dict[str, Any]]
    strict: NotRequired[bool | None]


class ResponseFormat(TypedDict):
    type: Literal["text", "json_object", "json_schema"]
    json_schema: NotRequired[JsonSchemaFormat]


class Request(TypedDict):
    """``CreateChatCompletionRequest``: the fields the IR names (others pass through)."""

    model: str
    messages: list[dict[str, Any]]
    tools: NotRequired[list[FunctionTool | CustomTool]]
    tool_choice: NotRequired[ToolChoice]
    parallel_tool_calls: NotRequired[bool]
    functions: NotRequired[list[LegacyFunction]]
    function_call: NotRequired[Literal["none", "auto"] | _Name]
    max_tokens: NotRequired[int | None]
    max_completion_tokens: NotRequired[int | None]
    temperature: NotRequired[float | None]
    top_p: NotRequired[float | None]
    stop: NotRequired[str | list[str] | None]
    response_format: NotRequired[ResponseFormat]
    reasoning_effort: NotRequired[str | None]
    metadata: NotRequired[dict[str, str] | None]
    user: NotRequired[str]
    stream: NotRequired[bool | None]


class ResponseMessage(TypedDict):
    role: Literal["assistant"]
    content: str | None
    refusal: str | None
    tool_calls: NotRequired[list[FunctionToolCall | CustomToolCall]]
    function_call: NotRequired[FunctionCall]
    annotations: NotRequired[list[dict[str, Any]]]
    audio: NotRequired[dict[str, Any] | None]


class Choice(TypedDict):
    index: int
    message: ResponseMessage
    finish_reason: Literal["stop", "length", "tool_calls", "content_filter", "function_call"]
    logprobs: dict[str, Any] | None


class _PromptDetails(TypedDict, total=False):
    cached_tokens: int
    audio_tokens: int
    cache_write_tokens: int


class _CompletionDetails(TypedDict, total=False):
    reasoning_tokens: int
    audio_tokens: int
    accepted_prediction_tokens: int
    rejected_prediction_tokens: int


class CompletionUsage(TypedDict):
    prompt_tokens: int
    completion_tokens: int
    total_tokens: int
    prompt_tokens_details: NotRequired[_PromptDetails]
    completion_tokens_details: NotRequired[_CompletionDetails]


class ChatCompletion(TypedDict):
    id: str
    object: Literal["chat.completion"]
    created: int
    model: str
    choices: list[Choice]
    usage: NotRequired[CompletionUsage]
    system_fingerprint: NotRequired[str | None]
    service_tier: NotRequired[str | None]


class ErrorObject(TypedDict):
    message: str
    type: str
    param: str | None
    code: str | None  # OpenRouter and some compatible servers send an integer (the HTTP status)


class ErrorBody(TypedDict):
    error: ErrorObject
