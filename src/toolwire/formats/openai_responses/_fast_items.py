"""Fast lanes for the common request ``input`` item shapes (issue 18).

Each lane recognizes one exact, common shape and returns what :func:`._decode_items.decode_item`
returns for it, field for field and hint for hint, without building JSON paths or re-checking
types it has just checked; any other shape (an unknown or wrong-typed field, a ``null``, an
empty list, a part it does not know) returns ``None`` and the caller runs the general decoder,
which also raises the errors. Lanes by ``type`` (``None``: an item with only a role):

* ``{"role", "content": "..."}`` messages of every role;
* ``message`` items whose content lists only ``input_text`` / ``output_text`` parts;
* ``function_call`` and ``function_call_output`` with string fields (plus ``id`` and ``status``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire.formats.openai_responses._decode_items import Decoded
from toolwire.formats.openai_responses._extra import QUIET, split_fields
from toolwire.ir.content import Message, Part, Role, TextPart, ToolCall, ToolResult

__all__ = ["FAST_DECODERS"]

_INPUT_ROLES: dict[Any, Role] = {"user": "user", "system": "system", "developer": "developer"}
_TEXT_KNOWN = frozenset({"type", "text"})
_CALL_KEYS = frozenset({"type", "call_id", "name", "arguments", "id", "status"})
_RESULT_KEYS = frozenset({"type", "call_id", "output", "id", "status"})
_MESSAGE_KEYS = frozenset({"type", "role", "content", "id", "status"})
_OUTPUT_QUIET = ("id", "status")


def _strings(item: dict[str, Any], keys: tuple[str, ...]) -> bool:
    """Whether each of ``keys`` that ``item`` has is a string."""
    for key in keys:
        value = item.get(key, "")
        if type(value) is not str:
            return False
    return True


def _text_parts(content: Any, default: str) -> list[Part] | None:
    """A non-empty content list of text parts decoded as ``_content.decode_content`` does."""
    if type(content) is not list or not content:
        return None
    parts: list[Part] = []
    for part in content:
        if type(part) is not dict:
            return None
        kind = part.get("type")
        text = part.get("text")
        if type(text) is not str or (kind != "input_text" and kind != "output_text"):
            return None
        extra = {} if len(part) == 2 else split_fields(part, _TEXT_KNOWN)
        if kind != default:
            extra["~type"] = kind
        parts.append(TextPart(text=text, extra=extra))
    return parts


def _assistant(item: dict[str, Any], parts: list[Part], string: bool) -> Decoded:
    first = parts[0]
    first.extra["~msg"] = {key: value for key, value in item.items() if key != "content"}
    if string:
        first.extra["~string"] = True
    return "assistant", parts


def _plain(item: dict[str, Any]) -> Decoded | None:
    """``{"role", "content": "..."}`` (no ``type``)."""
    content = item.get("content")
    if len(item) != 2 or type(content) is not str:
        return None
    role = item.get("role")
    if role == "assistant":
        return _assistant(item, [TextPart(text=content)], True)
    ir_role = _INPUT_ROLES.get(role) if type(role) is str else None
    if ir_role is None or not content:
        return None
    return "message", Message(role=ir_role, parts=(TextPart(text=content),), extra={"~string": True})


def _message(item: dict[str, Any]) -> Decoded | None:
    """A ``message`` item of text parts, with optional string ``id`` and ``status``."""
    if not item.keys() <= _MESSAGE_KEYS or not _strings(item, _OUTPUT_QUIET):
        return None
    role = item.get("role")
    if role == "assistant":
        parts = _text_parts(item.get("content"), "output_text")
        return _assistant(item, parts, False) if parts else None
    ir_role = _INPUT_ROLES.get(role) if type(role) is str else None
    parts = _text_parts(item.get("content"), "input_text") if ir_role is not None else None
    if not parts or ir_role is None:
        return None
    extra: dict[str, Any] = {QUIET: {"status": item["status"]}} if "status" in item else {}
    extra["~typed"] = True
    return "message", Message(role=ir_role, parts=tuple(parts), id=item.get("id"), extra=extra)


def _quiet(item: dict[str, Any]) -> dict[str, Any]:
    """The ``~responses`` extra of the string ``id`` / ``status`` of a call output."""
    return {QUIET: {key: value for key, value in item.items() if key in _OUTPUT_QUIET}}


def _call(item: dict[str, Any]) -> Decoded | None:
    """A ``function_call`` with string ``call_id``, ``name`` (not empty), ``arguments`` (``id``,
    ``status``)."""
    call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments")
    if type(call_id) is not str or type(name) is not str or not name or type(arguments) is not str:
        return None
    if len(item) == 4:
        parts: list[Part] = [ToolCall(id=call_id, name=name, arguments=arguments)]
        return "assistant", parts
    if not item.keys() <= _CALL_KEYS or not _strings(item, _OUTPUT_QUIET):
        return None
    extra = {QUIET: {"status": item["status"]}} if "status" in item else {}
    call: list[Part] = [
        ToolCall(id=call_id, name=name, arguments=arguments, item_id=item.get("id"), extra=extra)
    ]
    return "assistant", call


def _result(item: dict[str, Any]) -> Decoded | None:
    """A ``function_call_output`` with string ``call_id`` and ``output`` (``id``, ``status``)."""
    call_id, output = item.get("call_id"), item.get("output")
    if type(call_id) is not str or type(output) is not str:
        return None
    if len(item) == 3:
        extra: dict[str, Any] = {"~string": True}
    elif item.keys() <= _RESULT_KEYS and _strings(item, _OUTPUT_QUIET):
        extra = _quiet(item)
        extra["~string"] = True
    else:
        return None
    return "tool", ToolResult(call_id=call_id, content=(TextPart(text=output),), extra=extra)


FAST_DECODERS: dict[str | None, Callable[[dict[str, Any]], Decoded | None]] = {
    None: _plain,
    "message": _message,
    "function_call": _call,
    "function_call_output": _result,
}
"""Item ``type`` -> its fast lane (``None`` when the item is not in the lane's shape)."""
