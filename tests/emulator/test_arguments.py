"""Schema-built tool arguments are valid for their schema (checked with jsonschema)."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

from tests.corpus import samples
from toolwire.emulator import example_arguments, example_value, text_hints
from toolwire.errors import ToolwireError
from toolwire.formats import get_codec
from toolwire.ir import Notes, Tool

SCHEMAS: list[dict[str, Any]] = [
    {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    {
        "type": "object",
        "properties": {
            "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
            "days": {"type": "integer", "minimum": 3, "maximum": 10},
            "ratio": {"type": "number", "exclusiveMaximum": 1},
            "tags": {"type": "array", "items": {"type": "string", "minLength": 5}, "minItems": 2},
            "when": {"type": "string", "format": "date-time"},
            "maybe": {"type": ["string", "null"], "maxLength": 3},
            "flag": {"type": "boolean"},
            "mode": {"const": "fast"},
        },
        "required": ["unit", "days", "extra_required"],
    },
    {
        "type": "object",
        "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}},
        "properties": {
            "a": {"$ref": "#/$defs/Point"},
            "b": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/Point"}]},
            "c": {"allOf": [{"$ref": "#/$defs/Point"}, {"properties": {"y": {"type": "string"}}}]},
        },
        "required": ["a", "b", "c"],
        "additionalProperties": False,
    },
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_arguments_valid_for_schema(schema: dict[str, Any]) -> None:
    value = example_arguments(schema)
    jsonschema.validate(value, schema)
    assert value == example_arguments(schema)  # deterministic
    assert set(schema.get("required", [])) <= set(value)


def test_enum_first_member_and_bounds() -> None:
    value = example_arguments(SCHEMAS[1])
    assert value["unit"] == "celsius"
    assert value["days"] == 3
    assert value["mode"] == "fast"
    assert len(value["tags"]) == 2


def test_hints_fill_plain_strings_in_order() -> None:
    schema = {
        "type": "object",
        "properties": {
            "origin": {"type": "string"},
            "when": {"type": "string", "format": "date"},
            "destination": {"type": "string", "maxLength": 3},
            "note": {"type": "string"},
        },
    }
    hints = text_hints('Fly from Paris to "Oslo Gardermoen" tomorrow. Then call Anna.')
    assert hints == ["Oslo Gardermoen", "Paris", "Anna"]
    value = example_arguments(schema, hints)
    assert value == {"origin": "Oslo Gardermoen", "when": "2024-01-15", "destination": "Par", "note": "Anna"}
    jsonschema.validate(value, schema)


def test_no_schema_gives_empty_object() -> None:
    assert example_arguments(None) == {}
    assert example_value({"type": "string"}, key="city") == "city"


def _fixture_tools() -> list[Tool]:
    tools: dict[str, Tool] = {}
    for fmt in ("openai-chat", "anthropic", "openai-responses", "gemini"):
        codec = get_codec(fmt)
        for sample in samples(fmt, "request"):
            if not isinstance(sample.payload, dict) or "tools" not in sample.payload:
                continue
            try:
                config = codec.decode_tool_config(sample.payload, Notes("drop"))
            except ToolwireError:  # only well-formed recorded requests are of interest
                continue
            for tool in config.tools:
                if isinstance(tool, Tool) and tool.parameters:
                    tools.setdefault(repr(tool.parameters), tool)
    return list(tools.values())


def _json_schema(openapi: Any) -> Any:
    """A Gemini OpenAPI-subset schema as JSON Schema (lower-case types, ``nullable``)."""
    if not isinstance(openapi, dict):
        return openapi
    out: dict[str, Any] = {}
    for key, value in openapi.items():
        if key == "properties" and isinstance(value, dict):
            out[key] = {name: _json_schema(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = _json_schema(value)
        elif key in ("anyOf", "oneOf", "allOf") and isinstance(value, list):
            out[key] = [_json_schema(sub) for sub in value]
        elif key == "type" and isinstance(value, str):
            out[key] = [value.lower(), "null"] if openapi.get("nullable") else value.lower()
        elif key != "nullable":
            out[key] = value
    return out


def test_arguments_valid_for_every_recorded_tool_schema() -> None:
    tools = _fixture_tools()
    if not tools:
        pytest.skip("fixture corpus not available")
    assert len(tools) > 20
    for tool in tools:
        assert tool.parameters is not None
        jsonschema.validate(example_arguments(tool.parameters), _json_schema(tool.parameters))
