from __future__ import annotations

import asyncio
import inspect
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field

from toolwire import PayloadError, Tool, ToolDefinitionError
from toolwire.decorator import ToolFunction, tool

from .models import Address, Color, Point, Window


@tool
def get_weather(city: str, days: int = 1, units: Literal["c", "f"] = "c") -> str:
    """Get the weather.

    Args:
        city: City name.
        days: Days ahead.
    """
    return f"{city}:{days}:{units}"


@tool(name="fetch_page", description="Fetch one page.", strict=True)
async def fetch(url: str, retries: int = 0) -> str:
    """Not used as description."""
    await asyncio.sleep(0)
    return f"{url}#{retries}"


@tool
def plan(
    stops: list[Point],
    address: Address,
    color: Color = Color.RED,
    window: Window | None = None,
    note: Annotated[str, Field(max_length=5)] = "",
    limit: int = Field(3, ge=1),
) -> dict[str, Any]:
    """Plan a trip."""
    return {}


def test_bare_decorator() -> None:
    assert isinstance(get_weather, ToolFunction)
    assert get_weather.tool == Tool(
        name="get_weather",
        description="Get the weather.",
        parameters={
            "type": "object",
            "properties": {
                "city": {"type": "string", "description": "City name."},
                "days": {"type": "integer", "default": 1, "description": "Days ahead."},
                "units": {"enum": ["c", "f"], "type": "string", "default": "c"},
            },
            "required": ["city"],
        },
    )
    assert get_weather("Oslo") == "Oslo:1:c"
    assert get_weather("Oslo", days=3, units="f") == "Oslo:3:f"
    assert get_weather.is_async is False


def test_decorator_with_arguments_and_async() -> None:
    assert fetch.tool == Tool(
        name="fetch_page",
        description="Fetch one page.",
        parameters={
            "type": "object",
            "properties": {"url": {"type": "string"}, "retries": {"type": "integer", "default": 0}},
            "required": ["url"],
        },
        strict=True,
    )
    assert fetch.is_async is True
    coro = fetch("https://x.test", retries=2)
    assert inspect.iscoroutine(coro)
    assert asyncio.run(coro) == "https://x.test#2"


def test_wraps_the_original() -> None:
    assert get_weather.__name__ == "get_weather"
    assert get_weather.__doc__ is not None and get_weather.__doc__.startswith("Get the weather.")
    assert get_weather.__wrapped__ is get_weather.fn
    assert list(inspect.signature(get_weather).parameters) == ["city", "days", "units"]
    assert inspect.iscoroutinefunction(fetch.fn)
    assert "get_weather" in repr(get_weather)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"city": "Oslo"}, {"city": "Oslo"}),
        ('{"city": "Oslo", "days": "2"}', {"city": "Oslo", "days": 2}),
        (b'{"city":"Oslo","units":"f"}', {"city": "Oslo", "units": "f"}),
    ],
)
def test_validate_arguments_good(args: Any, expected: dict[str, Any]) -> None:
    assert get_weather.validate_arguments(args) == expected
    assert get_weather(**get_weather.validate_arguments(args)).startswith("Oslo:")


def test_validate_converts_to_annotated_types_and_applies_field_defaults() -> None:
    validated = plan.validate_arguments(
        {"stops": [{"lat": 1, "lon": 2.5}], "address": {"street": "Main St"}, "color": "blue", "window": None}
    )
    assert validated == {
        "stops": [Point(lat=1.0, lon=2.5)],
        "address": Address(street="Main St", zip_code=None),
        "color": Color.BLUE,
        "window": None,
        "limit": 3,  # a Field(...) default is resolved: the function could not apply it itself
    }


def test_empty_string_means_no_arguments() -> None:
    @tool
    def ping() -> str:
        return "pong"

    assert ping.validate_arguments("") == {}
    assert ping.validate_arguments("  ") == {}
    assert ping.validate_arguments("{}") == {}


@pytest.mark.parametrize(
    ("tool_fn", "args", "path", "fragment"),
    [
        (get_weather, {}, "$.city", "required but missing"),
        (get_weather, {"city": 5}, "$.city", "valid string"),
        (get_weather, '{"city": "Oslo", "days": "many"}', "$.days", "valid integer"),
        (get_weather, {"city": "Oslo", "units": "k"}, "$.units", "'c' or 'f'"),
        (get_weather, {"city": "Oslo", "country": "NO"}, "$.country", "unexpected argument 'country'"),
        (get_weather, '{"city": ', "$", "invalid JSON"),
        (get_weather, "[1, 2]", "$", "must be a JSON object, got array"),
        (get_weather, '"Oslo"', "$", "got string"),
        (
            plan,
            {"stops": [{"lat": 1}, {"lat": "north"}], "address": {"street": "s"}},
            "$.stops[1].lat",
            "number",
        ),
        (plan, {"stops": [], "address": {}}, "$.address.street", "required but missing"),
        (plan, {"stops": [], "address": {"street": "s"}, "color": "green"}, "$.color", "'red' or 'blue'"),
        (plan, {"stops": [], "address": {"street": "s"}, "note": "too long"}, "$.note", "at most 5"),
        (
            plan,
            {"stops": [], "address": {"street": "s"}, "limit": 0},
            "$.limit",
            "greater than or equal to 1",
        ),
        (
            plan,
            {"stops": [], "address": {"street": "s"}, "window": {"start": "a"}},
            "$.window.end",
            "missing",
        ),
    ],
)
def test_validate_arguments_bad(tool_fn: ToolFunction[..., Any], args: Any, path: str, fragment: str) -> None:
    with pytest.raises(PayloadError) as info:
        tool_fn.validate_arguments(args)
    assert info.value.path == path
    assert fragment in info.value.message


def test_several_problems_are_all_reported() -> None:
    with pytest.raises(PayloadError) as info:
        plan.validate_arguments({"stops": "none", "address": {"zip_code": "x"}})
    assert info.value.path == "$.stops"
    assert "$.address.street: required but missing" in info.value.message
    assert "$.address.zip_code:" in info.value.message


def test_union_branch_names_stay_out_of_the_path() -> None:
    @tool
    def f(value: int | list[int]) -> None: ...

    with pytest.raises(PayloadError) as info:
        f.validate_arguments({"value": [1, "x"]})
    # pydantic tags union branches in its locations ("int", "list[int]"); only data keys reach paths
    assert info.value.path == "$.value"
    assert "$.value[1]: Input should be a valid integer, unable to parse string" in info.value.message


def test_method_decorated_in_a_class_binds() -> None:
    class Calculator:
        def __init__(self, base: int) -> None:
            self.base = base

        @tool
        def add(self, x: int) -> int:
            """Add to the base."""
            return self.base + x

    calc = Calculator(10)
    assert calc.add(5) == 15
    assert calc.add(**calc.add.validate_arguments('{"x": "5"}')) == 15
    assert calc.add.tool.parameters == {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "required": ["x"],
    }
    assert Calculator.add.tool is calc.add.tool


def test_decorator_errors_at_definition_time() -> None:
    with pytest.raises(ToolDefinitionError, match="'x'"):

        @tool
        def bad(x) -> None: ...  # type: ignore[no-untyped-def]

    with pytest.raises(ToolDefinitionError, match=r"'\*\*kw'"):

        @tool(name="bad")
        def bad2(**kw: int) -> None: ...
