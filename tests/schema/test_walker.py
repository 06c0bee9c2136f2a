"""The walker: every subschema location, cheap path, limits on untrusted input, $ref resolution."""

from __future__ import annotations

import copy
import sys
from typing import Any

import pytest

from toolwire.errors import LimitError, SchemaError
from toolwire.ir.notes import Notes
from toolwire.schema import (
    LOCATIONS,
    MAX_DEPTH_CEILING,
    Limits,
    inline_refs,
    iter_children,
    map_children,
    render_path,
    resolve_ref,
    to_anthropic,
    to_gemini,
    to_gemini_json_schema,
    to_openai_strict,
    transform,
    walk,
)

EVERY_LOCATION: dict[str, Any] = {
    "properties": {"p": {"title": "properties"}},
    "patternProperties": {"^x": {"title": "patternProperties"}},
    "$defs": {"D": {"title": "$defs"}},
    "definitions": {"E": {"title": "definitions"}},
    "dependentSchemas": {"p": {"title": "dependentSchemas"}},
    "dependencies": {"p": {"title": "dependencies"}, "q": ["p"]},
    "additionalProperties": {"title": "additionalProperties"},
    "propertyNames": {"title": "propertyNames"},
    "additionalItems": {"title": "additionalItems"},
    "unevaluatedItems": {"title": "unevaluatedItems"},
    "unevaluatedProperties": {"title": "unevaluatedProperties"},
    "contains": {"title": "contains"},
    "not": {"title": "not"},
    "if": {"title": "if"},
    "then": {"title": "then"},
    "else": {"title": "else"},
    "contentSchema": {"title": "contentSchema"},
    "items": {"title": "items"},
    "allOf": [{"title": "allOf"}],
    "anyOf": [{"title": "anyOf"}],
    "oneOf": [{"title": "oneOf"}],
    "prefixItems": [{"title": "prefixItems"}],
    "enum": [{"title": "not a schema"}],
    "const": {"title": "not a schema"},
    "default": {"title": "not a schema"},
    "x-vendor": {"title": "not a schema"},
}

ALL_KINDS = [
    {"type": "string", "minLength": 1, "maxLength": 3, "pattern": "^a", "format": "date"},
    {"type": "integer", "minimum": 0, "exclusiveMaximum": 10, "multipleOf": 2},
    {"type": "array", "items": {"type": "boolean"}, "minItems": 1, "prefixItems": [{"type": "null"}]},
    {"type": "object", "properties": {"a": {}}, "required": ["a"], "additionalProperties": False},
    {"anyOf": [{"type": "string"}], "oneOf": [{"type": "integer"}]},
    {"$ref": "#/$defs/X", "$defs": {"X": {"type": "integer"}}},
]


def _deep(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "array", "items": node}
    return node


def _wide(count: int) -> dict[str, Any]:
    return {"type": "object", "properties": {f"p{i}": {"type": "integer"} for i in range(count)}}


# ---------------------------------------------------------------------- locations


def test_walk_visits_every_subschema_location_and_nothing_else() -> None:
    titles = [node.get("title") for node, _ in walk(EVERY_LOCATION) if type(node) is dict]
    expected = {key for key in LOCATIONS}
    assert set(titles) - {None} == expected
    assert "not a schema" not in titles
    assert len(titles) == len(expected) + 1  # the root has no title


def test_walk_reports_paths_and_handles_boolean_schemas() -> None:
    schema = {"properties": {"a b": True, "c": {"items": [False]}}}
    got = [(render_path(loc), node) for node, loc in walk(schema)]
    assert got == [
        ("$", schema),
        ('$.properties["a b"]', True),
        ("$.properties.c", {"items": [False]}),
        ("$.properties.c.items[0]", False),
    ]


def test_iter_children_matches_walk() -> None:
    direct = [render_path(loc) for _, loc in iter_children(EVERY_LOCATION, "$")]
    assert len(direct) == len(LOCATIONS)
    assert "$.dependencies.q" not in direct  # property-name lists are not schemas


def test_map_children_cheap_path_and_copy_on_write() -> None:
    schema = copy.deepcopy(EVERY_LOCATION)
    assert map_children(schema, "$", lambda node, loc: node) is schema
    changed = map_children(schema, "$", lambda node, loc: {"seen": render_path(loc)} if node != {} else node)
    assert changed is not schema and schema == EVERY_LOCATION
    assert changed["properties"] == {"p": {"seen": "$.properties.p"}}
    assert changed["allOf"] == [{"seen": "$.allOf[0]"}]
    assert changed["dependencies"]["q"] == ["p"]
    assert changed["enum"] is schema["enum"]


def test_transform_identity_returns_same_object_and_never_mutates() -> None:
    for schema in ALL_KINDS:
        before = copy.deepcopy(schema)
        assert transform(schema, pre=lambda n, loc: n, post=lambda n, loc: n) is schema
        assert schema == before


def test_transform_pre_sees_node_before_children_post_after() -> None:
    order: list[str] = []
    schema = {"properties": {"a": {"items": {}}}}
    transform(
        schema,
        pre=lambda n, loc: order.append("pre " + render_path(loc)) or n,
        post=lambda n, loc: order.append("post " + render_path(loc)) or n,
    )
    assert order == [
        "pre $", "pre $.properties.a", "pre $.properties.a.items",
        "post $.properties.a.items", "post $.properties.a", "post $",
    ]  # fmt: skip


def test_transform_rebuilds_only_the_changed_branch() -> None:
    schema = {"properties": {"a": {"type": "integer"}, "b": {"type": "string"}}}
    out = transform(schema, post=lambda n, loc: {"type": "number"} if n == {"type": "integer"} else n)
    assert out["properties"]["a"] == {"type": "number"}
    assert out["properties"]["b"] is schema["properties"]["b"]


@pytest.mark.parametrize(
    ("schema", "path"),
    [
        ({"properties": {"a": "string"}}, "$.properties.a"),
        ({"properties": ["a"]}, "$.properties"),
        ({"anyOf": {"type": "string"}}, "$.anyOf"),
        ({"items": [{"type": "string"}, 3]}, "$.items[1]"),
        ({"not": None}, "$.not"),
        ("object", "$"),
    ],
)
def test_non_schemas_in_schema_locations_raise_schema_error_with_path(schema: Any, path: str) -> None:
    for run in (lambda: list(walk(schema)), lambda: transform(schema)):
        with pytest.raises(SchemaError) as info:
            run()
        assert info.value.path == path


# ---------------------------------------------------------------------- limits

TARGETS = [to_openai_strict, to_gemini, to_anthropic, to_gemini_json_schema]


@pytest.mark.parametrize("target", TARGETS, ids=lambda f: f.__name__)
def test_ten_thousand_levels_deep_is_a_limit_error_not_recursion_error(target: Any) -> None:
    schema = {"type": "object", "properties": {"deep": _deep(10_000)}}
    with pytest.raises(LimitError) as info:
        target(schema, Notes("drop"))
    assert info.value.path is not None and info.value.path.startswith("$.properties.deep.items.items")
    assert "64 levels" in info.value.message


def test_walk_depth_limit_is_iterative_and_configurable() -> None:
    with pytest.raises(LimitError):
        list(walk(_deep(10_000)))
    assert len(list(walk(_deep(100), limits=Limits(max_depth=100)))) == 101
    with pytest.raises(LimitError) as info:
        transform(_deep(6), limits=Limits(max_depth=5))
    assert info.value.path == "$" + ".items" * 6


@pytest.mark.parametrize("target", TARGETS, ids=lambda f: f.__name__)
def test_huge_node_counts_are_refused(target: Any) -> None:
    with pytest.raises(LimitError) as info:
        target(_wide(20_000), Notes("drop"))
    assert info.value.path is not None and info.value.path.startswith("$.properties.p")
    target(_wide(200), Notes("drop"), limits=Limits(max_nodes=205))


def test_limits_are_validated() -> None:
    with pytest.raises(ValueError):
        Limits(max_depth=0)
    with pytest.raises(ValueError):
        Limits(max_depth=100_000)
    with pytest.raises(ValueError):
        Limits(max_nodes=0)


def test_exponential_reference_fan_out_is_refused_when_inlining() -> None:
    defs = {"L0": {"type": "string"}}
    for level in range(1, 30):
        ref = {"$ref": f"#/$defs/L{level - 1}"}
        defs[f"L{level}"] = {"type": "object", "properties": {"a": ref, "b": ref}}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/L29"}}, "$defs": defs}
    with pytest.raises(LimitError) as info:
        to_gemini(schema, Notes("drop"))
    assert "10000" in info.value.message and info.value.path is not None


# ---------------------------------------------------------------------- references


@pytest.mark.parametrize(
    ("ref", "expected", "where"),
    [
        ("#", "ROOT", "$"),
        ("#/$defs/A", {"type": "string"}, '$["$defs"].A'),
        ("#/definitions/B", {"type": "integer"}, "$.definitions.B"),
        ("#/properties/a~1b/items/0", {"const": 1}, '$.properties["a/b"].items[0]'),
        ("#/properties/t~0", {"const": 2}, '$.properties["t~"]'),
        ("#/%24defs/A", {"type": "string"}, '$["$defs"].A'),
    ],
)
def test_resolve_ref_follows_json_pointers(ref: str, expected: Any, where: str) -> None:
    root = {
        "$defs": {"A": {"type": "string"}},
        "definitions": {"B": {"type": "integer"}},
        "properties": {"a/b": {"items": [{"const": 1}]}, "t~": {"const": 2}},
    }
    target, loc = resolve_ref(root, ref, "$")
    assert target == (root if expected == "ROOT" else expected)
    assert render_path(loc) == where


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("#/$defs/Missing", "points to nothing"),
        ("other.json#/x", "only local references"),
        ("#anchor", "anchor references"),
        ("#/$defs/A/99", "points to nothing"),
        (7, "must be a string"),
    ],
)
def test_bad_refs_raise_schema_error_at_the_ref_site(ref: Any, message: str) -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": ref}}, "$defs": {"A": {"type": "string"}}}
    for target in (to_gemini, to_openai_strict):
        with pytest.raises(SchemaError) as info:
            target(schema, Notes("drop"))
        assert message in info.value.message
        assert info.value.path is not None and info.value.path.startswith("$.properties.a")


def test_inline_refs_cuts_recursion_and_notes_each_site_once() -> None:
    schema = {
        "type": "object",
        "properties": {"left": {"$ref": "#/$defs/Node"}, "right": {"$ref": "#/$defs/Node"}},
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
    }
    notes = Notes("drop")
    out = inline_refs(
        schema, notes, cut=lambda target, ref, loc: {"cut": ref}, merge=lambda parts, loc: parts
    )
    node = {"type": "object", "properties": {"next": {"cut": "#/$defs/Node"}}}
    assert out == {"type": "object", "properties": {"left": node, "right": node}}
    recursive = [note for note in notes if note.kind == "approximated"]
    assert [note.path for note in recursive] == ['$["$defs"].Node.properties.next']
    with pytest.raises(Exception, match="recursive"):
        inline_refs(schema, Notes("strict"), cut=lambda *a: {}, merge=lambda parts, loc: parts)


def test_inline_refs_cuts_root_recursion_at_first_use() -> None:
    schema = {"type": "object", "properties": {"self": {"$ref": "#"}}}
    out = inline_refs(
        schema, Notes("drop"), cut=lambda target, ref, loc: {"cut": ref}, merge=lambda p, loc: p
    )
    assert out == {"type": "object", "properties": {"self": {"cut": "#"}}}


def _deep_list(levels: int) -> list[Any]:
    root: list[Any] = []
    current = root
    for _ in range(levels):
        current.append([])
        current = current[0]
    return root


@pytest.mark.parametrize("target", [to_openai_strict, to_gemini], ids=lambda f: f.__name__)
def test_self_referencing_all_of_is_a_limit_error(target: Any) -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/A"}},
        "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}, {"type": "object"}]}},
    }
    with pytest.raises(LimitError) as info:
        target(schema, Notes("drop"))
    assert info.value.path == '$["$defs"].A' and "allOf" in info.value.message


def test_deeply_nested_values_never_exhaust_the_stack() -> None:
    deep, twin = _deep_list(100_000), _deep_list(100_000)
    merged = {"type": "object", "properties": {"a": {"allOf": [{"const": deep}, {"const": twin}]}}}
    out = to_openai_strict(merged, Notes("drop"))
    assert out["properties"]["a"]["enum"][0] is deep  # equal consts merged, then made nullable
    for schema in ({"type": "object", "properties": {"a": {"enum": [deep]}}}, merged):
        with pytest.raises(LimitError) as info:
            to_gemini(schema, Notes("drop"))
        assert info.value.path == "$.properties.a.enum"
    assert to_anthropic({"type": "object", "default": deep}, Notes("strict"))["default"] is deep


def test_reference_alias_chains_are_bounded() -> None:
    defs = {f"A{i}": {"$ref": f"#/$defs/A{i + 1}"} for i in range(2000)}
    defs["A2000"] = {"type": "string"}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/A0"}}, "$defs": defs}
    with pytest.raises(LimitError) as info:
        to_gemini(schema, Notes("drop"))
    assert info.value.path is not None and "$defs" in info.value.path


def _at_stack_depth(frames: int, call: Any) -> Any:
    return call() if frames == 0 else _at_stack_depth(frames - 1, call)


@pytest.mark.parametrize("target", TARGETS, ids=lambda f: f.__name__)
def test_deepest_allowed_schema_fits_the_stack_and_deeper_callers_get_limit_errors(target: Any) -> None:
    limits = Limits(max_depth=MAX_DEPTH_CEILING)
    schema = {"type": "object", "properties": {"deep": _deep(MAX_DEPTH_CEILING - 2)}}
    _at_stack_depth(200, lambda: target(schema, Notes("drop"), limits=limits))
    with pytest.raises(LimitError) as info:
        _at_stack_depth(
            sys.getrecursionlimit() - 150, lambda: target(schema, Notes("drop"), "$.p", limits=limits)
        )
    assert info.value.path == "$.p"
