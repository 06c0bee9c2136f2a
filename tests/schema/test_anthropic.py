"""Anthropic input_schema: full JSON Schema, object root, no dialect noise."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import SchemaError
from toolwire.ir.notes import Notes
from toolwire.schema import to_anthropic

FULL = {
    "type": "object",
    "properties": {
        "a": {"oneOf": [{"type": "string"}, {"type": "integer"}], "not": {"const": 3}},
        "b": {"allOf": [{"$ref": "#/$defs/B"}], "description": "d"},
        "c": {
            "type": "object",
            "patternProperties": {"^x": {"type": "integer"}},
            "additionalProperties": False,
        },
        "d": {"if": {"minimum": 0}, "then": {"multipleOf": 2}, "else": {"maximum": -10}},
        "e": {"type": "array", "prefixItems": [{"type": "string"}], "items": False, "uniqueItems": True},
    },
    "$defs": {"B": {"type": "object", "properties": {"next": {"$ref": "#/$defs/B"}}}},
    "required": ["a"],
}


def test_full_json_schema_passes_through_as_the_same_object() -> None:
    notes = Notes("strict")
    assert to_anthropic(FULL, notes) is FULL
    assert list(notes) == []


def test_dialect_noise_is_removed_anywhere() -> None:
    schema = {"$schema": "x", "type": "object", "properties": {"a": {"$schema": "y", "type": "string"}}}
    notes = Notes("strict")
    assert to_anthropic(schema, notes) == {"type": "object", "properties": {"a": {"type": "string"}}}
    assert [(note.path, note.kind) for note in notes] == [
        ('$["$schema"]', "dropped"),
        ('$.properties.a["$schema"]', "dropped"),
    ]


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        (True, {"type": "object"}),
        ({}, {"type": "object"}),
        (
            {"properties": {"a": {"type": "string"}}},
            {"type": "object", "properties": {"a": {"type": "string"}}},
        ),
        ({"type": ["object", "null"], "properties": {}}, {"type": "object", "properties": {}}),
        ({"anyOf": [{"properties": {"a": {}}}]}, {"type": "object", "anyOf": [{"properties": {"a": {}}}]}),
        (
            {"type": "OBJECT", "properties": {"a": {"type": "STRING", "nullable": True}}},
            {"type": "object", "properties": {"a": {"type": ["string", "null"]}}},
        ),
    ],
)
def test_root_is_made_an_object_losslessly(schema: Any, expected: Any) -> None:
    notes = Notes("strict")
    assert to_anthropic(schema, notes) == expected
    assert {note.kind for note in notes} <= {"synthesized"}


@pytest.mark.parametrize("schema", [False, {"type": "string"}, {"type": ["array", "null"]}])
def test_non_object_roots_are_refused(schema: Any) -> None:
    with pytest.raises(SchemaError) as info:
        to_anthropic(schema, Notes("drop"), "$.tools[0].input_schema")
    assert info.value.path == "$.tools[0].input_schema"
