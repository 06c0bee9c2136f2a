"""What the Chat stream decoder (:mod:`._stream_decode`) reads a chunk with: the fields it knows, its
parts' skeletons, one streamed tool call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwire.formats._stream import Lent
from toolwire.formats._wire import opt_int
from toolwire.formats.openai_chat._content import THINKING_CHUNK
from toolwire.formats.openai_chat._decode_messages import REASONING_FIELDS
from toolwire.formats.openai_chat._extra import DIALECT
from toolwire.ir.base import Extra
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCallKind
from toolwire.ir.stream import (
    ReasoningDelta,
    StreamEvent,
    TextDelta,
)

__all__ = [
    "ARG_KEYS",
    "CALL_KINDS",
    "CHOICE_KNOWN",
    "CHUNK_TOP_KNOWN",
    "DELTA_KNOWN",
    "HOT_CHOICE",
    "PER_CHUNK",
    "StreamedCall",
    "TEXT_FIELDS",
    "THINKING",
    "delta_event",
    "hot_choice",
    "non_empty",
    "skeleton",
    "wire_index",
]

CHUNK_TOP_KNOWN = frozenset({"id", "object", "created", "model", "choices", "usage", "error"})
"""Top-level chunk fields the decoder reads itself."""
PER_CHUNK = frozenset({"obfuscation"})
"""Top-level fields that differ on every chunk and mean nothing for the response."""
CHOICE_KNOWN = frozenset({"index", "delta", "finish_reason"})
HOT_CHOICE = frozenset({*CHOICE_KNOWN, "logprobs"})
"""The fields a choice of a hot-path chunk may have (``logprobs`` null)."""
DELTA_KNOWN = frozenset({"role", "content", "refusal", "tool_calls", "function_call", *REASONING_FIELDS})
TEXT_FIELDS = (*REASONING_FIELDS, "content", "refusal")
"""Delta fields of text, in the order the decoder reads them."""
CALL_KINDS: dict[str, ToolCallKind] = {"function": "function", "custom": "custom"}
ARG_KEYS = {"function": "arguments", "custom": "input"}


THINKING = "thinking"
"""Flow kind of Mistral ``{"type": "thinking"}`` content chunks (a reasoning part)."""


def skeleton(kind: str, dialect: str | None) -> Part:
    """The part a flow of ``kind`` starts (its reasoning naming the provider ``dialect``, if any)."""
    if kind == "content":
        return TextPart(text="")
    if kind == "refusal":
        return RefusalPart(text="")
    extra: Extra = {"~chunk": THINKING_CHUNK} if kind == THINKING else {"~field": kind}
    if dialect is not None:
        return ReasoningPart(origin="openai-chat", extra={**extra, DIALECT: dialect})
    return ReasoningPart(extra=extra)


def delta_event(kind: str, index: int, text: str) -> StreamEvent:
    if kind in REASONING_FIELDS or kind == THINKING:
        return ReasoningDelta(index=index, text=text)
    return TextDelta(index=index, text=text)


def non_empty(obj: dict[str, Any], skip: frozenset[str]) -> Extra:
    """Fields of ``obj`` not in ``skip`` whose value is not null, ``[]`` or ``{}``."""
    if skip.issuperset(obj):  # the usual chunk or choice: no field of its own (no dict walked)
        return {}
    return {k: v for k, v in obj.items() if k not in skip and not (v is None or v == [] or v == {})}


@dataclass(slots=True)
class StreamedCall:
    """One streamed tool call: identity, and argument text held back until its name is known."""

    kind: ToolCallKind
    id: str | None = None
    name: str | None = None
    index: int | None = None  # IR index once started
    legacy: bool = False
    pending: list[str] = field(default_factory=list)
    lent: Lent | None = None  # the encoder's part its argument deltas are written to (``borrow``)


def hot_choice(choice: dict[str, Any]) -> bool:
    """Whether a choice with "index" and "delta" has no other field than a null ``finish_reason``
    and null ``logprobs`` (keys counted: no set built when there are none but those)."""
    if len(choice) != 2 + ("finish_reason" in choice) + ("logprobs" in choice) and not HOT_CHOICE.issuperset(
        choice
    ):
        return False
    return choice.get("finish_reason") is None and choice.get("logprobs") is None


def wire_index(
    calls: dict[int, StreamedCall], last: int | None, fragment: dict[str, Any], call_id: str | None, path: str
) -> int:
    """The wire index of a tool call fragment: its ``index``, else the last call's (``last``) unless
    the fragment brings another id, else the next free one."""
    wire = opt_int(fragment, "index", path)
    if wire is not None:
        return wire
    if last is None or last not in calls or (call_id is not None and call_id != calls[last].id):
        return max(calls, default=-1) + 1
    return last
