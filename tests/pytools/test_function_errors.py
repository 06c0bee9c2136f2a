"""Functions that cannot become tools: every error names the parameter (and its type)."""

from __future__ import annotations

import socket
import typing
from collections.abc import Callable
from typing import Any

import pytest

from toolwire import ToolDefinitionError, ToolNameError
from toolwire.pytools import tool_from_function


class Service:
    pass


def _args(*args: int) -> None: ...
def _kwargs(x: int, **options: str) -> None: ...
def _untyped(a: int, b) -> None: ...  # type: ignore[no-untyped-def]
def _positional(a: int, /, b: int) -> None: ...
def _socket(conn: socket.socket) -> None: ...
def _callable(cb: Callable[[int], int]) -> None: ...
def _arbitrary(x: int, thing: Service) -> None: ...
def _typing_typeddict(w: typing.TypedDict("W", {"a": int})) -> None: ...  # type: ignore[valid-type]
def _unresolvable(x: Missing) -> None: ...  # type: ignore[name-defined]  # noqa: F821


@pytest.mark.parametrize(
    ("fn", "fragments"),
    [
        (_args, ["'*args'", "variadic"]),
        (_kwargs, ["'**options'", "keyword"]),
        (_untyped, ["'b'", "no type annotation"]),
        (_positional, ["'a'", "positional-only"]),
        (_socket, ["'conn'", "socket.socket", "no JSON Schema"]),
        (_callable, ["'cb'", "Callable[[int], int]", "no JSON Schema"]),
        (_arbitrary, ["'thing'", "test_function_errors.Service"]),
        (_typing_typeddict, ["'w'", "typing_extensions.TypedDict"]),
        (_unresolvable, ["'x'", "cannot resolve", "Missing"]),
    ],
)
def test_errors_name_the_parameter(fn: Callable[..., Any], fragments: list[str]) -> None:
    with pytest.raises(ToolDefinitionError) as info:
        tool_from_function(fn)
    for fragment in fragments:
        assert fragment in str(info.value)


def test_lambda_needs_a_name() -> None:
    with pytest.raises(ToolDefinitionError, match="pass name="):
        tool_from_function(lambda x: x)
    assert tool_from_function(lambda: None, name="noop").name == "noop"


def test_not_callable() -> None:
    with pytest.raises(ToolDefinitionError, match="expected a function"):
        tool_from_function(42)  # type: ignore[arg-type]


@pytest.mark.parametrize("name", ["", "   ", "x" * 129])
def test_bad_names(name: str) -> None:
    def f() -> None: ...

    with pytest.raises(ToolNameError):
        tool_from_function(f, name=name)


def test_missing_pydantic_gives_an_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(__import__("sys").modules, "pydantic", None)

    def f(x: int) -> None: ...

    with pytest.raises(ToolDefinitionError, match=r"pip install 'toolwire\[models\]'"):
        tool_from_function(f)
