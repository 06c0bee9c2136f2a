"""``usageMetadata`` <-> IR :class:`~toolwire.ir.Usage`.

The IR follows the OpenAI convention: ``input_tokens`` = ``promptTokenCount`` +
``toolUsePromptTokenCount`` (cached tokens included, as in Gemini's prompt count),
``output_tokens`` = ``candidatesTokenCount`` + ``thoughtsTokenCount`` (reasoning included),
``reasoning_tokens`` = ``thoughtsTokenCount``, ``cached_tokens`` = ``cachedContentTokenCount``.
The raw split (tool-use prompt count, absent counts) is remembered so that Gemini gets
the exact object back; the detail arrays and other fields stay in ``Usage.extra``.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire.formats._wire import as_dict, opt_int
from toolwire.formats.gemini._keys import emit, split
from toolwire.ir.notes import Notes
from toolwire.ir.response import Usage

_USAGE: Final = Usage  # compiled, a static: not a look-up in the module's globals each call

__all__ = ["decode_usage", "encode_usage", "foreign_usage"]

_KNOWN: Final = frozenset(
    {
        "promptTokenCount",
        "candidatesTokenCount",
        "totalTokenCount",
        "cachedContentTokenCount",
        "thoughtsTokenCount",
        "toolUsePromptTokenCount",
    }
)


def _sum(a: int | None, b: int | None) -> int | None:
    if a is None and b is None:
        return None
    return (a or 0) + (b or 0)


_COUNTS: Final = _KNOWN - {"toolUsePromptTokenCount"}


def _counts_only(usage: dict[str, Any]) -> Usage:
    """:func:`decode_usage` of a usage of integer counts only, no tool-use prompt count (the
    common shape), without the checks of the general code, which makes the same IR of it (the
    output count ``_sum``'s of two integers, spelled out)."""
    candidates, thoughts = usage.get("candidatesTokenCount"), usage.get("thoughtsTokenCount")
    if thoughts is None:
        output, extra = candidates, {}
    elif candidates is None:
        output, extra = thoughts, {"~candidates": False}
    else:
        output, extra = candidates + thoughts, {}
    return _USAGE(
        input_tokens=usage.get("promptTokenCount"),
        output_tokens=output,
        total_tokens=usage.get("totalTokenCount"),
        cached_tokens=usage.get("cachedContentTokenCount"),
        reasoning_tokens=thoughts,
        extra=extra,
    )


def _common(usage: dict[str, Any]) -> Usage | None:
    """:func:`_counts_only` of the common shape, or ``None``: the prompt, candidates and total
    counts, a cached and a thoughts count when given, integers, and no other field (the fields
    of an integer counted: their number is the usage's size)."""
    prompt: Any = usage.get("promptTokenCount")
    candidates: Any = usage.get("candidatesTokenCount")
    total: Any = usage.get("totalTokenCount")
    if type(prompt) is not int or type(candidates) is not int or type(total) is not int:
        return None
    cached: Any = usage.get("cachedContentTokenCount")
    thoughts: Any = usage.get("thoughtsTokenCount")
    if 3 + (type(cached) is int) + (type(thoughts) is int) != len(usage):
        return None
    if thoughts is None:
        return _USAGE(prompt, candidates, total, cached)
    return _USAGE(prompt, candidates + thoughts, total, cached, None, thoughts)


def decode_usage(raw: Any, path: str = "$.usageMetadata") -> Usage:
    """Decode ``usageMetadata``."""
    if type(raw) is dict:
        fast = _common(raw)
        if fast is not None:
            return fast
    if type(raw) is dict and raw.keys() <= _COUNTS:
        for value in raw.values():  # a loop: faster than all() of a generator
            if type(value) is not int:
                break
        else:
            return _counts_only(raw)
    usage = as_dict(raw, path)
    prompt = opt_int(usage, "promptTokenCount", path)
    candidates = opt_int(usage, "candidatesTokenCount", path)
    thoughts = opt_int(usage, "thoughtsTokenCount", path)
    tool = opt_int(usage, "toolUsePromptTokenCount", path)
    extra = split(usage, _KNOWN)
    if tool is not None:
        extra["~tool"] = tool
        if prompt is None:
            extra["~prompt"] = False
    if thoughts is not None and candidates is None:
        extra["~candidates"] = False
    return _USAGE(
        input_tokens=_sum(prompt, tool),
        output_tokens=_sum(candidates, thoughts),
        total_tokens=opt_int(usage, "totalTokenCount", path),
        cached_tokens=opt_int(usage, "cachedContentTokenCount", path),
        reasoning_tokens=thoughts,
        extra=extra,
    )


def encode_usage(usage: Usage, same: bool, notes: Notes) -> dict[str, Any]:
    """Encode a usage as ``usageMetadata``."""
    hints = usage.extra if same else {}
    out: dict[str, Any] = {}
    tool = hints.get("~tool")
    if usage.input_tokens is not None and hints.get("~prompt", True):
        out["promptTokenCount"] = usage.input_tokens - (tool or 0)
    if usage.output_tokens is not None and hints.get("~candidates", True):
        out["candidatesTokenCount"] = usage.output_tokens - (usage.reasoning_tokens or 0)
    total = usage.total_tokens
    if total is None and not same and usage.input_tokens is not None and usage.output_tokens is not None:
        total = usage.input_tokens + usage.output_tokens
    if total is not None:
        out["totalTokenCount"] = total
    if usage.cached_tokens is not None:
        out["cachedContentTokenCount"] = usage.cached_tokens
    if usage.reasoning_tokens is not None:
        out["thoughtsTokenCount"] = usage.reasoning_tokens
    if tool is not None:
        out["toolUsePromptTokenCount"] = tool
    if not same and usage.cache_creation_tokens:
        notes.add("$.usageMetadata", "dropped", "cache creation token count")
    return emit(out, usage.extra, same, notes, "$.usageMetadata")


def foreign_usage(usage: Usage) -> dict[str, Any]:
    """What :func:`encode_usage` writes for ``usage`` of another format (``same=False``), without
    its notes (the response lanes' usage writer): the counts given, ``candidatesTokenCount``
    without the thoughts, the total the sum of the two counts when unknown and both known."""
    out: dict[str, Any] = {}
    inp, output, reasoning = usage.input_tokens, usage.output_tokens, usage.reasoning_tokens
    if inp is not None:
        out["promptTokenCount"] = inp
    if output is not None:
        out["candidatesTokenCount"] = output if reasoning is None else output - reasoning
    total = usage.total_tokens
    if total is None and inp is not None and output is not None:
        total = inp + output
    if total is not None:
        out["totalTokenCount"] = total
    if usage.cached_tokens is not None:
        out["cachedContentTokenCount"] = usage.cached_tokens
    if reasoning is not None:
        out["thoughtsTokenCount"] = reasoning
    return out
