"""Where each IR part of a decoded Chat message came from (``Notes.came_from``, issue 13).

The decoder puts an assistant message's parts in this order: reasoning fields, ``content``
(a string, or one part per entry of a known type), ``refusal``, ``tool_calls``, the legacy
``function_call``; a ``tool`` / ``function`` message is one result (the message itself).
"""

from __future__ import annotations

from typing import Any

from toolwire.formats.openai_chat._content import CONTENT_TYPES
from toolwire.ir._where import Coord
from toolwire.ir.content import Message, ReasoningPart, RefusalPart, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.response import Response

__all__ = ["record_message", "record_request", "record_response"]


def _content_slots(wire: dict[str, Any], at: Coord) -> list[Coord]:
    value = wire.get("content")
    if type(value) is str:
        return [(*at, "content")]
    if type(value) is not list:
        return []
    return [
        (*at, "content", i)
        for i, item in enumerate(value)
        if type(item) is dict and item.get("type") in CONTENT_TYPES
    ]


def record_message(notes: Notes, ir: Coord, wire: dict[str, Any], at: Coord, message: Message) -> None:
    """Record where the parts of ``message`` (IR ``ir``) came from in ``wire`` (at ``at``)."""
    origins = notes.origins
    origins[ir] = at
    content = _content_slots(wire, at)
    calls = 0
    for j, part in enumerate(message.parts):
        kind = type(part)
        if kind is ReasoningPart and "~field" in part.extra:
            where: Coord = (*at, part.extra["~field"])
        elif kind is ToolResult:
            where = at
        elif kind is ToolCall:
            where = (*at, "function_call") if "~legacy" in part.extra else (*at, "tool_calls", calls)
            calls += 1
        elif kind is RefusalPart and not content:
            where = (*at, "refusal")
        else:
            where = content.pop(0) if content else at
        origins[(*ir, "parts", j)] = where


def record_request(payload: dict[str, Any], ir: Request, notes: Notes) -> None:
    """Record where the messages and parts of ``ir``, decoded from ``payload``, came from
    (one IR message per wire message; called only when a note needs it)."""
    for index, (wire, message) in enumerate(zip(payload["messages"], ir.messages, strict=False)):
        record_message(notes, ("messages", index), wire, ("messages", index), message)


def record_response(payload: dict[str, Any], ir: Response, notes: Notes) -> None:
    """Record where the parts of ``ir``, decoded from ``payload``, came from."""
    choices = payload.get("choices")
    if choices:
        wire = choices[0]["message"]
        record_message(notes, (), wire, ("choices", 0, "message"), Message(role="assistant", parts=ir.parts))
