"""OpenAI strict function schemas: the two rules the API enforces before anything else.

With ``strict: true`` every object in a function's ``parameters`` must set
``additionalProperties: false`` and list every property in ``required``. The API words the
failures as ``Invalid schema for function 'f': In context=('properties', 'a'), 'additionalProperties'
is required to be supplied and to be false.``
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolwire.validate._engine import Ctx, Path

__all__ = ["check_strict_schema"]

_NESTED_MAPS = ("properties", "$defs", "definitions")
_NESTED_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")


def _objects(node: Any, where: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every object schema in ``node`` with its context (the keys leading to it)."""
    if not isinstance(node, dict):
        return
    kind = node.get("type")
    if kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node:
        yield where, node
    for key in _NESTED_MAPS:
        children = node.get(key)
        if isinstance(children, dict):
            for name, child in children.items():
                yield from _objects(child, (*where, key, name))
    for key in _NESTED_LISTS:
        children = node.get(key)
        if isinstance(children, list):
            for i, child in enumerate(children):
                yield from _objects(child, (*where, key, str(i)))
    if isinstance(node.get("items"), dict):
        yield from _objects(node["items"], (*where, "items"))


def _context(where: tuple[str, ...]) -> str:
    return "(" + ", ".join(repr(k) for k in where) + ("," if len(where) == 1 else "") + ")"


def check_strict_schema(name: str, schema: Any, path: Path, ctx: Ctx) -> None:
    """Report the first strict-mode violation in ``schema`` (the API stops at the first, too)."""
    for where, node in _objects(schema, ()):
        lead = f"Invalid schema for function '{name}': In context={_context(where)}, "
        if node.get("additionalProperties") is not False:
            ctx.add(
                path,
                "invalid_function_parameters",
                lead + "'additionalProperties' is required to be supplied and to be false.",
            )
            return
        props = node.get("properties")
        keys = list(props) if isinstance(props, dict) else []
        listed = node.get("required")
        required: list[Any] = listed if isinstance(listed, list) else []
        missing = [k for k in keys if k not in required]
        if missing:
            ctx.add(
                path,
                "invalid_function_parameters",
                lead + "'required' is required to be supplied and to be an array including every key in "
                f"properties. Missing '{missing[0]}'.",
            )
            return
