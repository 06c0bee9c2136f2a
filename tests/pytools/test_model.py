from __future__ import annotations

import pytest
from pydantic import BaseModel, ConfigDict, Field, RootModel

from toolwire import Tool, ToolDefinitionError, ToolNameError
from toolwire.pytools import tool_from_model

from .models import Address, Color


class SearchWeb(BaseModel):
    """Search the web.

    Results are ranked by relevance.

    Attributes:
        query: What to look for.
        limit: Ignored: Field description wins.
        color: Highlight color.
    """

    query: str
    limit: int = Field(10, ge=1, le=50, description="Maximum results.")
    color: Color | None = None
    near: Address | None = None
    language: str = Field("en", alias="lang")


def test_model_tool_full_output() -> None:
    assert tool_from_model(SearchWeb) == Tool(
        name="SearchWeb",
        description="Search the web.",
        parameters={
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "What to look for."},
                "limit": {
                    "type": "integer",
                    "maximum": 50,
                    "minimum": 1,
                    "default": 10,
                    "description": "Maximum results.",
                },
                "color": {
                    "anyOf": [{"$ref": "#/$defs/Color"}, {"type": "null"}],
                    "default": None,
                    "description": "Highlight color.",
                },
                "near": {"anyOf": [{"$ref": "#/$defs/Address"}, {"type": "null"}], "default": None},
                "lang": {"type": "string", "default": "en"},
            },
            "required": ["query"],
            "$defs": {
                "Color": {"enum": ["red", "blue"], "type": "string"},
                "Address": {
                    "type": "object",
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
            },
        },
    )


def test_name_description_strict_overrides_and_ir_classmethod() -> None:
    tool = Tool.from_model(SearchWeb, name="search", description="Find pages.")
    assert (tool.name, tool.description, tool.strict) == ("search", "Find pages.", None)
    assert tool_from_model(SearchWeb, strict=True).strict is True


def test_model_config_is_respected() -> None:
    class Closed(BaseModel):
        model_config = ConfigDict(extra="forbid", title="Closed arguments")
        x: int

    assert tool_from_model(Closed) == Tool(
        name="Closed",
        parameters={
            "type": "object",
            "properties": {"x": {"type": "integer"}},
            "required": ["x"],
            "title": "Closed arguments",
            "additionalProperties": False,
        },
    )


def test_model_without_docstring_or_fields() -> None:
    class Empty(BaseModel):
        pass

    assert tool_from_model(Empty) == Tool(name="Empty", parameters={"type": "object", "properties": {}})


def test_schema_description_is_used_when_there_is_no_docstring() -> None:
    class Described(BaseModel):
        model_config = ConfigDict(json_schema_extra={"description": "From config."})
        x: int = 0

    tool = tool_from_model(Described)
    assert tool.description == "From config."
    assert tool.parameters == {"type": "object", "properties": {"x": {"type": "integer", "default": 0}}}


class Numbers(RootModel[list[int]]):
    pass


@pytest.mark.parametrize(
    ("value", "fragment"),
    [
        (Numbers, "does not describe a JSON object"),
        (dict, "expected a pydantic BaseModel subclass"),
        (SearchWeb(query="x", limit=1, lang="en"), "expected a pydantic BaseModel subclass"),
    ],
)
def test_bad_models(value: object, fragment: str) -> None:
    with pytest.raises(ToolDefinitionError, match=fragment):
        tool_from_model(value)


def test_bad_name() -> None:
    with pytest.raises(ToolNameError):
        tool_from_model(SearchWeb, name="")
