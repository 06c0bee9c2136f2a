"""Gemini: the OpenAPI subset (one example per rule) and the JSON Schema field."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError
from toolwire.ir.notes import Notes
from toolwire.schema import to_gemini, to_gemini_json_schema

from ._util import Tracker


def _convert(schema: Any) -> tuple[Any, list[tuple[str, str]]]:
    notes = Tracker("drop")
    out = to_gemini(schema, notes)
    return out, [(note.path, note.kind) for note in notes.lossy]


def _prop(node: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"v": node}}


GEMINI_NATIVE = {
    "type": "OBJECT",
    "title": "T",
    "description": "d",
    "properties": {
        "s": {"type": "STRING", "format": "date-time", "minLength": 1, "maxLength": 9, "pattern": "^a"},
        "e": {"type": "STRING", "enum": ["a", "b"], "nullable": True, "default": "a"},
        "n": {"type": "NUMBER", "minimum": 0, "maximum": 1, "example": 0.5},
        "l": {"type": "ARRAY", "items": {"type": "INTEGER"}, "minItems": 1, "maxItems": 2},
        "o": {
            "type": "OBJECT",
            "properties": {"k": {"type": "BOOLEAN"}},
            "minProperties": 0,
            "maxProperties": 1,
        },
        "u": {"anyOf": [{"type": "STRING"}, {"type": "INTEGER"}]},
        "z": {"type": "NULL"},
    },
    "required": ["s"],
    "propertyOrdering": ["s", "e", "n", "l", "o", "u", "z"],
}


@pytest.mark.parametrize(
    "schema",
    [GEMINI_NATIVE, {"type": "object", "properties": {"x": {"type": "integer"}}, "required": ["x"]}],
    ids=["upper-case", "lower-case"],
)
def test_schemas_in_the_subset_come_back_as_the_same_object(schema: dict[str, Any]) -> None:
    notes = Notes("strict")
    assert to_gemini(schema, notes) is schema
    assert list(notes) == []


def test_refs_are_inlined_and_definitions_removed() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A", "description": "outer"}, "b": {"$ref": "#/definitions/B"}},
        "$defs": {
            "A": {"type": "object", "description": "inner", "properties": {"b": {"$ref": "#/definitions/B"}}}
        },
        "definitions": {"B": {"type": "string"}},
    }
    out, lossy = _convert(schema)
    assert lossy == []
    assert out == {
        "type": "object",
        "properties": {
            "a": {"type": "object", "description": "outer", "properties": {"b": {"type": "string"}}},
            "b": {"type": "string"},
        },
    }


def test_recursive_refs_are_cut_after_one_expansion() -> None:
    schema = {
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/Node"}},
        "$defs": {
            "Node": {
                "type": "object",
                "description": "a node",
                "properties": {"value": {"type": "integer"}, "next": {"$ref": "#/$defs/Node"}},
            }
        },
    }
    out, lossy = _convert(schema)
    assert lossy == [('$["$defs"].Node.properties.next', "approximated")]
    assert out["properties"]["head"]["properties"]["next"] == {"type": "object", "description": "a node"}
    with pytest.raises(ConversionError, match="recursive"):
        to_gemini(schema, Notes("strict"))


def test_root_recursion_is_cut() -> None:
    out, lossy = _convert({"type": "object", "properties": {"child": {"$ref": "#"}}})
    assert out == {"type": "object", "properties": {"child": {"type": "object"}}}
    assert lossy == [("$.properties.child", "approximated")]


@pytest.mark.parametrize(
    ("node", "expected"),
    [
        ({"type": ["string", "null"]}, {"type": "string", "nullable": True}),
        ({"type": ["null"]}, {"type": "null"}),
        (
            {"type": ["string", "integer"], "minLength": 1, "minimum": 2, "description": "d"},
            {
                "description": "d",
                "anyOf": [{"type": "string", "minLength": 1}, {"type": "integer", "minimum": 2}],
            },
        ),
        (
            {"type": ["string", "integer", "null"]},
            {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]},
        ),
        (
            {"anyOf": [{"type": "integer"}, {"type": "null"}], "title": "t"},
            {"title": "t", "type": "integer", "nullable": True},
        ),
        ({"const": "x"}, {"type": "string", "enum": ["x"]}),
        ({"const": None}, {"type": "null"}),
        ({"enum": ["a", None]}, {"type": "string", "enum": ["a"], "nullable": True}),
        (
            {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        ),
        (True, {}),
        ({"type": "integer", "exclusiveMinimum": 0, "minimum": 5}, {"type": "integer", "minimum": 5}),
        ({"type": "string", "additionalProperties": True}, {"type": "string"}),
        ({"type": "string", "$schema": "x", "$comment": "c"}, {"type": "string"}),
    ],
)
def test_lossless_rewrites(node: Any, expected: Any) -> None:
    out, lossy = _convert(_prop(node))
    assert out["properties"]["v"] == expected
    assert lossy == []


def test_refs_next_to_null_collapse_after_inlining() -> None:
    schema = {
        "type": "object",
        "properties": {"v": {"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]}},
        "$defs": {"X": {"type": "string"}},
    }
    out, lossy = _convert(schema)
    assert out["properties"]["v"] == {"type": "string", "nullable": True} and lossy == []


def test_all_of_is_merged() -> None:
    node = {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"required": ["a"]}]}
    out, lossy = _convert(_prop(node))
    assert out["properties"]["v"] == {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
    }
    assert lossy == []


@pytest.mark.parametrize(
    ("node", "expected", "notes"),
    [
        ({"enum": [1, 2]}, {"type": "string", "enum": ["1", "2"]}, [("enum", "approximated")]),
        (
            {"type": "integer", "enum": [1, True], "minimum": 0},
            {"type": "string", "enum": ["1", "true"]},
            [("enum", "approximated")],
        ),
        ({"const": 3}, {"type": "string", "enum": ["3"]}, [("enum", "approximated")]),
        (
            {"type": "integer", "exclusiveMinimum": 0},
            {"type": "integer", "minimum": 0},
            [("exclusiveMinimum", "dropped")],
        ),
        (
            {"type": "number", "exclusiveMaximum": 1.5},
            {"type": "number", "maximum": 1.5},
            [("exclusiveMaximum", "dropped")],
        ),
        (
            {"type": "object", "properties": {}, "additionalProperties": False},
            {"type": "object", "properties": {}},
            [("additionalProperties", "dropped")],
        ),
        (
            {"type": "object", "additionalProperties": {"type": "integer"}},
            {"type": "object"},
            [("additionalProperties", "dropped")],
        ),
        (
            {"type": "object", "patternProperties": {"^x": {}}},
            {"type": "object"},
            [("patternProperties", "dropped")],
        ),
        ({"type": "integer", "multipleOf": 2}, {"type": "integer"}, [("multipleOf", "dropped")]),
        ({"type": "string", "not": {"const": "a"}}, {"type": "string"}, [("not", "dropped")]),
        ({"type": "array", "uniqueItems": True}, {"type": "array"}, [("uniqueItems", "dropped")]),
        ({"type": "string", "examples": ["a"]}, {"type": "string"}, [("examples", "dropped")]),
        ({"type": "string", "x-vendor": 1}, {"type": "string"}, [('["x-vendor"]', "dropped")]),
        (
            {"oneOf": [{"type": "string"}, {"type": "string", "minLength": 2}]},
            {"anyOf": [{"type": "string"}, {"type": "string", "minLength": 2}]},
            [("oneOf", "approximated")],
        ),
        (
            {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
            [("prefixItems", "approximated")],
        ),
        (
            {"properties": {"a": {"type": "string"}}},
            {"type": "object", "properties": {"a": {"type": "string"}}},
            [("type", "approximated")],
        ),
        (False, {}, [("", "dropped")]),
    ],
)  # fmt: skip
def test_lossy_rewrites_are_noted(node: Any, expected: Any, notes: list[tuple[str, str]]) -> None:
    out, lossy = _convert(_prop(node))
    assert out["properties"]["v"] == expected
    prefixed = [(f"$.properties.v{'.' if key and key[0] != '[' else ''}{key}", kind) for key, kind in notes]
    assert lossy == prefixed


def test_untyped_root_with_object_keywords_gets_type_object_losslessly() -> None:
    out, lossy = _convert({"properties": {"a": {"type": "string"}}})
    assert out == {"type": "object", "properties": {"a": {"type": "string"}}} and lossy == []


def test_strict_policy_raises_on_lossy_rewrites() -> None:
    with pytest.raises(ConversionError) as info:
        to_gemini(_prop({"type": "object", "additionalProperties": False}), Notes("strict"))
    assert info.value.path == "$.properties.v.additionalProperties"


def test_json_schema_field_keeps_everything_but_dialect_noise() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"n": {"$ref": "#/$defs/N"}, "m": {"$schema": "x", "type": "string"}},
        "$defs": {
            "N": {
                "type": "object",
                "properties": {"next": {"$ref": "#/$defs/N"}},
                "additionalProperties": False,
            }
        },
    }
    notes = Notes("strict")
    out = to_gemini_json_schema(schema, notes)
    assert "$schema" not in out and "$schema" not in out["properties"]["m"]
    assert out["$defs"] is schema["$defs"] and out["properties"]["n"] is schema["properties"]["n"]
    assert [note.path for note in notes] == ['$["$schema"]', '$.properties.m["$schema"]']
    clean = {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}
    assert to_gemini_json_schema(clean, Notes("strict")) is clean


def test_refs_into_any_json_pointer_are_inlined_even_through_rewritten_parts() -> None:
    schema = {
        "type": "object",
        "properties": {
            "x": {
                "allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"required": ["a"]}]
            },
            "y": {"$ref": "#/properties/x/allOf/0"},
            "z": {"$ref": "#/properties/y"},
        },
    }
    out, lossy = _convert(schema)
    assert lossy == []
    part = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert out["properties"]["y"] == part and out["properties"]["z"] == part
