"""The final response object of a Responses stream (``response.completed``) built directly from
the items the stream already sent, for another format's plain response: what
:func:`encode_response` gives it with the stream's :class:`Built` items, notes included, without
its general steps (``tests/streaming/test_responses_final_snapshot.py`` holds them to it)."""

from __future__ import annotations

from typing import Any

from toolwire.formats.openai_responses._encode_items import Built
from toolwire.formats.openai_responses._extra import FORMAT
from toolwire.formats.openai_responses._stop import encode_status, status_of
from toolwire.formats.openai_responses._usage import foreign_usage
from toolwire.formats.openai_responses.response import echo_defaults
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response, Usage

__all__ = ["final_snapshot"]

_DETAILS = (
    ("input_tokens_details", "cached_tokens"),
    ("input_tokens_details", "cache_write_tokens"),
    ("output_tokens_details", "reasoning_tokens"),
)
"""The usage detail counts the schema requires, in the order ``encode_usage`` notes them."""


def final_snapshot(resp: Response, notes: Notes, built: Built) -> dict[str, Any] | None:
    """``encode_response(resp, notes, built)`` for another format's response with an id, a stop
    reason that completes it, no error, no extra fields, usage (if any) with both counts and no
    extra fields, and the output items ``built`` holds; ``None`` (nothing noted) otherwise."""
    stop, rid, usage = resp.stop_reason, resp.id, resp.usage
    if resp.origin == FORMAT or stop is None or rid is None or resp.error is not None or resp.extra:
        return None
    if usage is not None and (usage.extra or usage.input_tokens is None or usage.output_tokens is None):
        return None
    ctx = built.ctx
    if status_of(stop)[0] != "completed" or ctx.same or str(rid) != ctx.seed:
        return None
    items = built.output(resp.parts, ctx)  # the stream's own context: ``output`` leaves it as it is
    if items is None:
        return None
    created = resp.created
    if created is None:
        created = 0
        notes.info("$.created_at", "synthesized", "creation time unknown; 0")
    status, details = encode_status(stop, resp.raw_stop_reason, notes)
    model = resp.model
    if model is None:
        model = ""
        notes.info("$", "synthesized", "response without model; ''", target="$.model")
    out: dict[str, Any] = {
        "id": rid,
        "object": "response",
        "created_at": created,
        "status": status,
        "incomplete_details": details,
        "error": None,
        "model": model,
        "output": items,
    }
    if ctx.synthesized_ids:
        notes.info("$.output", "synthesized", "output item ids derived from the response id")
    if usage is not None:
        out["usage"] = _usage(usage, notes)
    out.update(echo_defaults())
    notes.info("$", "synthesized", "request echo fields (tools, tool_choice...) set to neutral values")
    return out


def _usage(usage: Usage, notes: Notes) -> dict[str, Any]:
    """``encode_usage`` of another format's usage with both counts and no extra fields."""
    missing = (usage.cached_tokens, usage.cache_creation_tokens, usage.reasoning_tokens)
    for (group, key), value in zip(_DETAILS, missing, strict=True):
        if value is None:
            path = f"$.usage.{group}.{key}"
            notes.info(path, "synthesized", f"{key} not reported; 0 (the schema requires it)")
    return foreign_usage(usage)
