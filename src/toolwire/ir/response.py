"""Responses, usage and stop reasons in the canonical model."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from toolwire.ir.base import Extra, Format, IRStruct
from toolwire.ir.content import Part

__all__ = ["ErrorInfo", "Response", "StopReason", "Usage"]

StopReason = Literal[
    "end_turn",
    "max_tokens",
    "tool_calls",
    "stop_sequence",
    "content_filter",
    "refusal",
    "pause",
    "error",
    "other",
]
"""Normalized reason the model stopped. The format's own value is kept in ``raw_stop_reason``."""


class Usage(IRStruct, frozen=True):
    """Token usage.

    Attributes:
        input_tokens: prompt tokens, cached ones included (OpenAI convention).
        output_tokens: completion tokens, reasoning included.
        total_tokens: as reported, when reported.
        cached_tokens: input tokens read from cache.
        cache_creation_tokens: input tokens written to cache (Anthropic).
        reasoning_tokens: output tokens spent on reasoning.
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    total_tokens: int | None = None
    cached_tokens: int | None = None
    cache_creation_tokens: int | None = None
    reasoning_tokens: int | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class ErrorInfo(IRStruct, frozen=True):
    """A provider error body in canonical form.

    Attributes:
        status: HTTP status.
        message: the human-readable message.
        type: provider error type (``invalid_request_error``, ``INVALID_ARGUMENT``).
        code: provider error code.
        param: offending parameter, when given.
    """

    message: str
    status: int | None = None
    type: str | None = None
    code: str | None = None
    param: str | None = None
    origin: Format | None = None
    extra: Extra = msgspec.field(default_factory=dict)


class Response(IRStruct, frozen=True):
    """A complete model response (one assistant turn).

    Attributes:
        id: response id.
        model: model name as answered.
        parts: assistant output in order: reasoning, text, refusals, tool calls.
        stop_reason: normalized stop reason.
        raw_stop_reason: the format's own stop/finish reason string.
        usage: token usage.
        created: creation time (unix seconds) when the format reports it.
        status: Responses ``status`` (``completed``, ``incomplete``...).
        error: error details when the response reports a failure.
        origin: the format this response was decoded from.
    """

    parts: tuple[Part, ...] = ()
    id: str | None = None
    model: str | None = None
    stop_reason: StopReason | None = None
    raw_stop_reason: str | None = None
    usage: Usage | None = None
    created: int | None = None
    status: str | None = None
    error: ErrorInfo | None = None
    origin: Format | None = None
    extra: Extra = msgspec.field(default_factory=dict)

    @property
    def tool_calls(self) -> list[Any]:
        """The tool calls in this response, in order."""
        from toolwire.ir.content import ToolCall

        return [p for p in self.parts if isinstance(p, ToolCall)]

    @property
    def text(self) -> str:
        """All text parts joined."""
        from toolwire.ir.content import TextPart

        return "".join(p.text for p in self.parts if isinstance(p, TextPart))
