"""Conjunction of schemas: ``allOf`` merged into one node, ``$ref`` merged with its siblings."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from toolwire.errors import LimitError
from toolwire.ir.notes import Notes
from toolwire.schema._values import json_equal
from toolwire.schema.keywords import ANNOTATIONS, NOISE
from toolwire.schema.walker import Loc, bad_schema, render_path

__all__ = ["conjoin", "merge_all_of"]

Resolve = Callable[[Any, Loc], Any]
"""``(ref, loc) -> target schema`` for ``$ref`` branches of a multi-branch ``allOf``."""
Prep = Callable[[Any, Loc], Any]
"""Normalization applied to each branch before merging (draft 4 forms and the like)."""

_MAP_KEYS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
_AND_KEYS = frozenset(
    {
        "items",
        "additionalProperties",
        "propertyNames",
        "additionalItems",
        "unevaluatedItems",
        "unevaluatedProperties",
    }
)
_LOWER_BOUNDS = frozenset(
    {"minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains"}
)
_UPPER_BOUNDS = frozenset(
    {"maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains"}
)
_MAX_ROUNDS = 64
_CONFLICT = object()


def _same(a: Any, b: Any) -> bool:
    return json_equal(a, b)


def _number(value: Any) -> bool:
    return type(value) in (int, float)


def _types(value: Any) -> list[str]:
    return [value] if type(value) is str else list(value) if type(value) is list else []


def _merge_type(current: Any, value: Any) -> Any:
    left, right = _types(current), _types(value)
    both = [t for t in left if t in right or (t == "integer" and "number" in right)]
    both += [t for t in right if t == "integer" and "number" in left and t not in both]
    if not both:
        return _CONFLICT
    return both[0] if len(both) == 1 else both


def _merge_enum(current: Any, value: Any) -> Any:
    if type(current) is not list or type(value) is not list:
        return _CONFLICT
    common = [item for item in current if any(_same(item, other) for other in value)]
    return common or _CONFLICT


def _merge_required(current: Any, value: Any) -> Any:
    if type(current) is not list or type(value) is not list:
        return _CONFLICT
    return current + [name for name in value if name not in current]


def _merge_map(current: Any, value: Any) -> Any:
    if type(current) is not dict or type(value) is not dict:
        return _CONFLICT
    merged = dict(current)
    for name, schema in value.items():
        mine = merged.get(name, _CONFLICT)
        merged[name] = schema if mine is _CONFLICT or _same(mine, schema) else {"allOf": [mine, schema]}
    return merged


def _merge_multiple(current: Any, value: Any) -> Any:
    if type(current) is int and type(value) is int and current > 0 and value > 0:
        return math.lcm(current, value)
    return _CONFLICT


def _merge_value(key: str, current: Any, value: Any) -> Any:
    if key == "type":
        return _merge_type(current, value)
    if key == "enum":
        return _merge_enum(current, value)
    if key == "required":
        return _merge_required(current, value)
    if key in _MAP_KEYS:
        return _merge_map(current, value)
    if key in _AND_KEYS:
        return {"allOf": [current, value]}
    if key == "not":
        return {"anyOf": [current, value]}
    if key == "uniqueItems" and type(current) is bool and type(value) is bool:
        return current or value
    if key == "multipleOf":
        return _merge_multiple(current, value)
    if (key in _LOWER_BOUNDS or key in _UPPER_BOUNDS) and _number(current) and _number(value):
        return max(current, value) if key in _LOWER_BOUNDS else min(current, value)
    return _CONFLICT


def _restricts_keys(part: dict[str, Any]) -> bool:
    extra = part.get("additionalProperties", True)
    return extra is not True or "patternProperties" in part or "unevaluatedProperties" in part


def conjoin(parts: list[Any], notes: Notes, loc: Loc) -> Any:
    """One schema equivalent to all of ``parts`` together (first annotations win).

    Assertions are intersected (types, enums, bounds, ``required``), subschema keywords are
    combined (``properties`` by name, ``items`` as a nested ``allOf``...). Values that cannot
    be combined keep the first and drop the others with a ``dropped`` note (looser); a
    ``false`` part makes the whole ``false``. ``additionalProperties`` of one part that would
    now admit the properties of another is noted ``approximated``.
    """
    merged: dict[str, Any] = {}
    restricting: set[int] = set()
    with_properties: set[int] = set()
    for index, part in enumerate(parts):
        if part is True:
            continue
        if part is False:
            return False
        if type(part) is not dict:
            bad_schema(loc, "a schema (object or boolean)", part)
        if _restricts_keys(part):
            restricting.add(index)
        if "properties" in part:
            with_properties.add(index)
        _merge_into(merged, part, notes, loc)
    if any(i != j for i in restricting for j in with_properties):
        notes.add(
            render_path(loc),
            "approximated",
            "additionalProperties of one merged schema now admits the properties of another",
        )
    return merged


def _merge_into(merged: dict[str, Any], part: dict[str, Any], notes: Notes, loc: Loc) -> None:
    for key, value in part.items():
        current = merged.get(key, _CONFLICT)
        if current is _CONFLICT:
            merged[key] = value
            continue
        if _same(current, value) or key in ANNOTATIONS or key in NOISE:
            continue
        combined = _merge_value(key, current, value)
        if combined is _CONFLICT:
            notes.add(render_path((loc, key)), "dropped", f"conflicting {key!r} of a merged schema dropped")
        else:
            merged[key] = combined


def _pure_ref(branch: Any) -> bool:
    return type(branch) is dict and len(branch) == 1 and "$ref" in branch


def merge_all_of(node: dict[str, Any], notes: Notes, loc: Loc, resolve: Resolve | None, prep: Prep) -> Any:
    """``node`` with its ``allOf`` merged away (see :func:`conjoin`); ``node`` if it has none.

    A single ``{"$ref": ...}`` branch becomes a ``$ref`` sibling of the node's keywords (kept
    as a reference). Otherwise ``$ref`` branches are resolved with ``resolve`` and merged.
    Nested ``allOf`` brought in by branches is merged in further rounds.

    Raises:
        LimitError: ``allOf`` keeps reappearing (a branch that references itself).
    """
    rounds = 0
    while "allOf" in node:
        rounds += 1
        if rounds > _MAX_ROUNDS:
            raise LimitError(
                "allOf keeps expanding (a branch that references itself?)", path=render_path(loc)
            )
        branches = node["allOf"]
        if type(branches) is not list:
            bad_schema((loc, "allOf"), "an array of schemas", branches)
        base = {key: value for key, value in node.items() if key != "allOf"}
        if len(branches) == 1 and _pure_ref(branches[0]) and "$ref" not in base:
            notes.info(render_path((loc, "allOf")), "synthesized", "single-reference allOf became a $ref")
            return {"$ref": branches[0]["$ref"], **base}
        parts: list[Any] = [base]
        for index, branch in enumerate(branches):
            parts.extend(_branch_parts(branch, ((loc, "allOf"), index), resolve, prep))
        merged = conjoin(parts, notes, loc)
        notes.info(render_path((loc, "allOf")), "synthesized", "allOf merged into one schema")
        if merged is False:
            return False
        node = merged
    return node


def _branch_parts(branch: Any, loc: Loc, resolve: Resolve | None, prep: Prep) -> list[Any]:
    if type(branch) is not dict:
        if type(branch) is not bool:
            bad_schema(loc, "a schema (object or boolean)", branch)
        return [branch]
    if "$ref" not in branch or resolve is None:
        return [prep(branch, loc)]
    rest = {key: value for key, value in branch.items() if key != "$ref"}
    target = resolve(branch["$ref"], loc)
    return [prep(rest, loc), prep(target, loc) if type(target) is dict else target]
