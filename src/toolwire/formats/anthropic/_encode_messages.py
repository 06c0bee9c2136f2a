"""IR messages -> Anthropic top-level ``system`` and ``messages``.

Same format: one wire message per IR message, content spelled as decoded (string or
blocks, opaque blocks back in place), ``role: "system"`` messages hinted ``~inline`` kept
in place, every other system message hoisted to ``system``. A ``system`` decoded from a string
goes back as a string only while it is one plain text part (a part field such as
``cache_control`` needs the block form); fields of a hoisted system message itself have no
place in ``system`` and are noted as dropped.

Other formats: system and developer messages are hoisted to ``system`` (a note when one
stood mid-conversation); ``tool`` messages and tool results become ``tool_result`` blocks of
a user turn; consecutive same-role turns are merged, tool results put first in their user
turn (so every ``tool_use`` is answered at the start of the next user message) and thinking
first in its assistant turn; media in assistant turns is dropped (Anthropic takes it from the
user only); messages left empty are skipped. Note paths are IR paths (``$.messages[i].parts[j]``).
"""

from __future__ import annotations

from typing import Any

from toolwire.formats._wire import child, emit_extra
from toolwire.formats.anthropic._encode_blocks import Ctx, encode_part
from toolwire.formats.anthropic._encode_fast import fast_cross
from toolwire.formats.anthropic._util import OPAQUE, with_opaque
from toolwire.ir.content import AudioPart, FilePart, ImagePart, Message, TextPart, ToolResult
from toolwire.ir.notes import Notes

__all__ = ["encode_messages"]

_SYSTEM_ROLES = frozenset({"system", "developer"})
_USER_ONLY = (ImagePart, FilePart, AudioPart)


def _blocks(message: Message, ctx: Ctx, path: str) -> list[dict[str, Any]]:
    content_path = f"{path}.parts"
    out = []
    for index, part in enumerate(message.parts):
        block = encode_part(part, ctx, f"{content_path}[{index}]")
        if block is not None:
            out.append(block)
    return out


def _message_extra(out: dict[str, Any], message: Message, ctx: Ctx, path: str) -> None:
    extra = message.extra
    if extra:
        if OPAQUE in extra:
            extra = {k: v for k, v in extra.items() if k != OPAQUE}
        emit_extra(out, extra, ctx.same, ctx.notes, path)
    if message.name is not None:
        ctx.notes.add(child(path, "name"), "dropped", f"participant name {message.name!r}")


# ---------------------------------------------------------------- system


def _system_blocks(message: Message, ctx: Ctx, path: str) -> list[dict[str, Any]]:
    out = []
    for index, part in enumerate(message.parts):
        part_path = f"{path}.parts[{index}]"
        if type(part) is not TextPart:
            ctx.notes.add(part_path, "dropped", f"{type(part).__name__} in a system message")
            continue
        block = encode_part(part, ctx, part_path)
        if block is not None:
            out.append(block)
    if ctx.same:
        for key in message.extra:
            if key[:1] != "~" and key != OPAQUE:  # the top-level system has no message fields
                ctx.notes.add(child(path, key), "dropped", f"field '{key}' of a system message")
        return with_opaque(out, message.extra.get(OPAQUE))
    _message_extra({}, message, ctx, path)
    return out


def _system(hoisted: list[tuple[Message, str]], ctx: Ctx) -> str | list[dict[str, Any]] | None:
    if not hoisted:
        return None
    if ctx.same and len(hoisted) == 1:
        message = hoisted[0][0]
        parts = message.parts
        single = len(parts) == 1 and type(parts[0]) is TextPart and not parts[0].extra
        if single and message.extra.get("~system") == "string" and _hints_only(message.extra):
            return parts[0].text  # type: ignore[union-attr]
    blocks: list[dict[str, Any]] = []
    for message, path in hoisted:
        blocks.extend(_system_blocks(message, ctx, path))
    if not ctx.same and len(blocks) == 1 and blocks[0].keys() == {"type", "text"}:
        text: str = blocks[0]["text"]
        return text
    return blocks or None


# ---------------------------------------------------------------- messages


def _same(message: Message, ctx: Ctx, path: str, role: str) -> dict[str, Any]:
    parts = message.parts
    content: str | list[dict[str, Any]]
    if (
        message.extra.get("~content") == "string"
        and len(parts) == 1
        and type(parts[0]) is TextPart
        and not parts[0].extra
    ):
        content = parts[0].text
    else:
        content = with_opaque(_blocks(message, ctx, path), message.extra.get(OPAQUE))
    out: dict[str, Any] = {"role": role, "content": content}
    if message.extra or message.name is not None:
        _message_extra(out, message, ctx, path)
    return out


_LEADING = {"user": frozenset({"tool_result"}), "assistant": frozenset({"thinking", "redacted_thinking"})}
_MOVED = {"user": "tool result moved before", "assistant": "thinking moved before"}


class _Turns:
    """Builds alternating turns: merges same-role messages, puts tool results (user turns)
    and thinking (assistant turns) first."""

    __slots__ = ("lead", "notes", "out")

    def __init__(self, notes: Notes) -> None:
        self.out: list[dict[str, Any]] = []
        self.notes = notes
        self.lead = 0

    def add(self, role: str, block: dict[str, Any], path: str) -> None:
        out = self.out
        if not out or out[-1]["role"] != role:
            out.append({"role": role, "content": []})
            self.lead = 0
        content: list[dict[str, Any]] = out[-1]["content"]
        if block.get("type") in _LEADING[role]:
            if len(content) != self.lead:
                self.notes.info(path, "approximated", f"{_MOVED[role]} other content of its turn")
            content.insert(self.lead, block)
            self.lead += 1
        else:
            content.append(block)


def _hints_only(extra: dict[str, Any]) -> bool:
    """Whether ``extra`` holds only codec hints (``~`` keys), which are never emitted or noted."""
    return all(key[:1] == "~" for key in extra)


def _cross(message: Message, ctx: Ctx, path: str, turns: _Turns) -> None:
    assistant = message.role == "assistant"
    role = "assistant" if assistant else "user"
    for index, part in enumerate(message.parts):
        part_path = f"{path}.parts[{index}]"
        kind = type(part)
        if assistant and kind in _USER_ONLY:
            ctx.notes.add(part_path, "dropped", f"{kind.__name__} in an assistant turn (user turns only)")
            continue
        block = encode_part(part, ctx, part_path)
        if block is None:
            continue
        block_role = "user" if isinstance(part, ToolResult) and part.kind != "builtin" else role
        turns.add(block_role, block, part_path)
    if message.name is not None or (message.extra and not _hints_only(message.extra)):
        _message_extra({}, message, ctx, path)


def encode_messages(
    messages: tuple[Message, ...], notes: Notes, same: bool
) -> tuple[str | list[dict[str, Any]] | None, list[dict[str, Any]]]:
    """``(system, messages)`` of a request; ``same`` when the IR came from Anthropic."""
    ctx = Ctx(notes, same)
    hoisted: list[tuple[Message, str]] = []
    out: list[dict[str, Any]] = []
    turns = _Turns(notes)
    started = False
    for index, message in enumerate(messages):
        role = message.role
        if not same and role not in _SYSTEM_ROLES and fast_cross(message, ctx, turns):
            started = True  # a common shape (see ._encode_fast)
            continue
        path = f"$.messages[{index}]"
        if role in _SYSTEM_ROLES and not (same and message.extra.get("~inline")):
            if started:
                notes.add(
                    path, "approximated", "mid-conversation system message moved to the top-level system"
                )
            hoisted.append((message, path))
        elif same:
            started = True
            out.append(_same(message, ctx, path, "user" if role == "tool" else role))
        else:
            started = True
            _cross(message, ctx, path, turns)
    return _system(hoisted, ctx), out if same else turns.out
