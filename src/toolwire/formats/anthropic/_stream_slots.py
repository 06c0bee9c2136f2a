"""The parts of an Anthropic stream being encoded: which block each IR part becomes.

A :class:`Slot` is one IR part on its way out: the ``content_block`` its
``content_block_start`` carries (streamed fields empty), its kind, and what is buffered for
it while another block is open. :func:`plan` maps parts like ``encode_response`` does, with
the same notes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import msgspec

from toolwire._args_check import TRIM, ArgumentsCheck
from toolwire.formats._stream import Lent
from toolwire.formats._wire import emit_extra
from toolwire.formats.anthropic._encode_blocks import Ctx, encode_part
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall, ToolResult
from toolwire.ir.stream import ReasoningDelta, TextDelta, ToolCallDelta

__all__ = ["Delta", "Kind", "Slot", "delta_event", "hold", "plan"]

Kind = Literal["text", "thinking", "call", "custom", "whole"]
"""How a part streams: text, thinking, tool input (JSON / custom text), or whole at start."""

Delta = TextDelta | ReasoningDelta | ToolCallDelta


class Slot(Lent):
    """One IR part on its way out: the block to start, and what is buffered for it (``sent``:
    characters of text / thinking / arguments sent so far; ``head`` and ``tail``: ``frame``
    while lent to a decoder's hot path, ``StreamEncoder.lend``, else ``b""``). A plain class
    (see ``Lent``)."""

    __slots__ = (
        "block",
        "chunks",
        "client_call",
        "ended",
        "fast",
        "final",
        "frame",
        "ir",
        "kind",
        "part",
        "path",
        "pending",
        "signature",
        "wire",
    )

    def __init__(
        self, ir: int, part: Part, kind: Kind, block: dict[str, Any], path: str, *, client_call: bool = False
    ) -> None:
        super().__init__()
        self.ir = ir
        self.part = part
        self.kind: Kind = kind
        self.block = block
        self.path = path
        self.client_call = client_call
        self.wire: int | None = None
        self.ended = False
        self.final: Part | None = None
        self.pending: list[Delta | str] = []
        """Deltas held while another block is open (a ``str``: argument text held by ``frame_delta``)."""
        self.chunks: list[str] | ArgumentsCheck = []
        """Buffered text: a custom call's input, or a call's arguments (checked at the end, held in
        bounded memory: :class:`~toolwire._args_check.ArgumentsCheck`)."""
        self.signature: list[str] = []
        self.fast: type | None = None
        """Once the block started: the IR delta the encoder's hot path sends as is (text, arguments)."""
        self.frame: tuple[bytes, bytes] | None = None
        """That delta's SSE bytes cut at its text's JSON (``frame_halves``; ``NO_HALVES``: none), see
        ``StreamEncoder.frame_delta``."""


def delta_event(slot: Slot, delta: dict[str, Any]) -> dict[str, Any]:
    """A ``content_block_delta`` event for the (started) block of ``slot``."""
    assert slot.wire is not None, "a delta before its block started"
    return {"type": "content_block_delta", "index": slot.wire, "delta": delta}


def plan(ctx: Ctx, index: int, part: Part) -> Slot | None:
    """The slot for part ``index``, or ``None`` (noted) when Anthropic cannot carry it."""
    path = f"$.parts[{index}]"
    planner = _PLANS.get(type(part))
    if planner is None:
        ctx.notes.add(path, "dropped", f"{type(part).__name__} cannot be part of an Anthropic response")
        return None
    return planner(ctx, index, part, path)


def _text(ctx: Ctx, index: int, part: Part, path: str) -> Slot:
    assert isinstance(part, (TextPart, RefusalPart))
    if isinstance(part, RefusalPart):
        ctx.notes.add(path, "approximated", "a refusal sent as text")
    elif part.thought_signature is not None:
        ctx.notes.add(path, "dropped", "Gemini thought signature on a text part")
    block: dict[str, Any] = {"type": "text", "text": ""}
    emit_extra(block, part.extra, ctx.same, ctx.notes, path)
    return Slot(index, part, "text", block, path)


def _reasoning(ctx: Ctx, index: int, part: Part, path: str) -> Slot | None:
    assert isinstance(part, ReasoningPart)
    if part.origin != "anthropic" or part.redacted is not None:
        return _whole(ctx, index, part, path)  # dropped with a note, or redacted_thinking
    block: dict[str, Any] = {"type": "thinking", "thinking": "", "signature": ""}
    emit_extra(block, part.extra, True, ctx.notes, path)
    return Slot(index, part, "thinking", block, path)


def _call(ctx: Ctx, index: int, part: Part, path: str) -> Slot | None:
    assert isinstance(part, ToolCall)
    kind: Kind = "custom" if part.kind == "custom" else "call"
    bare = msgspec.structs.replace(part, arguments="", kind="function" if kind == "custom" else part.kind)
    block = encode_part(bare, ctx, path)
    if block is None:
        return None
    block["input"] = {}
    slot = Slot(index, part, kind, block, path, client_call=part.kind != "builtin")
    if kind == "call":
        slot.chunks = slot.held = ArgumentsCheck()  # held: what a decoder it is lent to appends to
    return slot


def _whole(ctx: Ctx, index: int, part: Part, path: str) -> Slot | None:
    if isinstance(part, ToolResult) and part.kind != "builtin":
        ctx.notes.add(path, "dropped", "ToolResult cannot be part of an Anthropic response")
        return None
    block = encode_part(part, ctx, path)
    return None if block is None else Slot(index, part, "whole", block, path)


_PLANS: dict[type, Callable[[Ctx, int, Part, str], Slot | None]] = {
    TextPart: _text,
    RefusalPart: _text,
    ReasoningPart: _reasoning,
    ToolCall: _call,
    ToolResult: _whole,
}


def hold(chunks: list[str], text: str) -> None:
    """Hold argument text: a call's :class:`ArgumentsCheck` is trimmed every ``TRIM`` pieces."""
    chunks.append(text)
    if len(chunks) >= TRIM and type(chunks) is ArgumentsCheck:
        chunks.trim()
