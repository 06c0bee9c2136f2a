"""Where the IR of a decoded Converse body came from (``Notes.decoded``, issue 13).

Called only when a note names an IR message, part or tool. The decoder keeps the wire's order:
``system`` is IR message 0, each of ``messages`` one IR message, each content block one part
except the blocks kept opaque (their indexes are in the ``OPAQUE`` hint); a response's parts are
``output.message.content``. Tools and other fields map by ``SOURCE_KEYS`` (``ir/_where.py``).
"""

from __future__ import annotations

from typing import Any

from toolwire.formats.bedrock_converse._decode_blocks import OPAQUE
from toolwire.ir._where import Coord
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.response import Response

__all__ = ["record_request", "record_response"]


def _skipped(extra: Extra) -> set[int]:
    opaque = extra.get(OPAQUE)
    return {index for index, _ in opaque} if opaque else set()


def record_request(payload: dict[str, Any], ir: Request, notes: Notes) -> None:
    """Record where the messages and parts of ``ir``, decoded from ``payload``, came from."""
    messages = ir.messages
    first = 0
    if "system" in payload and messages:
        notes.came_from(("messages", 0), ("system",))
        notes.came_from_parts(
            ("messages", 0), ("system",), len(messages[0].parts), _skipped(messages[0].extra)
        )
        first = 1
    for index in range(len(messages) - first):
        message = messages[first + index]
        at: Coord = ("messages", first + index)
        notes.came_from(at, ("messages", index))
        notes.came_from_parts(at, ("messages", index, "content"), len(message.parts), _skipped(message.extra))


def record_response(payload: dict[str, Any], ir: Response, notes: Notes) -> None:
    """Record where the parts of ``ir``, decoded from ``payload``, came from."""
    notes.came_from_parts((), ("output", "message", "content"), len(ir.parts), _skipped(ir.extra))
