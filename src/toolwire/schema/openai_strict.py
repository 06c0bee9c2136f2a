"""JSON Schema -> the subset OpenAI accepts with ``strict: true`` (Structured Outputs).

Rules: every object is closed (``additionalProperties: false``) and lists all its properties
in ``required``; an optional property becomes nullable, so ``null`` stands for "absent" (the
*null projection*: an instance valid under the source stays valid once each missing optional
property is set to ``null``, and keys of objects that did not restrict ``additionalProperties``
but are not declared are removed). Keywords outside :data:`~toolwire.schema.keywords.OPENAI_STRICT_KEYWORDS`
are rewritten (``oneOf`` -> ``anyOf``, ``allOf`` merged, draft 4 forms) or dropped with a note.
``$ref``/``$defs`` and recursion stay as they are (strict mode supports them); a ``$ref`` with
sibling keywords is wrapped as ``anyOf: [{"$ref": ...}]``.

What strict mode cannot express at all (a root that is not an object, untyped "any" values,
arrays without ``items``, size limits) raises :class:`~toolwire.errors.SchemaError` under the
``strict`` policy and is otherwise noted ``approximated``; :func:`can_be_strict` lists it.
"""

from __future__ import annotations

from typing import Any

from toolwire.errors import LimitError, SchemaError
from toolwire.ir.notes import Notes
from toolwire.schema._common import (
    LossTracker,
    drop_unsupported,
    enum_type,
    is_object,
    normalize,
    one_of_to_any_of,
    prefix_items_to_items,
    types_of,
    without,
)
from toolwire.schema._limits import DEFAULT_LIMITS, Limits, no_recursion_error
from toolwire.schema._merge import conjoin, merge_all_of
from toolwire.schema._openai_size import SizeTally
from toolwire.schema.keywords import OPENAI_STRICT_FORMATS, OPENAI_STRICT_KEYWORDS
from toolwire.schema.refs import resolve_ref
from toolwire.schema.walker import Loc, bad_schema, render_path, transform

__all__ = ["can_be_strict", "make_nullable", "to_openai_strict"]

_TARGET = "OpenAI strict mode"
_LOOKAROUND = ("(?=", "(?!", "(?<=", "(?<!")
_NULL: dict[str, Any] = {"type": "null"}
_TYPED_BY = ("anyOf", "$ref", "enum", "const")


def _accepts_null(schema: Any) -> bool:
    if type(schema) is bool:
        return schema
    if "$ref" in schema:
        return False
    if "anyOf" in schema and not any(_accepts_null(branch) for branch in schema["anyOf"]):
        return False
    kinds = schema.get("type")
    if kinds is not None and kinds != "null" and (type(kinds) is not list or "null" not in kinds):
        return False
    if type(schema.get("enum")) is list and None not in schema["enum"]:
        return False
    return "const" not in schema or schema["const"] is None


def make_nullable(schema: Any) -> Any:
    """``schema`` also accepting ``null`` (the same object if it already does), strict-compatible.

    A pure ``$ref`` becomes ``anyOf: [ref, {"type": "null"}]``; an ``anyOf`` gains a null
    branch; otherwise ``"null"`` joins ``type`` and ``None`` joins ``enum`` (``const`` becomes a
    two-value ``enum``). ``false`` (property forbidden) becomes ``{"type": "null"}``.
    """
    if schema is False:
        return dict(_NULL)
    if _accepts_null(schema):
        return schema
    if "$ref" in schema:
        return {"anyOf": [schema, dict(_NULL)]}
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], dict(_NULL)]}
    out = dict(schema)
    kinds = out.get("type")
    if kinds is not None:
        out["type"] = [kinds, "null"] if type(kinds) is str else [*kinds, "null"]
    if type(out.get("enum")) is list:
        out["enum"] = [*out["enum"], None]
    if "const" in out:
        out["enum"] = [out.pop("const"), None]
    return out


def _parent_key(loc: Loc) -> str | int | None:
    return loc[0][1] if type(loc) is tuple and type(loc[0]) is tuple else None


class _Strict:
    """One conversion: the rules as methods, sharing notes, the source root and the blockers."""

    __slots__ = ("blockers", "notes", "refs", "root", "root_loc", "size")

    def __init__(self, notes: Notes, root: Any, root_loc: Loc) -> None:
        self.notes = notes
        self.root = root
        self.root_loc = root_loc
        self.blockers: list[str] = []
        self.size = SizeTally()
        self.refs: list[tuple[Any, Loc]] = []

    def cannot(self, loc: Loc, message: str) -> None:
        path = render_path(loc)
        if self.notes.policy == "strict":
            raise SchemaError(f"not accepted by {_TARGET}: {message}", path=path)
        self.blockers.append(f"{path}: {message}")
        self.notes.add(path, "approximated", f"not accepted by {_TARGET}: {message}")

    def resolve(self, ref: Any, loc: Loc) -> Any:
        return resolve_ref(self.root, ref, loc, self.root_loc)[0]

    def prep(self, node: Any, loc: Loc) -> Any:
        return normalize(node, self.notes, loc)

    # ------------------------------------------------------------------ top-down rules

    def pre(self, node: Any, loc: Loc) -> Any:
        if type(node) is dict:
            node = normalize(node, self.notes, loc)
            node = merge_all_of(node, self.notes, loc, self.resolve, self.prep)
        if type(node) is bool:
            return self.boolean(node, loc)
        if "$ref" in node:
            self.resolve(node["$ref"], loc)  # dangling, remote and anchor references are errors
        node = one_of_to_any_of(node, self.notes, loc)
        node = prefix_items_to_items(node, self.notes, loc)
        node = self.close_object(node, loc)
        node = self.string_rules(node, loc)
        node = drop_unsupported(node, OPENAI_STRICT_KEYWORDS, self.notes, loc, _TARGET)
        implied = enum_type(node)
        if implied is not None and not any(key in node for key in ("anyOf", "$ref")):
            node = {"type": implied, **node}
        if is_object(node, loc):
            self.size.enter(loc)
        return node

    def boolean(self, node: bool, loc: Loc) -> Any:
        if type(loc) is not tuple:
            return node  # the root: reported by check_root
        if loc[1] == "additionalProperties" and node is False:
            return node
        if node is False and _parent_key(loc) == "properties":
            self.notes.info(render_path(loc), "synthesized", "forbidden property made null-only")
            return dict(_NULL)
        self.cannot(loc, f"boolean schema {str(node).lower()} has no type")
        return node

    def close_object(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        if not is_object(node, loc):
            return node
        out = node
        if "type" not in out:
            out = {"type": "object", **out}
            self.lossless_if_root(loc, "type", "type 'object' assumed from object keywords")
        if "patternProperties" in out:
            out = without(out, "patternProperties")
            self.notes.add(
                render_path((loc, "patternProperties")),
                "approximated",
                "patternProperties dropped: strict objects accept declared properties only",
            )
        extra = out.get("additionalProperties")
        if extra is False:
            return out
        path = render_path((loc, "additionalProperties"))
        if extra is None and "properties" in out:
            self.notes.info(path, "synthesized", "object closed with additionalProperties: false")
        elif extra is None:
            self.notes.add(path, "approximated", "free-form object closed: only {} remains valid")
        else:
            self.notes.add(
                path, "approximated", "additionalProperties replaced by false: strict objects are closed"
            )
        return {**out, "additionalProperties": False}

    def lossless_if_root(self, loc: Loc, key: str, message: str) -> None:
        if type(loc) is str:
            self.notes.info(render_path((loc, key)), "synthesized", message)
        else:
            self.notes.add(render_path((loc, key)), "approximated", message)

    def string_rules(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        drop = []
        fmt = node.get("format")
        if fmt is not None and (type(fmt) is not str or fmt not in OPENAI_STRICT_FORMATS):
            drop.append("format")
            self.notes.add(
                render_path((loc, "format")), "dropped", f"format {fmt!r} is not supported by {_TARGET}"
            )
        pattern = node.get("pattern")
        if type(pattern) is str and any(token in pattern for token in _LOOKAROUND):
            drop.append("pattern")
            self.notes.add(
                render_path((loc, "pattern")), "dropped", "pattern with look-around is not supported"
            )
        return without(node, *drop) if drop else node

    # ------------------------------------------------------------------ bottom-up rules

    def post(self, node: Any, loc: Loc) -> Any:
        if type(node) is not dict:
            return node
        if "$ref" in node:
            self.refs.append((node["$ref"], loc))
            if len(node) > 1:
                node = self.wrap_ref(node, loc)
        if is_object(node, loc):
            node = self.require_all(node, loc)
            self.size.leave()
        self.size.count(node, loc)
        kinds = types_of(node, loc)
        if kinds is None and not any(key in node for key in _TYPED_BY):
            self.cannot(loc, "schema without a type accepts any value")
        elif kinds is not None and "array" in kinds and "items" not in node:
            self.cannot(loc, "array without items")
        return node

    def wrap_ref(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        if "anyOf" in node:
            self.cannot(loc, "$ref next to anyOf")
            return node
        self.notes.info(render_path((loc, "$ref")), "synthesized", "$ref with siblings wrapped in anyOf")
        return {"anyOf": [{"$ref": node["$ref"]}], **without(node, "$ref")}

    def require_all(self, node: dict[str, Any], loc: Loc) -> dict[str, Any]:
        props = node.get("properties", {})
        required = node.get("required", [])
        if type(props) is not dict:
            bad_schema((loc, "properties"), "an object of schemas", props)
        if type(required) is not list or not all(type(name) is str for name in required):
            bad_schema((loc, "required"), "an array of property names", required)
        unknown = [name for name in required if name not in props]
        if unknown:
            self.notes.add(
                render_path((loc, "required")),
                "approximated",
                f"required names without a property dropped: {', '.join(unknown)}",
            )
        optional = [name for name in props if name not in required]
        complete = "properties" in node and "required" in node and len(required) == len(props)
        if complete and not optional and not unknown:
            return node
        new_props = dict(props)
        for name in optional:
            new_props[name] = make_nullable(props[name])
            self.notes.info(
                render_path(((loc, "properties"), name)),
                "synthesized",
                "optional property made required and nullable (null stands for absent)",
            )
        return {**node, "properties": new_props, "required": list(props)}

    # ------------------------------------------------------------------ root

    def root_ref(self, schema: Any, loc: Loc) -> Any:
        if type(schema) is not dict or "$ref" not in schema:
            return schema
        target = self.resolve(schema["$ref"], loc)
        self.notes.info(render_path((loc, "$ref")), "synthesized", "root $ref inlined")
        return conjoin([without(schema, "$ref"), target], self.notes, loc)

    def check_root(self, schema: Any, loc: Loc) -> dict[str, Any]:
        if type(schema) is not dict:
            self.cannot(loc, "the root must be an object schema")
            return {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
        result: dict[str, Any] = schema
        kinds = types_of(result, loc)
        if "anyOf" in result:
            self.cannot(loc, "the root must be an object, not anyOf")
        elif kinds is None or "object" not in kinds:
            self.cannot(loc, "the root must be an object")
        elif type(result["type"]) is list:
            self.notes.info(render_path((loc, "type")), "synthesized", "root type narrowed to object")
            result = {**result, "type": "object"}
        for where, message in self.size.report(loc):
            self.cannot(where, message)
        self.check_refs(result, loc)
        return result

    def check_refs(self, result: dict[str, Any], loc: Loc) -> None:
        """Every kept ``$ref`` must still point somewhere in the converted schema."""
        for ref, where in self.refs:
            try:
                resolve_ref(result, ref, where, loc)
            except SchemaError:
                self.cannot(where, f"$ref {ref!r} points into a part the conversion rewrote; use $defs")


@no_recursion_error
def _convert(schema: Any, notes: Notes, path: str, limits: Limits) -> tuple[dict[str, Any], list[str]]:
    ctx = _Strict(notes, schema, path)
    root = ctx.root_ref(schema, path)
    result = transform(root, pre=ctx.pre, post=ctx.post, path=path, limits=limits)
    return ctx.check_root(result, path), ctx.blockers


def to_openai_strict(
    schema: Any, notes: Notes, path: str = "$", *, limits: Limits = DEFAULT_LIMITS
) -> dict[str, Any]:
    """``schema`` rewritten for OpenAI ``strict: true`` (see the module docstring for the rules).

    The input is never mutated; a schema that already conforms is returned as the same object.
    Lossy changes call ``notes.add`` (``dropped`` only ever loosens); lossless rewrites call
    ``notes.info``.

    Raises:
        SchemaError: invalid schema (bad keyword shapes, dangling or remote ``$ref``), or, under
            the ``strict`` policy, a schema strict mode cannot express.
        LimitError: deeper or larger than ``limits``.
        ConversionError: under the ``strict`` policy, any other lossy change.
    """
    return _convert(schema, notes, path, limits)[0]


def can_be_strict(schema: Any, *, lossless: bool = False, limits: Limits = DEFAULT_LIMITS) -> list[str]:
    """Why ``schema`` cannot be sent with ``strict: true`` (``[]`` when it can), as ``"path: reason"``.

    By default only what :func:`to_openai_strict` cannot fix is listed; with ``lossless=True``
    every lossy change the conversion would make is listed too, so ``[]`` then means the strict
    form says exactly what the source says (under the null projection). Invalid or too large
    schemas are reported as reasons, not raised.
    """
    tracker = LossTracker("drop")
    try:
        _, blockers = _convert(schema, tracker, "$", limits)
    except (SchemaError, LimitError) as exc:
        return [str(exc)]
    return [str(note) for note in tracker.lossy] if lossless else blockers
