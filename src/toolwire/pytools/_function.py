"""A function's arguments as a pydantic model: its JSON Schema and its argument validator.

Each parameter becomes a model field with an internal name (``p0``, ``p1``...) and
the parameter name as alias, so that no parameter name can clash with pydantic's
own attributes (``schema``, ``model_config``, names starting with ``_``...).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable, Mapping
from typing import Annotated, Any, cast

from pydantic import BaseModel, Field, ValidationError, create_model
from pydantic.fields import FieldInfo
from pydantic.json_schema import PydanticJsonSchemaWarning
from pydantic_core import PydanticUndefined

from toolwire.errors import ToolDefinitionError
from toolwire.formats._wire import child, fail
from toolwire.pytools._docstring import Docstring, parse_docstring
from toolwire.pytools._errors import validation_failure
from toolwire.pytools._schema_gen import MinimalJsonSchema, tidy_root
from toolwire.pytools._signature import EMPTY, Param, callable_name, read_params, type_name

__all__ = ["FunctionSchema", "function_schema"]

_Field = tuple[Any, FieldInfo]


class FunctionSchema:
    """The tool view of a Python function: name, description, parameters schema, validator.

    Attributes:
        name: the tool name.
        description: the tool description, or ``None``.
        parameters: the JSON Schema of the arguments object.
        docstring: the parsed docstring of the function.
    """

    __slots__ = ("_aliases", "_model", "_resolved", "description", "docstring", "name", "parameters")

    def __init__(
        self,
        name: str,
        description: str | None,
        parameters: dict[str, Any],
        docstring: Docstring,
        model: type[BaseModel],
        params: list[Param],
    ) -> None:
        self.name = name
        self.description = description
        self.parameters = parameters
        self.docstring = docstring
        self._model = model
        self._aliases = {param.name: f"p{index}" for index, param in enumerate(params)}
        self._resolved = frozenset(
            f"p{index}" for index, param in enumerate(params) if isinstance(param.default, FieldInfo)
        )

    def validate(self, args: Mapping[str, Any], path: str = "$") -> dict[str, Any]:
        """Validate decoded arguments and return them as keyword arguments for the function.

        Values are converted to the annotated types (nested models, dataclasses, enums...).
        Only the arguments present are returned, so the function applies its own defaults;
        parameters whose default is a ``Field(...)`` get that field's default.

        Raises:
            PayloadError: an argument is unknown, missing or invalid; the path names it
                (``$.city``, ``$.stops[2].lat``).
        """
        for key in args:
            if key not in self._aliases:
                expected = ", ".join(self._aliases) or "none"
                fail(child(path, key), f"unexpected argument {key!r} (expected: {expected})")
        try:
            instance = self._model.model_validate(args)
        except ValidationError as exc:
            raise validation_failure(exc, args, path) from None
        given = instance.model_fields_set | self._resolved
        return {name: getattr(instance, field) for name, field in self._aliases.items() if field in given}


def function_schema(
    fn: Callable[..., Any], *, name: str | None = None, description: str | None = None
) -> FunctionSchema:
    """Build the :class:`FunctionSchema` of ``fn`` (pydantic must be importable).

    Raises:
        ToolDefinitionError: ``fn`` has no usable name, or a parameter cannot be a
            tool argument (the message names it, and its type when that is the cause).
    """
    if not callable(fn):
        raise ToolDefinitionError(f"expected a function, got {type(fn).__name__}")
    tool_name = name if name is not None else callable_name(fn)
    if tool_name is None:
        raise ToolDefinitionError(f"{fn!r} has no usable name: pass name=...")
    doc = parse_docstring(getattr(fn.func if isinstance(fn, functools.partial) else fn, "__doc__", None))
    params = read_params(fn, doc)
    fields = {f"p{index}": _field(param) for index, param in enumerate(params)}
    model, schema = _build(tool_name, fields, params)
    summary = description if description is not None else doc.summary
    return FunctionSchema(tool_name, summary, tidy_root(schema), doc, model, params)


def _field(param: Param) -> _Field:
    annotation = param.annotation
    default = param.default
    if isinstance(default, FieldInfo):
        annotation = cast(Any, Annotated)[annotation, default]
        default = PydanticUndefined
    elif default is EMPTY:
        default = PydanticUndefined
    extra: dict[str, Any] = {} if param.description is None else {"description": param.description}
    return annotation, Field(default, alias=param.name, **extra)


def _build(
    name: str, fields: dict[str, _Field], params: list[Param]
) -> tuple[type[BaseModel], dict[str, Any]]:
    try:
        return _model_and_schema(name, fields)
    except Exception as exc:
        raise _diagnose(name, fields, params, exc) from None


def _model_and_schema(name: str, fields: dict[str, _Field]) -> tuple[type[BaseModel], dict[str, Any]]:
    model: type[BaseModel] = create_model(name, **cast(Any, fields))
    with warnings.catch_warnings():
        # a default that is not JSON is left out of the schema; that is fine, the function applies it
        warnings.simplefilter("ignore", PydanticJsonSchemaWarning)
        schema = model.model_json_schema(schema_generator=MinimalJsonSchema)
    return model, schema


def _diagnose(
    name: str, fields: dict[str, _Field], params: list[Param], exc: Exception
) -> ToolDefinitionError:
    """Find the parameter that pydantic refused, trying each one alone."""
    for (key, field), param in zip(fields.items(), params, strict=True):
        try:
            _model_and_schema(name, {key: field})
        except Exception as err:
            return ToolDefinitionError(
                f"parameter {param.name!r} has type {type_name(param.annotation)}, "
                f"which has no JSON Schema (pydantic: {_first_sentence(err)})"
            )
    return ToolDefinitionError(f"cannot build the arguments schema of {name!r}: {_first_sentence(exc)}")


def _first_sentence(exc: Exception) -> str:
    """The first sentence of pydantic's message (the rest advises on pydantic settings we do not expose)."""
    text = str(exc).strip().split("\n", 1)[0]
    return text.split(". ", 1)[0].rstrip(".") if text else type(exc).__name__
