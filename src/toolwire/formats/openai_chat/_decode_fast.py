"""Fast lanes of the Chat request decoder for the common message and tool shapes (issue 18).

:func:`fast_message` returns what :func:`._decode_messages.decode_messages` decodes for one
message of a common shape, field for field and hint for hint, without building JSON paths;
for any other shape (an extra, empty or ``null`` field, a wrong type, a content list) it
returns ``None`` and the general decoder runs, which also raises the errors. The shapes:

* ``{"role", "content": "..."}`` of a system, developer, user or assistant message, the text
  not empty;
* an assistant ``{"role", "content", "tool_calls"}``, the content ``null`` or a non-empty
  string, the calls a non-empty list of ``{"id", "type": "function", "function": {"name",
  "arguments"}}`` with string values;
* a tool ``{"role", "tool_call_id", "content": "..."}``, the id and the text strings, the text
  not empty.

:func:`fast_tool` does the same for a ``tools`` entry ``{"type": "function", "function":
{...}}`` whose function has a string ``name`` and at most a string ``description``, a
non-empty object ``parameters`` and a boolean ``strict`` (what :mod:`.tools` decodes with no
extra).
"""

from __future__ import annotations

from typing import Any

from toolwire.ir.content import Message, Role, TextPart, ToolCall, ToolResult
from toolwire.ir.tools import Tool

__all__ = ["Calls", "fast_message", "fast_tool", "plain_call"]

Calls = dict[str, tuple[str, str]]
"""call id -> (tool name, call kind), collected from assistant messages."""

_TEXT_ROLES: dict[str, Role] = {
    "system": "system",
    "developer": "developer",
    "user": "user",
    "assistant": "assistant",
}
_FUNCTION_KNOWN = frozenset({"name", "description", "parameters", "strict"})


def plain_call(item: Any) -> ToolCall | None:
    """A ``tool_calls`` entry ``{"id", "type": "function", "function": {"name", "arguments"}}``
    with string values (the name not empty), decoded, else ``None``."""
    if type(item) is not dict or len(item) != 3 or item.get("type") != "function":
        return None
    inner, call_id = item.get("function"), item.get("id")
    if type(inner) is not dict or len(inner) != 2 or type(call_id) is not str:
        return None
    name, arguments = inner.get("name"), inner.get("arguments")
    if type(name) is not str or not name or type(arguments) is not str:
        return None
    return ToolCall(name=name, arguments=arguments, id=call_id, extra={})


def _calls(wire: list[Any], calls: Calls) -> list[ToolCall] | None:
    """A non-empty ``tool_calls`` list of plain function calls, decoded (their ids recorded once
    all are decoded: the general decoder records them when a call is not plain)."""
    if not wire:
        return None
    parts: list[ToolCall] = []
    for item in wire:
        call = plain_call(item)
        if call is None:
            return None
        parts.append(call)
    for call in parts:
        calls[call.id] = (call.name, "function")  # type: ignore[index]
    return parts


def _assistant(item: dict[str, Any], content: Any, calls: Calls) -> Message | None:
    """``{"role": "assistant", "content": null or "...", "tool_calls": [...]}``."""
    wire = item.get("tool_calls")
    if type(wire) is not list or "content" not in item:
        return None
    if content is None:
        parts = _calls(wire, calls)
        if parts is None:
            return None
        hints: dict[str, Any] = {"~keep": {"content": None}, "~content": "null"}
        return Message(role="assistant", parts=tuple(parts), extra=hints)
    if type(content) is not str or not content:
        return None
    parts = _calls(wire, calls)
    if parts is None:
        return None
    return Message(role="assistant", parts=(TextPart(text=content), *parts), extra={"~content": "string"})


def _tool(item: dict[str, Any], content: Any, calls: Calls) -> Message | None:
    """``{"role": "tool", "tool_call_id": "...", "content": "..."}``."""
    call_id = item.get("tool_call_id")
    if type(call_id) is not str or type(content) is not str or not content:
        return None
    name, kind = calls.get(call_id, (None, "function"))
    result = ToolResult(
        call_id=call_id,
        content=(TextPart(text=content),),
        name=name,
        kind=kind,  # type: ignore[arg-type]
        extra={"~content": "string"},
    )
    return Message(role="tool", parts=(result,))


def fast_message(item: Any, calls: Calls) -> Message | None:
    """``item`` decoded when it has a common shape (call ids recorded in ``calls``), else ``None``."""
    if type(item) is not dict:
        return None
    role = item.get("role")
    content = item.get("content")
    size = len(item)
    if size == 2:
        ir_role = _TEXT_ROLES.get(role) if type(role) is str else None
        if ir_role is None or type(content) is not str or not content:
            return None
        return Message(role=ir_role, parts=(TextPart(text=content),), extra={"~content": "string"})
    if size != 3:
        return None
    if role == "assistant":
        return _assistant(item, content, calls)
    if role == "tool":
        return _tool(item, content, calls)
    return None


def fast_tool(item: Any) -> Tool | None:
    """A ``tools`` entry decoded when it is a plain function tool, else ``None``."""
    if type(item) is not dict or len(item) != 2 or item.get("type") != "function":
        return None
    inner = item.get("function")
    if type(inner) is not dict or not inner.keys() <= _FUNCTION_KNOWN:
        return None
    name, description, strict = inner.get("name"), inner.get("description", ""), inner.get("strict", False)
    if type(name) is not str or type(description) is not str or type(strict) is not bool:
        return None  # (an explicit null fails too: the general decoder keeps it under ~keep)
    parameters = inner.get("parameters")
    if parameters is None:
        if "parameters" in inner:
            return None
    elif type(parameters) is not dict or not parameters:
        return None
    return Tool(
        name=name,
        description=inner.get("description"),
        parameters=parameters,
        strict=inner.get("strict"),
        extra={},
    )
