"""``decode_usage`` of a usage of integer counts (the common shape) takes a shortcut; the same
usage with float counts, which the shortcut leaves to the general code, gives the same IR."""

from __future__ import annotations

import itertools

import pytest

from toolwire.errors import PayloadError
from toolwire.formats.gemini._usage import decode_usage

_COUNTS = (
    "promptTokenCount",
    "candidatesTokenCount",
    "totalTokenCount",
    "cachedContentTokenCount",
    "thoughtsTokenCount",
    "toolUsePromptTokenCount",
)


@pytest.mark.parametrize("present", [c for r in range(7) for c in itertools.combinations(_COUNTS, r)])
def test_usage_of_counts_decodes_as_the_general_code_does(present: tuple[str, ...]) -> None:
    usage = {key: 7 * index + 3 for index, key in enumerate(present)}
    fast = decode_usage(usage)
    general = decode_usage({key: float(value) for key, value in usage.items()})
    assert fast == general
    assert list(fast.extra) == list(general.extra)
    tool = usage.get("toolUsePromptTokenCount")
    prompt = usage.get("promptTokenCount")
    assert fast.input_tokens == (None if prompt is None and tool is None else (prompt or 0) + (tool or 0))
    candidates, thoughts = usage.get("candidatesTokenCount"), usage.get("thoughtsTokenCount")
    assert fast.output_tokens == (
        None if candidates is None and thoughts is None else (candidates or 0) + (thoughts or 0)
    )
    assert fast.reasoning_tokens == thoughts
    assert fast.cached_tokens == usage.get("cachedContentTokenCount")
    assert fast.total_tokens == usage.get("totalTokenCount")
    assert fast.extra.get("~candidates", True) is (thoughts is None or candidates is not None)
    with pytest.raises(PayloadError):  # a boolean is not a count: the general code says so
        decode_usage({**usage, "totalTokenCount": True})


def test_other_usages_keep_their_extra() -> None:
    assert decode_usage({"promptTokenCount": 1, "promptTokensDetails": []}).extra == {
        "promptTokensDetails": []
    }
    assert decode_usage({"promptTokenCount": None}).extra == {"~null": ["promptTokenCount"]}
