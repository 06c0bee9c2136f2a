"""Tools from a name and a hand-written JSON Schema (no pydantic needed)."""

from __future__ import annotations

from collections import deque
from typing import Any

from toolwire.errors import SchemaError
from toolwire.formats._wire import child, json_type
from toolwire.ir.tools import Tool
from toolwire.pytools._checks import check_tool_name

__all__ = ["check_meta_schema", "tool_from_json_schema"]


def tool_from_json_schema(
    name: str,
    schema: dict[str, Any],
    *,
    description: str | None = None,
    strict: bool | None = None,
) -> Tool:
    """Build a tool from a name and the JSON Schema of its arguments.

    The schema must describe an object: ``"type": "object"``, or no ``type`` but
    ``properties``. When :mod:`jsonschema` is installed the schema is also checked
    against its meta-schema (the draft its ``$schema`` names, 2020-12 by default).
    The schema is kept by reference, unchanged.

    Raises:
        ToolNameError: the name is not a string, empty, or longer than 128 characters.
        SchemaError: the schema is not an object schema or breaks the meta-schema; the
            path points into the schema (``$.properties.city.type``).
    """
    check_tool_name(name)
    if type(schema) is not dict:
        raise SchemaError(f"tool parameters must be a JSON Schema object, got {json_type(schema)}", path="$")
    kind = schema.get("type")
    if kind is None and "properties" not in schema:
        raise SchemaError(
            'the schema of tool arguments must describe an object: add "type": "object" and "properties"',
            path="$",
        )
    if kind is not None and kind != "object":
        raise SchemaError(
            f'tool arguments must be an object, the schema says "type": {kind!r}', path="$.type"
        )
    check_meta_schema(schema)
    return Tool(name=name, description=description, parameters=schema, strict=strict)


def check_meta_schema(schema: dict[str, Any]) -> None:
    """Check ``schema`` against its JSON Schema meta-schema; a no-op without :mod:`jsonschema`.

    Raises:
        SchemaError: at the path of the first offending keyword.
    """
    try:
        from jsonschema import exceptions, validators
    except ImportError:
        return
    cls = validators.validator_for(schema, default=validators.Draft202012Validator)
    error = exceptions.best_match(cls(cls.META_SCHEMA).iter_errors(schema))
    if error is not None:
        raise SchemaError(f"invalid JSON Schema: {error.message}", path=_path(error.absolute_path))


def _path(parts: deque[str | int]) -> str:
    path = "$"
    for part in parts:
        path = child(path, part)
    return path
