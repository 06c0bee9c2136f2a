"""An open part of the Chat stream encoder (:mod:`._stream_encode`), its hot-path delta chunk's
``choices`` and their bytes, and the text a part starts or ends with."""

from __future__ import annotations

from typing import Any

from toolwire.formats._stream import (
    HOLE,
    NO_HALVES,
    Lent,
    value_halves,
)
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall

__all__ = [
    "Out",
    "CHOICES",
    "MAX_CHOICES",
    "choice_halves",
    "final_text",
    "hot_choices",
    "initial_text",
]


class Out(Lent):
    """An open part: where its text goes and how much of it was sent (``sent``; ``head`` and
    ``tail``: its ``frame`` while lent to a decoder, see ``lend``, else ``b""``). A plain class
    (see ``Lent``)."""

    __slots__ = ("custom", "field", "frame", "kind", "summary", "wire")

    def __init__(self, kind: str, *, field: str | None = None, wire: int = 0, custom: bool = False) -> None:
        super().__init__()
        self.kind = kind  # content | refusal | reasoning | call | legacy | drop
        self.field = field  # reasoning: the delta field
        self.wire = wire  # call: wire index
        self.custom = custom
        self.summary: int | None = None  # reasoning: last summary index sent
        self.frame: tuple[bytes, bytes] | None = None  # its delta chunk's SSE bytes around its text's JSON


def hot_choices(out: Out, text: str) -> list[dict[str, Any]] | None:
    """The ``choices`` of a hot-path delta chunk of ``out`` (None: its kind takes the general path)."""
    kind = out.kind
    if kind == "content" or kind == "refusal":
        delta: dict[str, Any] = {kind: text}
    elif kind == "call" and not out.custom:
        delta = {"tool_calls": [{"index": out.wire, "function": {"arguments": text}}]}
    else:
        return None
    return [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": None}]


CHOICES: dict[tuple[str, int], tuple[bytes, bytes]] = {}
"""A hot-path delta chunk's ``choices`` around its text, by part kind and wire index (0 for
text; the kinds without a hot path: ``NO_HALVES``): the same bytes in every stream."""
MAX_CHOICES = 256
"""Halves kept at most (wire indices beyond the first calls are cut per part)."""


def choice_halves(out: Out) -> tuple[bytes, bytes]:
    """:func:`hot_choices` of ``out`` cut where its text goes (``value_halves``), once per process."""
    key = (out.kind if not out.custom else "custom", out.wire)
    halves = CHOICES.get(key)
    if halves is None:
        choices = hot_choices(out, HOLE)
        halves = value_halves(choices) if choices is not None else NO_HALVES
        if len(CHOICES) < MAX_CHOICES:
            CHOICES[key] = halves
    return halves


def initial_text(part: Part) -> str:
    if isinstance(part, (TextPart, RefusalPart)):
        return part.text
    if isinstance(part, ReasoningPart):
        return part.text or "\n\n".join(part.summary)
    return ""


def final_text(part: Part) -> str:
    if isinstance(part, ToolCall):
        return part.arguments
    return initial_text(part)
