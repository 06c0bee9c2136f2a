"""Fast lanes of the request ``input`` encoder for the common messages from another format (issue 18).

A lane returns exactly the items the general encoder (:func:`._messages.encode_messages`)
writes for a message of its shape, or ``None`` for any other message (then the general
encoder runs). Lanes run only for a request from another format (no same-format hint is read)
and for messages that keep no verbatim Responses item (``~item``). The shapes are those where
the general encoder notes nothing and synthesizes no call id: no participant name, no message
id on a message with text, no extra field that would be noted as dropped (hints ``~...`` and
``null`` fields are not), and

* a system, developer or user message: one text part;
* an assistant message: at most one text part (no thought signature, no ``~msg`` hint naming
  the output message it came from), then function calls with ids, without item id,
  namespace or thought signature;
* a tool message: results of function calls, with ids, not errors, one text part each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire.formats._lanes import lossless, unnoted_call
from toolwire.ir.content import Message, Part, TextPart, ToolResult

__all__ = ["FAST_LANES"]

_Items = list[dict[str, Any]]


def _plain(message: Message) -> bool:
    """No participant name, no extra field noted as dropped."""
    return message.name is None and (not message.extra or lossless(message.extra))


def _input(message: Message) -> _Items | None:
    """A system, developer or user message of one text part: ``{"role", "content": "..."}``."""
    parts = message.parts
    if len(parts) != 1 or message.id is not None or not _plain(message):
        return None
    part = parts[0]
    if type(part) is not TextPart or (part.extra and not lossless(part.extra)):
        return None
    return [{"role": message.role, "content": part.text}]


def _call(part: Part) -> dict[str, Any] | None:
    """A function call with an id that is sent as is, as a ``function_call`` item."""
    call = unnoted_call(part)
    if call is None:
        return None
    return {"type": "function_call", "call_id": call.id, "name": call.name, "arguments": call.arguments}


def _assistant(message: Message) -> _Items | None:
    """At most one text part, then function calls with ids (a message id would be the text's
    output message id; calls alone do not carry it)."""
    parts = message.parts
    if not parts or not _plain(message):
        return None
    items: _Items = []
    first = parts[0]
    if type(first) is TextPart:
        extra = first.extra
        if message.id is not None or first.thought_signature is not None:
            return None
        if extra and ("~msg" in extra or not lossless(extra)):
            return None
        items.append({"role": "assistant", "content": first.text})
    for index in range(len(items), len(parts)):
        call = _call(parts[index])
        if call is None:
            return None
        items.append(call)
    return items


def _tool(message: Message) -> _Items | None:
    """Results of function calls with ids, one text part each, in a plain message."""
    if not _plain(message):
        return None
    items: _Items = []
    for part in message.parts:
        if type(part) is not ToolResult or part.kind != "function" or part.call_id is None:
            return None
        if part.is_error or len(part.content) != 1 or (part.extra and not lossless(part.extra)):
            return None
        text = part.content[0]
        if type(text) is not TextPart or (text.extra and not lossless(text.extra)):
            return None
        items.append({"type": "function_call_output", "call_id": part.call_id, "output": text.text})
    return items


FAST_LANES: dict[str, Callable[[Message], _Items | None]] = {
    "system": _input,
    "developer": _input,
    "user": _input,
    "assistant": _assistant,
    "tool": _tool,
}
"""Role -> its lane (``None``: not the lane's shape)."""
