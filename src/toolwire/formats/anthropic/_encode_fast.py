"""Fast lane of the Anthropic message encoder for the common shapes from another format (issue 18).

:func:`fast_cross` adds to the turns exactly the blocks the general cross-format encoder
(:func:`._encode_messages._cross`) adds for a message of a common shape and returns ``True``;
for any other message it adds nothing and returns ``False``, and the general encoder runs.
The shapes are those where the general encoder notes nothing: no participant name, no extra
field that would be noted as dropped (hints ``~...`` and ``null`` fields are not), and parts

* non-empty text parts without a Gemini thought signature, and function calls with ids that
  need no escaping and JSON-object arguments (a message of these: its role's turn);
* or only results of function calls with ids that need no escaping, one extra-less text part
  each (a user turn, answered first in it: the lane leaves a turn whose results would be
  moved, and its note, to the general encoder).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolwire._callids import sanitize_call_id
from toolwire.formats._lanes import lossless
from toolwire.formats.anthropic._util import parse_object
from toolwire.ir.content import Message, Part, TextPart, ToolCall, ToolResult

if TYPE_CHECKING:
    from toolwire.formats.anthropic._encode_blocks import Ctx
    from toolwire.formats.anthropic._encode_messages import _Turns

__all__ = ["fast_cross"]


def _wire_id(call_id: str | None, ctx: Ctx) -> str | None:
    """``call_id`` when it is sent as is (recorded as the general encoder records it), else ``None``."""
    if call_id is None:
        return None
    known = ctx.renamed.get(call_id)
    if known is None:
        if sanitize_call_id(call_id) != call_id:
            return None
        ctx.renamed[call_id] = call_id
        return call_id
    return call_id if known == call_id else None


def _block(part: Part, ctx: Ctx) -> dict[str, Any] | None:
    """A text part or a function call as the block the general encoder writes without a note."""
    kind = type(part)
    if kind is TextPart:
        if not part.text or part.thought_signature is not None or (part.extra and not lossless(part.extra)):  # type: ignore[union-attr]
            return None
        return {"type": "text", "text": part.text}  # type: ignore[union-attr]
    if kind is not ToolCall or part.kind != "function" or part.thought_signature is not None:  # type: ignore[union-attr]
        return None
    call: ToolCall = part  # type: ignore[assignment]
    if call.extra and not lossless(call.extra):
        return None
    arguments = parse_object(call.arguments)
    wire_id = _wire_id(call.id, ctx) if type(arguments) is dict else None
    if wire_id is None:
        return None
    return {"type": "tool_use", "id": wire_id, "name": call.name, "input": arguments}


def _result(part: Part, ctx: Ctx) -> dict[str, Any] | None:
    """A function result with one extra-less text part as the block the general encoder writes."""
    if type(part) is not ToolResult or part.kind == "builtin" or len(part.content) != 1:
        return None
    text = part.content[0]
    if type(text) is not TextPart or text.extra or (part.extra and not lossless(part.extra)):
        return None
    wire_id = _wire_id(part.call_id, ctx)
    if wire_id is None:
        return None
    out: dict[str, Any] = {"type": "tool_result", "tool_use_id": wire_id, "content": text.text}
    if part.is_error:
        out["is_error"] = True
    return out


def _turn(turns: _Turns, role: str) -> list[dict[str, Any]]:
    """The content of the last turn when it is ``role``'s, else of a new turn of ``role``."""
    out = turns.out
    if not out or out[-1]["role"] != role:
        out.append({"role": role, "content": []})
        turns.lead = 0
    content: list[dict[str, Any]] = out[-1]["content"]
    return content


def fast_cross(message: Message, ctx: Ctx, turns: _Turns) -> bool:
    """Add the blocks of a message of a common shape to ``turns`` (``False``: not one, nothing added)."""
    parts = message.parts
    if not parts or message.name is not None or (message.extra and not lossless(message.extra)):
        return False
    if type(parts[0]) is ToolResult:
        results = [_result(part, ctx) for part in parts]
        last = turns.out[-1] if turns.out else None
        if None in results or (
            last is not None and last["role"] == "user" and len(last["content"]) != turns.lead
        ):
            return False
        _turn(turns, "user").extend(results)  # type: ignore[arg-type]
        turns.lead += len(results)
        return True
    blocks = [_block(part, ctx) for part in parts]
    if None in blocks:
        return False
    _turn(turns, "assistant" if message.role == "assistant" else "user").extend(blocks)  # type: ignore[arg-type]
    return True
