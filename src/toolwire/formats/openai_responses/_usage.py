"""Responses ``usage`` <-> IR :class:`~toolwire.ir.Usage`."""

from __future__ import annotations

from typing import Any, Final

from msgspec.structs import astuple

from toolwire.formats._openai_usage import UsageNames, counts_only
from toolwire.formats._wire import as_dict, opt_dict, opt_int
from toolwire.formats.openai_responses._extra import emit_fields, split_fields
from toolwire.ir.notes import Notes
from toolwire.ir.response import Usage

_USAGE: Final = Usage  # compiled, a static: not a look-up in the module's globals each call
_COUNTS: Final = astuple

__all__ = ["decode_usage", "encode_usage", "foreign_usage"]

_KNOWN: Final = frozenset(
    {"input_tokens", "output_tokens", "total_tokens", "input_tokens_details", "output_tokens_details"}
)
_INPUT_DETAILS: Final = frozenset({"cached_tokens", "cache_write_tokens"})
_OUTPUT_DETAILS: Final = frozenset({"reasoning_tokens"})
_IN: Final = "~input_tokens_details"
_OUT: Final = "~output_tokens_details"


_NAMES: Final = UsageNames("input_tokens", "output_tokens", "input_tokens_details", "output_tokens_details")


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
    return _USAGE(
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


def foreign_usage(usage: Usage) -> dict[str, Any]:
    """What :func:`encode_usage` writes for ``usage`` of another format (``same=False``), without
    its notes: every count, a missing one ``0`` (a missing detail after the ones given), and the
    total the sum of the two counts when unknown (the response lanes' usage writer). The counts
    are read at once (``astuple``: compiled, one call where each attribute read is a generic
    look-up; untyped, no unboxing and boxing back)."""
    counts = _COUNTS(usage)  # Usage's fields in order: input, output, total, cached, write, reasoning
    inp: Any = counts[0]
    if inp is None:
        inp = 0
    out: Any = counts[1]
    if out is None:
        out = 0
    cached: Any = counts[3]
    write: Any = counts[4]
    if cached is not None:
        inner = {"cached_tokens": cached, "cache_write_tokens": 0 if write is None else write}
    elif write is not None:
        inner = {"cache_write_tokens": write, "cached_tokens": 0}
    else:
        inner = {"cached_tokens": 0, "cache_write_tokens": 0}
    reasoning: Any = counts[5]
    total: Any = counts[2]
    return {
        "input_tokens": inp,
        "output_tokens": out,
        "input_tokens_details": inner,
        "output_tokens_details": {"reasoning_tokens": 0 if reasoning is None else reasoning},
        "total_tokens": inp + out if total is None else total,
    }
