"""Tool definitions from Python: functions, pydantic models and JSON Schemas.

* :func:`tool_from_function` reads a function's signature, type hints and docstring
  (Google, NumPy or Sphinx style) and generates the arguments schema with pydantic.
* :func:`tool_from_model` uses a pydantic model's fields as the arguments.
* :func:`tool_from_json_schema` takes a hand-written schema and checks it.

pydantic is optional: it is imported on first use, and its absence raises
:class:`~toolwire.errors.ToolDefinitionError` with an install hint.
:func:`tool_from_json_schema` and :func:`parse_docstring` do not need it.

Schema conventions (stable, minimal output):

* root ``{"type": "object", "properties": {...}, "required": [...]}``, then any other
  root keyword, then ``$defs`` (kept when a nested model, dataclass, TypedDict or enum
  needs one); ``required`` is left out when no argument is required;
* no automatic ``title`` anywhere; ``additionalProperties`` is not added (strict-mode
  transforms do that per target);
* a parameter with a default is not required and its JSON default appears as ``default``;
* parameter descriptions come from ``Field(description=...)``, else an ``Annotated``
  string (``Annotated[str, "the city"]``), else the docstring.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toolwire.ir.tools import Tool
from toolwire.pytools._checks import MAX_NAME_LENGTH, check_tool_name
from toolwire.pytools._docstring import Docstring, parse_docstring
from toolwire.pytools._json_schema import tool_from_json_schema
from toolwire.pytools._pydantic import require_pydantic

if TYPE_CHECKING:
    from toolwire.pytools._function import FunctionSchema

__all__ = [
    "MAX_NAME_LENGTH",
    "Docstring",
    "FunctionSchema",
    "check_tool_name",
    "function_schema",
    "parse_docstring",
    "tool_from_function",
    "tool_from_json_schema",
    "tool_from_model",
]


def function_schema(
    fn: Callable[..., Any], *, name: str | None = None, description: str | None = None
) -> FunctionSchema:
    """The tool view of ``fn``: name, description, parameters schema and argument validator.

    Raises:
        ToolDefinitionError: pydantic is missing, ``fn`` has no usable name, or a parameter
            cannot be a tool argument (``*args``/``**kwargs``, positional-only, unannotated,
            or a type without JSON Schema); the message names the parameter.
        ToolNameError: the name is empty or longer than 128 characters.
    """
    require_pydantic()
    from toolwire.pytools._function import function_schema as build

    if name is not None:
        check_tool_name(name)
    spec = build(fn, name=name, description=description)
    check_tool_name(spec.name)
    return spec


def tool_from_function(
    fn: Callable[..., Any],
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool | None = None,
) -> Tool:
    """Build a tool from a function's signature, type hints and docstring.

    The name defaults to ``fn.__name__``; the description to the docstring's summary
    (its first paragraph). ``self``/``cls`` leading parameters are skipped. Sync and
    async functions are treated alike. Every parameter needs a type annotation (use
    ``typing.Any`` to accept any JSON value).

    Raises:
        ToolDefinitionError: see :func:`function_schema`.
        ToolNameError: the name is empty or longer than 128 characters.
    """
    spec = function_schema(fn, name=name, description=description)
    return Tool(name=spec.name, description=spec.description, parameters=spec.parameters, strict=strict)


def tool_from_model(
    model: Any,
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool | None = None,
) -> Tool:
    """Build a tool whose arguments are the fields of a pydantic model class.

    The name defaults to the class name; the description to the docstring summary.

    Raises:
        ToolDefinitionError: pydantic is missing or ``model`` is not a model class.
        ToolNameError: the name is empty or longer than 128 characters.
    """
    require_pydantic()
    from toolwire.pytools._model import tool_from_model as build

    return build(model, name=name, description=description, strict=strict)


def __getattr__(name: str) -> Any:
    if name == "FunctionSchema":
        require_pydantic()
        from toolwire.pytools._function import FunctionSchema

        return FunctionSchema
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
