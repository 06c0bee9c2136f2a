"""The event grammar of a Chat Completions stream, as a transition table plus invariants.

Each wire event is classified (:func:`classify`) as ``delta`` (a chunk with choices, choice 0
not finishing), ``finish`` (choice 0 gets its ``finish_reason``), ``info`` (a chunk with
``choices: []``: usage, Azure prompt filter results, moderation), ``error`` (``{"error": ...}``),
``done`` (``[DONE]``) or ``bad`` (not a chunk at all). :data:`TRANSITIONS` says where each
class leads from each state; a class missing from a state's row is a problem (its code is in
:data:`ILLEGAL`), and a ``bad`` event is a ``malformed_event`` problem in any state. At the
end, a stream still in ``start`` or ``open`` lacks its terminal event. A stream that ends in
``finished`` (``finish_reason`` seen, no ``[DONE]``) is accepted: real recordings end that way.

Invariants checked per chunk: ``object`` is ``chat.completion.chunk`` (or empty, as in Azure's
filter chunks), ``id`` does not change, choices and deltas have the right shapes, ``role`` is
``assistant``, each tool call fragment has an integer ``index``, a call's first fragment has
``id``, ``type`` and a name, new call indexes count up from 0 in order, later fragments repeat
``id``/``name`` only unchanged, and choice 0 carries no content after its ``finish_reason``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolwire.formats._stream import DONE, ParsedEvent
from toolwire.formats.openai_chat.dialects import Dialect, get_dialect
from toolwire.ir.problem import Problem

__all__ = ["ILLEGAL", "TRANSITIONS", "check_stream", "classify"]

TRANSITIONS: dict[str, dict[str, str]] = {
    "start": {"delta": "open", "finish": "finished", "info": "start", "error": "failed"},
    "open": {"delta": "open", "finish": "finished", "info": "open", "error": "failed", "done": "done"},
    "finished": {"delta": "finished", "info": "finished", "error": "failed", "done": "done"},
    "done": {},
    "failed": {},
}
"""state -> event class -> next state."""

ILLEGAL: dict[str, tuple[str, str]] = {
    "start": ("empty_stream", "[DONE] before any chunk"),
    "finished": ("duplicate_finish", "choice 0 got a second finish_reason"),
    "done": ("event_after_done", "event after [DONE]"),
    "failed": ("event_after_error", "event after the error event"),
}
"""state -> (problem code, message) for an event class the state does not accept."""

_AFTER = {"start": "done", "open": "open", "finished": "finished", "done": "done", "failed": "failed"}
_TERMINAL = frozenset({"finished", "done", "failed"})


def classify(event: ParsedEvent) -> str:
    """The event class of one wire event (see the module docstring)."""
    if event == DONE:
        return "done"
    if type(event) is not dict:
        return "bad"
    if event.get("error") is not None:
        return "error"
    choices = event.get("choices")
    if type(choices) is not list:
        return "bad"
    if not choices:
        return "info"
    for choice in choices:
        if type(choice) is dict and choice.get("index", 0) == 0 and choice.get("finish_reason") is not None:
            return "finish"
    return "delta"


class _Checker:
    """Per-stream invariant state: the response id and the tool calls seen per choice."""

    def __init__(self, dialect: Dialect | None = None) -> None:
        self.dialect = dialect
        self.problems: list[Problem] = []
        self.id: str | None = None
        self.calls: dict[tuple[int, int], tuple[Any, Any]] = {}  # (choice, index) -> (id, name)
        self.count: dict[int, int] = {}  # choice -> number of calls
        self.finished = False

    def add(self, path: str, code: str, message: str) -> None:
        self.problems.append(Problem(path, code, message))

    def chunk(self, chunk: dict[str, Any], path: str) -> None:
        obj = chunk.get("object")
        if obj not in (None, "", "chat.completion.chunk"):
            self.add(f"{path}.object", "wrong_object", f"object {obj!r} is not 'chat.completion.chunk'")
        chunk_id = chunk.get("id")
        if chunk_id:
            if self.id is None:
                self.id = chunk_id
            elif chunk_id != self.id:
                self.add(f"{path}.id", "id_changed", f"id {chunk_id!r} differs from {self.id!r}")
        usage = chunk.get("usage")
        if usage is not None and type(usage) is not dict:
            self.add(f"{path}.usage", "malformed_event", "usage is not an object")
        for position, choice in enumerate(chunk.get("choices") or ()):
            self.choice(choice, f"{path}.choices[{position}]")

    def choice(self, choice: Any, path: str) -> None:
        if type(choice) is not dict:
            self.add(path, "malformed_event", "choice is not an object")
            return
        index = choice.get("index")
        if type(index) is not int:
            self.add(f"{path}.index", "choice_index", "choice has no integer index")
            return
        delta = choice.get("delta")
        if delta is not None and type(delta) is not dict:
            self.add(f"{path}.delta", "malformed_event", "delta is not an object")
        elif delta:
            self.delta(delta, index, f"{path}.delta")
        if index == 0 and choice.get("finish_reason") is not None:
            self.finished = True

    def delta(self, delta: dict[str, Any], choice: int, path: str) -> None:
        role = delta.get("role")
        if role not in (None, "assistant"):
            self.add(f"{path}.role", "wrong_role", f"role {role!r} is not 'assistant'")
        for key in ("content", "refusal", "reasoning_content", "reasoning"):
            value = delta.get(key)
            chunks = key == "content" and self.dialect is not None and self.dialect.thinking_chunks
            if value is not None and type(value) is not str and not (chunks and type(value) is list):
                self.add(f"{path}.{key}", "malformed_event", f"{key} is not a string")
        if choice == 0 and self.finished and (delta.get("content") or delta.get("tool_calls")):
            self.add(path, "delta_after_finish", "choice 0 content after its finish_reason")
        calls = delta.get("tool_calls")
        if calls is not None and type(calls) is not list:
            self.add(f"{path}.tool_calls", "malformed_event", "tool_calls is not an array")
            return
        for position, fragment in enumerate(calls or ()):
            self.fragment(fragment, choice, f"{path}.tool_calls[{position}]")

    def fragment(self, fragment: Any, choice: int, path: str) -> None:
        if type(fragment) is not dict:
            self.add(path, "malformed_event", "tool call fragment is not an object")
            return
        index = fragment.get("index")
        loose = self.dialect is not None and self.dialect.loose_fragments
        if index is None and loose:  # a whole call in one fragment: the next index
            index = self.count.get(choice, 0)
        if type(index) is not int:
            self.add(f"{path}.index", "tool_call_index", "tool call fragment has no integer index")
            return
        kind = fragment.get("type") or "function"
        if type(kind) is not str:
            self.add(f"{path}.type", "malformed_event", "tool call type is not a string")
            kind = "function"
        inner = fragment.get(kind)
        inner = inner if type(inner) is dict else {}
        args = inner.get("input" if kind == "custom" else "arguments")
        if args is not None and type(args) is not str:
            self.add(path, "malformed_event", "tool call arguments are not a string")
        key = (choice, index)
        known = self.calls.get(key)
        if known is None:
            self.first_fragment(fragment, inner, choice, index, path)
            return
        call_id, name = fragment.get("id"), inner.get("name")
        if loose and name == "":
            name = None  # repeated as "" (Mistral)
        for field, value, before in (("id", call_id, known[0]), ("name", name, known[1])):
            if value is not None and before is not None and value != before:
                self.add(f"{path}.{field}", f"tool_call_{field}_changed", f"{field} {value!r} != {before!r}")
        self.calls[key] = (known[0] or call_id, known[1] or name)

    def first_fragment(
        self, fragment: dict[str, Any], inner: dict[str, Any], choice: int, index: int, path: str
    ) -> None:
        expected = self.count.get(choice, 0)
        if index != expected:
            self.add(
                f"{path}.index", "tool_call_index_order", f"new tool call index {index}, expected {expected}"
            )
        self.count[choice] = max(expected, index + 1)
        call_id, name = fragment.get("id"), inner.get("name")
        kind = fragment.get("type")
        if kind is None and self.dialect is not None and self.dialect.optional_types:
            kind = "function"
        for field, value in (("id", call_id), ("type", kind), ("name", name)):
            if type(value) is not str or not value:
                self.add(
                    path, "tool_call_first_fragment", f"first fragment of tool call {index} lacks {field}"
                )
        self.calls[(choice, index)] = (call_id, name)


def check_stream(events: Iterable[ParsedEvent], *, dialect: str | Dialect | None = None) -> list[Problem]:
    """Problems of a Chat stream: event order (see :data:`TRANSITIONS`) and chunk invariants.

    Paths are ``$[n]`` (the n-th wire event) and below. An empty list means the stream is valid.
    ``dialect`` (a :mod:`~toolwire.formats.openai_chat.dialects` name) accepts that provider's
    documented stream forms (Mistral: content chunk lists, fragments without ``index``).
    """
    checker = _Checker(None if dialect is None else get_dialect(dialect))
    state = "start"
    for n, event in enumerate(events):
        path = f"$[{n}]"
        kind = classify(event)
        following = TRANSITIONS[state].get(kind)
        if kind == "bad":
            checker.add(path, "malformed_event", "not a chunk object, an error object or [DONE]")
        elif following is None:
            code, message = ILLEGAL[state]
            checker.add(path, code, message)
            following = _AFTER[state]
        if kind in ("delta", "finish", "info") and state not in ("done", "failed"):
            checker.chunk(event, path)
        state = following or state
    if state not in _TERMINAL:
        checker.add("$", "missing_terminal", "stream ended without finish_reason or [DONE]")
    return checker.problems
