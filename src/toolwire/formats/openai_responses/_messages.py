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
from toolwire.formats.openai_responses._encode_items import Ctx, encode_assistant, encode_result
from toolwire.formats.openai_responses._extra import emit_fields
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

__all__ = ["decode_input", "encode_messages"]

_CONTENT_TYPES = (TextPart, ImagePart, FilePart, AudioPart, RefusalPart)


def _close(messages: list[Message], role: str, parts: list[Part], msg_id: str | None) -> None:
    if parts:
        messages.append(Message(role=role, parts=tuple(parts), id=msg_id))  # type: ignore[arg-type]


def decode_input(value: Any, path: str = "$.input") -> list[Message]:
    """Decode an ``input`` item list into IR messages."""
    messages: list[Message] = []
    group_role = ""
    group: list[Part] = []
    group_id: str | None = None
    for index, item in enumerate(as_list(value, path)):
        kind, got = decode_item(item, f"{path}[{index}]")
        if kind == "message":
            _close(messages, group_role, group, group_id)
            group, group_role, group_id = [], "", None
            messages.append(got)  # type: ignore[arg-type]
            continue
        if kind != group_role:
            _close(messages, group_role, group, group_id)
            group, group_role, group_id = [], kind, None
        if kind == "assistant":
            parts: list[Part] = got  # type: ignore[assignment]
            if group_id is None and parts and "~msg" in parts[0].extra:
                group_id = parts[0].extra["~msg"].get("id")
            group.extend(parts)
        else:
            group.append(got)  # type: ignore[arg-type]
    _close(messages, group_role, group, group_id)
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
        path = f"$.messages[{index}]"
        raw = message.extra.get("~item")
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
