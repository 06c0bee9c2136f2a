"""Tool names between formats: a request's tools, calls, results and tool choice renamed by a
:class:`~toolwire.names.NameMap` (used by :mod:`toolwire.translate` and the CLI).

Every change to a tool's name is noted as info at the tool; calls and results follow silently,
and a message or part is copied only when one of its names changes.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import msgspec

from toolwire.ir.content import Message, Part, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.tools import AnyTool, BuiltinTool, ToolChoice

__all__ = ["rename_request", "rename_tools"]

_S = TypeVar("_S", bound=msgspec.Struct)


def _replace(obj: _S, **changes: Any) -> _S:
    return msgspec.structs.replace(obj, **changes)  # typed: the struct's own type back


def rename_tools(
    tools: tuple[AnyTool, ...], rename: Callable[[str], str], notes: Notes, path: str = "$.tools"
) -> tuple[AnyTool, ...]:
    """``tools`` with every non-built-in tool renamed by ``rename`` (each change noted as info)."""
    out: list[AnyTool] = []
    for index, tool in enumerate(tools):
        if not isinstance(tool, BuiltinTool):
            new = rename(tool.name)
            if new != tool.name:
                notes.info(f"{path}[{index}].name", "renamed", f"tool {tool.name!r} sent as {new!r}")
                tool = _replace(tool, name=new)
        out.append(tool)
    return tuple(out)


def _rename_parts(parts: tuple[Part, ...], rename: Callable[[str], str]) -> tuple[Part, ...]:
    out: list[Part] | None = None  # copied on the first change only: most messages have none
    for index, part in enumerate(parts):
        if isinstance(part, _NAMED) and part.name is not None and part.kind != "builtin":
            new = rename(part.name)
            if new != part.name:
                if out is None:
                    out = list(parts)
                out[index] = _replace(part, name=new)
    return parts if out is None else tuple(out)


_NAMED = (ToolCall, ToolResult)


def _rename_choice(choice: ToolChoice | None, rename: Callable[[str], str]) -> ToolChoice | None:
    if choice is None:
        return None
    name = rename(choice.name) if choice.name is not None else None
    allowed = tuple(rename(n) for n in choice.allowed) if choice.allowed is not None else None
    if name == choice.name and allowed == choice.allowed:
        return choice
    return _replace(choice, name=name, allowed=allowed)


def _renames_any(names: Iterable[str], rename: Callable[[str], str]) -> bool:
    """Whether ``rename`` changes one of ``names``; each is registered, in order (a NameMap
    gives a colliding name a suffix by order of first use)."""
    changed = False
    for name in names:
        if rename(name) != name:
            changed = True
    return changed


def rename_request(
    ir: Request, rename: Callable[[str], str], notes: Notes, names: Iterable[str] | None = None
) -> Request:
    """``ir`` with its tools, calls, results and tool choice renamed by ``rename``.

    ``names``: the names the history's calls and results use, in order of first use (a
    :class:`~toolwire._survey.Survey`'s); when ``rename`` keeps them all, the history is not walked.
    """
    tools = rename_tools(ir.tools, rename, notes)
    messages: list[Message] | None = None  # copied on the first change only
    walk = ir.messages if names is None or _renames_any(names, rename) else ()
    for index, message in enumerate(walk):
        for part in message.parts:  # most messages name no tool: looked at, not rebuilt
            if isinstance(part, _NAMED):
                break
        else:
            continue
        parts = _rename_parts(message.parts, rename)
        if parts is not message.parts:
            if messages is None:
                messages = list(ir.messages)
            messages[index] = _replace(message, parts=parts)
    choice = _rename_choice(ir.tool_choice, rename)
    if messages is None and choice is ir.tool_choice and all(map(operator.is_, tools, ir.tools)):
        return ir
    return _replace(
        ir,
        tools=tools,
        messages=ir.messages if messages is None else tuple(messages),
        tool_choice=choice,
    )
