"""Fast lanes of the Chat message encoder for the common message shapes from another format (issue 18).

A lane writes exactly what the general encoder (:mod:`._encode_messages`) writes for a message
of its shape and returns ``True``; for any other message it writes nothing and returns
``False``, and the general encoder runs. The shapes are those where the general encoder notes
nothing and moves nothing: no participant name, message id, Gemini thought signature, Responses
item id or namespace, no extra field that would be noted as dropped (hints ``~...`` and ``null``
fields are not), and

* a system, developer or user message: one text part;
* an assistant message: at most one text part, then only function tool calls with ids
  (or the text part alone);
* a tool message: results of function calls, with ids and one text part each.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from toolwire.formats._lanes import lossless, unnoted_call
from toolwire.ir.content import Message, Part, TextPart, ToolResult

if TYPE_CHECKING:
    from toolwire.formats.openai_chat._encode_messages import _State

__all__ = ["FAST_LANES"]


def _plain(message: Message) -> bool:
    return message.name is None and message.id is None and (not message.extra or lossless(message.extra))


def _text(part: Part) -> str | None:
    """The text of a text part that is sent as is, else ``None``."""
    if type(part) is not TextPart or part.thought_signature is not None:
        return None
    return part.text if not part.extra or lossless(part.extra) else None


def _input(message: Message, state: _State) -> bool:
    """A system, developer or user message of one text part."""
    parts = message.parts
    if len(parts) != 1 or not _plain(message):
        return False
    text = _text(parts[0])
    if text is None:
        return False
    state.out.append({"role": message.role, "content": text})
    return True


def _call(part: Part) -> dict[str, Any] | None:
    """A function call with an id that is sent as is, as a ``tool_calls`` entry."""
    call = unnoted_call(part)
    if call is None:
        return None
    function = {"name": call.name, "arguments": call.arguments or "{}"}
    return {"id": call.id, "type": "function", "function": function}


def _assistant(message: Message, state: _State) -> bool:
    """At most one text part, then function calls with ids."""
    parts = message.parts
    if not parts or not _plain(message):
        return False
    text = _text(parts[0])
    calls = []
    for index in range(0 if text is None else 1, len(parts)):
        call = _call(parts[index])
        if call is None:
            return False
        calls.append(call)
    out: dict[str, Any] = {"role": "assistant", "content": text}
    if calls:
        out["tool_calls"] = calls
    state.pending = []
    state.out.append(out)
    return True


def _tool(message: Message, state: _State) -> bool:
    """Results of function calls with ids, one text part each."""
    if message.extra and not lossless(message.extra):
        return False
    out = []
    for part in message.parts:
        if type(part) is not ToolResult or part.kind == "builtin" or part.call_id is None:
            return False
        if part.is_error is not None or len(part.content) != 1 or (part.extra and not lossless(part.extra)):
            return False
        text = _text(part.content[0])
        if text is None:
            return False
        out.append({"role": "tool", "tool_call_id": part.call_id, "content": text})
    state.out += out
    return True


FAST_LANES: dict[str, Callable[[Message, _State], bool]] = {
    "system": _input,
    "developer": _input,
    "user": _input,
    "assistant": _assistant,
    "tool": _tool,
}
"""Role -> its lane (``False``: not the lane's shape, nothing written)."""
