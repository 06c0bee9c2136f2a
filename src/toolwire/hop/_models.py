"""Answers that are not generations, in each provider's shape: model lists, token counts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["COUNT_BODIES", "list_models"]

_CREATED = 1_700_000_000


def _openai(names: tuple[str, ...]) -> dict[str, Any]:
    data = [{"id": n, "object": "model", "created": _CREATED, "owned_by": "toolwire"} for n in names]
    return {"object": "list", "data": data}


def _anthropic(names: tuple[str, ...]) -> dict[str, Any]:
    data = [
        {"type": "model", "id": n, "display_name": n, "created_at": "2025-01-01T00:00:00Z"} for n in names
    ]
    return {
        "data": data,
        "has_more": False,
        "first_id": names[0] if names else None,
        "last_id": names[-1] if names else None,
    }


def _gemini(names: tuple[str, ...]) -> dict[str, Any]:
    methods = ["generateContent", "streamGenerateContent", "countTokens"]
    models = [{"name": f"models/{n}", "displayName": n, "supportedGenerationMethods": methods} for n in names]
    return {"models": models}


_SHAPES = {"openai": _openai, "anthropic": _anthropic, "gemini": _gemini}


def list_models(names: tuple[str, ...], flavour: str) -> dict[str, Any]:
    """The model list of ``flavour`` (``openai``, ``anthropic`` or ``gemini``)."""
    return _SHAPES[flavour](names)


COUNT_BODIES: dict[str, Callable[[int, bool], dict[str, Any]]] = {
    "openai-responses": lambda n, beta: {"object": "response.input_tokens", "input_tokens": n},
    "anthropic": lambda n, beta: {"input_tokens": n, **({"context_management": None} if beta else {})},
    "gemini": lambda n, beta: {
        "totalTokens": n,
        "promptTokensDetails": [{"modality": "TEXT", "tokenCount": n}],
    },
}
"""Token-count answer per format (``beta``: Anthropic's beta surface, whose answer also carries
``context_management``), as the official specs define them."""
