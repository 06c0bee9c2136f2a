"""Gemini ``contents`` and ``systemInstruction`` <-> IR messages.

Decoding: ``systemInstruction`` becomes a leading ``system`` message; each content one
message (``user`` -> ``user``, ``model`` -> ``assistant``, legacy ``function`` -> ``tool``);
``functionResponse`` parts stay in their ``user`` message.

Encoding: ``system``/``developer`` messages (wherever they are) are hoisted into one
``systemInstruction`` (a note when one came after the conversation started); ``tool``
messages become ``user`` contents. For other formats, consecutive contents of the same
role are merged (Gemini expects user/model alternation and all responses to one call turn
in one content) and contents left without parts are dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from toolwire.errors import PayloadError
from toolwire.formats._wire import as_dict, child, fail, json_type
from toolwire.formats.gemini._decode_fast import fast_content
from toolwire.formats.gemini._decode_parts import decode_parts
from toolwire.formats.gemini._encode_parts import Ctx, encode_parts
from toolwire.formats.gemini._keys import emit, listish, rebase, split
from toolwire.formats.gemini.tools import decode_tools
from toolwire.ir._where import Coord
from toolwire.ir.content import Message, Role
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request

__all__ = ["decode_contents", "decode_system", "encode_messages", "record_message", "record_request"]

_KNOWN = frozenset({"role", "parts"})
_ROLES: dict[str, Role] = {"user": "user", "model": "assistant"}
_WIRE_ROLES = {"user": "user", "assistant": "model", "tool": "user"}
_SYSTEM_ROLES = ("system", "developer")


def _decode_content(raw: Any, path: str, system: bool) -> Message:
    content = as_dict(raw, path)
    extra = split(content, _KNOWN)
    raw_role = content.get("role")
    if raw_role is not None and type(raw_role) is not str:
        fail(child(path, "role"), f"expected a string, got {json_type(raw_role)}")
    role: Role | None = "system" if system else _ROLES.get(raw_role or "")
    if role is None or (system and raw_role is not None):
        extra["~role"] = raw_role if raw_role is not None else ""
        if role is None:
            role = "tool" if raw_role == "function" else "user"
    if content.get("parts") is not None:
        parts = decode_parts(content["parts"], f"{path}.parts", extra)
    else:
        parts = ()
        extra["~parts"] = False
    return Message(role=role, parts=parts, extra=extra)


def decode_system(raw: Any, path: str = "$.systemInstruction") -> Message:
    """Decode ``systemInstruction`` as a ``system`` message (its wire role remembered)."""
    return _decode_content(raw, path, True)


def decode_contents(value: Any, path: str = "$.contents") -> tuple[tuple[Message, ...], bool]:
    """Decode ``contents``; also whether it was a single object rather than an array."""
    items, single = listish(value, path)
    out: list[Message] = []
    for index, raw in enumerate(items):
        fast = fast_content(raw)  # the common shapes first (see ._decode_fast), else the general decoder
        if fast is not None:
            out.append(fast)
            continue
        try:
            out.append(_decode_content(raw, "$", False))
        except PayloadError as exc:
            raise rebase(exc, f"{path}[{index}]") from None
    return tuple(out), single


def record_message(notes: Notes, ir: Coord, at: Coord, message: Message) -> None:
    """Record where ``message`` (IR ``ir``) and its parts came from in the content at ``at``."""
    notes.came_from(ir, at)
    extra = message.extra
    if extra.get("~single"):
        for j in range(len(message.parts)):
            notes.came_from((*ir, "parts", j), (*at, "parts"))
        return
    opaque = extra.get("~opaque")
    notes.came_from_parts(ir, (*at, "parts"), len(message.parts), {i for i, _ in opaque} if opaque else ())


def record_request(payload: dict[str, Any], ir: Request, notes: Notes) -> None:
    """Record where the messages, parts and tools of ``ir``, decoded from ``payload``, came from
    (``systemInstruction`` is IR message 0; called only when a note needs it)."""
    messages = ir.messages
    first = 0
    key = "systemInstruction" if "systemInstruction" in payload else "system_instruction"
    if payload.get(key) is not None and messages:
        record_message(notes, ("messages", 0), (key,), messages[0])
        first = 1
    single = ir.extra.get("~single.contents")
    for index in range(len(messages) - first):
        at: Coord = ("contents",) if single else ("contents", index)
        record_message(notes, ("messages", first + index), at, messages[first + index])
    tools = payload.get("tools")
    if tools:
        decode_tools(tools, notes)  # records each tool (a group holds several)


def _wire_role(message: Message, ctx: Ctx) -> str | None:
    if ctx.same and "~role" in message.extra:
        return message.extra["~role"] or None
    return _WIRE_ROLES.get(message.role)


def _content(message: Message, role: str | None, ctx: Ctx, path: str) -> dict[str, Any]:
    extra = message.extra if ctx.same else {}
    parts = encode_parts(message.parts, ctx, f"{path}.parts", extra)
    out: dict[str, Any] = {}
    if role is not None:
        out["role"] = role
    if parts or extra.get("~parts", True):
        out["parts"] = parts[0] if extra.get("~single") and len(parts) == 1 else parts
    if not ctx.same and message.name is not None:
        ctx.notes.add(child(path, "name"), "dropped", f"participant name {message.name!r}")
    return emit(out, message.extra, ctx.same, ctx.notes, path)


def _add_system(system: dict[str, Any] | None, message: Message, ctx: Ctx, path: str) -> dict[str, Any]:
    content = _content(message, None if not ctx.same else _wire_role(message, ctx), ctx, path)
    if system is None:
        return content
    system.setdefault("parts", []).extend(content.get("parts", ()))
    return system


def encode_messages(
    messages: Sequence[Message], ctx: Ctx
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """Encode IR messages as ``(systemInstruction or None, contents)``."""
    system: dict[str, Any] | None = None
    contents: list[dict[str, Any]] = []
    for index, message in enumerate(messages):
        path = f"$.messages[{index}]"
        if message.role in _SYSTEM_ROLES:
            if contents:
                ctx.notes.add(path, "approximated", "system message moved to systemInstruction")
            system = _add_system(system, message, ctx, path)
            continue
        content = _content(message, _wire_role(message, ctx), ctx, path)
        if not ctx.same:
            if not content.get("parts"):
                continue
            if contents and contents[-1].get("role") == content.get("role"):
                contents[-1]["parts"].extend(content["parts"])
                continue
        contents.append(content)
    return system, contents
