"""JSON Schema -> Gemini schemas: the OpenAPI subset (``parameters``, ``responseSchema``) and
the JSON Schema field (``parametersJsonSchema``, ``responseJsonSchema``).

OpenAPI subset rules (the fields of the proto ``Schema`` message are
:data:`~toolwire.schema.keywords.GEMINI_KEYWORDS`): references are inlined (a recursive one is
cut after one expansion, noted); a type array becomes one ``type`` plus ``nullable: true``, or an
``anyOf`` of single types; ``anyOf`` with a null branch collapses to ``nullable``; ``const``
becomes a one-value ``enum``; enum values must be strings (``null`` becomes ``nullable``, other
values are stringified, noted); ``oneOf`` becomes ``anyOf``; ``allOf`` is merged; exclusive
bounds become inclusive; other keywords (``additionalProperties``, ``patternProperties``,
``not``, ``multipleOf``...) are dropped, noted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._json import dumps_str
from toolwire.errors import LimitError, SchemaError
from toolwire.ir.notes import Notes
from toolwire.schema._common import (
    drop_unsupported,
    enum_type,
    is_object,
    normalize,
    one_of_to_any_of,
    prefix_items_to_items,
    strip_keys,
    types_of,
    without,
)
from toolwire.schema._limits import DEFAULT_LIMITS, Limits, no_recursion_error
from toolwire.schema._merge import merge_all_of
from toolwire.schema._values import json_equal, value_depth
from toolwire.schema.keywords import ANNOTATIONS, GEMINI_KEYWORDS, TYPE_KEYWORDS
from toolwire.schema.refs import DEF_KEYS, inline_refs, resolve_ref
from toolwire.schema.walker import Loc, bad_schema, render_path, transform

__all__ = ["to_gemini", "to_gemini_json_schema"]

_TARGET = "Gemini (OpenAPI schema subset)"
_KEEP = GEMINI_KEYWORDS | {"$ref", *DEF_KEYS}
_TYPED_KEYWORDS = frozenset().union(*TYPE_KEYWORDS.values())
_NULL: dict[str, Any] = {"type": "null"}
_BOUNDS: tuple[tuple[str, str, Callable[[float, float], float]], ...] = (
    ("exclusiveMinimum", "minimum", max),
    ("exclusiveMaximum", "maximum", min),
)


def _number(value: Any) -> bool:
    return type(value) is int or type(value) is float


class _Gemini:
    """One conversion: the rules as methods, sharing notes and the source root."""

    __slots__ = ("has_refs", "limits", "notes", "root", "root_loc")

    def __init__(self, notes: Notes, root: Any, root_loc: Loc, limits: Limits) -> None:
        self.notes = notes
        self.limits = limits
        self.root = root
        self.root_loc = root_loc
        self.has_refs = False

    def resolve(self, ref: Any, loc: Loc) -> Any:
        return resolve_ref(self.root, ref, loc, self.root_loc)[0]

    def prep(self, node: Any, loc: Loc) -> Any:
        return normalize(node, self.notes, loc, openapi=False)

    def info(self, loc: Loc, key: str, message: str) -> None:
        self.notes.info(render_path((loc, key)), "synthesized", message)

    # ------------------------------------------------------------------ top-down rules

    def pre(self, node: Any, loc: Loc) -> Any:
        if type(node) is dict:
            node = normalize(node, self.notes, loc, openapi=False)
            node = merge_all_of(node, self.notes, loc, self.resolve, self.prep)
        if type(node) is bool:
            return self.boolean(node, loc)
        self.has_refs = self.has_refs or "$ref" in node or any(key in node for key in DEF_KEYS)
        node = one_of_to_any_of(node, self.notes, loc)
        node = prefix_items_to_items(node, self.notes, loc)
        node = self.inclusive_bounds(node, loc)
        node = self.split_types(node, loc)
        node = self.const_to_enum(node, loc)
        node = self.string_enum(node, loc)
        node = self.infer_type(node, loc)
        if "additionalProperties" in node and node["additionalProperties"] is True:
            self.info(loc, "additionalProperties", "additionalProperties: true is the default")
            node = without(node, "additionalProperties")
        return drop_unsupported(node, _KEEP, self.notes, loc, _TARGET)

    def boolean(self, node: bool, loc: Loc) -> dict[str, Any]:
        if node:
            self.notes.info(render_path(loc), "synthesized", "true schema became {}")
        else:
            self.notes.add(render_path(loc), "dropped", "false schema (no value allowed) became {}")
        return {}

    def inclusive_bounds(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        for flag, bound, stricter in _BOUNDS:
            limit: Any = node.get(flag)
            if not _number(limit):
                continue
            current: Any = node.get(bound)
            if _number(current) and stricter(current, limit) == current and current != limit:
                self.info(loc, flag, f"{flag} implied by {bound}")
                node = without(node, flag)
                continue
            node = {**without(node, flag, bound), bound: limit}
            self.notes.add(
                render_path((loc, flag)), "dropped", f"{flag} became {bound}: the bound itself is allowed"
            )
        return node

    def split_types(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        kinds = types_of(node, loc)
        if kinds is None or type(node["type"]) is str:
            return node
        others = [kind for kind in kinds if kind != "null"]
        nullable = len(others) < len(kinds)
        if len(others) <= 1:
            self.info(loc, "type", "type array became one type and nullable")
            extra = {"nullable": True} if nullable and others else {}
            return {**node, "type": others[0] if others else "null", **extra}
        if "anyOf" in node:
            self.notes.add(render_path((loc, "type")), "dropped", "type array next to anyOf dropped")
            return without(node, "type")
        branches: list[Any] = [self.branch(node, kind) for kind in others]
        if nullable:
            branches.append(dict(_NULL))
        self.info(loc, "type", "type array became anyOf of single types")
        rest = {key: value for key, value in node.items() if key != "type" and key not in _TYPED_KEYWORDS}
        return {**rest, "anyOf": branches}

    @staticmethod
    def branch(node: dict[str, Any], kind: str) -> dict[str, Any]:
        keys = TYPE_KEYWORDS.get("number" if kind == "integer" else kind, frozenset())
        return {"type": kind, **{key: value for key, value in node.items() if key in keys}}

    def const_to_enum(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        if "const" not in node:
            return node
        self.info(loc, "const", "const became a one-value enum")
        value = node["const"]
        return {("enum" if key == "const" else key): ([value] if key == "const" else item)
                for key, item in node.items() if key != "enum"}  # fmt: skip

    def string_enum(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        values = node.get("enum")
        if values is None:
            return node
        if type(values) is not list:
            bad_schema((loc, "enum"), "an array", values)
        if None in values:
            rest = [value for value in values if value is not None]
            self.info(loc, "enum", "null enum value became nullable")
            if not rest:
                return {**without(node, "enum", "nullable", "type"), "type": "null"}
            node = {**node, "enum": rest, "nullable": True}
            values = rest
        if all(type(value) is str for value in values):
            return node
        if any(value_depth(value, self.limits.max_depth) > self.limits.max_depth for value in values):
            raise LimitError(
                f"enum value nested deeper than {self.limits.max_depth} levels",
                path=render_path((loc, "enum")),
            )
        strings = list(dict.fromkeys(value if type(value) is str else dumps_str(value) for value in values))
        self.notes.add(
            render_path((loc, "enum")),
            "approximated",
            "enum values stringified (Gemini enums hold strings): the model answers e.g. '1' for 1",
        )
        rest_node = {key: value for key, value in node.items() if key not in TYPE_KEYWORDS["number"]}
        return {**rest_node, "type": "string", "enum": strings}

    def infer_type(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        if "type" in node or any(key in node for key in ("anyOf", "$ref")):
            return node
        implied = enum_type(node)
        if implied is not None:
            self.info(loc, "type", f"type {implied!r} implied by enum")
            return {"type": implied, **node}
        if not is_object(node, loc):
            return node
        path = render_path((loc, "type"))
        if type(loc) is str:
            self.notes.info(path, "synthesized", "type 'object' assumed from object keywords")
        else:
            self.notes.add(path, "approximated", "type 'object' assumed from object keywords")
        return {"type": "object", **node}

    # ------------------------------------------------------------------ bottom-up rules

    def post(self, node: Any, loc: Loc) -> Any:
        branches = node.get("anyOf") if type(node) is dict else None
        if type(branches) is not list or len(branches) != 2 or _NULL not in branches:
            return node
        other = branches[1 - branches.index(_NULL)]
        rest = without(node, "anyOf")
        if type(other) is not dict or "$ref" in other or any(key in rest for key in other):
            return node
        self.info(loc, "anyOf", "anyOf with a null branch became nullable")
        return {**rest, **other, "nullable": True}

    # ------------------------------------------------------------------ references

    def cut(self, target: Any, ref: str, loc: Loc) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if type(target) is dict and type(target.get("type")) is str:
            out["type"] = target["type"]
        if type(target) is dict and "description" in target:
            out["description"] = target["description"]
        return out

    def merge_siblings(self, parts: list[Any], loc: Loc) -> Any:
        siblings, target = parts
        if type(target) is not dict:
            return siblings
        merged = dict(target)
        for key, value in siblings.items():
            if key not in merged or key in ANNOTATIONS:
                merged[key] = value
            elif not json_equal(merged[key], value):
                self.notes.add(
                    render_path((loc, key)), "dropped", f"{key!r} next to $ref conflicts with its target"
                )
        return merged


@no_recursion_error
def to_gemini(schema: Any, notes: Notes, path: str = "$", *, limits: Limits = DEFAULT_LIMITS) -> Any:
    """``schema`` rewritten as a Gemini OpenAPI-subset ``Schema`` (see the module docstring).

    The input is never mutated; a schema already in the subset is returned as the same object.
    Lossy changes call ``notes.add`` (``dropped`` only ever loosens); lossless rewrites call
    ``notes.info``.

    Raises:
        SchemaError: invalid schema (bad keyword shapes, dangling or remote ``$ref``).
        LimitError: deeper or larger than ``limits``, inlined references included.
        ConversionError: under the ``strict`` policy, any lossy change.
    """
    ctx = _Gemini(notes, schema, path, limits)
    result = transform(schema, pre=ctx.pre, post=ctx.post, path=path, limits=limits)
    if not ctx.has_refs:
        return result

    def resolve(ref: Any, loc: Loc) -> tuple[Any, Loc]:
        try:
            return resolve_ref(result, ref, loc, path)
        except SchemaError:  # the pointer went through something converted away (allOf, oneOf...)
            target, where = resolve_ref(schema, ref, loc, path)
            return transform(target, pre=ctx.pre, post=ctx.post, path=where, limits=limits), where

    inlined = inline_refs(
        result, notes, cut=ctx.cut, merge=ctx.merge_siblings, path=path, limits=limits, resolve=resolve
    )
    return transform(inlined, post=ctx.post, path=path, limits=limits)


@no_recursion_error
def to_gemini_json_schema(
    schema: Any, notes: Notes, path: str = "$", *, limits: Limits = DEFAULT_LIMITS
) -> Any:
    """``schema`` for ``parametersJsonSchema``/``responseJsonSchema``: JSON Schema as is, minus
    ``$schema`` (info note). References, ``$defs`` and recursion are kept (Gemini unrolls them).
    """
    return strip_keys(schema, frozenset({"$schema"}), notes, path, limits)
