"""The tool registry: tools the runner may execute, with their handlers and policies."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, overload

from toolwire._json import loads
from toolwire._jsonpath import render
from toolwire.decorator import ToolFunction, tool
from toolwire.errors import PayloadError, ToolDefinitionError
from toolwire.formats._wire import fail, json_type
from toolwire.ir.tools import Tool
from toolwire.pytools._json_validator import compile_arguments

__all__ = ["RegisteredTool", "Toolbox"]

_F = TypeVar("_F", bound=Callable[..., Any])

Validator = Callable[[str], dict[str, Any]]


@dataclass(frozen=True, slots=True)
class RegisteredTool:
    """One executable tool.

    Attributes:
        tool: the definition sent to the model.
        handler: called with the validated arguments as keyword arguments (sync or async).
        validate: parses and validates the raw argument text; raises
            :class:`~toolwire.errors.PayloadError` (with a JSON path) on bad arguments.
        is_async: whether ``handler`` returns an awaitable.
        needs_approval: whether the runner's approval callback must allow each call first.
        timeout: seconds a call may take (``None``: the runner's default).
    """

    tool: Tool
    handler: Callable[..., Any]
    validate: Validator
    is_async: bool
    needs_approval: bool = False
    timeout: float | None = None

    @property
    def name(self) -> str:
        """The tool name."""
        return self.tool.name


def _object_args(text: str) -> dict[str, Any]:
    value = loads(text, path="$") if text.strip() else {}
    if not isinstance(value, dict):
        fail("$", f"tool arguments must be a JSON object, got {json_type(value)}")
    return value


def _json_path(location: Any) -> str:
    return render([part if isinstance(part, int) else str(part) for part in location])


def _model_validator(model: Any) -> Validator:
    from pydantic import ValidationError

    def validate(text: str) -> dict[str, Any]:
        args = _object_args(text)
        try:
            instance = model.model_validate(args)
        except ValidationError as exc:
            first = exc.errors()[0]
            path = _json_path(first["loc"])
            raise PayloadError(first["msg"], path=path) from None
        return {"model": instance}

    return validate


def _tool_function(func: Callable[..., Any]) -> ToolFunction[..., Any]:
    """``func`` when made with ``@tool``, else ``func`` made into a tool."""
    return func if isinstance(func, ToolFunction) else tool(func)


def _schema_validator(schema: Mapping[str, Any]) -> Validator:
    """Compile the arguments check once, at registration; every call then runs it."""
    check = compile_arguments(dict(schema))

    def validate(text: str) -> dict[str, Any]:
        args = _object_args(text)
        check(args, "$")
        return args

    return validate


class Toolbox:
    """The tools a run may call, by name.

    Example:
        >>> box = Toolbox()
        >>> @box.register
        ... def add(a: int, b: int) -> int:
        ...     '''Add two numbers.'''
        ...     return a + b
        >>> [t.name for t in box.tools]
        ['add']
    """

    def __init__(self, tools: Mapping[str, RegisteredTool] | None = None) -> None:
        self._tools: dict[str, RegisteredTool] = dict(tools or {})

    @overload
    def register(self, fn: _F, /, *, needs_approval: bool = False, timeout: float | None = None) -> _F: ...

    @overload
    def register(
        self, fn: None = None, /, *, needs_approval: bool = False, timeout: float | None = None
    ) -> Callable[[_F], _F]: ...

    def register(
        self,
        fn: _F | None = None,
        /,
        *,
        needs_approval: bool = False,
        timeout: float | None = None,
    ) -> _F | Callable[[_F], _F]:
        """Add a function (plain or made with ``@toolwire.tool``); usable as a decorator.

        Returns the function unchanged (``@box.register`` or ``@box.register(timeout=...)``).
        """

        def add(func: _F) -> _F:
            wrapped = _tool_function(func)
            self._add(
                RegisteredTool(
                    wrapped.tool,
                    wrapped.fn,
                    wrapped.validate_arguments,
                    wrapped.is_async,
                    needs_approval,
                    timeout,
                )
            )
            return func

        return add if fn is None else add(fn)

    def register_model(
        self,
        model: Any,
        handler: Callable[[Any], Any],
        *,
        name: str | None = None,
        description: str | None = None,
        needs_approval: bool = False,
        timeout: float | None = None,
    ) -> None:
        """Add a tool whose arguments are a pydantic model; ``handler(model_instance)`` runs it."""
        definition = Tool.from_model(model, name=name, description=description)
        is_async = inspect.iscoroutinefunction(handler)
        call = _async_model_call(handler) if is_async else _model_call(handler)
        self._add(
            RegisteredTool(definition, call, _model_validator(model), is_async, needs_approval, timeout)
        )

    def register_schema(
        self,
        name: str,
        schema: dict[str, Any],
        handler: Callable[..., Any],
        *,
        description: str | None = None,
        needs_approval: bool = False,
        timeout: float | None = None,
    ) -> None:
        """Add a tool from a raw JSON Schema; ``handler(**arguments)`` runs it.

        The schema is checked and compiled here, once; every call's arguments are then
        validated against it before the handler runs (a failure becomes the call's error
        result, with the argument's JSON path).

        Raises:
            SchemaError: the schema is invalid, or has a remote or unresolvable ``$ref``
                (nothing is ever fetched); the path points into the schema.
            ToolDefinitionError: a tool with this name is already registered.
        """
        definition = Tool.from_json_schema(name=name, schema=schema, description=description)
        self._add(
            RegisteredTool(
                definition,
                handler,
                _schema_validator(definition.parameters or {}),
                inspect.iscoroutinefunction(handler),
                needs_approval,
                timeout,
            )
        )

    def _add(self, entry: RegisteredTool) -> None:
        if entry.name in self._tools:
            raise ToolDefinitionError(f"a tool named {entry.name!r} is already registered")
        self._tools[entry.name] = entry

    @property
    def tools(self) -> tuple[Tool, ...]:
        """The definitions to send to the model, in registration order."""
        return tuple(entry.tool for entry in self._tools.values())

    def get(self, name: str) -> RegisteredTool | None:
        """The registered tool called ``name``, or ``None``."""
        return self._tools.get(name)

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __iter__(self) -> Iterator[RegisteredTool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)


def _model_call(handler: Callable[[Any], Any]) -> Callable[..., Any]:
    def call(model: Any) -> Any:
        return handler(model)

    return call


def _async_model_call(handler: Callable[[Any], Any]) -> Callable[..., Any]:
    async def call(model: Any) -> Any:
        return await handler(model)

    return call
