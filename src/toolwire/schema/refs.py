"""Local ``$ref`` resolution (JSON pointers) and reference inlining with recursion detection."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import unquote

from toolwire.errors import LimitError, SchemaError
from toolwire.ir.notes import Notes
from toolwire.schema._limits import DEFAULT_LIMITS, Limits, no_recursion_error
from toolwire.schema.walker import Loc, bad_schema, map_children, render_path

__all__ = ["DEF_KEYS", "inline_refs", "resolve_ref"]

DEF_KEYS = ("$defs", "definitions")
"""Keywords that hold reusable definitions (2019+ and draft 4-7 spellings)."""

Cut = Callable[[Any, str, Loc], Any]
"""``(target, ref, loc) -> schema`` standing in for a recursive reference that is not expanded."""
Merge = Callable[[list[Any], Loc], Any]
"""``(parts, loc) -> schema``: the conjunction of schemas (for ``$ref`` plus sibling keywords)."""
Resolve = Callable[[Any, Loc], tuple[Any, Loc]]
"""``(ref, loc) -> (target, target location)``; raises :class:`SchemaError` when unresolvable."""


def resolve_ref(root: Any, ref: Any, loc: Loc, root_loc: Loc = "$") -> tuple[Any, Loc]:
    """The schema a local ``$ref`` points to inside ``root``, and that schema's location.

    Supports ``#`` and JSON-pointer fragments (``#/$defs/X``, ``#/definitions/X``, any
    ``#/a/b/0`` path, with ``~0``/``~1`` and percent escapes). Remote references, anchors
    and dangling pointers raise :class:`SchemaError` at ``loc`` (the ``$ref`` site).
    """
    if type(ref) is not str:
        raise SchemaError("$ref must be a string", path=render_path((loc, "$ref")))
    if not ref.startswith("#"):
        raise SchemaError(f"only local references are supported, got {ref!r}", path=render_path(loc))
    pointer = unquote(ref[1:])
    if pointer and not pointer.startswith("/"):
        raise SchemaError(f"anchor references are not supported: {ref!r}", path=render_path(loc))
    node, here = root, root_loc
    for raw in pointer.split("/")[1:] if pointer else ():
        token = raw.replace("~1", "/").replace("~0", "~")
        if type(node) is dict and token in node:
            node, here = node[token], (here, token)
        elif type(node) is list and token.isdigit() and int(token) < len(node):
            node, here = node[int(token)], (here, int(token))
        else:
            raise SchemaError(f"$ref {ref!r} points to nothing", path=render_path(loc))
    return node, here


class _Inliner:
    """Replaces every ``$ref`` by its target, cutting recursion with ``cut``."""

    __slots__ = ("cut", "depth", "limits", "merge", "nodes", "noted", "notes", "resolve", "stack")

    def __init__(self, resolve: Resolve, notes: Notes, limits: Limits, cut: Cut, merge: Merge):
        self.resolve = resolve
        self.notes = notes
        self.limits = limits
        self.cut = cut
        self.merge = merge
        self.stack: list[str] = ["#"]
        self.noted: set[tuple[str, str]] = set()
        self.nodes = 0
        self.depth = 0

    def count(self, loc: Loc) -> None:
        self.nodes += 1
        if self.nodes > self.limits.max_nodes:
            raise LimitError(
                f"inlining $ref expands the schema beyond {self.limits.max_nodes} subschemas",
                path=render_path(loc),
            )
        if self.depth > self.limits.max_depth:
            raise LimitError(
                f"inlining $ref nests the schema deeper than {self.limits.max_depth} levels",
                path=render_path(loc),
            )

    def visit(self, node: Any, loc: Loc) -> Any:
        self.count(loc)
        if type(node) is not dict:
            if type(node) is not bool:
                bad_schema(loc, "a schema (object or boolean)", node)
            return node
        if any(key in node for key in DEF_KEYS):
            for key in DEF_KEYS:
                if key in node:
                    self.notes.info(render_path((loc, key)), "dropped", f"{key} removed: references inlined")
            node = {key: value for key, value in node.items() if key not in DEF_KEYS}
        if "$ref" in node:
            return self.expand(node, loc)
        self.depth += 1
        node = map_children(node, loc, self.visit)
        self.depth -= 1
        return node

    def expand(self, node: dict[str, Any], loc: Loc) -> Any:
        ref = node["$ref"]
        target, target_loc = self.resolve(ref, loc)
        if ref in self.stack:
            self.note(loc, ref, True)
            inlined = self.cut(target, ref, loc)
        else:
            self.note(loc, ref, False)
            self.stack.append(ref)
            self.depth += 1  # a reference hop counts as a level: alias chains are bounded too
            inlined = self.visit(target, target_loc)
            self.depth -= 1
            self.stack.pop()
        siblings = {key: value for key, value in node.items() if key != "$ref"}
        if not siblings:
            return inlined
        self.depth += 1
        siblings = map_children(siblings, loc, self.visit)
        self.depth -= 1
        return self.merge([siblings, inlined], loc)

    def note(self, loc: Loc, ref: str, recursive: bool) -> None:
        """One note per source location, however often an enclosing definition is expanded."""
        path = render_path(loc)
        if (path, ref) in self.noted:
            return
        self.noted.add((path, ref))
        if recursive:
            self.notes.add(path, "approximated", f"recursive $ref {ref!r} cut: not expanded again")
        else:
            self.notes.info(path, "synthesized", f"$ref {ref!r} inlined")


@no_recursion_error
def inline_refs(
    schema: Any,
    notes: Notes,
    *,
    cut: Cut,
    merge: Merge,
    path: Loc = "$",
    limits: Limits = DEFAULT_LIMITS,
    resolve: Resolve | None = None,
) -> Any:
    """``schema`` with every local ``$ref`` replaced by (a copy of) its target.

    Definitions (``$defs``/``definitions``) are removed from the result. A reference met again
    while its own target is being expanded is recursive: it is noted (``approximated``) and
    replaced by ``cut(target, ref, loc)``; the root counts as being expanded, so ``#`` is cut at
    its first use. ``$ref`` with sibling keywords becomes ``merge([siblings, target])``. Targets
    are resolved in ``schema`` itself unless ``resolve`` is given. Every lossless inlining is
    recorded with ``notes.info``.

    Raises:
        SchemaError: remote, anchor or dangling references.
        LimitError: the expansion exceeds ``limits`` (exponential reference fan-out included).
    """
    if resolve is None:

        def resolve(ref: Any, loc: Loc) -> tuple[Any, Loc]:
            return resolve_ref(schema, ref, loc, path)

    return _Inliner(resolve, notes, limits, cut, merge).visit(schema, path)
