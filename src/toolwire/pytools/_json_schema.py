"""Tools from a name and a hand-written JSON Schema (no pydantic needed)."""

from __future__ import annotations

from typing import Any

from toolwire.errors import SchemaError
from toolwire.formats._wire import json_type
from toolwire.ir.tools import Tool
from toolwire.pytools._checks import check_tool_name
from toolwire.pytools._json_validator import check_schema

__all__ = ["tool_from_json_schema"]


def tool_from_json_schema(
    name: str,
    schema: dict[str, Any],
    *,
    description: str | None = None,
    strict: bool | None = None,
) -> Tool:
    """Build a tool from a name and the JSON Schema of its arguments.

    The schema must describe an object: ``"type": "object"``, or no ``type`` but
    ``properties``. It is also checked against its meta-schema (the draft its
    ``$schema`` names, 2020-12 by default), and every ``$ref`` must resolve inside it:
    a remote ``$ref`` is refused, never fetched (see :mod:`toolwire.pytools._json_validator`).
    The schema is kept by reference, unchanged.

    Raises:
        ToolNameError: the name is not a string, empty, or longer than 128 characters.
        SchemaError: the schema is not an object schema, breaks the meta-schema, names an
            unknown ``$schema``, or has a remote or dangling ``$ref``; the path points into
            the schema (``$.properties.city.type``, ``$.properties.home["$ref"]``).
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
    check_schema(schema)
    return Tool(name=name, description=description, parameters=schema, strict=strict)
