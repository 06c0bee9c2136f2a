"""OpenAI strict mode: one example per rule."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError, SchemaError
from toolwire.ir.notes import Notes
from toolwire.schema import can_be_strict, make_nullable, to_openai_strict

from ._util import Tracker


def _closed(props: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": props,
        "required": list(props),
        "additionalProperties": False,
        **extra,
    }


def _convert(schema: Any) -> tuple[Any, list[tuple[str, str]]]:
    notes = Tracker("drop")
    out = to_openai_strict(schema, notes)
    return out, [(note.path, note.kind) for note in notes.lossy]


# The two recursive examples of OpenAI's Structured Outputs guide, strict as they are.
LINKED_LIST = {
    "type": "object",
    "properties": {"linked_list": {"$ref": "#/$defs/linked_list_node"}},
    "$defs": {
        "linked_list_node": {
            "type": "object",
            "properties": {
                "value": {"type": "number"},
                "next": {"anyOf": [{"$ref": "#/$defs/linked_list_node"}, {"type": "null"}]},
            },
            "additionalProperties": False,
            "required": ["next", "value"],
        }
    },
    "additionalProperties": False,
    "required": ["linked_list"],
}
UI = {
    "type": "object",
    "properties": {
        "type": {"type": "string", "enum": ["div", "button"]},
        "label": {"type": "string"},
        "children": {"type": "array", "items": {"$ref": "#"}},
        "attributes": {
            "type": "array",
            "items": _closed({"name": {"type": "string"}, "value": {"type": "string"}}),
        },
    },
    "required": ["type", "label", "children", "attributes"],
    "additionalProperties": False,
}
CONSTRAINED = _closed(
    {
        "name": {
            "type": "string",
            "pattern": "^@[a-z]+$",
            "format": "email",
            "description": "d",
            "title": "t",
        },
        "n": {"type": "integer", "minimum": 1, "exclusiveMaximum": 9, "multipleOf": 2, "default": 2},
        "tags": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
        "mode": {"enum": ["a", "b"], "type": "string"},
        "k": {"const": "x", "type": "string"},
        "u": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    **{"$schema": "https://json-schema.org/draft/2020-12/schema"},
)


@pytest.mark.parametrize("schema", [LINKED_LIST, UI, CONSTRAINED], ids=["linked-list", "ui", "constrained"])
def test_conforming_schemas_come_back_as_the_same_object(schema: dict[str, Any]) -> None:
    notes = Notes("strict")
    assert to_openai_strict(schema, notes) is schema
    assert list(notes) == []
    assert can_be_strict(schema, lossless=True) == []


def test_objects_are_closed_and_optional_properties_become_nullable() -> None:
    schema = {
        "type": "object",
        "properties": {
            "s": {"type": "string"},
            "e": {"type": "string", "enum": ["a"]},
            "c": {"const": 3},
            "r": {"$ref": "#/$defs/R"},
            "any": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "n": {"type": ["integer", "null"]},
            "req": {"type": "boolean"},
            "gone": False,
        },
        "required": ["req"],
        "$defs": {"R": {"type": "integer"}},
    }
    out, lossy = _convert(schema)
    assert lossy == []
    assert out["required"] == list(schema["properties"])
    assert out["additionalProperties"] is False
    props = out["properties"]
    assert props["s"] == {"type": ["string", "null"]}
    assert props["e"] == {"type": ["string", "null"], "enum": ["a", None]}
    assert props["c"] == {"type": ["integer", "null"], "enum": [3, None]}
    assert props["r"] == {"anyOf": [{"$ref": "#/$defs/R"}, {"type": "null"}]}
    assert props["any"]["anyOf"][-1] == {"type": "null"}
    assert props["n"] is schema["properties"]["n"]
    assert props["req"] is schema["properties"]["req"]
    assert props["gone"] == {"type": "null"}


@pytest.mark.parametrize(
    ("extra", "kind"),
    [
        ({"additionalProperties": True}, "approximated"),
        ({"additionalProperties": {"type": "string"}}, "approximated"),
    ],
)
def test_open_objects_are_closed_with_a_note(extra: dict[str, Any], kind: str) -> None:
    out, lossy = _convert(
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], **extra}
    )
    assert out["additionalProperties"] is False
    assert lossy == [("$.additionalProperties", kind)]


def test_free_form_objects_and_pattern_properties_are_approximated() -> None:
    schema = {
        "type": "object",
        "properties": {"m": {"type": "object"}, "p": {"type": "object", "patternProperties": {"^x": {}}}},
        "required": ["m", "p"],
    }
    out, lossy = _convert(schema)
    assert out["properties"]["m"] == _closed({})
    assert out["properties"]["p"] == _closed({})
    assert lossy == [
        ("$.properties.m.additionalProperties", "approximated"),
        ("$.properties.p.patternProperties", "approximated"),
        ("$.properties.p.additionalProperties", "approximated"),
    ]


@pytest.mark.parametrize(
    ("keyword", "value"),
    [
        ("minLength", 1), ("maxLength", 5), ("format", "uri"), ("pattern", "^(?!x)"),
        ("contentMediaType", "text/plain"), ("examples", ["a"]), ("deprecated", True), ("x-vendor", 1),
        ("not", {"const": "x"}), ("if", {"const": "a"}), ("then", {"minLength": 2}), ("else", {}),
    ],
)  # fmt: skip
def test_unsupported_string_keywords_are_dropped(keyword: str, value: Any) -> None:
    schema = _closed({"s": {"type": "string", keyword: value}})
    out, lossy = _convert(schema)
    assert out["properties"]["s"] == {"type": "string"}
    assert lossy == [(f"$.properties.s.{keyword}".replace(".x-vendor", '["x-vendor"]'), "dropped")]


@pytest.mark.parametrize(
    ("node", "keyword"),
    [
        ({"type": "array", "items": {"type": "string"}, "uniqueItems": True}, "uniqueItems"),
        ({"type": "array", "items": {"type": "string"}, "contains": {"const": "a"}}, "contains"),
        ({**_closed({"a": {"type": "string"}}), "minProperties": 1}, "minProperties"),
        ({**_closed({"a": {"type": "string"}}), "propertyNames": {"maxLength": 3}}, "propertyNames"),
        ({**_closed({"a": {"type": "string"}}), "dependentRequired": {"a": ["a"]}}, "dependentRequired"),
        ({**_closed({"a": {"type": "string"}}), "dependentSchemas": {"a": {}}}, "dependentSchemas"),
    ],
)
def test_unsupported_array_and_object_keywords_are_dropped(node: dict[str, Any], keyword: str) -> None:
    out, lossy = _convert(_closed({"v": node}))
    assert keyword not in out["properties"]["v"]
    assert lossy == [(f"$.properties.v.{keyword}", "dropped")]


def test_noise_keywords_are_removed_silently() -> None:
    out, lossy = _convert(_closed({"a": {"type": "string", "$comment": "c", "$id": "x"}}))
    assert out["properties"]["a"] == {"type": "string"} and lossy == []


def test_one_of_becomes_any_of() -> None:
    exclusive = _closed({"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}})
    out, lossy = _convert(exclusive)
    assert out["properties"]["v"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]} and lossy == []
    literals = _closed({"v": {"oneOf": [{"const": "a", "type": "string"}, {"const": "b", "type": "string"}]}})
    _, lossy = _convert(literals)
    assert lossy == []
    overlapping = _closed({"v": {"oneOf": [{"type": "string"}, {"type": "string", "pattern": "^a"}]}})
    _, lossy = _convert(overlapping)
    assert lossy == [("$.properties.v.oneOf", "approximated")]


def test_all_of_is_merged() -> None:
    schema = _closed(
        {
            "v": {
                "description": "outer",
                "allOf": [
                    {
                        "type": "object",
                        "properties": {"a": {"type": "integer", "minimum": 0}},
                        "required": ["a"],
                    },
                    {"properties": {"a": {"maximum": 9}, "b": {"type": "string"}}, "description": "inner"},
                ],
            }
        }
    )
    out, lossy = _convert(schema)
    assert lossy == []
    assert out["properties"]["v"] == {
        "description": "outer",
        "type": "object",
        "properties": {
            "a": {"type": "integer", "minimum": 0, "maximum": 9},
            "b": {"type": ["string", "null"]},
        },
        "required": ["a", "b"],
        "additionalProperties": False,
    }


def test_all_of_of_one_ref_with_description_becomes_a_wrapped_ref() -> None:
    schema = _closed(
        {"v": {"allOf": [{"$ref": "#/$defs/X"}], "description": "d"}}, **{"$defs": {"X": {"type": "integer"}}}
    )
    out, lossy = _convert(schema)
    assert out["properties"]["v"] == {"anyOf": [{"$ref": "#/$defs/X"}], "description": "d"} and lossy == []


def test_all_of_with_conflicting_additional_properties_is_approximated() -> None:
    schema = _closed(
        {
            "v": {
                "allOf": [
                    _closed({"a": {"type": "string"}}),
                    {"type": "object", "properties": {"b": {"type": "string"}}},
                ]
            }
        }
    )
    _, lossy = _convert(schema)
    assert lossy == [("$.properties.v", "approximated")]


def test_draft4_forms_are_rewritten() -> None:
    schema = _closed({"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True}})
    out, lossy = _convert(schema)
    assert out["properties"]["n"] == {"type": "number", "exclusiveMinimum": 0} and lossy == []
    tuple_ = _closed({"t": {"type": "array", "items": [{"type": "string"}, {"type": "integer"}]}})
    out, lossy = _convert(tuple_)
    assert out["properties"]["t"] == {
        "type": "array",
        "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    }
    assert lossy == [("$.properties.t.prefixItems", "approximated")]


def test_openapi_and_gemini_spellings_become_json_schema() -> None:
    schema = {"type": "OBJECT", "properties": {"a": {"type": "STRING", "nullable": True, "enum": ["x"]}}}
    out, lossy = _convert(schema)
    assert out == _closed({"a": {"type": ["string", "null"], "enum": ["x", None]}}) and lossy == []


def test_ref_with_siblings_is_wrapped_and_refs_are_checked() -> None:
    schema = _closed({"v": {"$ref": "#/$defs/X", "description": "d"}}, **{"$defs": {"X": {"type": "string"}}})
    out, _ = _convert(schema)
    assert out["properties"]["v"] == {"anyOf": [{"$ref": "#/$defs/X"}], "description": "d"}
    with pytest.raises(SchemaError, match="points to nothing"):
        to_openai_strict(_closed({"v": {"$ref": "#/$defs/Y"}}), Notes("drop"))


def test_root_ref_is_inlined() -> None:
    schema = {"$ref": "#/$defs/Model", "$defs": {"Model": _closed({"a": {"type": "string"}})}}
    out, lossy = _convert(schema)
    assert out == {"$defs": schema["$defs"], **_closed({"a": {"type": "string"}})} and lossy == []


@pytest.mark.parametrize(
    ("schema", "path", "reason"),
    [
        ({"type": "string"}, "$", "root must be an object"),
        ({"anyOf": [_closed({}), _closed({"a": {"type": "string"}})]}, "$", "not anyOf"),
        (True, "$", "root must be an object schema"),
        (_closed({"a": {}}), "$.properties.a", "without a type"),
        (_closed({"a": {"description": "anything"}}), "$.properties.a", "without a type"),
        (_closed({"a": {"type": "array"}}), "$.properties.a", "array without items"),
        (_closed({"a": {"type": "array", "items": True}}), "$.properties.a.items", "no type"),
    ],
)
def test_what_strict_mode_cannot_express(schema: Any, path: str, reason: str) -> None:
    reasons = can_be_strict(schema)
    assert len(reasons) == 1 and reasons[0].startswith(f"{path}: ") and reason in reasons[0]
    with pytest.raises(SchemaError) as info:
        to_openai_strict(schema, Notes("strict"))
    assert info.value.path == path and reason in info.value.message
    notes = Tracker("drop")
    assert isinstance(to_openai_strict(schema, notes), dict)
    assert [note.kind for note in notes.lossy if "not accepted" in note.message] == ["approximated"]


def test_nullable_root_is_narrowed_to_object() -> None:
    out, lossy = _convert({**_closed({}), "type": ["object", "null"]})
    assert out["type"] == "object" and lossy == []


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        (_closed({"e": {"type": "integer", "enum": list(range(1001))}}), "1000 enum values"),
        (_closed({f"p{i}": {"type": "integer"} for i in range(5001)}), "5000 object properties"),
        (_closed({"e": {"type": "string", "enum": [f"{i:0>60}" for i in range(300)]}}), "15000 characters"),
    ],
)
def test_size_limits_are_reported(schema: dict[str, Any], reason: str) -> None:
    reasons = can_be_strict(schema)
    assert any(reason in item for item in reasons), reasons


def test_nesting_limit_is_reported() -> None:
    node: dict[str, Any] = _closed({})
    for _ in range(10):
        node = _closed({"c": node})
    assert can_be_strict(node) == ["$.properties.c.properties.c.properties.c.properties.c.properties.c."
                                   "properties.c.properties.c.properties.c.properties.c.properties.c: "
                                   "objects nested deeper than 10 levels"]  # fmt: skip


def test_strict_policy_raises_on_lossy_changes_only() -> None:
    with pytest.raises(ConversionError) as info:
        to_openai_strict(_closed({"s": {"type": "string", "minLength": 1}}), Notes("strict"))
    assert info.value.path == "$.properties.s.minLength"
    notes = Notes("strict")
    to_openai_strict({"type": "object", "properties": {"s": {"type": "string"}}}, notes)
    assert {note.kind for note in notes} == {"synthesized"}


def test_can_be_strict_reports_invalid_schemas_instead_of_raising() -> None:
    assert can_be_strict(_closed({"a": {"$ref": "#/nowhere"}})) == [
        "$.properties.a: $ref '#/nowhere' points to nothing"
    ]


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string"}, {"type": ["string", "null"]}),
        ({"type": ["string", "integer"]}, {"type": ["string", "integer", "null"]}),
        ({"enum": ["a"]}, {"enum": ["a", None]}),
        ({"$ref": "#/x"}, {"anyOf": [{"$ref": "#/x"}, {"type": "null"}]}),
        ({"anyOf": [{"type": "string"}]}, {"anyOf": [{"type": "string"}, {"type": "null"}]}),
        (False, {"type": "null"}),
    ],
)
def test_make_nullable(schema: Any, expected: Any) -> None:
    assert make_nullable(schema) == expected


@pytest.mark.parametrize(
    "schema", [{"type": "null"}, {"type": ["string", "null"]}, {}, True, {"enum": [None]}]
)
def test_make_nullable_keeps_schemas_that_accept_null(schema: Any) -> None:
    assert make_nullable(schema) is schema


def test_refs_to_any_pointer_are_kept_unless_the_target_was_rewritten() -> None:
    zod_style = _closed({"a": _closed({"n": {"type": "integer"}}), "b": {"$ref": "#/properties/a"}})
    assert to_openai_strict(zod_style, Notes("strict")) is zod_style
    rewritten = _closed(
        {
            "x": {
                "allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"required": ["a"]}]
            },
            "y": {"$ref": "#/properties/x/allOf/0"},
        }
    )
    assert can_be_strict(rewritten) == [
        "$.properties.y: $ref '#/properties/x/allOf/0' points into a part the conversion rewrote; use $defs"
    ]
