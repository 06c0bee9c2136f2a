"""Node rules shared by the targets: draft 4 forms, ``oneOf``, tuples, keyword filtering, types."""

from __future__ import annotations

from typing import Any

from toolwire.ir.notes import Note, NoteKind, Notes, Policy
from toolwire.schema._limits import DEFAULT_LIMITS, Limits
from toolwire.schema._values import json_equal
from toolwire.schema.keywords import NOISE, TYPES
from toolwire.schema.walker import Loc, bad_schema, render_path, transform

__all__ = [
    "LossTracker",
    "drop_unsupported",
    "enum_type",
    "from_openapi",
    "is_object",
    "normalize",
    "one_of_to_any_of",
    "prefix_items_to_items",
    "rename_key",
    "strip_keys",
    "types_of",
    "without",
]

_OBJECT_HINTS = ("properties", "required", "additionalProperties", "patternProperties")
_CONSTANT_KEYS = frozenset({"const", "enum", "type", "title", "description"})


class LossTracker(Notes):
    """A :class:`Notes` that also keeps the lossy notes (``add``) apart from the ``info`` ones."""

    __slots__ = ("lossy",)

    def __init__(self, policy: Policy = "drop") -> None:
        super().__init__(policy)
        self.lossy: list[Note] = []

    def add(self, path: str, kind: NoteKind, message: str, *, target: str | None = None) -> None:
        """Record (or raise, under ``strict``) and remember the note as lossy."""
        super().add(path, kind, message, target=target)
        self.lossy.append(self.items[-1])


def without(node: dict[str, Any], *keys: str) -> dict[str, Any]:
    """A copy of ``node`` without ``keys`` (order kept)."""
    return {key: value for key, value in node.items() if key not in keys}


def rename_key(node: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    """A copy of ``node`` with ``old`` renamed to ``new`` at the same position."""
    return {(new if key == old else key): value for key, value in node.items()}


_TYPE_NAMES: dict[str, tuple[str, ...]] = {
    **{name: (name,) for name in TYPES},
    **{name.upper(): (name,) for name in TYPES},
}


def types_of(node: dict[str, Any], loc: Loc) -> tuple[str, ...] | None:
    """The declared type names of ``node``, lower-cased (``None`` when it has no ``type``).

    Gemini's upper-case names (``"OBJECT"``, ``"STRING"``) are accepted.
    """
    value = node.get("type")
    if value is None:
        return None
    if type(value) is str:
        names = _TYPE_NAMES.get(value)
        if names is not None:
            return names
        if value.lower() in TYPES:
            return (value.lower(),)
    elif type(value) is list and all(type(name) is str and name.lower() in TYPES for name in value):
        return tuple(name.lower() for name in value)
    bad_schema((loc, "type"), "a type name or an array of type names", value)


def _lower(value: Any) -> Any:
    if type(value) is str:
        return value.lower()
    return [name.lower() if type(name) is str else name for name in value] if type(value) is list else value


def from_openapi(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    """OpenAPI/Gemini spellings as JSON Schema (lossless, info notes): upper-case type names are
    lower-cased, ``nullable: true`` adds ``"null"`` to ``type`` (and ``None`` to ``enum``)."""
    out = node
    kinds = node.get("type")
    if kinds is not None and _lower(kinds) != kinds:
        out = {**out, "type": _lower(kinds)}
        notes.info(render_path((loc, "type")), "synthesized", "type name lower-cased")
    if "nullable" not in out:
        return out
    notes.info(render_path((loc, "nullable")), "synthesized", "OpenAPI nullable became a null type")
    nullable = out["nullable"] is True
    out = without(out, "nullable")
    kinds = out.get("type")
    if not nullable or kinds is None or kinds == "null" or (type(kinds) is list and "null" in kinds):
        return out
    out["type"] = [*kinds, "null"] if type(kinds) is list else [kinds, "null"]
    if type(out.get("enum")) is list and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out


def is_object(node: dict[str, Any], loc: Loc) -> bool:
    """Whether ``node`` describes objects: ``type`` says so, or (untyped) it has object keywords."""
    names = types_of(node, loc)
    if names is not None:
        return "object" in names
    return any(key in node for key in _OBJECT_HINTS)


def enum_type(node: dict[str, Any]) -> str | None:
    """The type an untyped ``enum``/``const`` node implies when all its values share one JSON type
    (adding it is lossless); ``None`` otherwise."""
    if "type" in node:
        return None
    enum = node.get("enum")
    values = enum if type(enum) is list else [node["const"]] if "const" in node else None
    if not values:
        return None
    kinds = {_value_type(value) for value in values}
    if kinds == {"integer", "number"}:
        return "number"
    kind = kinds.pop() if len(kinds) == 1 else None
    return kind if kind in TYPES and kind != "null" else None


def _value_type(value: Any) -> str:
    if value is None:
        return "null"
    if type(value) is bool:
        return "boolean"
    if type(value) is int or (type(value) is float and value.is_integer()):
        return "integer"
    return {str: "string", float: "number", list: "array", dict: "object"}.get(type(value), "unknown")


def normalize(node: dict[str, Any], notes: Notes, loc: Loc, *, openapi: bool = True) -> dict[str, Any]:
    """Rewrite draft 4-2019 forms to their 2020-12 equivalents (lossless, info notes).

    Boolean ``exclusiveMinimum``/``exclusiveMaximum`` become numeric; a list ``items`` becomes
    ``prefixItems`` (with ``additionalItems`` as the new ``items``); with ``openapi``, OpenAPI
    spellings too (:func:`from_openapi`).
    """
    out = from_openapi(node, notes, loc) if openapi else node
    for bound, flag in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        if type(out.get(flag)) is bool:
            exclusive = out[flag] and bound in out
            rest = without(out, flag, bound) if exclusive else without(out, flag)
            out = {**rest, flag: out[bound]} if exclusive else rest
            notes.info(render_path((loc, flag)), "synthesized", f"draft 4 boolean {flag} made numeric")
    if type(out.get("items")) is list and "prefixItems" not in out:
        tail = out.get("additionalItems")
        out = {
            ("prefixItems" if key == "items" else key): value
            for key, value in out.items()
            if key != "additionalItems"
        }
        if tail is not None:
            out["items"] = tail
        notes.info(render_path((loc, "items")), "synthesized", "array form of items became prefixItems")
    return out


def _exclusive(branches: list[Any], loc: Loc) -> bool:
    """Whether no value can match two branches (distinct single types, or disjoint constants)."""
    if not branches or not all(type(branch) is dict for branch in branches):
        return False
    kinds = [types_of(branch, loc) for branch in branches]
    if all(names is not None and len(names) == 1 for names in kinds):
        flat = ["number" if names[0] == "integer" else names[0] for names in kinds if names]
        if len(set(flat)) == len(flat):
            return True
    seen: list[Any] = []
    for branch in branches:
        values = [branch["const"]] if "const" in branch else branch.get("enum")
        if type(values) is not list or not set(branch) <= _CONSTANT_KEYS:
            return False
        if any(json_equal(value, other) for value in values for other in seen):
            return False
        seen.extend(values)
    return True


def one_of_to_any_of(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    """``oneOf`` as ``anyOf``: an info note when the branches are mutually exclusive, else a loss."""
    if "oneOf" not in node:
        return node
    branches = node["oneOf"]
    path = render_path((loc, "oneOf"))
    if "anyOf" in node:
        notes.add(path, "dropped", "oneOf dropped: the schema already has anyOf")
        return without(node, "oneOf")
    if type(branches) is not list:
        bad_schema((loc, "oneOf"), "an array of schemas", branches)
    if _exclusive(branches, loc):
        notes.info(path, "synthesized", "oneOf of mutually exclusive branches became anyOf")
    else:
        notes.add(path, "approximated", "oneOf became anyOf: a value may now match several branches")
    return rename_key(node, "oneOf", "anyOf")


def prefix_items_to_items(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    """A tuple (``prefixItems``) approximated by ``items`` accepting any of its positions."""
    prefix = node.get("prefixItems")
    if prefix is None:
        return node
    if type(prefix) is not list:
        bad_schema((loc, "prefixItems"), "an array of schemas", prefix)
    rest = node.get("items")
    choices = [*prefix, rest] if rest is not None and rest is not True else list(prefix)
    if rest is False:
        choices = list(prefix)
    out = without(node, "prefixItems", "items")
    if choices:
        out["items"] = choices[0] if len(choices) == 1 else {"anyOf": choices}
    if rest is False:
        out["maxItems"] = min(len(prefix), out.get("maxItems", len(prefix)))
    notes.add(
        render_path((loc, "prefixItems")),
        "approximated",
        "tuple (prefixItems) approximated by items accepting any of its positions",
    )
    return out


def strip_keys(
    schema: Any, keys: frozenset[str], notes: Notes, path: Loc = "$", limits: Limits = DEFAULT_LIMITS
) -> Any:
    """``schema`` without ``keys`` in any subschema, each removal an info note (dialect noise)."""

    def pre(node: Any, loc: Loc) -> Any:
        if type(node) is not dict or not any(key in node for key in keys):
            return node
        for key in node:
            if key in keys:
                notes.info(render_path((loc, key)), "dropped", f"{key} removed")
        return {key: value for key, value in node.items() if key not in keys}

    return transform(schema, pre=pre, path=path, limits=limits)


def drop_unsupported(
    node: dict[str, Any], allowed: frozenset[str], notes: Notes, loc: Loc, target: str
) -> dict[str, Any]:
    """``node`` without keywords outside ``allowed``: dialect noise silently, others noted ``dropped``."""
    extra = [key for key in node if key not in allowed]
    if not extra:
        return node
    for key in extra:
        path = render_path((loc, key))
        if key in NOISE:
            notes.info(path, "dropped", f"{key} removed")
        else:
            notes.add(path, "dropped", f"{key!r} is not supported by {target}")
    return {key: value for key, value in node.items() if key in allowed}
