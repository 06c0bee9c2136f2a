"""Per-part state and small pure helpers of the Responses stream encoder."""

from __future__ import annotations

from typing import Any, Final

import msgspec

from toolwire._json import dumps, dumps_leaf
from toolwire.formats._stream import HOLE, INT_HOLE, encode_wire_event
from toolwire.ir.content import (
    AudioPart,
    FilePart,
    ImagePart,
    Part,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    ToolResult,
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
    "delta_bytes",
    "delta_event",
    "delta_head",
    "sent_delta",
    "in_progress",
    "is_content",
    "pack",
    "skeleton_for",
]

CONTENT = (TextPart, RefusalPart, ImagePart, FilePart, AudioPart)
"""Parts that live inside a ``message`` item."""
MEDIA = (ImagePart, FilePart, AudioPart)
"""Content parts an assistant message of another format cannot carry."""
_CONTENT_TYPES = frozenset(CONTENT)
_PART_TYPES = frozenset({*CONTENT, ReasoningPart, ToolCall, ToolResult})


def is_content(part: Part) -> bool:
    """``isinstance(part, CONTENT)``, by its exact type first (an ``isinstance`` of a tuple of IR
    types costs about a thousand instructions, compiled; a subclass still gets one)."""
    kind = type(part)
    return kind in _CONTENT_TYPES or (kind not in _PART_TYPES and isinstance(part, CONTENT))


_EMPTY_FIELD = {"function_call": ("arguments", ""), "custom_tool_call": ("input", "")}


class Live:
    """The part being streamed: what was received and what was sent.

    A plain class (not a dataclass): a compiled build then makes it with a native ``__init__``
    (a dataclass's is generated Python, about 8,000 instructions per part).
    """

    __slots__ = (
        "added",
        "chunks",
        "content",
        "content_index",
        "cut",
        "fast",
        "fast_type",
        "head",
        "index",
        "item_id",
        "output_index",
        "packed",
        "packed_sent",
        "part",
        "sent",
        "sent_summary",
        "silent",
        "summary",
        "summary_open",
    )

    def __init__(
        self,
        index: int,
        part: Part,
        *,
        item_id: Any = None,
        output_index: int = -1,
        content_index: int = 0,
        content: bool = False,
    ) -> None:
        self.index = index
        self.part = part
        self.chunks: list[str] = []
        self.summary: list[list[str]] = []
        self.item_id = item_id
        self.output_index = output_index
        self.content_index = content_index
        self.content = content
        self.added = False
        self.silent = False
        self.sent: list[str] = []
        self.sent_summary: list[str] = []
        self.summary_open = False
        self.packed = 0
        """How many leading entries of ``chunks`` are joined runs (see :func:`pack`)."""
        self.packed_sent = 0
        """The same for ``sent``."""
        self.fast: type | None = None
        """The delta event type (TextDelta or ToolCallDelta) sent by the hot path, once on the wire."""
        self.fast_type = ""
        """The wire event type of those deltas."""
        self.head = b""
        """Those deltas' SSE bytes up to their text (:func:`delta_head`; ``b""``: none, the general path)."""
        self.cut = False
        """Whether ``head`` was made (once per part, at its first hot-path delta)."""

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


class OpenMessage:
    """The open ``message`` item: its id, position and finished content parts (a plain class,
    as :class:`Live`)."""

    __slots__ = ("count", "id", "output_index", "parts")

    def __init__(self, id: Any, output_index: int) -> None:
        self.id = id
        self.output_index = output_index
        self.parts: list[Part] = []
        self.count = 0


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
        # Equal runs join to equal text (the usual case, the same strings: compared in C).
        sent[start_sent:] = [chunks[-1] if tail == tail_sent else _join(tail_sent)]
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


def delta_bytes(head: bytes, data: bytes, seq: int, content: bool) -> bytes:
    """The SSE bytes of a hot-path delta: ``head`` (:func:`delta_head`), the JSON of its text,
    and what follows it in every such event (the sequence number last). Literal formats: a
    compiled build joins the parts in one allocation, with no template to parse."""
    if content:
        return b'%b%b,"logprobs":[],"sequence_number":%d}\n\n' % (head, data, seq)
    return b'%b%b,"sequence_number":%d}\n\n' % (head, data, seq)


_TEXT = "\x00toolwire:delta\x00"
"""The delta's place in a :func:`delta_head` skeleton."""
_SKELETONS: dict[tuple[str, bool], bytes] = {}
"""Per wire delta type and item kind (content part or not), the SSE bytes of a hot-path delta
up to its text, with ``%b`` / ``%d`` for the item id's JSON and the indexes: the same bytes in
every stream, made once per process (``b""``: the event cannot be cut so)."""


def _skeleton(live: Live) -> bytes:
    """The skeleton of ``live``'s deltas (see ``_SKELETONS``)."""
    key = (live.fast_type, live.content)
    skeleton = _SKELETONS.get(key)
    if skeleton is None:
        probe = Live(live.index, live.part, item_id=HOLE, output_index=INT_HOLE, content_index=INT_HOLE)
        probe.content, probe.fast_type = live.content, live.fast_type
        frame = encode_wire_event("openai-responses", delta_event(probe, _TEXT, 0))
        head, _, tail = frame.partition(dumps(_TEXT))
        ints = 2 if live.content else 1
        hole, number = _HOLE_JSON, _INT_JSON
        cut = b"%" not in head and head.count(hole) == 1 and head.count(number) == ints
        if cut and tail == delta_bytes(b"", b"", 0, live.content):
            skeleton = head.replace(hole, b"%b").replace(number, b"%d")
        else:
            skeleton = b""
        _SKELETONS[key] = skeleton
    return skeleton


def delta_head(live: Live) -> bytes:
    """The bytes of ``live``'s hot-path deltas before their text: :func:`delta_bytes` of it, the
    text's JSON and a sequence number is exactly the delta event's SSE bytes. From the per-process
    skeleton filled with the item's id and indexes; ``b""``: none, the general path."""
    skeleton = _skeleton(live)
    try:
        item = dumps_leaf(live.item_id)
    except (RecursionError, UnicodeEncodeError, TypeError):  # the general path raises toolwire's own error
        skeleton = b""
    if not skeleton:
        frame = encode_wire_event("openai-responses", delta_event(live, HOLE, 0))
        if frame.count(_HOLE_JSON) != 1:
            return b""
        head, _, tail = frame.partition(_HOLE_JSON)
        return head if tail == delta_bytes(b"", b"", 0, live.content) else b""
    if live.content:
        return skeleton % (item, live.output_index, live.content_index)
    return skeleton % (item, live.output_index)


_HOLE_JSON = dumps(HOLE)
_INT_JSON = dumps(INT_HOLE)
