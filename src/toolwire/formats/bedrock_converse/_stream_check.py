"""The legal order of ConverseStream events, as a transition table, plus block invariants.

States: ``start`` (nothing yet), ``message`` (after ``messageStart``, blocks streaming),
``stopped`` (after ``messageStop``), ``done`` (after ``metadata``), ``failed`` (after an
exception). Block invariants: a block index is used by one block only, a ``toolUse`` delta
needs its block started by ``contentBlockStart``, and no block event follows its
``contentBlockStop``. A stream must reach ``stopped``, ``done`` or ``failed``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolwire.formats._stream import ParsedEvent
from toolwire.formats.bedrock_converse._stream_frames import EVENT_TYPES, EXCEPTION_TYPES
from toolwire.ir.problem import Problem

__all__ = ["TRANSITIONS", "check_stream"]

_BLOCK = ("contentBlockStart", "contentBlockDelta", "contentBlockStop")

TRANSITIONS: dict[tuple[str, str], str] = {
    ("start", "messageStart"): "message",
    **{("message", kind): "message" for kind in _BLOCK},
    ("message", "messageStop"): "stopped",
    ("stopped", "metadata"): "done",
    **{(state, "exception"): "failed" for state in ("start", "message", "stopped")},
}
"""(state, event kind) -> next state; a pair not listed is an illegal event."""

_ENDS = frozenset({"stopped", "done", "failed"})


def _kind(event: ParsedEvent) -> tuple[str, Any] | None:
    if type(event) is not dict or len(event) != 1:
        return None
    ((name, body),) = event.items()
    if name in EXCEPTION_TYPES:
        return "exception", body
    return (name, body) if name in EVENT_TYPES and type(body) is dict else None


def check_stream(events: Iterable[ParsedEvent]) -> list[Problem]:
    """Problems with the order of a ConverseStream (empty when it is legal)."""
    problems: list[Problem] = []
    state = "start"
    started: set[int] = set()
    calls: set[int] = set()
    stopped: set[int] = set()
    for position, event in enumerate(events):
        path = f"$[{position}]"
        found = _kind(event)
        if found is None:
            problems.append(Problem(path, "not_an_event", f"not a ConverseStream event: {event!r:.60}"))
            continue
        kind, body = found
        nxt = TRANSITIONS.get((state, kind))
        if nxt is None:
            problems.append(Problem(path, "unexpected_event", f"{kind} after state {state}"))
            continue
        state = nxt
        if kind in _BLOCK:
            problems += _block(path, kind, body, started, calls, stopped)
    if state not in _ENDS:
        problems.append(Problem("$", "incomplete_stream", f"stream ends in state {state}"))
    return problems


def _block(
    path: str, kind: str, body: dict[str, Any], started: set[int], calls: set[int], stopped: set[int]
) -> list[Problem]:
    index = body.get("contentBlockIndex")
    if type(index) is not int:
        return [Problem(f"{path}.contentBlockIndex", "bad_shape", "contentBlockIndex is not an integer")]
    if index in stopped:
        return [Problem(path, "block_closed", f"{kind} after block {index} stopped")]
    if kind == "contentBlockStart":
        if index in started:
            return [Problem(path, "block_reopened", f"block {index} started twice")]
        started.add(index)
        start = body.get("start")
        if type(start) is dict and "toolUse" in start:
            calls.add(index)
        return []
    if kind == "contentBlockStop":
        stopped.add(index)
        return []
    delta = body.get("delta")
    if type(delta) is not dict or len(delta) != 1:
        return [Problem(f"{path}.delta", "bad_shape", "a delta has exactly one member")]
    if "toolUse" in delta and index not in calls:
        return [
            Problem(path, "call_not_started", f"toolUse delta in block {index} without its toolUse start")
        ]
    started.add(index)
    return []
