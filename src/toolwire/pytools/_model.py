"""Tools whose arguments are a pydantic model (imports pydantic: load lazily)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from toolwire.errors import ToolDefinitionError
from toolwire.ir.tools import Tool
from toolwire.pytools._checks import check_tool_name
from toolwire.pytools._docstring import parse_docstring
from toolwire.pytools._schema_gen import MinimalJsonSchema, tidy_root

__all__ = ["model_parameters", "tool_from_model"]


def tool_from_model(
    model: Any,
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool | None = None,
) -> Tool:
    """Build a tool whose arguments are the fields of a pydantic model.

    The name defaults to the class name (unchanged); the description to the first
    paragraph of the class docstring. Fields without a ``description`` take one from
    the docstring's ``Attributes:`` / ``Args:`` section (or NumPy/Sphinx equivalent).
    The model's own description is moved out of the schema into the tool description.

    Raises:
        ToolDefinitionError: ``model`` is not a pydantic model class, or has no object schema.
        ToolNameError: the name is empty or too long.
    """
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        raise ToolDefinitionError(f"expected a pydantic BaseModel subclass, got {model!r}")
    tool_name = check_tool_name(name if name is not None else model.__name__)
    parameters, doc_summary, schema_description = model_parameters(model)
    if description is None:
        description = doc_summary if doc_summary is not None else schema_description
    return Tool(name=tool_name, description=description, parameters=parameters, strict=strict)


def model_parameters(model: type[BaseModel]) -> tuple[dict[str, Any], str | None, str | None]:
    """``(parameters schema, docstring summary, schema description)`` of a model."""
    try:
        schema = model.model_json_schema(schema_generator=MinimalJsonSchema)
    except Exception as exc:
        raise ToolDefinitionError(f"cannot build the JSON Schema of {model.__name__}: {exc}") from None
    if schema.get("type") != "object":
        raise ToolDefinitionError(
            f"{model.__name__} does not describe a JSON object (a tool takes an object)"
        )
    schema_description = schema.pop("description", None)
    doc = parse_docstring(model.__doc__) if model.__doc__ else None
    if doc is not None and doc.params:
        _describe_fields(schema, model, doc.params)
    summary = doc.summary if doc is not None else None
    return tidy_root(schema), summary, schema_description


def _describe_fields(schema: dict[str, Any], model: type[BaseModel], texts: dict[str, str]) -> None:
    """Give each undescribed property the description its docstring entry has."""
    properties = schema.get("properties", {})
    for field_name, field in model.model_fields.items():
        key = field.validation_alias if isinstance(field.validation_alias, str) else field.alias or field_name
        prop = properties.get(key)
        text = texts.get(field_name)
        if text and isinstance(prop, dict) and "description" not in prop:
            properties[key] = {**prop, "description": text}
