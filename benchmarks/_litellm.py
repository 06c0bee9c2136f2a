"""LiteLLM doing the same work as toolwire's conversions, for the comparison in bench_convert.

Importing this module raises ImportError when LiteLLM is not installed. Each case goes from
JSON bytes to JSON bytes like toolwire's: parse, LiteLLM's OpenAI-parameter mapping plus its
provider transformation (the code ``litellm.completion`` runs before and after the HTTP
call), serialize. No network: only the pure transformation functions are called.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import httpx
import orjson
from litellm.llms.anthropic.chat.transformation import AnthropicConfig
from litellm.llms.gemini.chat.transformation import GoogleAIStudioGeminiConfig
from litellm.llms.vertex_ai.gemini.transformation import _transform_request_body
from litellm.responses.litellm_completion_transformation.transformation import (
    LiteLLMCompletionResponsesConfig,
)
from litellm.types.utils import ModelResponse

__all__ = ["cases"]

_Convert = Callable[[], bytes]


class _NoLogging:
    """Stands in for LiteLLM's logging object (its post-call hook records nothing here)."""

    def post_call(self, *args: Any, **kwargs: Any) -> None:
        return None


def _split(request: dict[str, Any]) -> tuple[str, list[Any], dict[str, Any]]:
    body = dict(request)
    return body.pop("model"), body.pop("messages"), body


def _chat_to_anthropic(raw: bytes) -> _Convert:
    config = AnthropicConfig()
    model = "claude-sonnet-4-5-20250929"

    def convert() -> bytes:
        _, messages, params = _split(orjson.loads(raw))
        optional = config.map_openai_params(params, {}, model, drop_params=True)
        body = config.transform_request(model, messages, optional, {}, {})
        return orjson.dumps(body)

    return convert


def _chat_to_gemini(raw: bytes) -> _Convert:
    config = GoogleAIStudioGeminiConfig()
    model = "gemini-2.5-flash"

    def convert() -> bytes:
        _, messages, params = _split(orjson.loads(raw))
        optional = config.map_openai_params(params, {}, model, drop_params=True)
        body = _transform_request_body(messages, model, optional, "gemini", {}, None)
        return orjson.dumps(body)

    return convert


def _responses_to_chat(raw: bytes) -> _Convert:
    def convert() -> bytes:
        request = orjson.loads(raw)
        model, items = request.pop("model"), request.pop("input")
        body = LiteLLMCompletionResponsesConfig.transform_responses_api_request_to_chat_completion_request(
            model, items, request, custom_llm_provider="openai"
        )
        return orjson.dumps(body, default=str)

    return convert


def _anthropic_response_to_chat(raw: bytes) -> _Convert:
    config = AnthropicConfig()
    model = "claude-sonnet-4-5-20250929"
    logging = _NoLogging()

    def convert() -> bytes:
        response = httpx.Response(200, content=raw, headers={"content-type": "application/json"})
        out = config.transform_response(
            model, response, ModelResponse(), logging, {}, [], {}, {}, encoding=None
        )
        return orjson.dumps(out.model_dump())

    return convert


def cases(chat: dict[str, Any], responses: dict[str, Any], message: dict[str, Any]) -> dict[str, _Convert]:
    """LiteLLM conversions keyed like toolwire's cases in bench_convert."""
    out = {
        "chat -> anthropic (request)": _chat_to_anthropic(orjson.dumps(chat)),
        "chat -> gemini (request)": _chat_to_gemini(orjson.dumps(chat)),
        "responses -> chat (request)": _responses_to_chat(orjson.dumps(copy.deepcopy(responses))),
        "anthropic -> chat (response)": _anthropic_response_to_chat(orjson.dumps(message)),
    }
    for convert in out.values():
        convert()  # fail early (ImportError-like) if this LiteLLM version changed its API
    return out
