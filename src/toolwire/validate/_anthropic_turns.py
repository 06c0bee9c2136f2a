"""Anthropic conversation rules over *turns* (consecutive same-role messages merged, as the API does).

Locations of pairing problems are those of the merged conversation (``messages.0.content.1`` for
the first block of a second consecutive user message), which is what the API reports. Thinking
placement problems name the block as the request wrote it (``messages.3.content.0``), so the
message index agrees with the problem's path.

With adaptive thinking (``thinking: {"type": "adaptive"}``) the model decides per turn whether
to think, so an assistant turn of a tool loop need not start with a thinking block (Claude Code's
adaptive-thinking turns have none and the API accepts them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwire.validate._anthropic_dialect import or_list
from toolwire.validate._engine import Ctx, Path

__all__ = ["ROLES", "check_turns"]

ROLES = ("user", "assistant")
_THINKING = ("thinking", "redacted_thinking")
_DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"


@dataclass(slots=True)
class _Block:
    path: Path  # JSON path segments of the block in the payload
    index: int  # index in the merged turn
    value: dict[str, Any]


@dataclass(slots=True)
class _Turn:
    role: str
    index: int  # index in the merged conversation
    blocks: list[_Block] = field(default_factory=list)

    def where(self, block: _Block | None = None) -> str:
        return f"messages.{self.index}" + (f".content.{block.index}" if block is not None else "")


def _written(block: _Block) -> tuple[int, int]:
    """(message index, block index) of a block as the request wrote it."""
    path = block.path
    return int(path[1]), int(path[3]) if len(path) > 3 else 0


def _turns(messages: list[Any], inline_system: bool, ctx: Ctx) -> list[_Turn]:
    turns: list[_Turn] = []
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role, content = message.get("role"), message.get("content")
        if role == "system" and inline_system:
            continue  # beta: an inline system message, transparent to turns
        if not _role_ok(role, i, ctx):
            continue
        if content == "" or content == []:
            last = i == len(messages) - 1 and role == "assistant"
            if not last:
                ctx.add_at(
                    ("messages", i, "content"),
                    ("messages", i),
                    "empty_content",
                    f"messages.{i}: all messages must have non-empty content except for the optional "
                    "final assistant message",
                )
        if not turns or turns[-1].role != role:
            turns.append(_Turn(str(role), len(turns)))
        turn = turns[-1]
        if isinstance(content, str) and content:
            turn.blocks.append(
                _Block(("messages", i, "content"), len(turn.blocks), {"type": "text", "text": content})
            )
        elif isinstance(content, list):
            for j, block in enumerate(content):
                if isinstance(block, dict):
                    turn.blocks.append(_Block(("messages", i, "content", j), len(turn.blocks), block))
    return turns


def _role_ok(role: Any, i: int, ctx: Ctx) -> bool:
    if role in ROLES:
        return True
    if role == "system":
        ctx.add_at(
            ("messages", i, "role"),
            ("messages",),
            "invalid_role",
            'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, '
            'not "system" as an input message role.',
        )
    elif isinstance(role, str):
        ctx.add(
            ("messages", i, "role"), "invalid_value", f"messages.{i}.role: Input should be {or_list(ROLES)}"
        )
    return False


def check_turns(
    messages: list[Any], thinking: bool, ctx: Ctx, *, inline_system: bool, adaptive: bool
) -> None:
    """Pairing of ``tool_use``/``tool_result``, unique ids, thinking placement.

    ``inline_system`` allows ``system`` messages in the conversation (a beta feature);
    ``adaptive``: thinking is adaptive, so tool-loop turns need not start with thinking.
    """
    turns = _turns(messages, inline_system, ctx)
    seen: set[str] = set()
    for t, turn in enumerate(turns):
        prev = turns[t - 1] if t > 0 and turn.role == "user" else None
        nxt = turns[t + 1] if t + 1 < len(turns) else None
        if turn.role == "assistant":
            _check_uses(turn, nxt, seen, ctx)
        else:
            _check_results(turn, prev, ctx)
    _check_thinking(turns, thinking, ctx, adaptive)


def _uses(turn: _Turn) -> list[_Block]:
    return [
        b for b in turn.blocks if b.value.get("type") == "tool_use" and isinstance(b.value.get("id"), str)
    ]


def _leading_results(turn: _Turn | None) -> set[str]:
    out: set[str] = set()
    for block in turn.blocks if turn is not None else ():
        if block.value.get("type") != "tool_result":
            break
        if isinstance(block.value.get("tool_use_id"), str):
            out.add(block.value["tool_use_id"])
    return out


def _check_uses(turn: _Turn, nxt: _Turn | None, seen: set[str], ctx: Ctx) -> None:
    uses = _uses(turn)
    for block in uses:
        if block.value["id"] in seen:
            ctx.add_at(
                block.path,
                ("messages", turn.index, "content", block.index),
                "duplicate_call_id",
                f"{turn.where(block)}: `tool_use` ids must be unique",
            )
        seen.add(block.value["id"])
    answered = _leading_results(nxt)
    missing = [b for b in uses if b.value["id"] not in answered]
    if missing:
        first = missing[0]
        ids = ", ".join(b.value["id"] for b in missing)
        ctx.add_at(
            first.path,
            ("messages", turn.index),
            "orphan_tool_call",
            f"{turn.where()}: `tool_use` ids were found without `tool_result` blocks immediately "
            f"after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the "
            "next message.",
        )


def _check_results(turn: _Turn, prev: _Turn | None, ctx: Ctx) -> None:
    expected = {b.value["id"] for b in _uses(prev)} if prev is not None else set()
    answered: set[str] = set()
    for block in turn.blocks:
        kind = block.value.get("type")
        where = ("messages", turn.index, "content", block.index)
        if kind == "tool_use":
            ctx.add_at(
                block.path,
                where,
                "call_not_assistant",
                f"{turn.where(block)}: `tool_use` blocks are only allowed in `assistant` messages",
            )
        if kind != "tool_result" or not isinstance(block.value.get("tool_use_id"), str):
            continue
        use_id = block.value["tool_use_id"]
        if use_id not in expected:
            ctx.add_at(
                block.path,
                where,
                "orphan_tool_result",
                f"{turn.where(block)}: unexpected `tool_use_id` found in `tool_result` blocks: {use_id}. "
                "Each `tool_result` block must have a corresponding `tool_use` block in the previous "
                "message.",
            )
        elif use_id in answered:
            ctx.add_at(
                block.path,
                where,
                "duplicate_result",
                f"{turn.where(block)}: each `tool_use` must have a single result. Found multiple "
                f"`tool_result` blocks with id: {use_id}",
            )
        answered.add(use_id)


def _check_thinking(turns: list[_Turn], thinking: bool, ctx: Ctx, adaptive: bool) -> None:
    if not turns:
        return
    last = turns[-1]
    if last.role == "assistant" and last.blocks:
        final = last.blocks[-1]
        kind = final.value.get("type")
        if thinking and kind in _THINKING:
            m, _ = _written(final)
            ctx.add_at(
                final.path,
                ("messages", m),
                "thinking_placement",
                f"messages.{m}: The final block in an assistant message cannot be `{kind}`.",
            )
        if not thinking:
            for block in last.blocks:
                if block.value.get("type") in _THINKING:
                    m, b = _written(block)
                    ctx.add_at(
                        block.path,
                        ("messages", m, "content", b),
                        "thinking_placement",
                        f"messages.{m}.content.{b}: When thinking is disabled, an `assistant` message in "
                        "the final position cannot contain `thinking`. To use thinking blocks, enable "
                        "`thinking` in your request.",
                    )
                    break
    if thinking and not adaptive and last.role == "user" and _leading_results(last) and len(turns) >= 2:
        loop = turns[-2]
        head = loop.blocks[0] if loop.blocks else None
        if (
            loop.role == "assistant"
            and _uses(loop)
            and head is not None
            and head.value.get("type") not in _THINKING
        ):
            found = head.value.get("type")
            m, b = _written(head)
            ctx.add_at(
                (*head.path, "type"),
                ("messages", m, "content", b, "type"),
                "thinking_placement",
                f"messages.{m}.content.{b}.type: Expected `thinking` or `redacted_thinking`, "
                f"but found `{found}`. When `thinking` is enabled, a final `assistant` message must start "
                "with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` "
                "blocks). We recommend you include thinking blocks from previous turns. To avoid this "
                "requirement, disable `thinking`. "
                f"Please consult our documentation at {_DOCS}",
            )
