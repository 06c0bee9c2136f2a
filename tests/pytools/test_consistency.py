"""Generated schemas against jsonschema: valid 2020-12, and never stricter than validate_arguments."""

from __future__ import annotations

from typing import Any

import jsonschema
import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire import PayloadError
from toolwire.decorator import ToolFunction

from .test_decorator import fetch, get_weather, plan

TOOLS = [get_weather, fetch, plan]


@pytest.mark.parametrize("tool_fn", TOOLS, ids=lambda t: t.tool.name)
def test_generated_schema_is_valid_2020_12_and_serializable(tool_fn: ToolFunction[..., Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(tool_fn.tool.parameters)
    assert msgspec.json.decode(msgspec.json.encode(tool_fn.tool)) == msgspec.to_builtins(tool_fn.tool)


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=False)
    | st.sampled_from(["", "c", "f", "Oslo", "2"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["lat", "lon", "street"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["city", "days", "units", "extra"]), json_values, max_size=4))
def test_schema_valid_arguments_are_accepted(args: dict[str, Any]) -> None:
    schema = get_weather.tool.parameters
    assert schema is not None
    try:
        validated = get_weather.validate_arguments(args)
    except PayloadError as exc:
        assert exc.path is not None and exc.path.startswith("$")
        schema_ok = jsonschema.Draft202012Validator(schema).is_valid(args)
        assert not schema_ok or set(args) - set(schema["properties"])  # only unknown arguments are stricter
        return
    assert set(validated) == set(args)
    assert get_weather(**validated).startswith(str(validated["city"]))


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["stops", "address", "color", "window", "note", "limit"]), json_values, max_size=6
    )
)
def test_nested_arguments_fail_only_with_payload_errors(args: dict[str, Any]) -> None:
    try:
        plan.validate_arguments(args)
    except PayloadError as exc:
        assert exc.path is not None and exc.path.startswith("$")
