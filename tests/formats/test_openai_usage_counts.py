"""``decode_usage`` of the Responses and Chat codecs: a usage of integer counts (the common shape)
takes a shortcut; the same usage with float counts, which the shortcut leaves to the general code,
gives the same IR. The two codecs' usages differ in their key names only."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from toolwire.errors import PayloadError
from toolwire.formats._openai_usage import counts_only
from toolwire.formats.openai_chat import response as chat_usage
from toolwire.formats.openai_responses import _usage as responses_usage

_CHAT_NAMES = {
    "input_tokens": "prompt_tokens",
    "output_tokens": "completion_tokens",
    "input_tokens_details": "prompt_tokens_details",
    "output_tokens_details": "completion_tokens_details",
}


def _chat(usage: Any) -> Any:
    """A usage written with the Responses key names, with Chat's."""
    if type(usage) is not dict:
        return usage
    return {_CHAT_NAMES.get(key, key): _chat(value) for key, value in usage.items()}


CODECS: dict[str, tuple[Any, Any]] = {
    "openai-responses": (responses_usage, lambda usage: usage),
    "openai-chat": (chat_usage, _chat),
}
"""Each codec's usage module, and how it spells a usage written with the Responses key names."""

_COUNTS = ("input_tokens", "output_tokens", "total_tokens")
_INPUT = ("cached_tokens", "cache_write_tokens")
_OUTPUT = ("reasoning_tokens",)


def _subsets(keys: tuple[str, ...]) -> list[tuple[str, ...]]:
    return [c for r in range(len(keys) + 1) for c in itertools.combinations(keys, r)]


def _floats(value: Any) -> Any:
    if type(value) is dict:
        return {key: _floats(inner) for key, inner in value.items()}
    return float(value)


def _usages() -> list[dict[str, Any]]:
    out = []
    for counts, inner, outer in itertools.product(
        _subsets(_COUNTS), [None, *_subsets(_INPUT)], [None, *_subsets(_OUTPUT)]
    ):
        usage: dict[str, Any] = {key: 7 * index + 3 for index, key in enumerate(counts)}
        if inner is not None:
            usage["input_tokens_details"] = {key: 5 * index + 1 for index, key in enumerate(inner)}
        if outer is not None:
            usage["output_tokens_details"] = {key: 2 for key in outer}
        out.append(usage)
    return out


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("usage", _usages())
def test_usage_of_counts_decodes_as_the_general_code_does(usage: dict[str, Any], codec: str) -> None:
    module, spell = CODECS[codec]
    fast = module.decode_usage(spell(usage))
    general = module.decode_usage(spell(_floats(usage)))
    assert fast == general
    assert list(fast.extra) == list(general.extra)
    assert fast.input_tokens == usage.get("input_tokens")
    assert fast.output_tokens == usage.get("output_tokens")
    assert fast.total_tokens == usage.get("total_tokens")
    inner, outer = usage.get("input_tokens_details") or {}, usage.get("output_tokens_details") or {}
    assert (fast.cached_tokens, fast.cache_creation_tokens) == (
        inner.get("cached_tokens"),
        inner.get("cache_write_tokens"),
    )
    assert fast.reasoning_tokens == outer.get("reasoning_tokens")
    for key in ("input_tokens_details", "output_tokens_details"):
        assert ("~" + spell({key: 0}).popitem()[0] in fast.extra) == (key in usage)


OTHERS: dict[str, dict[str, Any]] = {
    "an unknown count": {"input_tokens": 1, "queue_tokens": 2},
    "an unknown detail": {"input_tokens_details": {"cached_tokens": 1, "audio_tokens": 2}},
    "an input detail in the output details": {"output_tokens_details": {"cached_tokens": 1}},
    "an empty details object": {"input_tokens": 1, "output_tokens_details": {}},
    "a null count": {"input_tokens": None, "output_tokens": 2},
    "a null detail": {"input_tokens_details": {"cached_tokens": None}},
}


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("name", OTHERS)
def test_other_usages_take_the_general_code(name: str, codec: str) -> None:
    """Shapes the shortcut leaves alone: the general code keeps their extra (the IR says so)."""
    module, spell = CODECS[codec]
    got = module.decode_usage(spell(OTHERS[name]))
    assert any(key[0] != "~" or (type(value) is dict and value) for key, value in got.extra.items())


@pytest.mark.parametrize("codec", CODECS)
def test_a_boolean_is_not_a_count(codec: str) -> None:
    module, spell = CODECS[codec]
    with pytest.raises(PayloadError):
        module.decode_usage(spell({"input_tokens": 1, "output_tokens": True}))
    with pytest.raises(PayloadError):
        module.decode_usage(spell({"input_tokens_details": {"cached_tokens": True}}))
    with pytest.raises(PayloadError):  # details as a count
        module.decode_usage(spell({"input_tokens_details": 3}))
    with pytest.raises(PayloadError):  # a count as details
        module.decode_usage(spell({"input_tokens": {"cached_tokens": 1}}))


@pytest.mark.parametrize("codec", CODECS)
def test_an_empty_usage_decodes_as_the_general_code_does(monkeypatch: pytest.MonkeyPatch, codec: str) -> None:
    module, _ = CODECS[codec]
    fast = module.decode_usage({})
    monkeypatch.setattr(module, "counts_only", lambda usage, names: None)
    assert fast == module.decode_usage({})


@pytest.mark.parametrize("codec", CODECS)
def test_every_usage_of_counts_takes_the_shortcut(codec: str) -> None:
    """The shortcut answers for each usage of counts and non-empty details (none left to the
    general code, which would give the same IR, only slower), and for no other shape."""
    module, spell = CODECS[codec]
    names = module._NAMES
    for usage in _usages():
        taken = all(value for value in usage.values() if type(value) is dict)
        assert (counts_only(spell(usage), names) is not None) == taken, usage
    for usage in OTHERS.values():
        assert counts_only(spell(usage), names) is None, usage


NULLS: dict[str, dict[str, Any]] = {
    "an unknown field of null": {"input_tokens": 1, "queue_tokens": None},
    "null details": {"input_tokens": 1, "input_tokens_details": None},
    "null output details": {"output_tokens": 1, "output_tokens_details": None},
    "a null total": {"input_tokens": 1, "output_tokens": 2, "total_tokens": None},
}


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("name", NULLS)
def test_fields_of_null_are_left_to_the_general_code(name: str, codec: str) -> None:
    """The shortcut counts the fields it reads: one of ``null`` (known or not) is not counted,
    so the usage is not of counts only (the general code keeps the nulls it remembers)."""
    module, spell = CODECS[codec]
    assert counts_only(spell(NULLS[name]), module._NAMES) is None
