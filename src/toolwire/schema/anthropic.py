"""JSON Schema -> Anthropic ``input_schema``: full JSON Schema whose root is ``type: object``."""

from __future__ import annotations

from typing import Any

from toolwire._jsonpath import child
from toolwire.errors import SchemaError
from toolwire.ir.notes import Notes
from toolwire.schema._common import from_openapi, types_of, without
from toolwire.schema._limits import DEFAULT_LIMITS, Limits, no_recursion_error
from toolwire.schema.walker import Loc, render_path, transform

__all__ = ["to_anthropic"]


def _pre(node: Any, notes: Notes, loc: Loc) -> Any:
    if type(node) is not dict:
        return node
    if "$schema" in node:
        notes.info(render_path((loc, "$schema")), "dropped", "$schema removed")
        node = without(node, "$schema")
    return from_openapi(node, notes, loc)


@no_recursion_error
def to_anthropic(
    schema: Any, notes: Notes, path: str = "$", *, limits: Limits = DEFAULT_LIMITS
) -> dict[str, Any]:
    """``schema`` as an Anthropic tool ``input_schema`` (or JSON output schema).

    Anthropic takes JSON Schema as it is. Only ``$schema`` is removed (anywhere), OpenAPI/Gemini
    spellings become JSON Schema (upper-case type names, ``nullable``), and the root must say
    ``"type": "object"``: an untyped root (``true``, ``{}``, only object keywords, ``anyOf`` of
    objects) gets it, and a type array containing ``"object"`` is narrowed to it (tool input is
    always an object). All of these are info notes. The input is never mutated; a conforming
    schema is returned as the same object.

    Raises:
        SchemaError: the root cannot describe an object (``false``, or a non-object type).
        LimitError: deeper or larger than ``limits``.
    """
    result = transform(schema, pre=lambda node, loc: _pre(node, notes, loc), path=path, limits=limits)
    if result is True:
        notes.info(path, "synthesized", "true schema became an empty object schema")
        return {"type": "object"}
    if type(result) is not dict:
        raise SchemaError("a tool input schema must accept objects, got false", path=path)
    kinds = types_of(result, path)
    if kinds is None:
        notes.info(child(path, "type"), "synthesized", "root type 'object' added")
        return {"type": "object", **result}
    if "object" not in kinds:
        raise SchemaError(
            f"a tool input schema must describe an object, got type {result['type']!r}", path=path
        )
    if type(result["type"]) is list:
        notes.info(child(path, "type"), "synthesized", "root type narrowed to object")
        return {**result, "type": "object"}
    out: dict[str, Any] = result
    return out
