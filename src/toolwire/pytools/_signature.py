"""Reading a function's parameters: names, resolved annotations, defaults and descriptions.

No pydantic here except for recognising ``Field(...)`` metadata, which the caller
has already made sure is importable.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, ForwardRef, get_args, get_origin

from pydantic.fields import FieldInfo

from toolwire.errors import ToolDefinitionError
from toolwire.pytools._docstring import Docstring

__all__ = ["EMPTY", "Param", "callable_name", "read_params", "type_name"]

EMPTY: Any = inspect.Parameter.empty
"""Marks a parameter without a default (a required argument)."""

_SKIPPED_FIRST = frozenset({"self", "cls"})
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
_REFUSED_KINDS: dict[Any, str] = {
    inspect.Parameter.VAR_POSITIONAL: "'*{name}' cannot be a tool argument: variadic arguments have no "
    "JSON Schema; declare each argument instead",
    inspect.Parameter.VAR_KEYWORD: "'**{name}' cannot be a tool argument: arbitrary keyword arguments "
    "have no JSON Schema; declare each argument, or take one dict-typed argument",
    inspect.Parameter.POSITIONAL_ONLY: "'{name}' is positional-only, but tool arguments are passed by name",
}


@dataclass(frozen=True, slots=True)
class Param:
    """One tool argument read from a signature.

    Attributes:
        name: the parameter name (also the JSON property name).
        annotation: the resolved annotation, ``Annotated`` metadata included.
        default: the default value, or :data:`EMPTY` when the argument is required.
        description: the description found outside ``Field(...)`` (an ``Annotated`` string
            or the docstring), or ``None`` when ``Field(description=...)`` already gives one.
    """

    name: str
    annotation: Any
    default: Any
    description: str | None


def callable_name(fn: Any) -> str | None:
    """The ``__name__`` of ``fn`` when it is usable as a tool name (not a lambda)."""
    name = getattr(fn, "__name__", None)
    return name if isinstance(name, str) and name != "<lambda>" else None


def type_name(annotation: Any) -> str:
    """A readable name of a type for error messages (``socket.socket``, ``list[int]``)."""
    if isinstance(annotation, type) and not get_args(annotation):
        module = annotation.__module__
        return annotation.__qualname__ if module == "builtins" else f"{module}.{annotation.__qualname__}"
    return repr(annotation).replace("typing.", "")


def read_params(fn: Callable[..., Any], doc: Docstring) -> list[Param]:
    """The tool arguments of ``fn``, in signature order.

    Raises:
        ToolDefinitionError: a parameter is variadic, positional-only or unannotated,
            or its annotation cannot be resolved (the message names the parameter).
    """
    signature = _signature(fn)
    params: list[Param] = []
    for index, param in enumerate(signature.parameters.values()):
        if index == 0 and param.name in _SKIPPED_FIRST and param.kind in _POSITIONAL:
            continue
        _check_kind(param)
        params.append(_read(param, doc))
    return params


def _signature(fn: Callable[..., Any]) -> inspect.Signature:
    try:
        return inspect.signature(fn, eval_str=True)
    except (ValueError, TypeError) as exc:
        raise ToolDefinitionError(f"cannot read the signature of {fn!r}: {exc}") from None
    except Exception as exc:
        raise _unresolved(fn, exc) from None


def _unresolved(fn: Callable[..., Any], exc: Exception) -> ToolDefinitionError:
    """Name the parameter whose string annotation failed to evaluate."""
    namespace = getattr(inspect.unwrap(fn), "__globals__", {})
    for param in inspect.signature(fn).parameters.values():
        if isinstance(param.annotation, str):
            try:
                eval(param.annotation, namespace)
            except Exception as err:
                return ToolDefinitionError(
                    f"parameter {param.name!r}: cannot resolve the annotation {param.annotation!r} "
                    f"({type(err).__name__}: {err}); define the type at module level"
                )
    return ToolDefinitionError(f"cannot resolve the annotations of {fn!r}: {type(exc).__name__}: {exc}")


def _check_kind(param: inspect.Parameter) -> None:
    template = _REFUSED_KINDS.get(param.kind)
    if template is not None:
        raise ToolDefinitionError(f"parameter {template.format(name=param.name)}")
    if param.annotation is EMPTY:
        raise ToolDefinitionError(
            f"parameter {param.name!r} has no type annotation: the model would get no schema for it "
            "(annotate it, with typing.Any if any JSON value is acceptable)"
        )


def _read(param: inspect.Parameter, doc: Docstring) -> Param:
    annotation, default = param.annotation, param.default
    if isinstance(annotation, str | ForwardRef):
        raise ToolDefinitionError(f"parameter {param.name!r}: cannot resolve the annotation {annotation!r}")
    fields = [default] if isinstance(default, FieldInfo) else []
    texts: list[str] = []
    if get_origin(annotation) is Annotated:
        for meta in annotation.__metadata__:
            if isinstance(meta, FieldInfo):
                fields.append(meta)
            elif isinstance(meta, str):
                texts.append(meta)
    described = any(field.description for field in fields)
    description = None if described else (texts[0] if texts else doc.params.get(param.name))
    return Param(param.name, annotation, default, description)
