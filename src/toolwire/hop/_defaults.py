"""A route's defaults, written into the client's request where the client set nothing (no I/O).

A default is written in the client's own format, so the translation maps it to the upstream's
terms as it maps anything the client sends (an effort becomes Anthropic thinking, Gemini
``thinkingConfig``...). What the client set always wins.

==========================  =================================  =====================================
client format               ``max_tokens`` default goes to     ``reasoning`` default goes to
==========================  =================================  =====================================
``openai-chat``             ``max_completion_tokens`` (unless  ``reasoning_effort``
                            ``max_tokens`` is set)
``openai-responses``        ``max_output_tokens``              ``reasoning.effort``
``anthropic``               ``max_tokens``                     ``thinking``: ``disabled`` for
                                                               ``none``, else ``enabled`` with
                                                               :data:`THINKING_BUDGETS`, only when
                                                               ``max_tokens`` leaves room for it
``gemini``                  ``generationConfig.                ``generationConfig.thinkingConfig.
                            maxOutputTokens``                  thinkingBudget`` (:data:`THINKING_
                                                               BUDGETS`; ``0`` for ``none``)
``bedrock-converse``        ``inferenceConfig.maxTokens``      ``additionalModelRequestFields.
                                                               thinking``, as for ``anthropic``
==========================  =================================  =====================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire.ir.base import Format

__all__ = ["EFFORTS", "MAX_TOKENS_FIELD", "THINKING_BUDGETS", "apply_route_defaults"]

EFFORTS: tuple[str, ...] = ("none", "minimal", "low", "medium", "high")
"""The reasoning defaults a route may name."""

THINKING_BUDGETS: dict[str, int] = {"minimal": 1024, "low": 2048, "medium": 8192, "high": 24576}
"""Thinking token budget per effort, for the formats that take a budget (Anthropic's minimum is 1024)."""

MAX_TOKENS_FIELD: dict[str, tuple[str, ...]] = {
    "openai-chat": ("max_completion_tokens", "max_tokens"),
    "openai-responses": ("max_output_tokens",),
    "anthropic": ("max_tokens",),
    "gemini": ("generationConfig", "maxOutputTokens"),
    "bedrock-converse": ("inferenceConfig", "maxTokens"),
}
"""Where each client format puts its output limit (Chat: either name; Gemini: nested)."""


def _config(payload: dict[str, Any], key: str) -> dict[str, Any] | None:
    value = payload.get(key)
    if value is None:
        payload[key] = value = {}
    return value if isinstance(value, dict) else None


_NESTED = ("gemini", "bedrock-converse")
"""Client formats whose output limit is nested (``MAX_TOKENS_FIELD``: the object, the field)."""


def _max_tokens(payload: dict[str, Any], fmt: Format, value: int) -> None:
    path = MAX_TOKENS_FIELD[fmt]
    if fmt in _NESTED:
        config = _config(payload, path[0])
        if config is not None and config.get(path[1]) is None:
            config[path[1]] = value
        return
    if all(payload.get(name) is None for name in path):
        payload[path[0]] = value


def _chat(payload: dict[str, Any], effort: str) -> None:
    payload.setdefault("reasoning_effort", effort)


def _responses(payload: dict[str, Any], effort: str) -> None:
    reasoning = _config(payload, "reasoning")
    if reasoning is not None:
        reasoning.setdefault("effort", effort)


def _anthropic(payload: dict[str, Any], effort: str) -> None:
    if payload.get("thinking") is not None:
        return
    if effort == "none":
        payload["thinking"] = {"type": "disabled"}
        return
    budget = THINKING_BUDGETS[effort]
    limit = payload.get("max_tokens")
    if isinstance(limit, int) and limit > budget:  # the API needs max_tokens above the budget
        payload["thinking"] = {"type": "enabled", "budget_tokens": budget}


def _gemini(payload: dict[str, Any], effort: str) -> None:
    config = _config(payload, "generationConfig")
    if config is None:
        return
    thinking = config.get("thinkingConfig")
    if thinking is None:
        config["thinkingConfig"] = {"thinkingBudget": 0 if effort == "none" else THINKING_BUDGETS[effort]}


def _bedrock(payload: dict[str, Any], effort: str) -> None:
    fields = _config(payload, "additionalModelRequestFields")
    if fields is None or fields.get("thinking") is not None:
        return
    if effort == "none":
        fields["thinking"] = {"type": "disabled"}
        return
    budget = THINKING_BUDGETS[effort]
    limit = (payload.get("inferenceConfig") or {}).get("maxTokens")
    if isinstance(limit, int) and limit > budget:  # the Anthropic models' rule, as on Anthropic
        fields["thinking"] = {"type": "enabled", "budget_tokens": budget}


_REASONING: dict[str, Callable[[dict[str, Any], str], None]] = {
    "openai-chat": _chat,
    "openai-responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "bedrock-converse": _bedrock,
}


def apply_route_defaults(
    payload: dict[str, Any], fmt: Format, *, max_tokens: int | None, reasoning: str | None
) -> None:
    """Write a route's ``max_tokens`` and ``reasoning`` defaults into the client's ``payload``
    (in place), where the client set none (the table in the module docstring)."""
    if max_tokens is not None:
        _max_tokens(payload, fmt, max_tokens)
    if reasoning is not None:
        _REASONING[fmt](payload, reasoning)
