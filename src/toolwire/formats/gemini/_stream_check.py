"""The legal order of Gemini stream chunks, as a transition table, plus chunk invariants.

Chunk kinds: ``content`` (a candidate without ``finishReason``), ``final`` (a candidate
with one), ``meta`` (no candidate: usage or feedback only), ``blocked`` (no candidate,
``promptFeedback.blockReason``), ``error`` (``{"error": ...}``). Recorded streams put
``finishReason`` on every chunk, so ``final`` may repeat, and a usage-only ``meta`` chunk
may follow; content without a finish reason may not follow a final chunk.

Invariants: ``candidates``, ``parts`` and ``finishReason`` have their types and the first
candidate has ``index`` 0 (when given); ``responseId`` and ``modelVersion`` do not change;
a streamed function call (``willContinue``) is opened by a named ``functionCall``,
continued only by nameless ``functionCall`` parts, and closed before the stream finishes;
nothing follows an error.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolwire.formats._stream import ParsedEvent, WireEvent
from toolwire.ir.problem import Problem

__all__ = ["check_stream"]

_TRANSITIONS: dict[tuple[str, str], str] = {
    ("start", "content"): "open",
    ("start", "final"): "finished",
    ("start", "meta"): "open",
    ("start", "blocked"): "blocked",
    ("start", "error"): "failed",
    ("open", "content"): "open",
    ("open", "final"): "finished",
    ("open", "meta"): "open",
    ("open", "error"): "failed",
    ("finished", "final"): "finished",
    ("finished", "meta"): "finished",
    ("finished", "error"): "failed",
    ("blocked", "meta"): "blocked",
}
"""(state, chunk kind) -> next state; a pair not listed is an illegal chunk."""

_TERMINAL = frozenset({"finished", "blocked", "failed"})
_CONSTANT = ("responseId", "modelVersion")
_CHUNK_KEYS = frozenset({"candidates", "promptFeedback", "usageMetadata"})


def _candidate(event: dict[str, Any]) -> dict[str, Any] | None:
    candidates = event.get("candidates")
    if type(candidates) is list and candidates and type(candidates[0]) is dict:
        return candidates[0]
    return None


def _kind(event: ParsedEvent) -> str | None:
    """The chunk kind, or ``None`` when the chunk is not a stream chunk at all."""
    if type(event) is not dict:
        return None
    if "error" in event and not event.keys() & _CHUNK_KEYS:
        return "error"
    candidate = _candidate(event)
    if candidate is not None:
        return "final" if candidate.get("finishReason") is not None else "content"
    feedback = event.get("promptFeedback")
    if type(feedback) is dict and feedback.get("blockReason") is not None:
        return "blocked"
    return "meta" if event.keys() & _CHUNK_KEYS else None


def _parts(event: dict[str, Any]) -> list[Any]:
    candidate = _candidate(event)
    content = candidate.get("content") if candidate is not None else None
    parts = content.get("parts") if type(content) is dict else None
    return parts if type(parts) is list else []


class _Checker:
    """Walks the chunks, one state machine step and the invariants per chunk."""

    def __init__(self) -> None:
        self.state = "start"
        self.problems: list[Problem] = []
        self.constants: dict[str, Any] = {}
        self.call_open = False

    def step(self, at: int, event: WireEvent) -> None:
        path = f"$[{at}]"
        kind = _kind(event)
        if kind is None:
            self.problems.append(
                Problem(path, "not_a_chunk", f"not a GenerateContentResponse chunk: {event!r:.60}")
            )
            return
        nxt = _TRANSITIONS.get((self.state, kind))
        if nxt is None:
            self.problems.append(
                Problem(path, "unexpected_chunk", f"a {kind} chunk after state {self.state}")
            )
        else:
            self.state = nxt
        assert type(event) is dict
        self._shape(path, event)
        self._constants(path, event)
        self._calls(path, event)
        if kind == "final" and self.call_open:
            self.problems.append(
                Problem(path, "call_unfinished", "finishReason while a streamed function call is open")
            )

    def _shape(self, path: str, event: dict[str, Any]) -> None:
        candidates = event.get("candidates")
        if candidates is not None and type(candidates) is not list:
            self.problems.append(Problem(f"{path}.candidates", "bad_shape", "candidates is not an array"))
            return
        candidate = _candidate(event)
        if candidate is None:
            return
        where = f"{path}.candidates[0]"
        if candidate.get("index", 0) != 0:
            self.problems.append(
                Problem(f"{where}.index", "bad_index", "the first candidate's index is not 0")
            )
        finish = candidate.get("finishReason")
        if finish is not None and type(finish) is not str:
            self.problems.append(
                Problem(f"{where}.finishReason", "bad_shape", "finishReason is not a string")
            )
        content = candidate.get("content")
        parts = content.get("parts") if type(content) is dict else None
        if parts is not None and (type(parts) is not list or any(type(p) is not dict for p in parts)):
            self.problems.append(
                Problem(f"{where}.content.parts", "bad_shape", "parts is not an array of objects")
            )

    def _constants(self, path: str, event: dict[str, Any]) -> None:
        for key in _CONSTANT:
            value = event.get(key)
            if value is None:
                continue
            first = self.constants.setdefault(key, value)
            if value != first:
                self.problems.append(Problem(f"{path}.{key}", "changed", f"{key} {value!r} after {first!r}"))

    def _calls(self, path: str, event: dict[str, Any]) -> None:
        for index, part in enumerate(_parts(event)):
            where = f"{path}.candidates[0].content.parts[{index}]"
            call = part.get("functionCall") if type(part) is dict else None
            if type(call) is not dict:
                if self.call_open:
                    self.problems.append(
                        Problem(where, "call_interrupted", "part inside a streamed function call")
                    )
                continue
            named = call.get("name") is not None
            if self.call_open and named:
                self.problems.append(Problem(where, "call_interrupted", "new call inside a streamed call"))
            elif not self.call_open and not named:
                self.problems.append(Problem(where, "call_without_name", "functionCall without a name"))
            self.call_open = call.get("willContinue") is True

    def finish(self, count: int) -> None:
        if self.state not in _TERMINAL:
            self.problems.append(
                Problem(f"$[{count}]", "missing_finish", "stream ended without a chunk carrying finishReason")
            )
        elif self.call_open:
            self.problems.append(
                Problem(f"$[{count}]", "call_unfinished", "stream ended inside a streamed call")
            )


def check_stream(events: Iterable[ParsedEvent]) -> list[Problem]:
    """Problems with the order and shape of a Gemini stream's chunks (``[]``: none)."""
    checker = _Checker()
    count = 0
    for count, event in enumerate(events, start=1):
        checker.step(count - 1, event)
    checker.finish(count)
    return checker.problems
