"""OpenAI-compatible Chat Completions dialects: one table row per provider.

Many providers speak the Chat Completions shape (``openai-chat``) with documented differences.
A :class:`Dialect` names them, so the codec (:func:`~toolwire.formats.openai_chat.encode_request`
``dialect=``), the validator and the client read one table instead of scattered ``if`` s:

==============  ===================================================================================
field           meaning
==============  ===================================================================================
``base_url``    OpenAI-SDK-style base URL: requests go to ``base_url + "/chat/completions"``
``api_key_env`` environment variable holding the key (``None``: the server needs none)
``call_ids``    the call-id rule: ``None`` (any string) or ``"alnum9"`` (Mistral:
                ``^[a-zA-Z0-9]{9}$``; other ids are mapped by
                :func:`~toolwire.formats.openai_chat.mistral_call_id` and restored on the way back)
``tool_choice`` the string ``tool_choice`` values the server accepts (Mistral adds ``any``)
``max_tokens``  the field of the output limit (``max_tokens`` or ``max_completion_tokens``)
``reasoning``   the assistant message / stream delta fields carrying reasoning text, first is the
                one this provider writes (DeepSeek ``reasoning_content``, OpenRouter ``reasoning``)
``replay``      which reasoning the server takes back in a request: ``never`` (dropped, noted as
                info), ``tool_loop`` (only assistant messages after the last user message: the
                tool-call loop of the current turn; DeepSeek), ``always``
``fields``      the provider's own request fields beyond the Chat schema (Mistral ``safe_prompt``)
``rejects``     standard Chat request fields the provider refuses (Mistral's schema is closed)
``hosts``       URL prefixes the provider answers on (corpus classification, routing)
==============  ===================================================================================

Facts are from each provider's API reference (Mistral: its OpenAPI document,
``tests/data/specs/mistral-openapi.yaml``) and from the recordings in the fixture corpus.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from toolwire._choices import unknown_choice
from toolwire.errors import ToolwireError

__all__ = [
    "DEFAULT_DIALECT",
    "DIALECTS",
    "Dialect",
    "DialectName",
    "Replay",
    "dialect_for_url",
    "get_dialect",
]

DialectName = Literal["openai", "mistral", "deepseek", "openrouter", "groq", "xai", "ollama", "vllm"]
"""A Chat dialect (a key of :data:`DIALECTS`)."""

Replay = Literal["never", "tool_loop", "always"]
"""Which earlier reasoning a provider takes back in a request (see :class:`Dialect`)."""

_STANDARD_CHOICES = frozenset({"auto", "none", "required"})


@dataclass(frozen=True, slots=True)
class Dialect:
    """One OpenAI-compatible provider's differences from the Chat Completions API.

    Attributes:
        name: the dialect name (a :data:`DialectName`).
        title: the provider's name for people.
        base_url: OpenAI-SDK-style base URL (``base_url + "/chat/completions"`` is the endpoint);
            ``None`` when there is no public default.
        api_key_env: environment variable holding the API key; ``None`` when the server needs none.
        auth_header: the header carrying the key.
        auth_scheme: the prefix before the key in that header.
        call_ids: ``"alnum9"`` when call ids must match ``^[a-zA-Z0-9]{9}$``; ``None``: any string.
        tool_choice: the string ``tool_choice`` values the server accepts.
        max_tokens: the request field of the output limit.
        developer_role: whether ``developer`` messages are accepted (else sent as ``system``).
        reasoning: assistant message / stream delta fields carrying reasoning text; the first is
            the one the provider writes and reads.
        reasoning_details: the provider returns (and takes back) OpenRouter ``reasoning_details``.
        thinking_chunks: reasoning comes as ``{"type": "thinking"}`` content chunks, and stream
            deltas may carry ``content`` as a list of chunks (Mistral).
        optional_types: tools and tool calls may omit ``type`` (it defaults to ``function``).
        message_fields: the provider's own fields on messages (Mistral ``prefix``).
        closed_messages: role -> the only fields a message of that role may have, for providers
            whose message schemas are closed (Mistral); ``None``: open.
        loose_fragments: stream tool call fragments may lack ``index`` (each one then is a whole
            call) and may repeat a call's name as ``""`` (Mistral, Ollama).
        replay: which earlier reasoning the provider takes back in a request.
        fields: the provider's own request fields beyond the Chat schema.
        rejects: standard Chat request fields the provider refuses.
        hosts: URL prefixes (scheme and host, maybe a path) the provider answers on.
    """

    name: DialectName
    title: str
    base_url: str | None
    api_key_env: str | None
    auth_header: str = "authorization"
    auth_scheme: str = "Bearer "
    call_ids: Literal["alnum9"] | None = None
    tool_choice: frozenset[str] = _STANDARD_CHOICES
    max_tokens: Literal["max_tokens", "max_completion_tokens"] = "max_completion_tokens"
    developer_role: bool = True
    reasoning: tuple[str, ...] = ()
    reasoning_details: bool = False
    thinking_chunks: bool = False
    optional_types: bool = False
    message_fields: frozenset[str] = frozenset()
    closed_messages: Mapping[str, frozenset[str]] | None = None
    loose_fragments: bool = False
    replay: Replay = "never"
    fields: frozenset[str] = frozenset()
    rejects: frozenset[str] = frozenset()
    hosts: tuple[str, ...] = ()


_MISTRAL_REJECTS = frozenset(
    {
        "max_completion_tokens",
        "user",
        "store",
        "seed",
        "logprobs",
        "top_logprobs",
        "logit_bias",
        "stream_options",
        "service_tier",
        "modalities",
        "audio",
        "web_search_options",
        "verbosity",
        "function_call",
        "functions",
    }
)
"""Chat Completions request fields outside Mistral's closed ``ChatCompletionRequest`` schema."""

_MISTRAL_MESSAGES: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "system": frozenset({"role", "content"}),
        "user": frozenset({"role", "content"}),
        "assistant": frozenset({"role", "content", "tool_calls", "prefix"}),
        "tool": frozenset({"role", "content", "tool_call_id", "name"}),
    }
)
"""The fields of each message role in Mistral's closed ``ChatCompletionRequest`` messages."""

DIALECTS: Mapping[str, Dialect] = MappingProxyType(
    {
        d.name: d
        for d in (
            Dialect(
                "openai",
                "OpenAI",
                "https://api.openai.com/v1",
                "OPENAI_API_KEY",
                hosts=("https://api.openai.com/",),
            ),
            Dialect(
                "mistral",
                "Mistral AI",
                "https://api.mistral.ai/v1",
                "MISTRAL_API_KEY",
                call_ids="alnum9",
                tool_choice=frozenset({"auto", "none", "any", "required"}),
                max_tokens="max_tokens",
                developer_role=False,
                thinking_chunks=True,
                optional_types=True,
                message_fields=frozenset({"prefix"}),
                closed_messages=_MISTRAL_MESSAGES,
                loose_fragments=True,
                replay="always",
                fields=frozenset(
                    {
                        "random_seed",
                        "safe_prompt",
                        "prompt_mode",
                        "prediction",
                        "guardrails",
                        "prompt_cache_key",
                    }
                ),
                rejects=_MISTRAL_REJECTS,
                hosts=("https://api.mistral.ai/",),
            ),
            Dialect(
                "deepseek",
                "DeepSeek",
                "https://api.deepseek.com",
                "DEEPSEEK_API_KEY",
                max_tokens="max_tokens",
                developer_role=False,
                reasoning=("reasoning_content",),
                replay="tool_loop",
                fields=frozenset({"thinking"}),
                hosts=("https://api.deepseek.com/",),
            ),
            Dialect(
                "openrouter",
                "OpenRouter",
                "https://openrouter.ai/api/v1",
                "OPENROUTER_API_KEY",
                reasoning=("reasoning",),
                reasoning_details=True,
                replay="always",
                fields=frozenset(
                    {"reasoning", "provider", "models", "route", "transforms", "usage"} | {"plugins"}
                ),
                hosts=("https://openrouter.ai/",),
            ),
            Dialect(
                "groq",
                "Groq",
                "https://api.groq.com/openai/v1",
                "GROQ_API_KEY",
                developer_role=False,
                reasoning=("reasoning",),
                fields=frozenset({"reasoning_format", "include_reasoning", "search_settings"}),
                hosts=("https://api.groq.com/",),
            ),
            Dialect(
                "xai",
                "xAI",
                "https://api.x.ai/v1",
                "XAI_API_KEY",
                reasoning=("reasoning_content",),
                fields=frozenset({"search_parameters"}),
                hosts=("https://api.x.ai/",),
            ),
            Dialect(
                "ollama",
                "Ollama (OpenAI-compatible endpoint)",
                "http://localhost:11434/v1",
                None,
                max_tokens="max_tokens",
                reasoning=("reasoning",),
                loose_fragments=True,
                hosts=("http://localhost:11434/", "http://127.0.0.1:11434/"),
            ),
            Dialect(
                "vllm",
                "vLLM (OpenAI-compatible server)",
                "http://localhost:8000/v1",
                "VLLM_API_KEY",
                max_tokens="max_tokens",
                reasoning=("reasoning_content", "reasoning"),
                fields=frozenset(
                    {"top_k", "min_p", "repetition_penalty", "guided_json"} | {"chat_template_kwargs"}
                ),
                hosts=("http://localhost:8000/", "http://127.0.0.1:8000/"),
            ),
        )
    }
)
"""Every Chat dialect by name (``openai`` is the API itself)."""

DEFAULT_DIALECT: Dialect = DIALECTS["openai"]
"""The Chat Completions API as OpenAI serves it."""


def get_dialect(name: str | Dialect | None) -> Dialect:
    """The dialect called ``name`` (``None``: OpenAI's own); a :class:`Dialect` passes through.

    Raises:
        ToolwireError: an unknown name; the message lists the known ones.
    """
    if name is None:
        return DEFAULT_DIALECT
    if isinstance(name, Dialect):
        return name
    found = DIALECTS.get(name)
    if found is None:
        raise ToolwireError(unknown_choice("Chat dialect", name, DIALECTS, DIALECTS))
    return found


def dialect_for_url(url: str) -> Dialect | None:
    """The dialect whose host ``url`` starts with, or ``None`` when no row names it."""
    for dialect in DIALECTS.values():
        if url.startswith(dialect.hosts):
            return dialect
    return None
