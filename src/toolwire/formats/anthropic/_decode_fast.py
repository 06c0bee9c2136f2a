"""Fast lane of the Anthropic ``messages`` decoder for the common message shapes (issue 18).

:func:`fast_message` returns what :func:`._decode_messages.decode_messages` decodes for one
message of a common shape, field for field and hint for hint, without building JSON paths;
for any other shape (an extra or ``null`` field, a wrong type, a block it does not know) it
returns ``None`` and the general decoder runs, which also raises the errors. The shapes: a
``user`` or ``assistant`` message of exactly ``role`` and ``content``, its content a string
or a list of

* ``text`` blocks of just ``type`` and a string ``text``;
* ``tool_use`` blocks of just ``type``, string ``id`` and ``name``, and an object ``input``;
* ``tool_result`` blocks of ``type``, a string ``tool_use_id``, a string ``content`` or a list
  of such ``text`` blocks, and optionally a boolean ``is_error``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._json import dumps
from toolwire.ir.content import ContentPart, Message, Part, Role, TextPart, ToolCall, ToolResult

__all__ = ["fast_message"]

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant"}


def _text(block: dict[str, Any]) -> TextPart | None:
    text = block.get("text")
    return TextPart(text=text) if len(block) == 2 and type(text) is str else None


def _tool_use(block: dict[str, Any]) -> ToolCall | None:
    call_id, name, wire_input = block.get("id"), block.get("name"), block.get("input")
    if len(block) != 4 or type(call_id) is not str or type(wire_input) is not dict:
        return None
    if type(name) is not str or not name:  # an empty name: the general decoder raises it at its path
        return None
    try:
        arguments = dumps(wire_input).decode()
    except Exception:  # too deep or not encodable: the general decoder raises it at its path
        return None
    return ToolCall(id=call_id, name=name, arguments=arguments)


def _result_texts(content: list[Any]) -> tuple[ContentPart, ...] | None:
    """A ``tool_result`` content list of plain ``text`` blocks, decoded."""
    parts: list[ContentPart] = []
    for block in content:
        if type(block) is not dict or block.get("type") != "text":
            return None
        part = _text(block)
        if part is None:
            return None
        parts.append(part)
    return tuple(parts)


def _tool_result(block: dict[str, Any]) -> ToolResult | None:
    call_id, content = block.get("tool_use_id"), block.get("content")
    is_error = block.get("is_error")
    size = 3 if is_error is None else 4
    if (
        len(block) != size
        or type(call_id) is not str
        or (is_error is not None and type(is_error) is not bool)
    ):
        return None
    if type(content) is str:
        return ToolResult(
            call_id=call_id,
            content=(TextPart(text=content),),
            is_error=is_error,
            extra={"~content": "string"},
        )
    parts = _result_texts(content) if type(content) is list else None
    if parts is None:
        return None
    return ToolResult(call_id=call_id, content=parts, is_error=is_error)


_BLOCKS: dict[str, Callable[[dict[str, Any]], Part | None]] = {
    "text": _text,
    "tool_use": _tool_use,
    "tool_result": _tool_result,
}
"""Block ``type`` -> its lane (``None``: not the lane's shape)."""


def fast_message(item: Any) -> Message | None:
    """The IR message of ``item`` when it has a common shape, else ``None``."""
    if type(item) is not dict or len(item) != 2:
        return None
    role, content = item.get("role"), item.get("content")
    ir_role = _ROLES.get(role) if type(role) is str else None
    if ir_role is None:
        return None
    if type(content) is str:
        return Message(role=ir_role, parts=(TextPart(text=content),), extra={"~content": "string"})
    if type(content) is not list:
        return None
    parts: list[Part] = []
    for block in content:
        kind = block.get("type") if type(block) is dict else None
        lane = _BLOCKS.get(kind) if type(kind) is str else None
        part = lane(block) if lane is not None else None
        if part is None:
            return None
        parts.append(part)
    return Message(role=ir_role, parts=tuple(parts), extra={})
