from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwire import NameMap, ToolNameError, sanitize_name
from toolwire.ir import FORMATS
from toolwire.names import is_valid_name


@pytest.mark.parametrize(
    ("name", "target", "expected"),
    [
        ("get_weather", "anthropic", "get_weather"),
        ("lookup.user", "anthropic", "lookup_user"),
        ("lookup.user", "gemini", "lookup.user"),
        ("ns:tool", "openai-chat", "ns_tool"),
        ("9lives", "gemini", "_9lives"),
        ("9lives", "openai-responses", "9lives"),
        ("héllo wörld", "openai-chat", "h_llo_w_rld"),
    ],
)
def test_sanitize_examples(name: str, target: str, expected: str) -> None:
    assert sanitize_name(name, target) == expected  # type: ignore[arg-type]


def test_long_names_are_cut_with_a_distinguishing_hash() -> None:
    a, b = "x" * 70 + "a", "x" * 70 + "b"
    sa, sb = sanitize_name(a, "openai-chat"), sanitize_name(b, "openai-chat")
    assert len(sa) == 64 and len(sb) == 64 and sa != sb
    assert sanitize_name("x" * 100, "anthropic") == "x" * 100
    assert len(sanitize_name("x" * 130, "anthropic")) == 128


def test_empty_name_is_an_error() -> None:
    with pytest.raises(ToolNameError):
        sanitize_name("", "anthropic")


def test_name_map_resolves_collisions_and_restores() -> None:
    names = NameMap("anthropic")
    first = names.to_target("get.weather")
    second = names.to_target("get_weather")
    assert first == "get_weather"
    assert second != first and is_valid_name(second, "anthropic")
    assert names.to_original(first) == "get.weather"
    assert names.to_original(second) == "get_weather"
    assert names.to_target("get.weather") == first  # stable
    assert names.to_original("unknown") == "unknown"
    assert names.renamed == {"get.weather": "get_weather", "get_weather": second}


@given(
    st.lists(st.text(min_size=1, max_size=150), min_size=1, max_size=20, unique=True),
    st.sampled_from(FORMATS),
)
def test_name_map_is_valid_injective_and_reversible(originals: list[str], target: str) -> None:
    names = NameMap(target)  # type: ignore[arg-type]
    mapped = [names.to_target(n) for n in originals]
    assert all(is_valid_name(m, target) for m in mapped)  # type: ignore[arg-type]
    assert len(set(mapped)) == len(mapped)
    assert [names.to_original(m) for m in mapped] == originals
