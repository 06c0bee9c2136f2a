"""Responses ``usage`` <-> IR :class:`~toolwire.ir.Usage`."""

from __future__ import annotations

from typing import Any

from toolwire.formats._openai_usage import UsageNames, counts_only
from toolwire.formats._wire import as_dict, opt_dict, opt_int
from toolwire.formats.openai_responses._extra import emit_fields, split_fields
from toolwire.ir.notes import Notes
from toolwire.ir.response import Usage

__all__ = ["decode_usage", "encode_usage"]

_KNOWN = frozenset(
    {"input_tokens", "output_tokens", "total_tokens", "input_tokens_details", "output_tokens_details"}
)
_INPUT_DETAILS = frozenset({"cached_tokens", "cache_write_tokens"})
_OUTPUT_DETAILS = frozenset({"reasoning_tokens"})
_IN = "~input_tokens_details"
_OUT = "~output_tokens_details"


_NAMES = UsageNames("input_tokens", "output_tokens", "input_tokens_details", "output_tokens_details")


def decode_usage(value: Any, path: str = "$.usage") -> Usage:
    """Decode a ``usage`` object (cached, cache-write and reasoning token details included)."""
    if type(value) is dict:
        fast = counts_only(value, _NAMES)
        if fast is not None:
            return fast
    usage = as_dict(value, path)
    extra = split_fields(usage, _KNOWN)
    cached = cache_write = reasoning = None
    details = opt_dict(usage, "input_tokens_details", path)
    if details is not None:
        cached = opt_int(details, "cached_tokens", f"{path}.input_tokens_details")
        cache_write = opt_int(details, "cache_write_tokens", f"{path}.input_tokens_details")
        extra[_IN] = split_fields(details, _INPUT_DETAILS)
    details = opt_dict(usage, "output_tokens_details", path)
    if details is not None:
        reasoning = opt_int(details, "reasoning_tokens", f"{path}.output_tokens_details")
        extra[_OUT] = split_fields(details, _OUTPUT_DETAILS)
    return Usage(
        input_tokens=opt_int(usage, "input_tokens", path),
        output_tokens=opt_int(usage, "output_tokens", path),
        total_tokens=opt_int(usage, "total_tokens", path),
        cached_tokens=cached,
        cache_creation_tokens=cache_write,
        reasoning_tokens=reasoning,
        extra=extra,
    )


def _details(
    pairs: tuple[tuple[str, int | None], ...], hint: Any, same: bool, notes: Notes, path: str
) -> Any:
    out = {key: value for key, value in pairs if value is not None}
    if same:
        if hint is None:
            return out or None
        emit_fields(out, hint, True, notes, path)
        return out
    for key, _ in pairs:  # every detail count is required by the schema
        if key not in out:
            out[key] = 0
            notes.info(f"{path}.{key}", "synthesized", f"{key} not reported; 0 (the schema requires it)")
    return out


def encode_usage(usage: Usage, notes: Notes, *, same: bool, path: str = "$.usage") -> dict[str, Any]:
    """Encode IR usage as a Responses ``usage`` object (required counts synthesized cross-format)."""
    out: dict[str, Any] = {}
    for key, value in (("input_tokens", usage.input_tokens), ("output_tokens", usage.output_tokens)):
        if value is not None:
            out[key] = value
        elif not same:
            out[key] = 0
            notes.add(f"{path}.{key}", "synthesized", f"{key} unknown; reported as 0")
    hints = usage.extra if same else {}
    inner = _details(
        (("cached_tokens", usage.cached_tokens), ("cache_write_tokens", usage.cache_creation_tokens)),
        hints.get(_IN),
        same,
        notes,
        f"{path}.input_tokens_details",
    )
    if inner is not None:
        out["input_tokens_details"] = inner
    inner = _details(
        (("reasoning_tokens", usage.reasoning_tokens),),
        hints.get(_OUT),
        same,
        notes,
        f"{path}.output_tokens_details",
    )
    if inner is not None:
        out["output_tokens_details"] = inner
    if usage.total_tokens is not None:
        out["total_tokens"] = usage.total_tokens
    elif not same:
        out["total_tokens"] = out["input_tokens"] + out["output_tokens"]
    if usage.extra:
        emit_fields(out, usage.extra, same, notes, path)
    return out
