"""A tool choice that fits the request's tools, before encoding for another format.

=====================================  ==========================================================
the request has                        what is sent
=====================================  ==========================================================
``auto``/``none`` and no tools         no ``tool_choice`` (it means nothing without tools; info)
a forced choice and no tools           no ``tool_choice``, noted ``dropped`` (a loss)
a choice naming a tool it lacks        :class:`~toolwire.errors.ConversionError`
(named, or in an allowed list)
two tools of one name                  ``ConversionError``
``parallel_tool_calls`` and no tools   no ``parallel_tool_calls`` (info)
=====================================  ==========================================================

Every target answers 400 to a tool choice without tools (or naming a missing tool); Chat also to
``parallel_tool_calls`` without tools.
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolwire.errors import ConversionError
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request

__all__ = ["drop_choice_without_tools", "fit_tool_choice"]


def _unique_names(req: Request) -> set[str | None]:
    names: set[str | None] = set()
    for index, tool in enumerate(req.tools):
        name = getattr(tool, "name", None)
        if name is not None and name in names:
            raise ConversionError(
                f"tool {name!r} is defined twice; names must be unique", path=f"$.tools[{index}]"
            )
        names.add(name)
    return names


def fit_tool_choice(req: Request, notes: Notes) -> Request:
    """``req`` with its tool choice and parallel switch fitted to its tools (see the module table).

    Raises:
        ConversionError: a named tool choice names a tool the request does not define, or two
            tools share a name.
    """
    choice = req.tool_choice
    if req.tools:
        names = _unique_names(req)
        wanted = [choice.name] if choice is not None and choice.mode == "named" else []
        wanted += list(choice.allowed or ()) if choice is not None else []
        missing = [name for name in wanted if name not in names]
        if missing:
            raise ConversionError(
                f"tool_choice names {missing[0]!r}, which is not among the request's tools",
                path="$.tool_choice",
            )
        return req
    if choice is None and req.parallel_tool_calls is None:
        return req
    if choice is not None:
        message = f"tool_choice {choice.mode!r}: the request has no tools"
        if choice.mode in ("auto", "none"):
            notes.info("$.tool_choice", "dropped", message)
        else:
            notes.add("$.tool_choice", "dropped", message)
    if req.parallel_tool_calls is not None:
        notes.info("$.parallel_tool_calls", "dropped", "parallel_tool_calls: the request has no tools")
    return msgspec.structs.replace(req, tool_choice=None, parallel_tool_calls=None)


def drop_choice_without_tools(out: dict[str, Any], req: Request, notes: Notes) -> None:
    """No tool of ``req`` survived the encoding of ``out`` (all built-ins of another format):
    ``tools: []``, ``tool_choice`` and ``parallel_tool_calls`` go (a forced choice is a loss)."""
    if out.get("tools"):
        return
    out.pop("tools", None)
    choice = req.tool_choice
    if out.pop("tool_choice", None) is not None and choice is not None:
        message = f"tool_choice {choice.mode!r}: no tool of the request has an equivalent"
        if choice.mode in ("auto", "none"):
            notes.info("$.tool_choice", "dropped", message)
        else:
            notes.add("$.tool_choice", "dropped", message)
    if out.pop("parallel_tool_calls", None) is not None:
        notes.info("$.parallel_tool_calls", "dropped", "parallel_tool_calls: no tool has an equivalent")
