"""TypedDicts of the Anthropic Messages API JSON this codec accepts and emits.

Documentation value only (the codec works on plain dicts): the shapes follow the
official OpenAPI description (``CreateMessageParams``, ``InputMessage``, the request
and response content blocks, ``Tool``, ``ToolChoice*``, ``Message``, ``Usage``,
``ErrorResponse``) plus fields seen in real recordings that the spec does not list
yet (``usage.output_tokens_details``, ``usage.iterations``, ``stop_details``).
Server-tool blocks and built-in tools are carried opaquely and only sketched here.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "Base64Source",
    "BuiltinToolParam",
    "CacheControl",
    "ContentBlock",
    "CreateMessageParams",
    "DocumentBlock",
    "ErrorBody",
    "ErrorDetail",
    "FileSource",
    "ImageBlock",
    "InputMessage",
    "JsonOutputFormat",
    "Message",
    "Metadata",
    "OutputConfig",
    "PlainTextSource",
    "RedactedThinkingBlock",
    "ServerToolResultBlock",
    "ServerToolUseBlock",
    "TextBlock",
    "ThinkingBlock",
    "ThinkingConfig",
    "ToolChoiceParam",
    "ToolParam",
    "ToolResultBlock",
    "ToolUseBlock",
    "UrlSource",
    "Usage",
]


class CacheControl(TypedDict):
    """``{"type": "ephemeral", "ttl"?: "5m" | "1h"}``."""

    type: Literal["ephemeral"]
    ttl: NotRequired[Literal["5m", "1h"]]


class TextBlock(TypedDict):
    """A text block (request and response)."""

    type: Literal["text"]
    text: str
    citations: NotRequired[list[dict[str, Any]] | None]
    cache_control: NotRequired[CacheControl | None]


class Base64Source(TypedDict):
    """Inline data: images (jpeg/png/gif/webp) or PDF documents."""

    type: Literal["base64"]
    media_type: str
    data: str


class UrlSource(TypedDict):
    """An image or PDF by URL."""

    type: Literal["url"]
    url: str


class FileSource(TypedDict):
    """A file uploaded through the Files API (beta)."""

    type: Literal["file"]
    file_id: str


class PlainTextSource(TypedDict):
    """A plain-text document."""

    type: Literal["text"]
    media_type: Literal["text/plain"]
    data: str


class ImageBlock(TypedDict):
    """An image."""

    type: Literal["image"]
    source: Base64Source | UrlSource | FileSource
    cache_control: NotRequired[CacheControl | None]


class DocumentBlock(TypedDict):
    """A document (PDF, plain text, custom content blocks)."""

    type: Literal["document"]
    source: Base64Source | UrlSource | FileSource | PlainTextSource | dict[str, Any]
    title: NotRequired[str | None]
    context: NotRequired[str | None]
    citations: NotRequired[dict[str, Any] | None]
    cache_control: NotRequired[CacheControl | None]


class ToolUseBlock(TypedDict):
    """A client tool call: ``input`` is always an object."""

    type: Literal["tool_use"]
    id: str
    name: str
    input: dict[str, Any]
    caller: NotRequired[dict[str, Any]]
    cache_control: NotRequired[CacheControl | None]


class ToolResultBlock(TypedDict):
    """The answer to a ``tool_use``; must open the next user message."""

    type: Literal["tool_result"]
    tool_use_id: str
    content: NotRequired[str | list[dict[str, Any]]]
    is_error: NotRequired[bool]
    cache_control: NotRequired[CacheControl | None]


class ThinkingBlock(TypedDict):
    """Extended thinking; ``signature`` must be replayed byte-exact."""

    type: Literal["thinking"]
    thinking: str
    signature: str


class RedactedThinkingBlock(TypedDict):
    """Encrypted thinking, replayed as is."""

    type: Literal["redacted_thinking"]
    data: str


class ServerToolUseBlock(TypedDict):
    """A server tool call (``server_tool_use``, ``mcp_tool_use``); kept opaque."""

    type: str
    id: str
    name: str
    input: dict[str, Any]


class ServerToolResultBlock(TypedDict):
    """A server tool result (``web_search_tool_result``, ``*_tool_result``...); kept opaque."""

    type: str
    tool_use_id: str
    content: Any


ContentBlock = (
    TextBlock
    | ImageBlock
    | DocumentBlock
    | ToolUseBlock
    | ToolResultBlock
    | ThinkingBlock
    | RedactedThinkingBlock
    | ServerToolUseBlock
    | ServerToolResultBlock
)
"""Any content block this codec names (others are carried opaquely)."""


class InputMessage(TypedDict):
    """A conversation turn. ``system`` is not in the spec; some gateways send it mid-conversation."""

    role: Literal["user", "assistant", "system"]
    content: str | list[ContentBlock]


class ToolParam(TypedDict):
    """A client (custom) tool definition."""

    name: str
    input_schema: dict[str, Any]
    description: NotRequired[str]
    type: NotRequired[Literal["custom"] | None]
    strict: NotRequired[bool]
    cache_control: NotRequired[CacheControl | None]
    defer_loading: NotRequired[bool]
    allowed_callers: NotRequired[list[str]]
    eager_input_streaming: NotRequired[bool | None]
    input_examples: NotRequired[list[dict[str, Any]]]


class BuiltinToolParam(TypedDict):
    """A server or Anthropic-defined tool (``web_search_20250305``, ``bash_20250124``...)."""

    type: str
    name: str


class ToolChoiceParam(TypedDict):
    """``auto`` / ``any`` / ``tool`` (with ``name``) / ``none``."""

    type: Literal["auto", "any", "tool", "none"]
    name: NotRequired[str]
    disable_parallel_tool_use: NotRequired[bool]


class ThinkingConfig(TypedDict):
    """``enabled`` (with ``budget_tokens`` >= 1024), ``disabled`` or ``adaptive``."""

    type: Literal["enabled", "disabled", "adaptive"]
    budget_tokens: NotRequired[int]
    display: NotRequired[Literal["summarized", "omitted"] | None]


class JsonOutputFormat(TypedDict):
    """Structured output: ``{"type": "json_schema", "schema": {...}}``."""

    type: Literal["json_schema"]
    schema: dict[str, Any]


class OutputConfig(TypedDict):
    """Output controls: effort level and structured output format."""

    effort: NotRequired[Literal["low", "medium", "high", "xhigh", "max"] | None]
    format: NotRequired[JsonOutputFormat | None]
    task_budget: NotRequired[dict[str, Any]]


class Metadata(TypedDict):
    """Request metadata: only ``user_id``."""

    user_id: NotRequired[str | None]


class CreateMessageParams(TypedDict):
    """A ``POST /v1/messages`` body (``max_tokens`` absent only for ``count_tokens``)."""

    model: str
    messages: list[InputMessage]
    max_tokens: NotRequired[int]
    system: NotRequired[str | list[TextBlock]]
    tools: NotRequired[list[ToolParam | BuiltinToolParam]]
    tool_choice: NotRequired[ToolChoiceParam]
    temperature: NotRequired[float]
    top_p: NotRequired[float]
    top_k: NotRequired[int]
    stop_sequences: NotRequired[list[str]]
    stream: NotRequired[bool]
    metadata: NotRequired[Metadata]
    thinking: NotRequired[ThinkingConfig]
    output_config: NotRequired[OutputConfig]
    output_format: NotRequired[JsonOutputFormat | None]
    service_tier: NotRequired[str]
    container: NotRequired[str | None]
    mcp_servers: NotRequired[list[dict[str, Any]]]
    context_management: NotRequired[dict[str, Any]]
    cache_control: NotRequired[CacheControl | None]


class Usage(TypedDict):
    """Token usage. ``input_tokens`` excludes cache reads and cache writes."""

    input_tokens: int
    output_tokens: int
    cache_creation_input_tokens: NotRequired[int | None]
    cache_read_input_tokens: NotRequired[int | None]
    cache_creation: NotRequired[dict[str, int] | None]
    server_tool_use: NotRequired[dict[str, Any] | None]
    service_tier: NotRequired[str | None]
    inference_geo: NotRequired[str | None]
    output_tokens_details: NotRequired[dict[str, int]]
    iterations: NotRequired[list[dict[str, Any]]]


class Message(TypedDict):
    """A ``POST /v1/messages`` response."""

    id: str
    type: Literal["message"]
    role: Literal["assistant"]
    model: str
    content: list[ContentBlock]
    stop_reason: str | None
    stop_sequence: NotRequired[str | None]
    stop_details: NotRequired[dict[str, Any] | None]
    usage: Usage
    container: NotRequired[dict[str, Any] | None]
    context_management: NotRequired[dict[str, Any] | None]


class ErrorDetail(TypedDict):
    """``{"type": "invalid_request_error", "message": "..."}``."""

    type: str
    message: str


class ErrorBody(TypedDict):
    """An error response body."""

    type: Literal["error"]
    error: ErrorDetail
    request_id: NotRequired[str | None]
