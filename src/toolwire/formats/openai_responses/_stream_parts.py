"""Per-part state and small pure helpers of the Responses stream encoder."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from toolwire._json import dumps, dumps_leaf
from toolwire.formats._stream import HOLE, INT_HOLE, encode_wire_event, frame_template
from toolwire.ir.content import (
    AudioPart,
    FilePart,
    ImagePart,
    Part,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
)
from toolwire.ir.stream import PartEnd, ReasoningDelta, StreamEvent, TextDelta, ToolCallDelta

__all__ = [
    "CONTENT",
    "MEDIA",
    "Live",
    "OpenMessage",
    "PACK_EVERY",
    "add_reasoning",
    "advance",
    "delta_event",
    "delta_frame",
    "sent_delta",
    "in_progress",
    "pack",
    "skeleton_for",
]

CONTENT = (TextPart, RefusalPart, ImagePart, FilePart, AudioPart)
"""Parts that live inside a ``message`` item."""
MEDIA = (ImagePart, FilePart, AudioPart)
"""Content parts an assistant message of another format cannot carry."""
_EMPTY_FIELD = {"function_call": ("arguments", ""), "custom_tool_call": ("input", "")}


@dataclass(slots=True)
class Live:
    """The part being streamed: what was received and what was sent."""

    index: int
    part: Part
    chunks: list[str] = field(default_factory=list)
    summary: list[list[str]] = field(default_factory=list)
    item_id: Any = None
    output_index: int = -1
    content_index: int = 0
    content: bool = False
    added: bool = False
    silent: bool = False
    sent: list[str] = field(default_factory=list)
    sent_summary: list[str] = field(default_factory=list)
    summary_open: bool = False
    packed: int = 0
    """How many leading entries of ``chunks`` are joined runs (see :func:`pack`)."""
    packed_sent: int = 0
    """The same for ``sent``."""
    fast: type | None = None
    """The delta event type (TextDelta or ToolCallDelta) sent by the hot path, once on the wire."""
    fast_type: str = ""
    """The wire event type of those deltas."""
    frame: bytes | None = None
    """Those deltas' SSE bytes template, holes for the text and the sequence number (``b""``: none)."""

    def now(self) -> Part:
        """The part as far as received."""
        part = self.part
        joined = "".join(self.chunks)
        if isinstance(part, (TextPart, RefusalPart)):
            return msgspec.structs.replace(part, text=part.text + joined)
        if isinstance(part, ToolCall):
            return msgspec.structs.replace(part, arguments=part.arguments + joined)
        if isinstance(part, ReasoningPart):
            text = (part.text or "") + joined if self.chunks else part.text
            summary = (*part.summary, *("".join(s) for s in self.summary))
            return msgspec.structs.replace(part, text=text, summary=summary)
        return part


@dataclass(slots=True)
class OpenMessage:
    """The open ``message`` item: its id, position and finished content parts."""

    id: Any
    output_index: int
    parts: list[Part] = field(default_factory=list)
    count: int = 0


def in_progress(item: dict[str, Any], same: bool) -> dict[str, Any]:
    """The ``output_item.added`` form of an item: content emptied, status ``in_progress``."""
    out = dict(item)
    empty = _EMPTY_FIELD.get(out.get("type", ""))
    if empty is not None:
        out[empty[0]] = empty[1]
    if out.get("type") == "reasoning":
        out["summary"] = []
        if "content" in out:
            out["content"] = []
    if out.get("type") == "message":
        out["content"] = []
    if not same and "status" in out:
        out["status"] = "in_progress"
    return out


def advance(live: Live, now: str) -> str:
    """The text still to send for ``now`` (``""`` when nothing new or it diverged).

    Joins what was sent so far: used when a whole part arrives or ends, not per delta
    (:func:`sent_delta` keeps deltas O(1)).
    """
    if len(now) <= sum(map(len, live.sent)):  # all sent already (the usual end): no join
        return ""
    sent = "".join(live.sent)
    if not now.startswith(sent):
        return ""
    live.sent = [now]
    return now[len(sent) :]


PACK_EVERY: Final = 64
"""The hot path packs a streaming part's chunks every this many wire events (see :func:`pack`)."""


def pack(live: Live) -> None:
    """Join the chunks received and sent since the last call into one string each.

    A long text then costs about its length in memory, not one string object per delta (and
    only once when what was sent is what was received); the joined strings are equal, so
    everything built from the chunks stays the same.
    """
    chunks, sent = live.chunks, live.sent
    start, start_sent = min(live.packed, len(chunks)), min(live.packed_sent, len(sent))
    tail, tail_sent = chunks[start:], sent[start_sent:]
    if len(tail) > 1:
        chunks[start:] = [_join(tail)]
    if len(tail_sent) > 1:
        same = len(tail) == len(tail_sent) and all(map(operator.is_, tail, tail_sent))
        sent[start_sent:] = [chunks[-1] if same else _join(tail_sent)]
    live.packed, live.packed_sent = len(chunks), len(sent)


_join = "".join


def sent_delta(live: Live, text: str) -> str:
    """Record ``text`` as sent right away (a delta that extends the part as received)."""
    live.sent.append(text)
    return text


def add_reasoning(live: Live, event: ReasoningDelta) -> None:
    """Record a reasoning delta (text, or summary text at its summary index) for ``live``."""
    if event.text is not None:
        live.chunks.append(event.text)
    if event.summary is not None:
        at = event.summary_index if event.summary_index is not None else max(len(live.summary) - 1, 0)
        while len(live.summary) <= at:
            live.summary.append([])
        live.summary[at].append(event.summary)


def skeleton_for(event: StreamEvent) -> Part | None:
    """The empty part a delta without :class:`PartStart` belongs to."""
    if isinstance(event, TextDelta):
        return TextPart(text="")
    if isinstance(event, ToolCallDelta):
        return ToolCall(name="")
    if isinstance(event, ReasoningDelta):
        return ReasoningPart()
    if isinstance(event, PartEnd):
        return event.part
    return None


def delta_event(live: Live, text: str, seq: int) -> dict[str, Any]:
    """The wire event of a hot-path delta of ``live``."""
    if live.content:
        return {
            "type": live.fast_type,
            "item_id": live.item_id,
            "output_index": live.output_index,
            "content_index": live.content_index,
            "delta": text,
            "logprobs": [],
            "sequence_number": seq,
        }
    return {
        "type": live.fast_type,
        "item_id": live.item_id,
        "output_index": live.output_index,
        "delta": text,
        "sequence_number": seq,
    }


_TEXT = "\x00toolwire:delta\x00"
"""The delta's place in a :func:`delta_frame` skeleton (kept as ``%b`` for the per-delta fill)."""
_SEQ = -7_340_031_999_999_999_913
"""The sequence number's place in a skeleton (kept as ``%d``)."""
_SKELETONS: dict[tuple[str, bool], bytes] = {}
"""Per wire delta type and item kind (content part or not), the SSE bytes of a hot-path delta
with ``%b`` / ``%d`` for the item id's JSON and the indexes, ``%%b`` / ``%%d`` for the delta's
JSON and the sequence number: the same bytes in every stream, made once per process."""


def _skeleton(live: Live) -> bytes:
    """The skeleton of ``live``'s deltas (see ``_SKELETONS``); ``b""`` when it cannot be cut."""
    key = (live.fast_type, live.content)
    skeleton = _SKELETONS.get(key)
    if skeleton is None:
        probe = Live(live.index, live.part, item_id=HOLE, output_index=INT_HOLE, content_index=INT_HOLE)
        probe.content, probe.fast_type = live.content, live.fast_type
        frame = encode_wire_event("openai-responses", delta_event(probe, _TEXT, _SEQ))
        ints = 2 if live.content else 1
        hole, number, text, seq = _HOLE_JSON, _INT_JSON, dumps(_TEXT), dumps(_SEQ)
        cut = b"%" not in frame and frame.count(hole) == 1 and frame.count(number) == ints
        if cut and frame.count(text) == 1 and frame.count(seq) == 1:
            frame = frame.replace(text, b"%%b").replace(seq, b"%%d")
            skeleton = frame.replace(hole, b"%b").replace(number, b"%d")
        else:
            skeleton = b""
        _SKELETONS[key] = skeleton
    return skeleton


def delta_frame(live: Live) -> bytes:
    """The ``frame_template`` of ``live``'s hot-path deltas (``%b`` the delta's JSON, ``%d`` the
    sequence number), from its per-process skeleton filled with the item's id and indexes:
    the same bytes (``b""``: none, the general path)."""
    skeleton = _skeleton(live)
    try:
        item = dumps_leaf(live.item_id).replace(b"%", b"%%")
    except (RecursionError, UnicodeEncodeError, TypeError):  # frame_template raises toolwire's own error
        skeleton = b""
    if not skeleton:
        return frame_template("openai-responses", delta_event(live, HOLE, INT_HOLE), 2) or b""
    if live.content:
        return skeleton % (item, live.output_index, live.content_index)
    return skeleton % (item, live.output_index)


_HOLE_JSON = dumps(HOLE)
_INT_JSON = dumps(INT_HOLE)
