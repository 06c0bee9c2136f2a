"""The one walker every schema transform uses.

It knows where subschemas live (:data:`LOCATIONS`), enforces :class:`Limits` on untrusted
input, and rebuilds only what changed: a transform that changes nothing returns the very
object it was given. Transforms themselves are small functions on one node (``Rule``).

Locations are passed around as :data:`Loc` values, cheap tuples ``(parent, key)`` rooted at a
JSON path string; :func:`render_path` turns one into ``$.properties.a.items`` only when an
error is raised or a note is recorded.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NoReturn, TypeAlias

from toolwire._jsonpath import child
from toolwire.errors import LimitError, SchemaError
from toolwire.schema._limits import DEFAULT_LIMITS, Limits, no_recursion_error

__all__ = [
    "LOCATIONS",
    "Loc",
    "Rule",
    "bad_schema",
    "iter_children",
    "map_children",
    "render_path",
    "transform",
    "walk",
]

Loc: TypeAlias = "str | tuple[Loc, str | int]"
"""A location: a JSON path string (the root) or ``(parent location, key or index)``."""

Rule: TypeAlias = Callable[[Any, Loc], Any]
"""A transform step: ``(node, loc) -> node``; return the same object when nothing changes."""

LOCATIONS: dict[str, str] = {
    "properties": "map",
    "patternProperties": "map",
    "$defs": "map",
    "definitions": "map",
    "dependentSchemas": "map",
    "dependencies": "deps",
    "additionalProperties": "one",
    "propertyNames": "one",
    "additionalItems": "one",
    "unevaluatedItems": "one",
    "unevaluatedProperties": "one",
    "contains": "one",
    "not": "one",
    "if": "one",
    "then": "one",
    "else": "one",
    "contentSchema": "one",
    "items": "items",
    "allOf": "list",
    "anyOf": "list",
    "oneOf": "list",
    "prefixItems": "list",
}
"""Every keyword whose value holds subschemas (drafts 4 to 2020-12), by shape:
``map`` name -> schema, ``one`` a schema, ``list`` schemas, ``items`` a schema or (draft 4-2019)
a list, ``deps`` (draft 4-7 ``dependencies``) name -> schema or list of property names."""

_JSON_NAMES = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", type(None): "null"}


def render_path(loc: Loc) -> str:
    """The JSON path string of a location."""
    keys: list[str | int] = []
    while type(loc) is tuple:
        loc, key = loc
        keys.append(key)
    path = loc
    assert isinstance(path, str)
    for key in reversed(keys):
        path = child(path, key)
    return path


def bad_schema(loc: Loc, expected: str, value: Any) -> NoReturn:
    """Raise :class:`SchemaError` at ``loc``: ``value`` is not ``expected``."""
    got = _JSON_NAMES.get(type(value), "a number")
    raise SchemaError(f"expected {expected}, got {got}", path=render_path(loc))


def _check_node(node: Any, loc: Loc) -> None:
    if type(node) is not dict and type(node) is not bool:
        bad_schema(loc, "a schema (object or boolean)", node)


def map_children(node: dict[str, Any], loc: Loc, fn: Rule) -> dict[str, Any]:
    """Apply ``fn`` to every direct subschema of ``node``; a new dict only if one changed."""
    out: dict[str, Any] | None = None
    for key, value in node.items():
        kind = LOCATIONS.get(key)
        if kind is None:
            continue
        new = _map_location(kind, value, (loc, key), fn)
        if new is not value:
            if out is None:
                out = dict(node)
            out[key] = new
    return node if out is None else out


def _map_location(kind: str, value: Any, loc: Loc, fn: Rule) -> Any:
    if kind == "one" or (kind == "items" and type(value) is not list):
        return fn(value, loc)
    if kind in ("list", "items"):
        if type(value) is not list:
            bad_schema(loc, "an array of schemas", value)
        items: list[Any] | None = None
        for index, item in enumerate(value):
            new = fn(item, (loc, index))
            if new is not item:
                if items is None:
                    items = list(value)
                items[index] = new
        return value if items is None else items
    if type(value) is not dict:
        bad_schema(loc, "an object of schemas", value)
    entries: dict[str, Any] | None = None
    for name, item in value.items():
        if kind == "deps" and type(item) is list:
            continue
        new = fn(item, (loc, name))
        if new is not item:
            if entries is None:
                entries = dict(value)
            entries[name] = new
    return value if entries is None else entries


def iter_children(node: dict[str, Any], loc: Loc) -> Iterator[tuple[Any, Loc]]:
    """Every direct subschema of ``node`` with its location (containers are type-checked)."""
    for key, value in node.items():
        kind = LOCATIONS.get(key)
        if kind is None:
            continue
        here: Loc = (loc, key)
        if kind == "one" or (kind == "items" and type(value) is not list):
            yield value, here
        elif kind in ("list", "items"):
            if type(value) is not list:
                bad_schema(here, "an array of schemas", value)
            for index, item in enumerate(value):
                yield item, (here, index)
        else:
            if type(value) is not dict:
                bad_schema(here, "an object of schemas", value)
            for name, item in value.items():
                if kind != "deps" or type(item) is not list:
                    yield item, (here, name)


def walk(schema: Any, *, path: Loc = "$", limits: Limits = DEFAULT_LIMITS) -> Iterator[tuple[Any, Loc]]:
    """Every subschema (dict or bool) of ``schema``, pre-order, with its location.

    Iterative, so no input depth can exhaust the Python stack; raises
    :class:`~toolwire.errors.LimitError` past ``limits`` and :class:`SchemaError` when a
    subschema location holds something that is not a schema.
    """
    stack: list[tuple[Any, Loc, int]] = [(schema, path, 0)]
    nodes = 0
    while stack:
        node, loc, depth = stack.pop()
        nodes += 1
        _check_limits(nodes, depth, loc, limits)
        _check_node(node, loc)
        yield node, loc
        if type(node) is dict:
            children = list(iter_children(node, loc))
            stack.extend((child, here, depth + 1) for child, here in reversed(children))


def _check_limits(nodes: int, depth: int, loc: Loc, limits: Limits) -> None:
    if depth > limits.max_depth:
        raise LimitError(f"schema nested deeper than {limits.max_depth} levels", path=render_path(loc))
    if nodes > limits.max_nodes:
        raise LimitError(f"schema has more than {limits.max_nodes} subschemas", path=render_path(loc))


class _Transformer:
    __slots__ = ("depth", "limits", "nodes", "post", "pre")

    def __init__(self, pre: Rule | None, post: Rule | None, limits: Limits) -> None:
        self.pre = pre
        self.post = post
        self.limits = limits
        self.nodes = 0
        self.depth = 0

    def visit(self, node: Any, loc: Loc) -> Any:
        self.nodes += 1
        if self.nodes > self.limits.max_nodes or self.depth > self.limits.max_depth:
            _check_limits(self.nodes, self.depth, loc, self.limits)
        if type(node) is not dict and type(node) is not bool:
            _check_node(node, loc)
        if self.pre is not None:
            node = self.pre(node, loc)
        if type(node) is dict:
            self.depth += 1
            node = map_children(node, loc, self.visit)
            self.depth -= 1
        if self.post is not None:
            node = self.post(node, loc)
        return node


@no_recursion_error
def transform(
    schema: Any,
    *,
    pre: Rule | None = None,
    post: Rule | None = None,
    path: Loc = "$",
    limits: Limits = DEFAULT_LIMITS,
) -> Any:
    """Rewrite every subschema of ``schema``: ``pre`` on the way down, ``post`` on the way up.

    ``pre`` sees a node before its children are visited (so it may reshape them: merge
    ``allOf``, drop keywords whose subtrees must not be walked); the children of what it
    returns are then visited; ``post`` sees the node with its children already rewritten. The
    input is never mutated; unchanged subtrees are returned as the same objects.

    Raises:
        LimitError: deeper or larger than ``limits`` (never ``RecursionError``).
        SchemaError: a subschema location holds something that is not a schema.
    """
    return _Transformer(pre, post, limits).visit(schema, path)
