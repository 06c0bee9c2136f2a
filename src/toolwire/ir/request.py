"""Requests in the canonical model."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from toolwire.ir.base import Extra, Format, IRStruct
from toolwire.ir.content import Message
from toolwire.ir.tools import AnyTool, ToolChoice

__all__ = ["ReasoningConfig", "Request", "ResponseFormat"]


class ResponseFormat(IRStruct, frozen=True):
    """Structured output request.

    Attributes:
        type: ``text``, ``json_object`` (any JSON) or ``json_schema``.
        name: schema name (OpenAI requires one for ``json_schema``).
        schema: the JSON Schema for ``json_schema``.
        strict: OpenAI strict flag, when given.
        description: schema description, when given.
    """

    type: Literal["text", "json_object", "json_schema"]
    name: str | None = None
    schema: dict[str, Any] | None = None
    strict: bool | None = None
    description: str | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class ReasoningConfig(IRStruct, frozen=True):
    """Reasoning / extended thinking controls.

    Attributes:
        enabled: ``False`` when the source disabled thinking explicitly.
        effort: OpenAI effort (``minimal``/``low``/``medium``/``high``...).
        budget_tokens: Anthropic ``budget_tokens`` / Gemini ``thinkingBudget``.
        summary: Responses summary mode (``auto``/``concise``/``detailed``).
        include_thoughts: Gemini ``includeThoughts``.
    """

    enabled: bool | None = None
    effort: str | None = None
    budget_tokens: int | None = None
    summary: str | None = None
    include_thoughts: bool | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class Request(IRStruct, frozen=True):
    """A model request: conversation, tools and generation controls.

    Attributes:
        model: model name (Gemini carries it in the URL; decoders take it as an argument).
        messages: the conversation, system/developer instructions included.
        tools: tool definitions.
        tool_choice: tool choice, ``None`` when the source did not set one.
        parallel_tool_calls: ``False`` forbids several calls in one turn (Anthropic
            ``disable_parallel_tool_use`` inverted); ``None`` when unset.
        max_tokens: output token limit.
        temperature, top_p, top_k: sampling controls.
        stop: stop sequences.
        response_format: structured output.
        reasoning: reasoning controls.
        stream: whether a stream was asked for.
        user: end-user id.
        metadata: request metadata.
        origin: the format this request was decoded from; extras are only re-emitted to it.
    """

    messages: tuple[Message, ...] = ()
    model: str | None = None
    tools: tuple[AnyTool, ...] = ()
    tool_choice: ToolChoice | None = None
    parallel_tool_calls: bool | None = None
    max_tokens: int | None = None
    temperature: int | float | None = None  # a wire integer stays one (the JSON output keeps `1`)
    top_p: int | float | None = None
    top_k: int | None = None
    stop: tuple[str, ...] | None = None
    response_format: ResponseFormat | None = None
    reasoning: ReasoningConfig | None = None
    stream: bool | None = None
    user: str | None = None
    metadata: dict[str, Any] | None = None
    origin: Format | None = None
    extra: Extra = msgspec.field(default_factory=dict)
