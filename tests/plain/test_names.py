"""The writers' tool-name check (``toolwire._plain._names``): the target's own name rules, a
bounded memo of the names found valid."""

from __future__ import annotations

import pytest

from toolwire._plain._names import NameCheck
from toolwire.names import NAME_RULES


@pytest.mark.parametrize("fmt", ["openai-chat", "openai-responses", "anthropic", "gemini"])
def test_a_check_follows_its_targets_rules(fmt: str) -> None:
    check = NameCheck(fmt)  # type: ignore[arg-type]
    rule = NAME_RULES[fmt]  # type: ignore[index]
    names = ("get_weather", "a" * 64, "a" * 65, "bad name", "", "1abc", "a.b", "a-b", "ünï")
    for name in names:
        assert check(name) is (rule.pattern.fullmatch(name) is not None), name
        assert check(name) is (rule.pattern.fullmatch(name) is not None), name  # memo hit: same
    assert not check(None) and not check(["get_weather"])
    assert check.valid == {name for name in names if rule.pattern.fullmatch(name)}
    assert "get_weather" in check.valid and "bad name" not in check.valid


def test_the_memo_is_bounded() -> None:
    check = NameCheck("openai-chat")
    names = [f"tool_{index}" for index in range(5000)]
    assert all(check(name) for name in names)
    assert len(check.valid) == 4096
    assert check(names[-1])  # past the bound: still checked, not remembered
    assert names[-1] not in check.valid
