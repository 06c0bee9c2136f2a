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
    hint in ``extra``), without its checks; ``None`` for any other usage."""
    counts = names.counts
    inner: dict[str, Any] | None = None
    outer: dict[str, Any] | None = None
    for key, value in usage.items():
        if type(value) is int:
            if key not in counts:
                return None
            continue
        if type(value) is not dict or not value:
            return None  # a details object: a non-empty dict (checked before the typed locals
            # take it: compiled, they refuse any other type)
        if key == names.input_details:
            known, inner = _INPUT_DETAILS, value
        elif key == names.output_details:
            known, outer = _OUTPUT_DETAILS, value
        else:
            return None
        if not value.keys() <= known:
            return None  # of known names, integer counts
        for count in value.values():
            if type(count) is not int:
                return None
    extra: dict[str, Any] = {}
    if inner is not None:
        extra[names.input_hint] = {}
    if outer is not None:
        extra[names.output_hint] = {}
    return Usage(
        input_tokens=usage.get(names.input),
        output_tokens=usage.get(names.output),
        total_tokens=usage.get("total_tokens"),
        cached_tokens=None if inner is None else inner.get("cached_tokens"),
        cache_creation_tokens=None if inner is None else inner.get("cache_write_tokens"),
        reasoning_tokens=None if outer is None else outer.get("reasoning_tokens"),
        extra=extra,
    )
