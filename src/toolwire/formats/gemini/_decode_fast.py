"""Fast lane of the Gemini ``contents`` decoder for the common content shapes (issue 18).

:func:`fast_content` returns what :func:`._messages.decode_contents` decodes for one content
of a common shape, field for field and hint for hint, without building JSON paths or
renaming snake_case fields; for any other shape (another or a ``null`` field, a wrong type,
snake_case spelling, a part it does not know) it returns ``None`` and the general decoder
runs, which also raises the errors. The shapes: a content of exactly a ``user`` or ``model``
``role`` and a ``parts`` array of

* ``{"text"}`` parts, with or without a ``thoughtSignature`` (strings);
* ``{"functionCall": {"name", "args"}}`` parts (an object ``args``, optionally a string ``id``),
  with or without a ``thoughtSignature``;
* ``{"functionResponse": {"response"}}`` parts (an object ``response``, optionally a string
  ``name`` and ``id``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._json import dumps
from toolwire.ir.content import ContentPart, Message, Part, Role, TextPart, ToolCall, ToolResult

__all__ = ["fast_content"]

_ROLES: dict[str, Role] = {"user": "user", "model": "assistant"}
_SIG = "thoughtSignature"
_CALL_KEYS = frozenset({"name", "args", "id"})
_RESPONSE_KEYS = frozenset({"name", "id", "response"})


def _json(value: dict[str, Any]) -> str | None:
    """Compact JSON text of ``value``; ``None`` when it cannot be (the general decoder refuses it)."""
    try:
        return dumps(value).decode()
    except Exception:  # too deep or not serializable: refused, at its path, by the general decoder
        return None


def _signed(part: dict[str, Any]) -> tuple[bool, str | None]:
    """Whether ``part`` is its one data field plus at most a string signature, and the signature."""
    if len(part) == 1:
        return True, None
    signature = part.get(_SIG)
    if len(part) == 2 and type(signature) is str:
        return True, signature
    return False, None  # not a string signature: the general decoder refuses it, at its path


def _inner(part: dict[str, Any], key: str, known: frozenset[str]) -> dict[str, Any] | None:
    """``part[key]`` when it is an object of only ``known`` fields, none ``null``."""
    inner = part[key]
    if type(inner) is not dict or not inner.keys() <= known or None in inner.values():
        return None
    return inner


def _text(part: dict[str, Any]) -> Part | None:
    text = part["text"]
    plain, signature = _signed(part)
    return TextPart(text=text, thought_signature=signature) if plain and type(text) is str else None


def _call(part: dict[str, Any]) -> Part | None:
    plain, signature = _signed(part)
    inner = _inner(part, "functionCall", _CALL_KEYS) if plain else None
    if inner is None:
        return None
    name, args, call_id = inner.get("name"), inner.get("args"), inner.get("id")
    if type(name) is not str or not name or type(args) is not dict:
        return None
    if call_id is not None and type(call_id) is not str:
        return None
    arguments = _json(args)
    if arguments is None:
        return None
    return ToolCall(name=name, arguments=arguments, id=call_id, thought_signature=signature)


def _content(response: dict[str, Any]) -> tuple[ContentPart, bool | None, str] | None:
    """The text, error flag and ``~wrap`` hint of a ``functionResponse.response``."""
    if len(response) == 1:
        ((key, value),) = response.items()
        is_error = True if key == "error" else None
        if type(value) is str:
            return TextPart(text=value), is_error, key
    else:
        is_error = None
    text = _json(response)
    return None if text is None else (TextPart(text=text), is_error, "")


def _response(part: dict[str, Any]) -> Part | None:
    inner = _inner(part, "functionResponse", _RESPONSE_KEYS) if len(part) == 1 else None
    if inner is None:
        return None
    name, response, call_id = inner.get("name"), inner.get("response"), inner.get("id")
    if type(response) is not dict or not (name is None or type(name) is str):
        return None
    got = _content(response) if call_id is None or type(call_id) is str else None
    if got is None:
        return None
    text, is_error, wrap = got
    return ToolResult(call_id=call_id, name=name, content=(text,), is_error=is_error, extra={"~wrap": wrap})


_PARTS: dict[str, Callable[[dict[str, Any]], Part | None]] = {
    "text": _text,
    "functionCall": _call,
    "functionResponse": _response,
}
"""The data field of a part -> its lane (``None``: not the lane's shape)."""


def _part(part: Any) -> Part | None:
    if type(part) is not dict:
        return None
    for key in part:  # the data field: the first of the lanes' keys (a signature may come first)
        lane = _PARTS.get(key)
        if lane is not None:
            return lane(part)
    return None


def fast_content(raw: Any) -> Message | None:
    """The IR message of the content ``raw`` when it has a common shape, else ``None``."""
    if type(raw) is not dict or len(raw) != 2:
        return None
    role, items = raw.get("role"), raw.get("parts")
    ir_role = _ROLES.get(role) if type(role) is str else None
    if ir_role is None or type(items) is not list:
        return None
    parts: list[Part] = []
    for item in items:
        part = _part(item)
        if part is None:
            return None
        parts.append(part)
    return Message(role=ir_role, parts=tuple(parts), extra={})
