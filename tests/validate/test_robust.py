"""The validator never raises on junk: any JSON value anywhere gives problems, not exceptions."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.validate import cases_anthropic, cases_bedrock, cases_gemini, cases_openai
from toolwire.validate import FORMATS, KINDS, Problem, validate

BASES: dict[str, dict[str, Any]] = {
    "openai-chat": cases_openai.CHAT_BASE,
    "openai-responses": cases_openai.RESPONSES_BASE,
    "anthropic": cases_anthropic.BASE,
    "gemini": cases_gemini.BASE,
    "bedrock-converse": cases_bedrock.BASE,
}

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _nodes(item, (*path, i))
    return out


@settings(max_examples=60, deadline=None)
@given(fmt=st.sampled_from(FORMATS), kind=st.sampled_from(KINDS), value=JSON)
def test_any_json_value(fmt: str, kind: str, value: Any) -> None:
    problems = validate(value, format=fmt, kind=kind)  # type: ignore[arg-type]
    assert all(isinstance(p, Problem) for p in problems)


@settings(max_examples=150, deadline=None)
@given(fmt=st.sampled_from(FORMATS), data=st.data(), value=JSON)
def test_junk_anywhere_in_a_valid_request(fmt: str, data: st.DataObject, value: Any) -> None:
    payload = copy.deepcopy(BASES[fmt])
    path = data.draw(st.sampled_from(_nodes(payload)[1:]))
    target = payload
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    for problem in validate(payload, format=fmt):
        assert problem.path.startswith("$") and problem.code and problem.message
