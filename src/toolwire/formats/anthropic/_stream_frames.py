"""The Anthropic stream encoder's hot-path delta (:mod:`._stream_encode`): its event, and its SSE bytes
cut at its text's JSON, built once per process."""

from __future__ import annotations

from typing import Any

from toolwire.formats._stream import HOLE, frame_halves
from toolwire.formats.anthropic._stream_slots import Slot
from toolwire.ir.stream import (
    TextDelta,
)

__all__ = ["DELTA_FRAMES", "MAX_DELTA_FRAMES", "delta_frame", "hot_delta"]

DELTA_FRAMES: dict[tuple[type | None, int | None], tuple[bytes, bytes]] = {}
"""A block's delta SSE bytes cut at its text's JSON by (its hot-path delta, its wire index): the
same bytes in every stream, so each is built once per process (a stream's first delta of each
block paid ~3 µs)."""
MAX_DELTA_FRAMES = 256
"""Cut frames kept at most (wire indices beyond the first blocks are built per block)."""


def delta_frame(slot: Slot) -> tuple[bytes, bytes]:
    """The SSE bytes of the open block's hot-path delta cut at its text's JSON (``frame_halves``)."""
    key = (slot.fast, slot.wire)
    frame = DELTA_FRAMES.get(key)
    if frame is None:
        frame = frame_halves("anthropic", hot_delta(slot, HOLE))
        if len(DELTA_FRAMES) < MAX_DELTA_FRAMES:
            DELTA_FRAMES[key] = frame
    return frame


def hot_delta(slot: Slot, text: str) -> dict[str, Any]:
    """The event of a hot-path delta (text or arguments) of the open block ``slot``."""
    if slot.fast is TextDelta:
        delta = {"type": "text_delta", "text": text}
    else:
        delta = {"type": "input_json_delta", "partial_json": text}
    return {"type": "content_block_delta", "index": slot.wire, "delta": delta}
