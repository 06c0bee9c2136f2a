"""What OpenAI Chat and Responses share of their ``usage`` objects: the common shape's shortcut.

The two formats spell the same usage with other key names (``prompt_tokens`` /
``input_tokens``, ``prompt_tokens_details`` / ``input_tokens_details``...); each codec's
``decode_usage`` first tries :func:`counts_only` with its own :class:`UsageNames`.
"""

from __future__ import annotations

from typing import Any

from toolwire.ir.response import Usage

__all__ = ["UsageNames", "counts_only"]

_INPUT_DETAILS = frozenset({"cached_tokens", "cache_write_tokens"})
_OUTPUT_DETAILS = frozenset({"reasoning_tokens"})


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
    looked up once and checked; the usage holds no other when their number is its size (a field
    of ``null``, or of another name, is not counted)."""
    inner: Any = usage.get(names.input_details)
    outer: Any = usage.get(names.output_details)
    inp: Any = usage.get(names.input)
    out: Any = usage.get(names.output)
    total: Any = usage.get("total_tokens")
    size = 0
    extra: dict[str, Any] = {}
    cached = write = reasoning = None
    if inner is not None:
        if type(inner) is not dict or not inner or not inner.keys() <= _INPUT_DETAILS:
            return None
        for count in inner.values():
            if type(count) is not int:
                return None
        cached, write = inner.get("cached_tokens"), inner.get("cache_write_tokens")
        extra[names.input_hint] = {}
        size = 1
    if outer is not None:
        if type(outer) is not dict or not outer or not outer.keys() <= _OUTPUT_DETAILS:
            return None
        reasoning = outer.get("reasoning_tokens")
        if type(reasoning) is not int:
            return None  # its one name: a count
        extra[names.output_hint] = {}
        size += 1
    if inp is not None:
        if type(inp) is not int:
            return None
        size += 1
    if out is not None:
        if type(out) is not int:
            return None
        size += 1
    if total is not None:
        if type(total) is not int:
            return None
        size += 1
    if size != len(usage):
        return None
    return Usage(inp, out, total, cached, write, reasoning, extra)
