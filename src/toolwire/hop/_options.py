"""Per-provider request options and timeouts (frozen dataclasses, safe to share)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "DEFAULT_OPTIONS",
    "AnthropicOptions",
    "BedrockOptions",
    "ChatOptions",
    "GeminiOptions",
    "Options",
    "ResponsesOptions",
    "Timeouts",
]


@dataclass(frozen=True, slots=True)
class Timeouts:
    """Timeouts in seconds (``None``: no limit).

    Attributes:
        connect: establishing a connection.
        read: waiting for response bytes of a non-streamed call.
        write: sending the request body.
        pool: waiting for a free connection from the pool.
        idle: the longest gap between two events of a stream (keep-alive pings do not count).
        total: the whole answer of a non-streamed call, headers and body, per attempt (a body
            dripping a byte at a time would otherwise outlive ``read``).
    """

    connect: float | None = 10.0
    read: float | None = 600.0
    write: float | None = 30.0
    pool: float | None = 10.0
    idle: float | None = 300.0
    total: float | None = 900.0


@dataclass(frozen=True, slots=True)
class ResponsesOptions:
    """How the OpenAI Responses request is built (the Codex reference client's behaviour).

    Fields a native payload already sets are left alone; these fill in what is missing.

    Attributes:
        store: ``store`` value; ``None`` chooses ``False`` for OpenAI and ``True`` for Azure.
        parallel_tool_calls: default for ``parallel_tool_calls`` (``False`` as in the reference).
        reasoning_effort: ``reasoning.effort`` when set.
        reasoning_summary: ``reasoning.summary`` when set.
        verbosity: ``text.verbosity``; only sent to GPT-5-family models (otherwise a warning).
        conversation_id: sent as ``prompt_cache_key`` and the ``conversation_id``/``session_id``
            headers.
        base_instructions: put before the request's own instructions.
        require_instructions: refuse a request without ``instructions`` (the reference always has
            them).
        openai_beta: send ``OpenAI-Beta: responses=experimental``.
        originator: the ``originator`` header (``None``: not sent).
        chatgpt_account_id: the ``chatgpt-account-id`` header, for ChatGPT-login auth.
        api_version: the ``api-version`` query parameter (Azure deployments that still need one).
    """

    store: bool | None = None
    parallel_tool_calls: bool = False
    reasoning_effort: str | None = None
    reasoning_summary: str | None = None
    verbosity: str | None = None
    conversation_id: str | None = None
    base_instructions: str | None = None
    require_instructions: bool = False
    openai_beta: bool = False
    originator: str | None = "toolwire"
    chatgpt_account_id: str | None = None
    api_version: str | None = None


@dataclass(frozen=True, slots=True)
class ChatOptions:
    """How a Chat Completions request is built.

    Attributes:
        include_usage: ask for usage in the last stream chunk (``stream_options.include_usage``).
    """

    include_usage: bool = True


@dataclass(frozen=True, slots=True)
class AnthropicOptions:
    """How an Anthropic Messages request is built.

    Attributes:
        version: the ``anthropic-version`` header.
        beta: values of the ``anthropic-beta`` header (joined with commas; empty: not sent).
        max_tokens: ``max_tokens`` when the request has none (the API requires it).
    """

    version: str = "2023-06-01"
    beta: tuple[str, ...] = ()
    max_tokens: int = 4096


@dataclass(frozen=True, slots=True)
class GeminiOptions:
    """How a Gemini ``generateContent`` request is built.

    Attributes:
        api_version: the path version segment (``v1beta``).
        sse: stream with ``alt=sse`` (otherwise a streamed JSON array).
    """

    api_version: str = "v1beta"
    sse: bool = True


@dataclass(frozen=True, slots=True)
class BedrockOptions:
    """How a Bedrock Converse request is built (nothing to choose yet: the model goes in the URL,
    the stream is AWS event-stream binary)."""


Options = ResponsesOptions | ChatOptions | AnthropicOptions | GeminiOptions | BedrockOptions
"""Any provider's options."""


DEFAULT_OPTIONS: dict[str, Options] = {
    "openai-responses": ResponsesOptions(),
    "openai-chat": ChatOptions(),
    "anthropic": AnthropicOptions(),
    "gemini": GeminiOptions(),
    "bedrock-converse": BedrockOptions(),
}
"""Options used when the client is given none, by wire format."""
