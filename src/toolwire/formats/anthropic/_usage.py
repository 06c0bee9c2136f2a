"""Anthropic ``usage`` <-> IR :class:`~toolwire.ir.Usage`.

Anthropic's ``input_tokens`` counts only the uncached input; cache reads
(``cache_read_input_tokens``) and cache writes (``cache_creation_input_tokens``) come on
top. The IR follows the OpenAI convention (input includes cached tokens), so:

* decode: ``IR.input_tokens = input + cache_read + cache_creation``,
  ``cached_tokens = cache_read``, ``cache_creation_tokens = cache_creation``;
* encode: ``input = IR.input_tokens - cached_tokens - cache_creation_tokens``.

Both directions are exact. ``output_tokens_details.thinking_tokens`` is the IR
``reasoning_tokens``. Fields present as ``null`` are remembered (``~null``); the other
fields (``cache_creation``, ``server_tool_use``, ``service_tier``, ``iterations``...) stay
in ``extra``.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.formats._wire import as_dict, emit_extra, opt_int
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes
from toolwire.ir.response import Usage

_USAGE: Final = Usage  # compiled, a static: not a look-up in the module's globals each call

__all__ = ["decode_usage", "encode_usage", "foreign_usage"]

_INPUT: Final = "input_tokens"
_OUTPUT: Final = "output_tokens"
_READ: Final = "cache_read_input_tokens"
_WRITE: Final = "cache_creation_input_tokens"
_DETAILS: Final = "output_tokens_details"
_COUNTS: Final = (_INPUT, _OUTPUT, _READ, _WRITE)
_KNOWN: Final = frozenset({*_COUNTS, _DETAILS})
_COUNT_KEYS: Final = frozenset(_COUNTS)


def _reasoning(usage: dict[str, Any], extra: Extra) -> int | None:
    details = usage.get(_DETAILS)
    if (
        type(details) is dict
        and details.keys() == {"thinking_tokens"}
        and type(details["thinking_tokens"]) is int
    ):
        return int(details["thinking_tokens"])
    if _DETAILS in usage:
        extra[_DETAILS] = details
    return None


def decode_usage(raw: Any, path: str = "$.usage") -> Usage:
    """Decode a ``usage`` object."""
    if type(raw) is dict:
        uncached, output, read, write = raw.get(_INPUT), raw.get(_OUTPUT), raw.get(_READ), raw.get(_WRITE)
        if (
            type(uncached) is int
            and type(output) is int
            and type(read) is int
            and type(write) is int
            and len(raw) == 4
        ):  # the four counts only (the common shape): the IR the loop below makes of them
            return _USAGE(uncached + read + write, output, None, read, write)
    if type(raw) is dict and raw.keys() <= _COUNT_KEYS:
        for value in raw.values():  # a loop: faster than all() of a generator
            if type(value) is not int:
                break
        else:  # _counts_only, inline (the common shape: a call less)
            uncached, read, write = raw.get(_INPUT), raw.get(_READ), raw.get(_WRITE)
            total = None if uncached is None else uncached + (read or 0) + (write or 0)
            return _USAGE(total, raw.get(_OUTPUT), None, read, write)
    usage = as_dict(raw, path)
    extra: Extra = {k: v for k, v in usage.items() if k not in _KNOWN}
    nulls = [k for k in _COUNTS if k in usage and usage[k] is None]
    if nulls:
        extra["~null"] = nulls
    uncached = opt_int(usage, _INPUT, path)
    read = opt_int(usage, _READ, path)
    write = opt_int(usage, _WRITE, path)
    total_input = None if uncached is None else uncached + (read or 0) + (write or 0)
    return _USAGE(
        input_tokens=total_input,
        output_tokens=opt_int(usage, _OUTPUT, path),
        cached_tokens=read,
        cache_creation_tokens=write,
        reasoning_tokens=_reasoning(usage, extra),
        extra=extra,
    )


def _uncached(usage: Usage, notes: Notes, path: str) -> int | None:
    if usage.input_tokens is None:
        return None
    uncached = usage.input_tokens - (usage.cached_tokens or 0) - (usage.cache_creation_tokens or 0)
    if uncached < 0:
        notes.add(f"{path}.input_tokens", "approximated", "cached tokens exceed input tokens; sent 0")
        return 0
    return uncached


def encode_usage(usage: Usage | None, same: bool, notes: Notes, path: str = "$.usage") -> dict[str, Any]:
    """Encode usage (``input_tokens`` and ``output_tokens`` are required: ``0`` when unknown)."""
    if usage is None:
        return {_INPUT: 0, _OUTPUT: 0}
    values = {
        _INPUT: _uncached(usage, notes, path),
        _OUTPUT: usage.output_tokens,
        _WRITE: usage.cache_creation_tokens,
        _READ: usage.cached_tokens,
    }
    nulls = usage.extra.get("~null", ()) if same else ()
    out: dict[str, Any] = {}
    for key, value in values.items():
        if value is not None or key in nulls:
            out[key] = value
        elif key in (_INPUT, _OUTPUT) and not same:
            out[key] = 0
    if usage.reasoning_tokens is not None:
        out[_DETAILS] = {"thinking_tokens": usage.reasoning_tokens}
    if usage.extra:
        emit_extra(out, usage.extra, same, notes, path)
    return out


def foreign_usage(usage: Usage | None) -> dict[str, Any]:
    """What :func:`encode_usage` writes for ``usage`` of another format (``same=False``), without
    its notes (the response lanes' usage writer): the uncached input (``0`` when the cached
    counts exceed it) and output counts, ``0`` when unknown, then the cache counts given."""
    if usage is None:
        return {_INPUT: 0, _OUTPUT: 0}
    inp, output = usage.input_tokens, usage.output_tokens
    write, read = usage.cache_creation_tokens, usage.cached_tokens
    if inp is None:
        inp = 0
    else:
        inp -= (read or 0) + (write or 0)
        if inp < 0:
            inp = 0
    out: dict[str, Any] = {_INPUT: inp, _OUTPUT: 0 if output is None else output}
    if write is not None:
        out[_WRITE] = write
    if read is not None:
        out[_READ] = read
    if usage.reasoning_tokens is not None:
        out[_DETAILS] = {"thinking_tokens": usage.reasoning_tokens}
    return out
