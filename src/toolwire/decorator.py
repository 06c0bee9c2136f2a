"""The ``@tool`` decorator: a Python function that is also a tool definition.

Example:
    >>> from toolwire.decorator import tool
    >>> @tool
    ... def get_weather(city: str, days: int = 1) -> str:
    ...     '''Get the weather forecast.
    ...
    ...     Args:
    ...         city: City name.
    ...         days: How many days ahead.
    ...     '''
    ...     return f"sunny in {city}"
    >>> get_weather.tool.name
    'get_weather'
    >>> get_weather.validate_arguments('{"city": "Oslo", "days": "2"}')
    {'city': 'Oslo', 'days': 2}
    >>> get_weather("Oslo")
    'sunny in Oslo'
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from toolwire._json import loads
from toolwire.formats._wire import fail, json_type
from toolwire.ir.tools import Tool
from toolwire.pytools import function_schema

if TYPE_CHECKING:
    from toolwire.pytools import FunctionSchema

__all__ = ["ToolFunction", "tool"]

P = ParamSpec("P")
Q = ParamSpec("Q")
R = TypeVar("R")


class ToolFunction(Generic[P, R]):
    """A function wrapped as a tool; calling it calls the function unchanged.

    Attributes:
        tool: the :class:`~toolwire.ir.Tool` definition.
        fn: the original function.
        is_async: whether calling it returns an awaitable (``async def``).
    """

    tool: Tool
    fn: Callable[P, R]
    is_async: bool
    __name__: str
    __qualname__: str
    __wrapped__: Callable[..., Any]

    def __init__(self, fn: Callable[P, R], spec: FunctionSchema, *, strict: bool | None = None) -> None:
        functools.update_wrapper(self, fn)  # first, so that fn.__dict__ cannot shadow what follows
        self.fn = fn
        self._spec = spec
        self.tool = Tool(
            name=spec.name, description=spec.description, parameters=spec.parameters, strict=strict
        )
        self.is_async = inspect.iscoroutinefunction(fn)
        mark = getattr(inspect, "markcoroutinefunction", None)  # Python 3.12+
        if self.is_async and mark is not None:
            mark(self)

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        return self.fn(*args, **kwargs)

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Self: ...

    @overload
    def __get__(
        self: ToolFunction[Concatenate[Any, Q], R], instance: object, owner: type | None = None
    ) -> ToolFunction[Q, R]: ...

    def __get__(self, instance: object, owner: type | None = None) -> ToolFunction[Any, Any]:
        """Bind like a method when the decorated function is defined in a class body."""
        if instance is None:
            return self
        bound: ToolFunction[Any, Any] = ToolFunction.__new__(ToolFunction)
        bound.__dict__.update(self.__dict__)
        bound.fn = bound.__wrapped__ = self.fn.__get__(instance, owner)
        return bound

    def validate_arguments(self, args: Mapping[str, Any] | str | bytes) -> dict[str, Any]:
        """Parse (when given JSON text) and validate tool-call arguments against the signature.

        ``""`` means no arguments. The result holds the arguments present, converted to
        the annotated types, ready for ``fn(**result)``.

        Raises:
            PayloadError: invalid JSON, not an object, or an unknown, missing or invalid
                argument; the path names it (``$.city``).
        """
        if isinstance(args, str | bytes):
            args = loads(args) if args.strip() else {}
        if not isinstance(args, Mapping):
            fail("$", f"tool arguments must be a JSON object, got {json_type(args)}")
        return self._spec.validate(args)

    def __repr__(self) -> str:
        return f"<ToolFunction {self.tool.name!r} wrapping {self.fn!r}>"


@overload
def tool(fn: Callable[P, R], /) -> ToolFunction[P, R]: ...


@overload
def tool(
    *, name: str | None = None, description: str | None = None, strict: bool | None = None
) -> Callable[[Callable[P, R]], ToolFunction[P, R]]: ...


def tool(
    fn: Callable[P, R] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    strict: bool | None = None,
) -> ToolFunction[P, R] | Callable[[Callable[P, R]], ToolFunction[P, R]]:
    """Turn a function into a :class:`ToolFunction`; use as ``@tool`` or ``@tool(name=...)``.

    Args:
        fn: the function (when used without parentheses).
        name: the tool name; defaults to the function name.
        description: the tool description; defaults to the docstring summary.
        strict: the OpenAI structured-outputs flag to put on the tool.

    Raises:
        ToolDefinitionError: the function cannot be a tool (see
            :func:`toolwire.pytools.tool_from_function`).
        ToolNameError: the name is empty or too long.
    """

    def wrap(func: Callable[P, R]) -> ToolFunction[P, R]:
        return ToolFunction(func, function_schema(func, name=name, description=description), strict=strict)

    return wrap if fn is None else wrap(fn)
