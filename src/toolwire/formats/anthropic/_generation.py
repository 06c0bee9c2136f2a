"""Generation controls: ``thinking``, ``output_config`` (effort, structured output), ``max_tokens``.

Decode: ``thinking`` ``enabled`` / ``disabled`` / ``adaptive`` and ``output_config.effort``
become a :class:`~toolwire.ir.ReasoningConfig`; ``output_config.format`` (or the deprecated
top-level ``output_format``) a ``json_schema`` :class:`~toolwire.ir.ResponseFormat`; unnamed
``output_config`` fields (``task_budget``...) stay in ``Request.extra["output_config"]``.

Encode from another format: Anthropic thinking needs a token budget (>= 1024, below
``max_tokens``): a Gemini-style budget is used as is (raised to 1024 if lower, ``0`` means
disabled, the dynamic ``-1`` adaptive thinking on :data:`ADAPTIVE_MODELS` and the medium
budget elsewhere), an OpenAI effort is turned into a budget (:data:`EFFORT_BUDGETS`, noted as
synthesized); ``max_tokens`` is required and synthesized when missing
(:data:`DEFAULT_MAX_TOKENS`, plus the thinking budget); with thinking on, ``temperature`` other
than 1, ``top_p`` below 0.95 and ``top_k`` are dropped with a note (the API rejects them).
"""

from __future__ import annotations

import re
from typing import Any

from toolwire.formats._wire import as_dict, emit_extra, opt_int
from toolwire.formats.anthropic._util import rest_fields
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes
from toolwire.ir.request import ReasoningConfig, Request, ResponseFormat

__all__ = [
    "ADAPTIVE_MODELS",
    "DEFAULT_MAX_TOKENS",
    "EFFORT_BUDGETS",
    "MIN_BUDGET",
    "decode_reasoning",
    "decode_response_format",
    "encode_output",
    "encode_thinking_cross",
    "fit_max_tokens",
]

DEFAULT_MAX_TOKENS = 4096
"""``max_tokens`` sent when the IR has none (Anthropic requires it)."""

MIN_BUDGET = 1024
"""Smallest ``thinking.budget_tokens`` Anthropic accepts."""

EFFORT_BUDGETS: dict[str, int] = {
    "minimal": 1024,
    "low": 2048,
    "medium": 8192,
    "high": 16384,
    "xhigh": 32768,
    "max": 32768,
}
"""Thinking budget standing in for an OpenAI reasoning effort."""

ADAPTIVE_MODELS = re.compile(r"claude-(?:opus|sonnet)-(?:4-[6-9]|[5-9])(?:\b|[-.])")
"""Models that take ``thinking: {"type": "adaptive"}`` (Opus and Sonnet 4.6 and later; recorded
adaptive requests in the corpus: claude-opus-4-6 to claude-opus-5)."""

_THINKING_KNOWN: dict[str, frozenset[str]] = {
    "enabled": frozenset({"type", "budget_tokens"}),
    "disabled": frozenset({"type"}),
    "adaptive": frozenset({"type"}),
}
_FORMAT_KNOWN = frozenset({"type", "schema"})

# ---------------------------------------------------------------- decode


def _thinking(p: dict[str, Any], extra: Extra) -> tuple[bool | None, int | None, Extra]:
    thinking = p.get("thinking")
    if thinking is None:
        if "thinking" in p:
            extra["thinking"] = None
        return None, None, {}
    thinking = as_dict(thinking, "$.thinking")
    kind = thinking.get("type")
    known = _THINKING_KNOWN.get(kind) if type(kind) is str else None
    if known is None:
        extra["thinking"] = thinking
        return None, None, {}
    budget = opt_int(thinking, "budget_tokens", "$.thinking") if kind == "enabled" else None
    rextra = rest_fields(thinking, known)
    if kind == "adaptive":
        rextra["~thinking"] = "adaptive"
    return kind != "disabled", budget, rextra


def _output_config(p: dict[str, Any], extra: Extra) -> tuple[str | None, dict[str, Any] | None]:
    """``(effort, format)`` of ``output_config``; the rest is kept in ``extra["output_config"]``."""
    config = p.get("output_config")
    if config is None:
        if "output_config" in p:
            extra["output_config"] = None
        return None, None
    config = as_dict(config, "$.output_config")
    effort = config.get("effort")
    effort = effort if type(effort) is str else None
    fmt = config.get("format")
    fmt = fmt if _is_schema_format(fmt) else None
    rest = {
        k: v
        for k, v in config.items()
        if not (k == "effort" and effort is not None) and not (k == "format" and fmt is not None)
    }
    if rest or not config:
        extra["output_config"] = rest
    return effort, fmt


def _is_schema_format(fmt: Any) -> bool:
    return type(fmt) is dict and fmt.get("type") == "json_schema" and type(fmt.get("schema")) is dict


def decode_reasoning(p: dict[str, Any], effort: str | None, extra: Extra) -> ReasoningConfig | None:
    """The reasoning config of a request (``thinking`` plus the ``output_config`` effort)."""
    enabled, budget, rextra = _thinking(p, extra)
    if enabled is None and effort is None:
        return None
    return ReasoningConfig(enabled=enabled, effort=effort, budget_tokens=budget, extra=rextra)


def decode_response_format(p: dict[str, Any], extra: Extra) -> tuple[ResponseFormat | None, str | None]:
    """``(response format, effort)`` from ``output_config`` / ``output_format``."""
    effort, fmt = _output_config(p, extra)
    field_hint = None
    if fmt is None and _is_schema_format(p.get("output_format")):
        fmt, field_hint = p["output_format"], "output_format"
    elif "output_format" in p:
        extra["output_format"] = p["output_format"]
    if fmt is None:
        return None, effort
    fextra = rest_fields(fmt, _FORMAT_KNOWN)
    if field_hint:
        fextra["~field"] = field_hint
    return ResponseFormat(type="json_schema", schema=fmt["schema"], extra=fextra), effort


# ---------------------------------------------------------------- encode


def _encode_format(fmt: ResponseFormat, same: bool, notes: Notes) -> dict[str, Any] | None:
    path = "$.response_format"
    if fmt.type == "text":
        return None
    if fmt.type != "json_schema" or fmt.schema is None:
        notes.add(
            path, "dropped", f"response format {fmt.type!r} has no Anthropic equivalent (JSON schema only)"
        )
        return None
    out: dict[str, Any] = {"type": "json_schema", "schema": fmt.schema}
    if not same:
        if fmt.name is not None:
            notes.info(path, "dropped", f"schema name {fmt.name!r}")
        if fmt.strict is False:
            notes.info(
                path, "approximated", "non-strict schema sent as Anthropic structured output (enforced)"
            )
        if fmt.description is not None:
            notes.add(path, "dropped", "schema description")
    if fmt.extra:
        emit_extra(out, fmt.extra, same, notes, path)
    return out


def _thinking_same(r: ReasoningConfig, notes: Notes) -> dict[str, Any] | None:
    if r.enabled is None:
        return None
    out: dict[str, Any]
    if not r.enabled:
        out = {"type": "disabled"}
    elif r.extra.get("~thinking") == "adaptive":
        out = {"type": "adaptive"}
    else:
        out = {"type": "enabled"}
        if r.budget_tokens is not None:
            out["budget_tokens"] = r.budget_tokens
    emit_extra(out, r.extra, True, notes, "$.reasoning")
    return out


def encode_output(req: Request, same: bool, notes: Notes) -> dict[str, Any]:
    """Top-level ``thinking``, ``output_config`` and ``output_format`` fields (same format: as decoded)."""
    out: dict[str, Any] = {}
    config: dict[str, Any] = {}
    r = req.reasoning
    if r is not None and same:
        thinking = _thinking_same(r, notes)
        if thinking is not None:
            out["thinking"] = thinking
        if r.effort is not None:
            config["effort"] = r.effort
    fmt = req.response_format
    wire_fmt = _encode_format(fmt, same, notes) if fmt is not None else None
    if wire_fmt is not None:
        if same and fmt is not None and fmt.extra.get("~field") == "output_format":
            out["output_format"] = wire_fmt
        else:
            config["format"] = wire_fmt
    if same and "output_config" in req.extra:
        rest = req.extra["output_config"]
        if rest is None and not config:
            out["output_config"] = None
        elif rest:
            config.update(rest)
        elif not config:
            out["output_config"] = {}
    if config:
        out["output_config"] = config
    return out


def _budget_cross(r: ReasoningConfig, notes: Notes) -> int | None:
    """The thinking budget for a reasoning config of another format (``0``: disabled, ``None``: none)."""
    budget = r.budget_tokens
    if budget is not None and budget >= 0:
        if 0 < budget < MIN_BUDGET:
            notes.add(
                "$.reasoning.budget_tokens",
                "approximated",
                f"thinking budget {budget} raised to {MIN_BUDGET}",
            )
            return MIN_BUDGET
        return budget
    if r.enabled is None and r.effort is None:
        return None
    if r.effort == "none":
        return 0
    guess = EFFORT_BUDGETS.get(r.effort or "medium", EFFORT_BUDGETS["medium"])
    notes.add(
        "$.reasoning.budget_tokens",
        "synthesized",
        f"reasoning effort {r.effort or 'unspecified'!r} sent as a {guess}-token budget",
    )
    return guess


def _dynamic(model: str | None, notes: Notes) -> dict[str, Any]:
    """Gemini's dynamic budget (``-1``: the model decides): adaptive thinking where the model has
    it, otherwise the medium effort budget."""
    path = "$.reasoning.budget_tokens"
    if model is not None and ADAPTIVE_MODELS.search(model):
        notes.info(path, "approximated", "dynamic thinking budget sent as adaptive thinking")
        return {"type": "adaptive"}
    budget = EFFORT_BUDGETS["medium"]
    notes.add(path, "approximated", f"dynamic thinking budget sent as a {budget}-token budget")
    return {"type": "enabled", "budget_tokens": budget}


def encode_thinking_cross(
    r: ReasoningConfig, notes: Notes, model: str | None = None
) -> dict[str, Any] | None:
    """``thinking`` for a reasoning config of another format (``model``: the target model, which
    decides whether a dynamic budget becomes adaptive thinking)."""
    if r.summary is not None:
        notes.add("$.reasoning.summary", "dropped", f"reasoning summary mode {r.summary!r}")
    if r.include_thoughts is False:
        notes.add(
            "$.reasoning.include_thoughts", "dropped", "include_thoughts=false (Anthropic returns thinking)"
        )
    if r.extra:
        emit_extra({}, r.extra, False, notes, "$.reasoning")
    if r.enabled is False:
        return {"type": "disabled"}
    if r.budget_tokens is not None and r.budget_tokens < 0:
        return _dynamic(model, notes)
    budget = _budget_cross(r, notes)
    if budget is None:
        return None
    if budget == 0:
        return {"type": "disabled"}
    return {"type": "enabled", "budget_tokens": budget}


def fit_max_tokens(
    max_tokens: int | None, thinking: dict[str, Any] | None, notes: Notes
) -> tuple[int, dict[str, Any] | None]:
    """``max_tokens`` and ``thinking`` made consistent for another format's request (budget < max)."""
    budget = thinking.get("budget_tokens") if thinking is not None else None
    if max_tokens is None:
        max_tokens = DEFAULT_MAX_TOKENS + (budget or 0)
        notes.info("$", "synthesized", f"max_tokens is required; sent {max_tokens}", target="$.max_tokens")
        return max_tokens, thinking
    if budget is None or budget < max_tokens:
        return max_tokens, thinking
    path = "$.reasoning.budget_tokens"
    fitted = max(MIN_BUDGET, max_tokens // 2)
    if fitted >= max_tokens:
        notes.add("$.reasoning", "dropped", f"max_tokens {max_tokens} leaves no room for a thinking budget")
        return max_tokens, None
    notes.add(path, "approximated", f"thinking budget {budget} lowered to {fitted} to stay below max_tokens")
    return max_tokens, {**thinking, "budget_tokens": fitted} if thinking else None
