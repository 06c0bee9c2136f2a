"""Anthropic ``system`` and ``messages`` -> IR messages.

The top-level ``system`` (a string or text blocks) becomes one leading ``system`` message;
``role: "system"`` entries inside ``messages`` (sent by some gateways) stay in place,
hinted ``~inline``. Tool results stay inside their user message as the wire has them.
"""

from __future__ import annotations

from typing import Any

from toolwire.formats._wire import as_dict, child, fail, req_str
from toolwire.formats.anthropic._decode_blocks import decode_blocks
from toolwire.formats.anthropic._util import OPAQUE
from toolwire.ir.base import Extra
from toolwire.ir.content import Message, Role, TextPart

__all__ = ["decode_messages", "decode_system"]

_ROLES: dict[str, Role] = {"user": "user", "assistant": "assistant", "system": "system"}
_MESSAGE_KNOWN = frozenset({"role", "content"})


def _content(message: dict[str, Any], path: str, extra: Extra) -> tuple[Any, ...]:
    content = message.get("content")
    if type(content) is str:
        extra["~content"] = "string"
        return (TextPart(text=content),)
    if type(content) is not list:
        if "content" not in message:
            fail(child(path, "content"), "missing required field 'content'")
        fail(child(path, "content"), f"expected a string or an array, got {type(content).__name__}")
    parts, opaque = decode_blocks(content, f"{path}.content")
    if opaque:
        extra[OPAQUE] = opaque
    return parts


def decode_system(system: Any) -> Message | None:
    """The top-level ``system`` as a leading system message (``None`` for ``[]``)."""
    if type(system) is str:
        return Message(role="system", parts=(TextPart(text=system),), extra={"~system": "string"})
    if type(system) is not list:
        fail("$.system", f"expected a string or an array, got {type(system).__name__}")
    if not system:
        return None
    extra: Extra = {}
    parts, opaque = decode_blocks(system, "$.system")
    if opaque:
        extra[OPAQUE] = opaque
    return Message(role="system", parts=parts, extra=extra)


def decode_messages(raw: list[Any], path: str = "$.messages") -> list[Message]:
    """Decode the ``messages`` array."""
    out: list[Message] = []
    for index, item in enumerate(raw):
        item_path = f"{path}[{index}]"
        message = item if type(item) is dict else as_dict(item, item_path)
        role = _ROLES.get(req_str(message, "role", item_path))
        if role is None:
            fail(child(item_path, "role"), "expected 'user', 'assistant' or 'system'")
        extra: Extra = {}
        if len(message) != 2:  # more than "role" and "content"
            extra.update((k, v) for k, v in message.items() if k not in _MESSAGE_KNOWN)
        if role == "system":
            extra["~inline"] = True
        parts = _content(message, item_path, extra)
        out.append(Message(role=role, parts=parts, extra=extra))
    return out
