from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from typing import Annotated, Any, Literal, Optional

from pydantic import Field

from toolwire import Tool
from toolwire.pytools import tool_from_function

from .models import Address, Color, Node, Point, Priority, Window

OBJ = "object"


def params_of(fn: Callable[..., Any]) -> dict[str, Any]:
    parameters = tool_from_function(fn).parameters
    assert parameters is not None
    return parameters


def test_google_docstring_function_full_tool() -> None:
    def get_weather(city: str, days: int = 1, units: Literal["c", "f"] = "c") -> str:
        """Get the weather forecast
        for a city.

        Second paragraph for developers only.

        Args:
            city: City name, e.g.
                "Oslo".
            days: How many days ahead.
            units (str): Temperature units.

        Returns:
            The forecast.
        """
        return ""

    assert tool_from_function(get_weather) == Tool(
        name="get_weather",
        description="Get the weather forecast for a city.",
        parameters={
            "type": OBJ,
            "properties": {
                "city": {"type": "string", "description": 'City name, e.g. "Oslo".'},
                "days": {"type": "integer", "default": 1, "description": "How many days ahead."},
                "units": {
                    "enum": ["c", "f"],
                    "type": "string",
                    "default": "c",
                    "description": "Temperature units.",
                },
            },
            "required": ["city"],
        },
    )


def test_numpy_docstring_function() -> None:
    def area(width: float, height: float) -> float:
        """Area of a rectangle.

        Parameters
        ----------
        width, height : float
            Side lengths in meters.
        """
        return width * height

    tool = tool_from_function(area)
    assert tool.description == "Area of a rectangle."
    assert tool.parameters == {
        "type": OBJ,
        "properties": {
            "width": {"type": "number", "description": "Side lengths in meters."},
            "height": {"type": "number", "description": "Side lengths in meters."},
        },
        "required": ["width", "height"],
    }


def test_sphinx_docstring_function() -> None:
    def send(to: str, body: str = "") -> None:
        """Send a message.

        :param to: Recipient address.
        :param str body: Message text.
        """

    tool = tool_from_function(send)
    assert tool.description == "Send a message."
    assert tool.parameters == {
        "type": OBJ,
        "properties": {
            "to": {"type": "string", "description": "Recipient address."},
            "body": {"type": "string", "default": "", "description": "Message text."},
        },
        "required": ["to"],
    }


def test_no_docstring_and_no_parameters() -> None:
    def ping() -> str:
        return "pong"

    assert tool_from_function(ping) == Tool(name="ping", parameters={"type": OBJ, "properties": {}})


def test_explicit_name_and_description_win() -> None:
    def f(x: int) -> None:
        """Docstring summary."""

    tool = tool_from_function(f, name="other", description="Given.", strict=True)
    assert (tool.name, tool.description, tool.strict) == ("other", "Given.", True)


def test_scalars_any_and_optional() -> None:
    def f(
        s: str,
        i: int,
        n: float,
        b: bool,
        a: Any,
        o: Optional[int],  # noqa: UP045
        u: int | None = None,
    ) -> None: ...

    assert params_of(f) == {
        "type": OBJ,
        "properties": {
            "s": {"type": "string"},
            "i": {"type": "integer"},
            "n": {"type": "number"},
            "b": {"type": "boolean"},
            "a": {},
            "o": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
            "u": {"anyOf": [{"type": "integer"}, {"type": "null"}], "default": None},
        },
        "required": ["s", "i", "n", "b", "a", "o"],
    }


def test_containers() -> None:
    def f(
        tags: list[str], scores: dict[str, float], pair: tuple[int, str], ids: frozenset[int] = frozenset()
    ) -> None: ...

    assert params_of(f) == {
        "type": OBJ,
        "properties": {
            "tags": {"type": "array", "items": {"type": "string"}},
            "scores": {"type": "object", "additionalProperties": {"type": "number"}},
            "pair": {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "string"}],
                "minItems": 2,
                "maxItems": 2,
            },
            "ids": {"type": "array", "items": {"type": "integer"}, "uniqueItems": True, "default": []},
        },
        "required": ["tags", "scores", "pair"],
    }


def test_literal_and_enums_use_defs_without_titles() -> None:
    def f(mode: Literal["fast", "slow"], color: Color, priority: Priority = Priority.LOW) -> None: ...

    assert params_of(f) == {
        "type": OBJ,
        "properties": {
            "mode": {"enum": ["fast", "slow"], "type": "string"},
            "color": {"$ref": "#/$defs/Color"},
            "priority": {"$ref": "#/$defs/Priority", "default": 1},
        },
        "required": ["mode", "color"],
        "$defs": {
            "Color": {"enum": ["red", "blue"], "type": "string"},
            "Priority": {"description": "How urgent it is.", "enum": [1, 2], "type": "integer"},
        },
    }


def test_model_dataclass_and_typeddict_parameters() -> None:
    def f(address: Address, where: Point, window: Window | None = None) -> None:
        """Plan a visit.

        Args:
            address: Where to go.
            where: Exact spot.
        """

    assert params_of(f) == {
        "type": OBJ,
        "properties": {
            "address": {"$ref": "#/$defs/Address", "description": "Where to go."},
            "where": {"$ref": "#/$defs/Point", "description": "Exact spot."},
            "window": {"anyOf": [{"$ref": "#/$defs/Window"}, {"type": "null"}], "default": None},
        },
        "required": ["address", "where"],
        "$defs": {
            "Address": {
                "type": OBJ,
                "properties": {
                    "street": {"type": "string"},
                    "zip_code": {
                        "anyOf": [{"type": "integer"}, {"type": "null"}],
                        "default": None,
                        "description": "Postal code.",
                    },
                },
                "required": ["street"],
                "description": "A postal address.",
            },
            "Point": {
                "type": OBJ,
                "properties": {"lat": {"type": "number"}, "lon": {"type": "number", "default": 0.0}},
                "required": ["lat"],
            },
            "Window": {
                "type": OBJ,
                "properties": {"start": {"type": "string"}, "end": {"type": "string"}},
                "required": ["start", "end"],
            },
        },
    }


def test_recursive_model_keeps_defs() -> None:
    def f(tree: Node) -> None: ...

    assert params_of(f) == {
        "type": OBJ,
        "properties": {"tree": {"$ref": "#/$defs/Node"}},
        "required": ["tree"],
        "$defs": {
            "Node": {
                "type": OBJ,
                "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "default": []},
                },
                "required": ["name"],
            }
        },
    }


def test_annotated_descriptions_and_their_precedence() -> None:
    def f(
        a: Annotated[str, "From the annotation."],
        b: Annotated[int, Field(description="From Field.", ge=0)],
        c: Annotated[str, "Annotation string."] = "x",
        d: int = Field(3, description="Field as default.", le=9),
        e: str = "",
    ) -> None:
        """Summary.

        Args:
            a: Docstring loses to the annotation.
            b: Docstring loses to Field.
            e: Docstring is used.
        """

    assert params_of(f) == {
        "type": OBJ,
        "properties": {
            "a": {"type": "string", "description": "From the annotation."},
            "b": {"type": "integer", "minimum": 0, "description": "From Field."},
            "c": {"type": "string", "default": "x", "description": "Annotation string."},
            "d": {"type": "integer", "maximum": 9, "default": 3, "description": "Field as default."},
            "e": {"type": "string", "default": "", "description": "Docstring is used."},
        },
        "required": ["a", "b"],
    }


def test_parameter_names_that_clash_with_pydantic_are_fine() -> None:
    def f(schema: str, model_config: int, _private: bool, json: float = 1.5) -> None: ...

    assert params_of(f) == {
        "type": OBJ,
        "properties": {
            "schema": {"type": "string"},
            "model_config": {"type": "integer"},
            "_private": {"type": "boolean"},
            "json": {"type": "number", "default": 1.5},
        },
        "required": ["schema", "model_config", "_private"],
    }


def test_default_that_is_not_json_is_left_out_but_still_optional() -> None:
    sentinel = object()

    def f(x: Any = sentinel) -> None: ...

    assert params_of(f) == {"type": OBJ, "properties": {"x": {}}}


def test_async_function() -> None:
    async def fetch(url: str, timeout: float = 10.0) -> str:
        """Fetch a page."""
        await asyncio.sleep(0)
        return url

    assert tool_from_function(fetch) == Tool(
        name="fetch",
        description="Fetch a page.",
        parameters={
            "type": OBJ,
            "properties": {"url": {"type": "string"}, "timeout": {"type": "number", "default": 10.0}},
            "required": ["url"],
        },
    )


class Service:
    def lookup(self, key: str) -> str:
        """Look a key up."""
        return key

    @classmethod
    def make(cls, size: int) -> None: ...


def test_self_and_cls_are_skipped() -> None:
    expected = {"type": OBJ, "properties": {"key": {"type": "string"}}, "required": ["key"]}
    assert params_of(Service.lookup) == expected  # plain function: self skipped
    assert params_of(Service().lookup) == expected  # bound method
    assert params_of(Service.make)["properties"] == {"size": {"type": "integer"}}


def test_partial_keeps_the_wrapped_docstring_and_drops_bound_arguments() -> None:
    def search(index: str, query: str, limit: int = 5) -> None:
        """Search an index.

        Args:
            query: Text to find.
        """

    tool = tool_from_function(functools.partial(search, "docs"), name="search_docs")
    assert tool == Tool(
        name="search_docs",
        description="Search an index.",
        parameters={
            "type": OBJ,
            "properties": {
                "query": {"type": "string", "description": "Text to find."},
                "limit": {"type": "integer", "default": 5},
            },
            "required": ["query"],
        },
    )


def test_tool_from_function_via_ir_classmethod() -> None:
    def f(x: int) -> None:
        """Do f."""

    assert Tool.from_function(f, name="g") == Tool(
        name="g",
        description="Do f.",
        parameters={"type": OBJ, "properties": {"x": {"type": "integer"}}, "required": ["x"]},
    )
