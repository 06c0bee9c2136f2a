from __future__ import annotations

from typing import Any

import pytest

from toolwire import SchemaError, Tool, ToolNameError
from toolwire.pytools import tool_from_json_schema

WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}},
    "required": ["city"],
    "additionalProperties": False,
}


def test_good_schema_is_kept_by_reference() -> None:
    tool = tool_from_json_schema("get_weather", WEATHER, description="Weather.", strict=True)
    assert tool == Tool(name="get_weather", description="Weather.", parameters=WEATHER, strict=True)
    assert tool.parameters is WEATHER


@pytest.mark.parametrize(
    "schema",
    [
        {"properties": {"x": {"type": "number"}}},  # no type, but properties
        {"type": "object"},
        {"type": "object", "properties": {}, "$defs": {"P": {"type": "string"}}, "required": []},
        {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "definitions": {}},
    ],
)
def test_other_good_schemas(schema: dict[str, Any]) -> None:
    assert tool_from_json_schema("t", schema).parameters is schema


def test_ir_classmethod() -> None:
    assert Tool.from_json_schema("lookup.user", {"type": "object"}) == Tool(
        name="lookup.user", parameters={"type": "object"}
    )


@pytest.mark.parametrize(
    ("schema", "path", "fragment"),
    [
        ([], "$", "got array"),
        ("object", "$", "got string"),
        ({}, "$", "must describe an object"),
        ({"type": "array", "items": {}}, "$.type", "'array'"),
        ({"type": ["object", "null"]}, "$.type", "must be an object"),
        (
            {"type": "object", "properties": {"a": {"type": "strin"}}},
            "$.properties.a.type",
            "invalid JSON Schema",
        ),
        ({"type": "object", "required": "a"}, "$.required", 'not of type "array"'),
        (
            {"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}},
            "$.properties.a.pattern",
            'invalid JSON Schema: "(" is not a "regex"',
        ),
        (
            {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}},
            '$.properties.a["$ref"]',
            "remote $ref 'https://example.com/a.json' refused",
        ),
        (
            {"type": "object", "properties": {"a b": {"minimum": "1"}}},
            '$.properties["a b"].minimum',
            '"1" is not of type "number"',
        ),
        (
            {
                "$schema": "http://json-schema.org/draft-07/schema#",
                "type": "object",
                "properties": {"a": {"type": 5}},
            },
            "$.properties.a.type",
            "invalid JSON Schema",
        ),
    ],
)
def test_bad_schemas(schema: Any, path: str, fragment: str) -> None:
    with pytest.raises(SchemaError) as info:
        tool_from_json_schema("t", schema)
    assert info.value.path == path
    assert fragment in info.value.message


@pytest.mark.parametrize(
    ("name", "fragment"), [("", "empty"), (" ", "empty"), ("x" * 129, "129"), (7, "string")]
)
def test_bad_names(name: Any, fragment: str) -> None:
    with pytest.raises(ToolNameError, match=fragment):
        tool_from_json_schema(name, {"type": "object"})


def test_loose_name_check_allows_characters_that_targets_sanitize() -> None:
    assert tool_from_json_schema("x" * 128, {"type": "object"}).name == "x" * 128
    assert tool_from_json_schema("ns:lookup user", {"type": "object"}).name == "ns:lookup user"


def test_checks_do_not_depend_on_the_jsonschema_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """The meta-schema check runs on the core validator: blocking ``jsonschema`` changes nothing."""
    monkeypatch.setitem(__import__("sys").modules, "jsonschema", None)
    with pytest.raises(SchemaError) as info:
        tool_from_json_schema("t", {"type": "object", "properties": {"a": {"type": "strin"}}})
    assert info.value.path == "$.properties.a.type"
    with pytest.raises(SchemaError):
        tool_from_json_schema("t", {"type": "array"})
