"""Where each IR message and part of a decoded Responses request came from (``Notes.came_from``).

Recorded only when a note needs it, from the payload and the IR decoded from it, instead of
decoding the payload a second time (issue 18). The decoder (:mod:`._messages`) makes:

* IR message 0 of a string ``instructions``, one message of a string ``input``;
* one IR message per user/system/developer item and per part-less item (``item_reference``,
  an assistant message item with empty content);
* one assistant message per run of model-output items: one part per content entry of a
  message item whose entries are all known (string content: one), else one per item (a call,
  reasoning, an item kept verbatim); one tool message per run of tool outputs, a part each.

Walking the IR messages over the items reproduces what the recording decoder records; if the
walk does not fit the items exactly, the recording decoder runs after all.
"""

from __future__ import annotations

from typing import Any

from toolwire.formats.openai_responses._content import CONTENT_TYPES
from toolwire.formats.openai_responses._messages import item_slots
from toolwire.formats.openai_responses.request import decode_request
from toolwire.ir._where import Coord
from toolwire.ir.content import Message
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request

__all__ = ["record_request"]

_GROUPS = frozenset({"assistant", "tool"})


def _output_parts(item: Any) -> int:
    """How many IR parts a model-output ``item`` decoded to."""
    kind = item.get("type")
    if kind is not None and kind != "message":
        return 1
    content = item.get("content")
    if type(content) is not list:
        return 1
    for entry in content:
        kind = entry.get("type") if type(entry) is dict else None
        if type(kind) is not str or kind not in CONTENT_TYPES:
            return 1  # an unknown part: the whole item kept verbatim, as one call
    return len(content)


def _walk(items: list[Any], messages: tuple[Message, ...], first: int) -> dict[Coord, Coord] | None:
    """The origins of ``messages`` (IR index ``first`` on), decoded from ``items``; ``None``
    when they do not fit the items."""
    origins: dict[Coord, Coord] = {}
    index = 0
    for offset, message in enumerate(messages):
        count = len(message.parts)
        if index >= len(items):
            return None
        if message.role in _GROUPS and count:
            slots: list[Coord] = []
            output = message.role == "assistant"
            while len(slots) < count and index < len(items):
                item = items[index]
                if output:
                    slots += item_slots(item, ("input", index), _output_parts(item))
                else:  # a tool output: the item itself
                    slots.append(("input", index))
                index += 1
            if len(slots) != count:
                return None
        else:
            slots = item_slots(items[index], ("input", index), count) if count else [("input", index)]
            index += 1
        at = first + offset
        origins["messages", at] = slots[0][:2]
        for j, slot in enumerate(slots):
            origins["messages", at, "parts", j] = slot
    return origins if index == len(items) else None


def record_request(payload: dict[str, Any], ir: Request, notes: Notes) -> None:
    """Record where the messages and parts of ``ir``, decoded from ``payload``, came from."""
    origins = notes.origins
    first = 0
    if type(payload.get("instructions")) is str:
        origins["messages", 0] = origins["messages", 0, "parts", 0] = ("instructions",)
        first = 1
    value = payload.get("input")
    if type(value) is str:
        origins["messages", first] = origins["messages", first, "parts", 0] = ("input",)
    elif value is not None:
        found = _walk(value, ir.messages[first:], first)
        if found is None:
            decode_request(payload, notes)
        else:
            origins.update(found)
