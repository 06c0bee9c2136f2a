from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwire import NameMap, ToolNameError, sanitize_name
from toolwire.ir import FORMATS
from toolwire.names import NAME_RULES, is_valid_name


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


# The exact renames are a cross-version contract: two gateways on different toolwire versions must
# map a tool name the same way, so the hash suffix form (``_`` + 8 hex digits of BLAKE2s-64 of the
# original name, UTF-8) and where the cut falls are pinned here, not just "some valid name".
@pytest.mark.parametrize(
    ("name", "target", "expected"),
    [
        ("x" * 70 + "a", "openai-chat", "x" * 55 + "_53ddc11d"),
        ("x" * 130, "anthropic", "x" * 119 + "_84ad15f0"),
        ("x" * 128 + "y", "anthropic", "x" * 119 + "_c5736021"),
        ("x" * 65, "gemini", "x" * 55 + "_a516c7cf"),
        ("9" * 70, "gemini", "_" + "9" * 54 + "_0001d33f"),
        ("é" * 70, "openai-chat", "_" * 56 + "225e0067"),  # hashed as UTF-8
        ("x" * 70 + "\ud800", "openai-chat", "x" * 55 + "_cb9c4a27"),  # a lone surrogate hashes too
    ],
)
def test_long_names_get_a_pinned_hash_suffix(name: str, target: str, expected: str) -> None:
    out = sanitize_name(name, target)  # type: ignore[arg-type]
    assert out == expected
    assert len(out) == NAME_RULES[target].max_length  # type: ignore[index]


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("x" * 64, "openai-chat"),
        ("x" * 64, "openai-responses"),
        ("x" * 128, "anthropic"),
        ("x" * 64, "gemini"),
    ],
)
def test_names_exactly_at_the_limit_are_kept(name: str, target: str) -> None:
    assert sanitize_name(name, target) == name  # type: ignore[arg-type]
    assert is_valid_name(name, target)  # type: ignore[arg-type]
    assert not is_valid_name(name + "x", target)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("lookup user", "lookup_user"),  # letter first: only the space changes, no "_" prefix
        ("école", "_cole"),  # the replaced first character is already "_": no second prefix
        ("-tool", "_-tool"),  # "-" is allowed inside a Gemini name, not first
        ("x" * 63 + "é", "x" * 63 + "_"),
    ],
)
def test_gemini_first_character(name: str, expected: str) -> None:
    assert sanitize_name(name, "gemini") == expected
    assert sanitize_name(name, "openai-chat") == name.replace("é", "_").replace(" ", "_")


def test_invalid_characters_are_replaced_per_format() -> None:
    assert sanitize_name("a.b:c d", "gemini") == "a.b:c_d"
    assert sanitize_name("a.b:c d", "anthropic") == "a_b_c_d"
    assert sanitize_name("a.b:c d", "openai-responses") == "a_b_c_d"
    assert not is_valid_name("a.b", "openai-chat") and is_valid_name("a.b", "gemini")
    assert not is_valid_name("", "anthropic") and not is_valid_name("9a", "gemini")


def test_collision_suffix_is_pinned() -> None:
    names = NameMap("anthropic")
    names.to_target("get.weather")
    assert names.to_target("get_weather") == "get_weather_dc7d9b82"
    gemini = NameMap("gemini")
    assert gemini.to_target("9a") == "_9a"
    assert gemini.to_target("_9a") == "_9a_56fdd087"


def test_a_collision_at_the_length_limit_stays_within_it() -> None:
    names = NameMap("openai-chat")
    first = names.to_target("a" * 63 + ".")
    second = names.to_target("a" * 63 + "_")  # valid as is, but its name is taken
    assert first == "a" * 63 + "_"
    assert second == "a" * 55 + "_8fb80512"
    assert len(second) == 64 and is_valid_name(second, "openai-chat")
    assert names.to_original(second) == "a" * 63 + "_"
    assert len(names) == 2


def test_a_name_whose_rewrite_is_taken_twice_is_an_error() -> None:
    names = NameMap("anthropic")
    names.to_target("get_weather")
    assert names.to_target("get.weather") == "get_weather_722c7b6e"  # the suffix hashes "get.weather"
    names = NameMap("anthropic")
    names.to_target("get.weather")  # takes "get_weather"
    names.to_target("get_weather_dc7d9b82")  # takes the suffixed form of "get_weather"
    with pytest.raises(ToolNameError, match="cannot find a collision-free name for 'get_weather'"):
        names.to_target("get_weather")


def test_the_same_name_maps_the_same_way_in_a_fresh_map() -> None:
    first, second = NameMap("openai-chat"), NameMap("openai-chat")
    for name in ("a.b", "a_b", "x" * 90):
        assert first.to_target(name) == second.to_target(name)
    assert first.renamed == {
        "a.b": "a_b",
        "a_b": "a_b_9ad734a6",
        "x" * 90: sanitize_name("x" * 90, "openai-chat"),
    }
    assert first.to_target("a_b") == first.renamed["a_b"]


def test_empty_name_error_message() -> None:
    with pytest.raises(ToolNameError, match=r"^tool name is empty$"):
        NameMap("gemini").to_target("")
