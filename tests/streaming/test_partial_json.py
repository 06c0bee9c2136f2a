"""Partial JSON: every prefix of a valid argument text gives a sensible value, the whole gives the value."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire.partial_json import complete_json, parse_partial

_scalars = st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _is_prefix_of(partial: Any, full: Any) -> bool:
    """``partial`` is what a prefix of ``full`` may show: same shape, fewer or shorter items."""
    if isinstance(full, dict):
        return isinstance(partial, dict) and all(
            k in full and _is_prefix_of(v, full[k]) for k, v in partial.items()
        )
    if isinstance(full, list):
        return (
            isinstance(partial, list)
            and len(partial) <= len(full)
            and all(_is_prefix_of(p, f) for p, f in zip(partial, full, strict=False))
        )
    if isinstance(full, str):
        return isinstance(partial, str) and full.startswith(partial)
    if isinstance(full, bool) or full is None:
        return partial == full
    # a number may be cut short: 1234 shows as 1, 12, 123 on the way
    return isinstance(partial, (int, float)) and str(full).lstrip("-").startswith(
        str(abs(partial)).split(".")[0]
    )


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.text(max_size=6), _values, max_size=5))
def test_every_prefix_parses_to_a_prefix_of_the_value(value: dict[str, Any]) -> None:
    text = json.dumps(value)
    assert parse_partial(text) == value
    for cut in range(1, len(text)):
        partial = parse_partial(text[:cut])
        assert partial is None or _is_prefix_of(partial, value), (text[:cut], partial)


def test_examples() -> None:
    assert parse_partial("") is None
    assert parse_partial('{"city": "Par') == {"city": "Par"}
    assert parse_partial('{"city": "Paris", "da') == {"city": "Paris"}
    assert parse_partial('{"city": "Paris", "days"') == {"city": "Paris"}
    assert parse_partial('{"a": [1, 2, {"b": tr') == {"a": [1, 2, {}]}
    assert parse_partial('{"a": "x\\') == {"a": "x"}
    assert parse_partial('{"n": -1.') == {}
    assert complete_json('{"a": [1') == '{"a": [1]}'


def test_escaped_quotes_do_not_end_strings() -> None:
    assert parse_partial('{"q": "say \\"hi') == {"q": 'say "hi'}
    assert parse_partial('{"q": "a\\\\", "r') == {"q": "a\\"}
