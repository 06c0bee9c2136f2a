"""Contenders for ``bench_pairs``: LiteLLM and the OpenAI Agents SDK doing the same conversions.

Importing this module raises ImportError unless both are installed; ``make bench-peers`` installs
them into ``.venv-bench``, never into the package's own environment. Every case goes from JSON
bytes to JSON bytes like toolwire's: ``orjson.loads``, the peer's own pure transformation
functions (the code its proxy or SDK runs before and after the HTTP call; no network), then
``orjson.dumps``.

LiteLLM converts between Chat Completions and each provider, so a pair between two non-Chat
formats is its two steps through Chat (what its proxy does: ``/v1/messages`` or
``/v1/responses`` in, a provider out). A pair LiteLLM has no function for is left out ("-").
The Agents SDK has one converter (``agents.models.chatcmpl_converter.Converter``): Responses
input items to Chat messages (requests; it converts messages only, so its case converts the
tools with a plain comprehension) and a Chat message to Responses output items (responses).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # never fetch over the network

import httpx
import orjson
from agents.models.chatcmpl_converter import Converter
from litellm.completion_extras.litellm_responses_transformation.transformation import (
    LiteLLMResponsesTransformationHandler,
)
from litellm.llms.anthropic.chat.transformation import AnthropicConfig
from litellm.llms.anthropic.messages.adapters.transformation import (
    AnthropicAdapter,
    LiteLLMAnthropicMessagesAdapter,
)
from litellm.llms.gemini.chat.transformation import GoogleAIStudioGeminiConfig
from litellm.llms.vertex_ai.gemini.transformation import _transform_request_body
from litellm.responses.litellm_completion_transformation.transformation import (
    LiteLLMCompletionResponsesConfig,
)
from litellm.types.llms.openai import ResponsesAPIResponse
from litellm.types.utils import ModelResponse
from openai.types.chat import ChatCompletionMessage

__all__ = ["cases", "stream_cases", "versions"]

_Step = Callable[[dict[str, Any]], Any]
_Fn = Callable[[], object]
_CLAUDE = "claude-sonnet-4-5-20250929"
_GEMINI = "gemini-2.5-flash"


def versions() -> str:
    """The contenders' versions, for the table's heading."""
    return f"peers: litellm {version('litellm')}, openai-agents {version('openai-agents')}"


class _NoLogging:
    """Stands in for LiteLLM's logging object (its hooks record nothing here)."""

    model_call_details: dict[str, Any] = {}  # noqa: RUF012
    optional_params: dict[str, Any] = {}  # noqa: RUF012
    litellm_params: dict[str, Any] = {}  # noqa: RUF012

    def post_call(self, *args: Any, **kwargs: Any) -> None:
        return None

    def pre_call(self, *args: Any, **kwargs: Any) -> None:
        return None


def _dump(value: Any) -> bytes:
    if hasattr(value, "model_dump"):
        value = value.model_dump()
    return orjson.dumps(value, default=str)


# --- LiteLLM requests: each step is a dict in, a dict out -----------------------------------


def _split(request: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
    body = dict(request)
    body.pop("model", None)
    return body.pop("messages"), body


def _chat_to_anthropic(request: dict[str, Any]) -> Any:
    config = AnthropicConfig()
    messages, params = _split(request)
    optional = config.map_openai_params(params, {}, _CLAUDE, drop_params=True)
    return config.transform_request(_CLAUDE, messages, optional, {}, {})


def _chat_to_gemini(request: dict[str, Any]) -> Any:
    config = GoogleAIStudioGeminiConfig()
    messages, params = _split(request)
    optional = config.map_openai_params(params, {}, _GEMINI, drop_params=True)
    return _transform_request_body(messages, _GEMINI, optional, "gemini", {}, None)


def _chat_to_responses(request: dict[str, Any]) -> Any:
    messages, params = _split(request)
    return LiteLLMResponsesTransformationHandler().transform_request(
        "gpt-4o", messages, params, {}, {}, _NoLogging()
    )


def _responses_to_chat(request: dict[str, Any]) -> Any:
    body = dict(request)
    model, items = body.pop("model"), body.pop("input")
    return dict(
        LiteLLMCompletionResponsesConfig.transform_responses_api_request_to_chat_completion_request(
            model, items, body, custom_llm_provider="openai"
        )
    )


def _anthropic_to_chat(request: dict[str, Any]) -> Any:
    out, _names = LiteLLMAnthropicMessagesAdapter().translate_anthropic_to_openai(request)
    return dict(out)


_TO_CHAT: dict[str, _Step] = {"openai-responses": _responses_to_chat, "anthropic": _anthropic_to_chat}
_FROM_CHAT: dict[str, _Step] = {
    "openai-responses": _chat_to_responses,
    "anthropic": _chat_to_anthropic,
    "gemini": _chat_to_gemini,
}


# --- LiteLLM responses: through its ModelResponse ------------------------------------------


def _httpx(raw: bytes) -> httpx.Response:
    return httpx.Response(200, content=raw, headers={"content-type": "application/json"})


def _anthropic_response_to_chat(raw: bytes) -> ModelResponse:
    return AnthropicConfig().transform_response(
        _CLAUDE, _httpx(raw), ModelResponse(), _NoLogging(), {}, [], {}, {}, encoding=None
    )


def _gemini_response_to_chat(raw: bytes) -> ModelResponse:
    return GoogleAIStudioGeminiConfig().transform_response(
        _GEMINI, _httpx(raw), ModelResponse(), _NoLogging(), {}, [], {}, {}, encoding=None
    )


def _responses_response_to_chat(raw: bytes) -> ModelResponse:
    return LiteLLMResponsesTransformationHandler().transform_response(
        "gpt-4o",
        ResponsesAPIResponse(**orjson.loads(raw)),
        ModelResponse(),
        _NoLogging(),
        {},
        [],
        {},
        {},
        encoding=None,
    )


def _chat_response_to_chat(raw: bytes) -> ModelResponse:
    return ModelResponse(**orjson.loads(raw))


def _model_to_anthropic(response: ModelResponse) -> Any:
    return AnthropicAdapter().translate_completion_output_params(response)


def _model_to_responses(response: ModelResponse) -> Any:
    return LiteLLMCompletionResponsesConfig.transform_chat_completion_response_to_responses_api_response(
        [], {}, response
    )


_RESPONSE_TO_MODEL: dict[str, Callable[[bytes], ModelResponse]] = {
    "openai-chat": _chat_response_to_chat,
    "anthropic": _anthropic_response_to_chat,
    "gemini": _gemini_response_to_chat,
    "openai-responses": _responses_response_to_chat,
}
_RESPONSE_FROM_MODEL: dict[str, Callable[[ModelResponse], Any]] = {
    "openai-chat": lambda response: response,
    "anthropic": _model_to_anthropic,
    "openai-responses": _model_to_responses,
}


# --- cases ------------------------------------------------------------------------------------


def _litellm_request(raw: bytes, source: str, target: str) -> _Fn | None:
    to_chat = _TO_CHAT.get(source) if source != "openai-chat" else (lambda request: request)
    from_chat = _FROM_CHAT.get(target) if target != "openai-chat" else (lambda request: request)
    if to_chat is None or from_chat is None:
        return None
    first, second = to_chat, from_chat
    return lambda: _dump(second(first(orjson.loads(raw))))


def _litellm_response(raw: bytes, source: str, target: str) -> _Fn | None:
    decode, encode = _RESPONSE_TO_MODEL.get(source), _RESPONSE_FROM_MODEL.get(target)
    if decode is None or encode is None:
        return None
    first, second = decode, encode
    return lambda: _dump(second(first(raw)))


def _agents_request(raw: bytes) -> _Fn:
    def convert() -> bytes:
        request = orjson.loads(raw)
        tools = [
            {
                "type": "function",
                "function": {
                    "name": tool["name"],
                    "description": tool.get("description", ""),
                    "parameters": tool.get("parameters"),
                },
            }
            for tool in request.get("tools", ())
        ]
        messages = Converter.items_to_messages(request["input"])
        return orjson.dumps({"model": request["model"], "messages": messages, "tools": tools}, default=str)

    return convert


def _agents_response(raw: bytes) -> _Fn:
    def convert() -> bytes:
        message = ChatCompletionMessage.model_validate(orjson.loads(raw)["choices"][0]["message"])
        items = Converter.message_to_output_items(message)
        return orjson.dumps([item.model_dump() for item in items])

    return convert


def cases(kind: str, payloads: dict[str, bytes]) -> dict[tuple[str, str], dict[str, _Fn]]:
    """The peers' conversions of ``payloads`` (``kind``: ``request`` or ``response``), keyed
    by ``(source, target)`` then by peer; a case that fails on its first call is left out."""
    out: dict[tuple[str, str], dict[str, _Fn]] = {}
    for source, raw in payloads.items():
        for target in payloads:
            if source == target:
                continue
            found: dict[str, _Fn | None] = {
                "litellm": (_litellm_request if kind == "request" else _litellm_response)(raw, source, target)
            }
            if (source, target) == ("openai-responses", "openai-chat") and kind == "request":
                found["agents"] = _agents_request(raw)
            if (source, target) == ("openai-chat", "openai-responses") and kind == "response":
                found["agents"] = _agents_response(raw)
            out[(source, target)] = {peer: fn for peer, fn in found.items() if fn is not None and _works(fn)}
    return out


def _works(fn: _Fn) -> bool:
    try:
        fn()
    except Exception as exc:  # a peer release with another internal API: report, leave it out
        print(f"  (peer case left out: {type(exc).__name__}: {str(exc)[:120]})")
        return False
    return True


def _litellm_stream(raw: list[bytes | str], iterator: Callable[[], Any]) -> _Fn:
    """Each source event through LiteLLM's chunk parser, framed as a Chat SSE event."""
    events = [item for item in raw if type(item) is bytes]

    def convert() -> int:
        parse = iterator().chunk_parser
        size = 0
        for item in events:
            chunk = parse(orjson.loads(item))
            if chunk is not None:
                size += len(b"data: " + orjson.dumps(chunk.model_dump(), default=str) + b"\n\n")
        return size

    return convert


def _anthropic_iterator() -> Any:
    from litellm.llms.anthropic.chat.handler import ModelResponseIterator

    return ModelResponseIterator(streaming_response=None, sync_stream=True)


def _gemini_iterator() -> Any:
    from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import ModelResponseIterator

    return ModelResponseIterator(streaming_response=None, sync_stream=True, logging_obj=_NoLogging())


def stream_cases(streams: dict[str, list[bytes | str]]) -> dict[tuple[str, str], dict[str, _Fn]]:
    """LiteLLM's stream translation to Chat chunks, per event, SSE out (its chunk parsers of
    Anthropic and Gemini events; it has no stream conversion to the other formats here)."""
    out: dict[tuple[str, str], dict[str, _Fn]] = {}
    for source, iterator in (("anthropic", _anthropic_iterator), ("gemini", _gemini_iterator)):
        convert = _litellm_stream(streams[source], iterator)
        out[(source, "openai-chat")] = {"litellm": convert} if _works(convert) else {}
    return out
