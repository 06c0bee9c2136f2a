"""The common shape's shortcuts of the Anthropic, Gemini and Bedrock usage decoders (issue 18: a small
response's reader): each gives the IR the decoder's other code gives the same usage, and each
answers for the shape it names and no other."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from toolwire.errors import PayloadError
from toolwire.formats.anthropic._usage import decode_usage as anthropic_usage
from toolwire.formats.bedrock_converse._keys import decode_usage as bedrock_usage
from toolwire.formats.gemini import _usage as gemini
from toolwire.ir.response import Usage

_ANTHROPIC = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


def _floats(usage: dict[str, Any]) -> dict[str, Any]:
    return {key: float(value) for key, value in usage.items()}


@pytest.mark.parametrize("present", [c for r in range(5) for c in itertools.combinations(_ANTHROPIC, r)])
def test_anthropic_counts_decode_as_the_general_code_does(present: tuple[str, ...]) -> None:
    usage = {key: 7 * index + 3 for index, key in enumerate(present)}
    fast = anthropic_usage(usage)
    assert fast == anthropic_usage(_floats(usage))  # floats: the general code
    with pytest.raises(PayloadError):  # a boolean is not a count
        anthropic_usage({**usage, "output_tokens": True})


def test_anthropic_four_counts() -> None:
    usage = {
        "input_tokens": 10,
        "output_tokens": 5,
        "cache_read_input_tokens": 100,
        "cache_creation_input_tokens": 1000,
    }
    assert anthropic_usage(usage) == Usage(
        input_tokens=1110, output_tokens=5, cached_tokens=100, cache_creation_tokens=1000
    )
    assert anthropic_usage({**usage, "service_tier": "standard"}).extra == {"service_tier": "standard"}
    assert anthropic_usage({**usage, "cache_read_input_tokens": None}).extra == {
        "~null": ["cache_read_input_tokens"]
    }


_GEMINI = (
    "promptTokenCount",
    "candidatesTokenCount",
    "totalTokenCount",
    "cachedContentTokenCount",
    "thoughtsTokenCount",
    "toolUsePromptTokenCount",
)
_COMMON = {"promptTokenCount", "candidatesTokenCount", "totalTokenCount"}


@pytest.mark.parametrize("present", [c for r in range(7) for c in itertools.combinations(_GEMINI, r)])
def test_gemini_common_shape(present: tuple[str, ...]) -> None:
    """``_common`` answers for the three counts, a cached and a thoughts count, and no other
    usage; what it answers is ``_counts_only``'s (the decoder's shortcut of counts)."""
    usage = {key: 7 * index + 3 for index, key in enumerate(present)}
    common = gemini._common(usage)
    assert (common is not None) == (usage.keys() >= _COMMON and "toolUsePromptTokenCount" not in usage)
    if common is not None:
        counts = gemini._counts_only(usage)
        assert common == counts
        assert list(common.extra) == list(counts.extra)
        assert gemini._common({**usage, "cachedContentTokenCount": None}) is None  # a null: not counted
        assert gemini._common({**usage, "thoughtsTokenCount": 1.0}) is None
        assert gemini._common({**usage, "totalTokenCount": True}) is None
        assert gemini._common({**usage, "promptTokensDetails": []}) is None


_BEDROCK = ("inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokens", "cacheWriteInputTokens")


@pytest.mark.parametrize("present", [c for r in range(6) for c in itertools.combinations(_BEDROCK, r)])
@pytest.mark.parametrize("null", [None, *_BEDROCK])
def test_bedrock_counts_decode_as_the_general_code_does(present: tuple[str, ...], null: str | None) -> None:
    """Every subset of the counts, each with one of them null: the shortcut (integers, the three
    counts there) and the general code (given floats) make the same IR, ``~absent`` included."""
    usage: dict[str, Any] = {key: 7 * index + 3 for index, key in enumerate(present)}
    if null is not None:
        usage[null] = None
    assert bedrock_usage(usage) == bedrock_usage({k: v if v is None else float(v) for k, v in usage.items()})
    with pytest.raises(PayloadError):  # a boolean is not a count
        bedrock_usage({**usage, "outputTokens": True})


def test_bedrock_three_counts_and_the_caches() -> None:
    usage = {"inputTokens": 10, "outputTokens": 5, "totalTokens": 1115, "cacheReadInputTokens": 100}
    assert bedrock_usage({**usage, "cacheWriteInputTokens": 1000}) == Usage(
        input_tokens=1110, output_tokens=5, total_tokens=1115, cached_tokens=100, cache_creation_tokens=1000
    )
    assert bedrock_usage({**usage, "cacheDetails": []}).extra == {"cacheDetails": []}
    assert bedrock_usage({"inputTokens": 1, "outputTokens": 2}).extra == {"~absent": ["totalTokens"]}
