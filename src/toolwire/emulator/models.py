"""Model-list bodies in each provider's shape."""

from __future__ import annotations

from typing import Any

__all__ = ["list_models"]

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
