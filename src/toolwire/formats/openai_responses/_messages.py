"""Request ``input`` items <-> IR messages.

Decoding groups consecutive model-output items (assistant message items, reasoning, tool
calls, built-in call items) into ONE assistant message and consecutive tool outputs into
ONE tool message; user/system/developer message items stay one message each.

Encoding accepts tool results in ``tool`` and ``user`` messages (and anywhere else) and
writes them as ``function_call_output`` items, never as user text.
"""

from __future__ import annotations

from typing import Any

from toolwire.formats._wire import as_list
from toolwire.formats.openai_responses._content import encode_part
from toolwire.formats.openai_responses._decode_items import decode_item
from toolwire.formats.openai_responses._encode_fast import FAST_LANES
from toolwire.formats.openai_responses._encode_items import Ctx, encode_assistant, encode_result
from toolwire.formats.openai_responses._extra import emit_fields
from toolwire.formats.openai_responses._fast_items import FAST_DECODERS
from toolwire.ir._where import Coord
from toolwire.ir.content import (
    AudioPart,
    ContentPart,
    FilePart,
    ImagePart,
    Message,
    Part,
    RefusalPart,
    TextPart,
    ToolResult,
)
from toolwire.ir.notes import Notes

__all__ = ["decode_input", "encode_messages", "item_slots"]

_CONTENT_TYPES = (TextPart, ImagePart, FilePart, AudioPart, RefusalPart)


def item_slots(item: Any, at: Coord, count: int) -> list[Coord]:
    """Where the ``count`` parts decoded from ``item`` (at ``at``) sit in it: a message item's
    content entries, its string content, else the item itself."""
    content = item.get("content") if type(item) is dict and item.get("type", "message") == "message" else None
    if type(content) is list and len(content) == count:
        return [(*at, "content", k) for k in range(count)]
    if type(content) is str:
        return [(*at, "content")] * count
    return [at] * count


def _close(
    messages: list[Message], role: str, parts: list[Part], msg_id: str | None, where: _Where | None
) -> None:
    if parts:
        if where is not None:
            where.record(len(messages))
        messages.append(Message(role=role, parts=tuple(parts), id=msg_id))  # type: ignore[arg-type]
    if where is not None:
        where.slots = []


class _Where:
    """Where the parts of the group being decoded came from (only when ``notes.recording``)."""

    __slots__ = ("first", "notes", "slots")

    def __init__(self, notes: Notes, first: int) -> None:
        self.notes, self.first = notes, first
        self.slots: list[Coord] = []

    def record(self, message_index: int) -> None:
        """``Notes.came_from`` of the message and each of its parts (written in one go)."""
        at = self.first + message_index
        slots = self.slots
        origins = self.notes.origins
        origins["messages", at] = slots[0][:2]
        for j, slot in enumerate(slots):
            origins["messages", at, "parts", j] = slot


def decode_input(
    value: Any, path: str = "$.input", *, notes: Notes | None = None, first: int = 0
) -> list[Message]:
    """Decode an ``input`` item list into IR messages (``notes``: a recording collector, where
    each came from is recorded, the first message at IR index ``first``)."""
    messages: list[Message] = []
    group_role = ""
    group: list[Part] = []
    group_id: str | None = None
    where = _Where(notes, first) if notes is not None else None
    for index, item in enumerate(as_list(value, path)):
        decoded = None
        if type(item) is dict:  # the common shapes first (see ._fast_items), else the general decoder
            item_type = item.get("type")
            fast = FAST_DECODERS.get(item_type) if item_type is None or type(item_type) is str else None
            decoded = fast(item) if fast is not None else None
        kind, got = decoded if decoded is not None else decode_item(item, f"{path}[{index}]")
        if kind == "message":
            if group:
                _close(messages, group_role, group, group_id, where)
                group, group_role, group_id = [], "", None
            if where is not None:
                count = len(got.parts)  # type: ignore[union-attr]
                where.slots = item_slots(item, ("input", index), count) if count else [("input", index)]
                where.record(len(messages))
                where.slots = []
            messages.append(got)  # type: ignore[arg-type]
            continue
        if kind != group_role:
            if group:
                _close(messages, group_role, group, group_id, where)
                group, group_id = [], None
            group_role = kind
        if kind == "assistant":
            parts: list[Part] = got  # type: ignore[assignment]
            if group_id is None and parts and "~msg" in parts[0].extra:
                group_id = parts[0].extra["~msg"].get("id")
            group += parts
            if where is not None:
                where.slots.extend(item_slots(item, ("input", index), len(parts)))
        else:
            group.append(got)  # type: ignore[arg-type]
            if where is not None:
                where.slots.append(("input", index))
    _close(messages, group_role, group, group_id, where)
    return messages


# ---------------------------------------------------------------- encode


def _message_item(message: Message, parts: list[ContentPart], ctx: Ctx, path: str) -> dict[str, Any]:
    extra = message.extra if ctx.same else {}
    item: dict[str, Any] = {}
    if extra.get("~typed"):
        item["type"] = "message"
    item["role"] = message.role
    if len(parts) == 1 and type(parts[0]) is TextPart and (extra.get("~string") or not ctx.same):
        if parts[0].extra:
            emit_fields({}, parts[0].extra, ctx.same, ctx.notes, f"{path}.parts[0]")
        item["content"] = parts[0].text
    else:
        content = []
        for index, part in enumerate(parts):
            wire = encode_part(part, message.role, ctx.same, ctx.notes, f"{path}.parts[{index}]")
            if wire is not None:
                content.append(wire)
        item["content"] = content
    if message.id is not None:
        if ctx.same:
            item["id"] = message.id
        else:
            ctx.notes.add(path, "dropped", f"message id {message.id!r} (input messages carry none)")
    if message.name is not None:
        ctx.notes.add(path, "dropped", f"participant name {message.name!r} of a {message.role} message")
    if message.extra:
        emit_fields(item, message.extra, ctx.same, ctx.notes, path)
    return item


def _input_message(message: Message, ctx: Ctx, path: str) -> list[dict[str, Any]]:
    """Items of a user/system/developer message: tool results first-class, other parts dropped."""
    items: list[dict[str, Any]] = []
    pending: list[ContentPart] = []
    for index, part in enumerate(message.parts):
        part_path = f"{path}.parts[{index}]"
        if isinstance(part, _CONTENT_TYPES):
            pending.append(part)
        elif type(part) is ToolResult:
            if pending:
                items.append(_message_item(message, pending, ctx, path))
                pending = []
            result = encode_result(part, ctx, part_path)
            if result is not None:
                items.append(result)
        else:
            ctx.notes.add(part_path, "dropped", f"{type(part).__name__} in a {message.role} message")
    if pending or not message.parts:
        items.append(_message_item(message, pending, ctx, path))
    return items


def _tool_message(message: Message, ctx: Ctx, path: str) -> list[dict[str, Any]]:
    items = []
    for index, part in enumerate(message.parts):
        part_path = f"{path}.parts[{index}]"
        if type(part) is ToolResult:
            result = encode_result(part, ctx, part_path)
            if result is not None:
                items.append(result)
        else:
            ctx.notes.add(part_path, "dropped", f"{type(part).__name__} in a tool message")
    if message.name is not None:  # results are items of their own: nothing holds the message's fields
        ctx.notes.add(path, "dropped", f"participant name {message.name!r} of a tool message")
    if message.extra:
        emit_fields({}, message.extra, ctx.same, ctx.notes, path)
    return items


def _assistant_message(message: Message, ctx: Ctx, path: str) -> list[dict[str, Any]]:
    hint = message.extra.get("~msg") if ctx.same else None
    if hint is not None and not message.parts:
        return [{**hint, "content": []}]
    if message.name is not None:
        ctx.notes.add(path, "dropped", f"participant name {message.name!r} of an assistant message")
    items = encode_assistant(message.parts, message.id, ctx, f"{path}.parts")
    if message.extra:
        emit_fields({}, message.extra, ctx.same, ctx.notes, path)
    return items


def encode_messages(messages: tuple[Message, ...], ctx: Ctx, start: int = 0) -> list[dict[str, Any]]:
    """Encode IR messages (from index ``start``) as ``input`` items."""
    items: list[dict[str, Any]] = []
    for index in range(start, len(messages)):
        message = messages[index]
        raw = message.extra.get("~item")
        if raw is None and not ctx.same:  # the common shapes first (see ._encode_fast), else the general
            lane = FAST_LANES.get(message.role)
            fast = lane(message) if lane is not None else None
            if fast is not None:
                items += fast
                continue
        path = f"$.messages[{index}]"
        if raw is not None and ctx.same:
            items.append(raw)
            continue
        if raw is not None:
            ctx.notes.add(path, "dropped", "a Responses item the IR does not model (kept for Responses only)")
            if not message.parts:
                continue
        if message.role == "assistant":
            items.extend(_assistant_message(message, ctx, path))
        elif message.role == "tool":
            items.extend(_tool_message(message, ctx, path))
        else:
            items.extend(_input_message(message, ctx, path))
    return items
