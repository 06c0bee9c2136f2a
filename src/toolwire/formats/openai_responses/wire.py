"""TypedDicts of the Responses API JSON this codec accepts and emits.

They follow the official OpenAPI description (``CreateResponse``, ``InputItem`` / ``Item``,
``EasyInputMessage``, ``OutputMessage``, ``FunctionToolCall``, ``FunctionCallOutputItemParam``,
``CustomToolCall``, ``ReasoningItem``, ``FunctionTool``, ``CustomToolParam``,
``NamespaceToolParam``, ``ToolChoiceParam``, ``Response``, ``ResponseUsage``, ``Error``).
They document the shapes; decoders still check every value at run time. Built-in tools,
built-in call items and their outputs are carried verbatim and typed as plain dicts here.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "AllowedToolsChoice",
    "CustomTool",
    "CustomToolCall",
    "CustomToolCallOutput",
    "ErrorBody",
    "ErrorObject",
    "FunctionCall",
    "FunctionCallOutput",
    "FunctionTool",
    "InputAudio",
    "InputFile",
    "InputImage",
    "InputMessage",
    "InputText",
    "ItemReference",
    "NamedToolChoice",
    "NamespaceTool",
    "OutputMessage",
    "OutputText",
    "Reasoning",
    "ReasoningItem",
    "Refusal",
    "Request",
    "Response",
    "ResponseError",
    "TextFormat",
    "Usage",
]

Role = Literal["user", "assistant", "system", "developer"]
ItemStatus = Literal["in_progress", "completed", "incomplete"]

# ---------------------------------------------------------------- content parts


class InputText(TypedDict):
    type: Literal["input_text"]
    text: str


class InputImage(TypedDict):
    type: Literal["input_image"]
    image_url: NotRequired[str | None]  # http(s) or data: URL
    file_id: NotRequired[str | None]
    detail: NotRequired[
        Literal["low", "high", "auto", "original"]
    ]  # required by the spec, optional in practice


class InputFile(TypedDict):
    type: Literal["input_file"]
    file_id: NotRequired[str | None]
    file_data: NotRequired[str]  # data:<media type>;base64,<data>
    file_url: NotRequired[str]
    filename: NotRequired[str]


class _AudioData(TypedDict):
    data: str
    format: Literal["mp3", "wav"]


class InputAudio(TypedDict):
    """Accepted for same-format round trips; the spec's input content list does not list it."""

    type: Literal["input_audio"]
    input_audio: _AudioData


class OutputText(TypedDict):
    type: Literal["output_text"]
    text: str
    annotations: list[dict[str, Any]]
    logprobs: NotRequired[list[dict[str, Any]]]


class Refusal(TypedDict):
    type: Literal["refusal"]
    refusal: str


InputContent = InputText | InputImage | InputFile | InputAudio
OutputContent = OutputText | Refusal

# ---------------------------------------------------------------- items


class InputMessage(TypedDict):
    """``EasyInputMessage`` / ``InputMessage``: ``type`` may be left out."""

    type: NotRequired[Literal["message"]]
    role: Role
    content: str | list[InputContent] | list[OutputContent]
    id: NotRequired[str]
    status: NotRequired[ItemStatus]
    phase: NotRequired[Literal["commentary", "final_answer"] | None]


class OutputMessage(TypedDict):
    type: Literal["message"]
    id: str
    status: ItemStatus
    role: Literal["assistant"]
    content: list[OutputContent]
    phase: NotRequired[Literal["commentary", "final_answer"] | None]


class _SummaryText(TypedDict):
    type: Literal["summary_text"]
    text: str


class _ReasoningText(TypedDict):
    type: Literal["reasoning_text"]
    text: str


class ReasoningItem(TypedDict):
    type: Literal["reasoning"]
    id: str
    summary: list[_SummaryText]
    content: NotRequired[list[_ReasoningText]]
    encrypted_content: NotRequired[str | None]  # replayed byte-exact
    status: NotRequired[ItemStatus]


class FunctionCall(TypedDict):
    type: Literal["function_call"]
    call_id: str
    name: str
    arguments: str  # raw JSON text, kept byte-exact
    id: NotRequired[str]  # fc_...
    namespace: NotRequired[str]
    status: NotRequired[ItemStatus]


class FunctionCallOutput(TypedDict):
    type: Literal["function_call_output"]
    call_id: str | None
    output: str | list[InputText | InputImage | InputFile]
    id: NotRequired[str | None]
    name: NotRequired[str | None]
    status: NotRequired[ItemStatus | None]


class CustomToolCall(TypedDict):
    type: Literal["custom_tool_call"]
    call_id: str
    name: str
    input: str
    id: NotRequired[str]
    namespace: NotRequired[str]


class CustomToolCallOutput(TypedDict):
    type: Literal["custom_tool_call_output"]
    call_id: str
    output: str | list[InputText | InputImage | InputFile]
    id: NotRequired[str]


class ItemReference(TypedDict):
    type: NotRequired[Literal["item_reference"] | None]
    id: str


# ---------------------------------------------------------------- tools and tool choice


class FunctionTool(TypedDict):
    type: Literal["function"]
    name: str
    description: NotRequired[str | None]
    parameters: dict[str, Any] | None  # required by the spec (nullable)
    strict: bool | None  # required by the spec (nullable); the API default is strict
    defer_loading: NotRequired[bool]


class _TextFormat(TypedDict):
    type: Literal["text"]


class _GrammarFormat(TypedDict):
    type: Literal["grammar"]
    syntax: Literal["lark", "regex"]
    definition: str


class CustomTool(TypedDict):
    type: Literal["custom"]
    name: str
    description: NotRequired[str]
    format: NotRequired[_TextFormat | _GrammarFormat]


class NamespaceTool(TypedDict):
    """Groups function/custom tools; decoded flat (each tool keeps the namespace name)."""

    type: Literal["namespace"]
    name: str
    description: str
    tools: list[FunctionTool | CustomTool]


class NamedToolChoice(TypedDict):
    type: Literal["function", "custom"]
    name: str


class AllowedToolsChoice(TypedDict):
    type: Literal["allowed_tools"]
    mode: Literal["auto", "required"]
    tools: list[dict[str, Any]]  # {"type", "name"} for function/custom, built-ins by type


ToolChoice = Literal["none", "auto", "required"] | NamedToolChoice | AllowedToolsChoice | dict[str, Any]

# ---------------------------------------------------------------- request


class Reasoning(TypedDict, total=False):
    effort: Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"] | None
    summary: Literal["auto", "concise", "detailed"] | None


class TextFormat(TypedDict):
    type: Literal["text", "json_object", "json_schema"]
    name: NotRequired[str]  # json_schema
    schema: NotRequired[dict[str, Any]]  # json_schema
    strict: NotRequired[bool | None]
    description: NotRequired[str]


class _Text(TypedDict, total=False):
    format: TextFormat
    verbosity: Literal["low", "medium", "high"] | None


class Request(TypedDict, total=False):
    model: str
    instructions: str | None
    input: str | list[dict[str, Any]]
    tools: list[dict[str, Any]]
    tool_choice: ToolChoice
    parallel_tool_calls: bool | None
    max_output_tokens: int | None
    temperature: float | None
    top_p: float | None
    reasoning: Reasoning | None
    text: _Text
    stream: bool | None
    user: str
    metadata: dict[str, str] | None
    store: bool | None
    include: list[str] | None
    previous_response_id: str | None
    truncation: Literal["auto", "disabled"] | None
    service_tier: str | None
    background: bool | None
    conversation: str | dict[str, Any] | None
    max_tool_calls: int | None
    top_logprobs: int | None
    safety_identifier: str
    prompt_cache_key: str


# ---------------------------------------------------------------- response


class _InputDetails(TypedDict):
    cached_tokens: int
    cache_write_tokens: NotRequired[int]


class _OutputDetails(TypedDict):
    reasoning_tokens: int


class Usage(TypedDict):
    input_tokens: int
    input_tokens_details: _InputDetails
    output_tokens: int
    output_tokens_details: _OutputDetails
    total_tokens: int


class ResponseError(TypedDict):
    code: str
    message: str


class _IncompleteDetails(TypedDict):
    reason: Literal["max_output_tokens", "content_filter"]


class Response(TypedDict):
    """The ``response`` object; request parameters are echoed next to these fields."""

    id: str
    object: Literal["response"]
    created_at: int
    status: NotRequired[Literal["completed", "failed", "in_progress", "cancelled", "queued", "incomplete"]]
    error: ResponseError | None
    incomplete_details: _IncompleteDetails | None
    model: str
    output: list[dict[str, Any]]
    usage: NotRequired[Usage]
    instructions: str | list[dict[str, Any]] | None
    tools: list[dict[str, Any]]
    tool_choice: ToolChoice
    parallel_tool_calls: bool
    metadata: dict[str, str] | None
    temperature: float | None
    top_p: float | None


# ---------------------------------------------------------------- errors


class ErrorObject(TypedDict):
    message: str
    type: str
    param: str | None
    code: str | None


class ErrorBody(TypedDict):
    error: ErrorObject
