"""Bedrock ``messages`` and ``system`` <-> IR messages.

Decode: each wire message is one IR message of its role (tool results stay in the user message
that carries them); the top-level ``system`` list is one IR ``system`` message first.

Encode for another format (what Bedrock accepts: alternating ``user``/``assistant`` messages
no empty content or text, every ``toolUse`` answered in the next user message):
system and developer messages are hoisted into ``system`` (one mid-conversation is noted);
``tool`` messages become user content; parts without a Bedrock form are dropped (noted) and a
message left empty is omitted; consecutive messages of one role are merged. A conversation
without any turn is refused (:class:`~toolwire.errors.ConversionError`). (One that starts with
an assistant turn is sent: Bedrock accepted it in a recording.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.errors import ConversionError
from toolwire.formats._wire import as_dict, as_list, child, emit_extra, fail, split_extra
from toolwire.formats.bedrock_converse._decode_blocks import OPAQUE, decode_blocks
from toolwire.formats.bedrock_converse._encode_blocks import Ctx, encode_part, with_opaque
from toolwire.ir.base import Extra
from toolwire.ir.content import Message, Part, TextPart
from toolwire.ir.notes import Notes

__all__ = ["decode_messages", "decode_system", "encode_content", "encode_messages"]

_ROLES = {"user": "user", "assistant": "assistant", "tool": "user"}
_SYSTEM_ROLES = frozenset({"system", "developer"})


def decode_message(raw: Any, path: str) -> Message:
    """Decode one ``Message`` (``role`` and ``content``)."""
    body = as_dict(raw, path)
    role = body.get("role")
    if role not in ("user", "assistant"):
        fail(child(path, "role"), f"expected 'user' or 'assistant', got {role!r}")
    if "content" not in body:
        fail(child(path, "content"), "required field is missing")
    extra: Extra = split_extra(body, frozenset({"role", "content"}))
    parts = decode_blocks(body["content"], child(path, "content"), extra)
    return Message(role=role, parts=parts, extra=extra)


def decode_messages(raw: Any, path: str = "$.messages") -> list[Message]:
    """Decode the ``messages`` list."""
    return [decode_message(item, f"{path}[{i}]") for i, item in enumerate(as_list(raw, path))]


def decode_system(raw: Any, path: str = "$.system") -> Message:
    """The ``system`` list as one IR ``system`` message (non-text blocks kept opaque)."""
    extra: Extra = {}
    parts: list[Part] = []
    for index, item in enumerate(as_list(raw, path)):
        block = as_dict(item, f"{path}[{index}]")
        if block.keys() == {"text"} and type(block["text"]) is str:
            parts.append(TextPart(text=block["text"]))
        else:
            extra.setdefault(OPAQUE, []).append([index, item])
    return Message(role="system", parts=tuple(parts), extra=extra)


def encode_content(parts: Sequence[Part], ctx: Ctx, path: str) -> list[dict[str, Any]]:
    """The content blocks of IR parts (parts without a Bedrock form omitted, noted)."""
    out: list[dict[str, Any]] = []
    for index, part in enumerate(parts):
        block = encode_part(part, ctx, f"{path}[{index}]")
        if block is not None:
            out.append(block)
    return out


def _system_blocks(message: Message, ctx: Ctx, path: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for index, part in enumerate(message.parts):
        if type(part) is TextPart and (ctx.same or part.text):
            out.append({"text": part.text})
        elif type(part) is not TextPart:
            ctx.notes.add(f"{path}.parts[{index}]", "dropped", f"{type(part).__name__} in a system message")
    if ctx.same:
        with_opaque(out, message.extra.get(OPAQUE))
    else:
        emit_extra({}, message.extra, False, ctx.notes, path)
    return out


def _same(messages: Sequence[Message], ctx: Ctx) -> tuple[list[dict[str, Any]] | None, list[dict[str, Any]]]:
    system: list[dict[str, Any]] | None = None
    out: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        path = f"$.messages[{index}]"
        if message.role in _SYSTEM_ROLES:
            system = (system or []) + _system_blocks(message, ctx, path)
            continue
        content = with_opaque(
            encode_content(message.parts, ctx, child(path, "parts")), message.extra.get(OPAQUE)
        )
        wire: dict[str, Any] = {"role": _ROLES[message.role], "content": content}
        emit_extra(wire, {k: v for k, v in message.extra.items() if k != OPAQUE}, True, ctx.notes, path)
        out.append(wire)
    return system, out


def _merge(turns: list[tuple[str, list[dict[str, Any]]]]) -> list[dict[str, Any]]:
    """Consecutive turns of one role merged; in user turns tool results first (they answer the
    turn before, and Claude on Bedrock wants them first)."""
    out: list[dict[str, Any]] = []
    for role, content in turns:
        if out and out[-1]["role"] == role:
            out[-1]["content"].extend(content)
        else:
            out.append({"role": role, "content": list(content)})
    for message in out:
        blocks = message["content"]
        if message["role"] == "user" and any("toolResult" in b for b in blocks):
            message["content"] = [b for b in blocks if "toolResult" in b] + [
                b for b in blocks if "toolResult" not in b
            ]
    return out


def _cross(messages: Sequence[Message], ctx: Ctx) -> tuple[list[dict[str, Any]] | None, list[dict[str, Any]]]:
    system: list[dict[str, Any]] | None = None
    turns: list[tuple[str, list[dict[str, Any]]]] = []
    for index, message in enumerate(messages):
        path = f"$.messages[{index}]"
        if message.name is not None:
            ctx.notes.add(child(path, "name"), "dropped", f"participant name {message.name!r}")
        if message.role in _SYSTEM_ROLES:
            if turns:
                ctx.notes.info(
                    path, "approximated", f"a {message.role} message mid-conversation moved to system"
                )
            system = (system or []) + _system_blocks(message, ctx, path)
            continue
        content = encode_content(message.parts, ctx, child(path, "parts"))
        emit_extra({}, message.extra, False, ctx.notes, path)
        if content:
            turns.append((_ROLES[message.role], content))
        elif message.parts:
            ctx.notes.info(path, "dropped", "a message left without content")
    out = _merge(turns)
    if not out:
        raise ConversionError(
            "Bedrock needs at least one user message; the request has none", path="$.messages"
        )
    return system, out


def encode_messages(
    messages: Sequence[Message], same: bool, notes: Notes
) -> tuple[list[dict[str, Any]] | None, list[dict[str, Any]]]:
    """``(system blocks or None, messages)`` for IR messages."""
    ctx = Ctx(notes, same)
    return _same(messages, ctx) if same else _cross(messages, ctx)


def has_tool_blocks(messages: list[dict[str, Any]]) -> bool:
    """Whether any message holds a ``toolUse`` or ``toolResult`` block (then ``toolConfig`` is required)."""
    return any("toolUse" in b or "toolResult" in b for m in messages for b in m["content"])
