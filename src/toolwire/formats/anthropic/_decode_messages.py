"""Anthropic ``system`` and ``messages`` -> IR messages.

The top-level ``system`` (a string or text blocks) becomes one leading ``system`` message;
``role: "system"`` entries inside ``messages`` (sent by some gateways) stay in place,
hinted ``~inline``. Tool results stay inside their user message as the wire has them.
"""

from __future__ import annotations

from typing import Any

from toolwire.formats._wire import as_dict, child, fail, req_str
from toolwire.formats.anthropic._decode_blocks import decode_blocks
from toolwire.formats.anthropic._decode_fast import fast_message
from toolwire.formats.anthropic._util import OPAQUE
from toolwire.ir._where import Coord
from toolwire.ir.base import Extra
from toolwire.ir.content import Message, Role, TextPart
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.response import Response

__all__ = ["decode_messages", "decode_system", "record_parts", "record_request", "record_response"]

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


def record_parts(notes: Notes, ir: Coord, content: Coord, message: Message) -> None:
    """Record where the parts of ``message`` (at ``ir``) came from in the ``content`` at ``content``."""
    if message.extra.get("~content") == "string" or message.extra.get("~system") == "string":
        for j in range(len(message.parts)):
            notes.came_from((*ir, "parts", j), content)
        return
    opaque = message.extra.get(OPAQUE)
    skipped = {index for index, _ in opaque} if opaque else ()
    notes.came_from_parts(ir, content, len(message.parts), skipped)


def decode_messages(raw: list[Any], path: str = "$.messages") -> list[Message]:
    """Decode the ``messages`` array."""
    out: list[Message] = []
    for index, item in enumerate(raw):
        fast = fast_message(item)  # the common shapes first (see ._decode_fast), else the general decoder
        if fast is not None:
            out.append(fast)
            continue
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


def record_request(payload: dict[str, Any], ir: Request, notes: Notes) -> None:
    """Record where the messages and parts of ``ir``, decoded from ``payload``, came from (the
    top-level ``system`` is IR message 0; called only when a note needs it)."""
    messages = ir.messages
    first = 0
    if messages and payload.get("system") not in (None, []) and "~inline" not in messages[0].extra:
        notes.came_from(("messages", 0), ("system",))
        record_parts(notes, ("messages", 0), ("system",), messages[0])
        first = 1
    for index in range(len(messages) - first):
        at = ("messages", first + index)
        notes.came_from(at, ("messages", index))
        record_parts(notes, at, ("messages", index, "content"), messages[first + index])


def record_response(payload: dict[str, Any], ir: Response, notes: Notes) -> None:
    """Record where the parts of ``ir``, decoded from ``payload``, came from."""
    opaque = ir.extra.get(OPAQUE)
    notes.came_from_parts((), ("content",), len(ir.parts), {index for index, _ in opaque} if opaque else ())
