"""What OpenAI Chat and Responses share of their ``usage`` objects: the common shape's shortcut.

The two formats spell the same usage with other key names (``prompt_tokens`` /
``input_tokens``, ``prompt_tokens_details`` / ``input_tokens_details``...); each codec's
``decode_usage`` first tries :func:`counts_only` with its own :class:`UsageNames`.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.ir.response import Usage

_USAGE: Final = Usage  # compiled, a static: not a look-up in the module's globals each call

__all__ = ["UsageNames", "counts_only"]


class UsageNames:
    """One format's key names of a usage: its counts and its two details objects (and the
    lookups :func:`counts_only` makes with them)."""

    __slots__ = ("counts", "input", "input_details", "input_hint", "output", "output_details", "output_hint")

    def __init__(self, input: str, output: str, input_details: str, output_details: str) -> None:
        self.input = input
        self.output = output
        self.input_details = input_details
        self.output_details = output_details
        self.counts = frozenset({input, output, "total_tokens"})
        self.input_hint = "~" + input_details
        self.output_hint = "~" + output_details


def counts_only(usage: dict[str, Any], names: UsageNames) -> Usage | None:
    """The IR of a usage of integer counts and non-empty details of integer counts only (the
    common shape), as the format's general decoder makes it (each details object leaves an empty
    hint in ``extra``), without its checks; ``None`` for any other usage. Each known field is
    looked up once; an object holds no other field, and none of another type, when the number
    of its known fields of the right type is its size (a field of ``null``, of another type or
    of another name is not counted: ``type(x) is int`` is ``True`` or ``False``, summed)."""
    inner: Any = usage.get(names.input_details)
    outer: Any = usage.get(names.output_details)
    inp: Any = usage.get(names.input)
    out: Any = usage.get(names.output)
    total: Any = usage.get("total_tokens")
    size = (type(inp) is int) + (type(out) is int) + (type(total) is int)
    extra: dict[str, Any] = {}
    cached: Any = None
    write: Any = None
    reasoning: Any = None
    if inner is not None:
        if type(inner) is not dict:
            return None
        cached, write = inner.get("cached_tokens"), inner.get("cache_write_tokens")
        counted = (type(cached) is int) + (type(write) is int)
        if not counted or counted != len(inner):
            return None
        extra[names.input_hint] = {}
        size += 1
    if outer is not None:
        if type(outer) is not dict or len(outer) != 1:
            return None
        reasoning = outer.get("reasoning_tokens")
        if type(reasoning) is not int:
            return None  # its one name: a count
        extra[names.output_hint] = {}
        size += 1
    if size != len(usage):
        return None
    return _USAGE(inp, out, total, cached, write, reasoning, extra)
