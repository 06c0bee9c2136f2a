"""What the Responses stream decoder (:mod:`._stream_decode`) reads events with: the event types
it passes over, an event's integer field, an output item the stream opened."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from toolwire.errors import PayloadError

__all__ = ["ERROR_KNOWN", "IN_PROGRESS", "LIFECYCLE_EVENTS", "OpenItem", "QUIET_EVENTS", "int_field"]

LIFECYCLE_EVENTS = frozenset({"response.created", "response.queued", "response.in_progress"})
QUIET_EVENTS = frozenset(
    {
        "response.output_text.done",
        "response.refusal.done",
        "response.content_part.done",
        "response.output_text.annotation.added",
        "response.function_call_arguments.done",
        "response.custom_tool_call_input.done",
        "response.reasoning_summary_text.done",
        "response.reasoning_summary_part.done",
        "response.reasoning_text.done",
    }
)
IN_PROGRESS = frozenset({"output", "usage"})  # placeholders of a response still in progress
ERROR_KNOWN = frozenset({"type", "code", "message", "param"})


def int_field(event: dict[str, Any], key: str) -> int:
    value = event.get(key)
    if type(value) is not int:
        raise PayloadError(
            f"missing required field '{key}'" if value is None else f"'{key}' must be an integer",
            path=f"$.{key}",
        )
    return value


@dataclass(slots=True)
class OpenItem:
    """An output item the stream opened: its kind and the canonical indexes of its parts."""

    kind: str
    item: dict[str, Any]
    parts: dict[int, int] = field(default_factory=dict)  # content/summary slot -> canonical index
    text_slot: int | None = None  # last reasoning_text content_index seen
