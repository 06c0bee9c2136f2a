"""The Anthropic Messages stream grammar, as a transition table, plus its invariants.

================  =========================================  ==========
state             event                                      next state
================  =========================================  ==========
``start``         ``message_start``                          ``message``
``message``       ``content_block_start``                    ``block``
``block``         ``content_block_delta``                    ``block``
``block``         ``content_block_stop``                     ``message``
``message``       ``message_delta``                          ``stopped``
``block``         ``message_delta`` (``max_tokens`` only)    ``stopped``
``message``       ``message_stop`` (no ``message_delta``)    ``done``
``stopped``       ``message_stop``                           ``done``
any but the end   ``ping``                                   same
any but the end   ``error``                                  ``failed``
================  =========================================  ==========

The two lenient rows come from real recordings: a stream cut by ``max_tokens`` in the middle
of a tool call never stops its block, and a ``message_start`` that already carries its whole
content (programmatic tool calling) is followed directly by ``message_stop``.

Invariants (problem codes): ``bad_index`` (blocks are numbered 0, 1, 2... after the content
``message_start`` carried, deltas and stop name the open block), ``missing_id`` (a tool-use
block starts with its ``id`` and ``name``), ``delta_mismatch`` (a delta type that cannot
extend the open block), ``invalid_tool_input`` (the ``partial_json`` of a stopped tool block
is not a JSON object, unless it is the last block and ``max_tokens`` cut the message),
``block_not_closed``, ``malformed_event`` (wrong shape),
``unknown_event``, ``unexpected_event`` (not allowed in this state), ``event_after_end``,
``missing_terminal``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from toolwire.formats._stream import ParsedEvent
from toolwire.formats.anthropic._stream_blocks import CALL_BLOCKS, DELTA_BLOCKS
from toolwire.formats.anthropic._util import parse_object
from toolwire.ir.problem import Problem

__all__ = ["TRANSITIONS", "check_stream"]

TRANSITIONS: dict[tuple[str, str], str] = {
    ("start", "message_start"): "message",
    ("message", "content_block_start"): "block",
    ("block", "content_block_delta"): "block",
    ("block", "content_block_stop"): "message",
    ("message", "message_delta"): "stopped",
    ("block", "message_delta"): "stopped",
    ("message", "message_stop"): "done",
    ("stopped", "message_stop"): "done",
    **{(state, "ping"): state for state in ("start", "message", "block", "stopped")},
    **{(state, "error"): "failed" for state in ("start", "message", "block", "stopped")},
}
"""(state, event type) -> next state. ``done`` and ``failed`` are final."""

_FINAL = frozenset({"done", "failed"})
_CUT_SHORT = frozenset({"max_tokens", "model_context_window_exceeded"})
_DELTA_FIELDS = {
    "text_delta": "text",
    "input_json_delta": "partial_json",
    "thinking_delta": "thinking",
    "signature_delta": "signature",
}


@dataclass(slots=True)
class _State:
    problems: list[Problem] = field(default_factory=list)
    state: str = "start"
    next_index: int = 0
    block: str | None = None  # type of the open block
    json: list[str] = field(default_factory=list)
    bad_input: Problem | None = None  # the last stopped tool block's input, unless max_tokens cut it

    def add(self, path: str, code: str, message: str) -> None:
        self.problems.append(Problem(path, code, message))

    def flush(self) -> None:
        """Report the held-back invalid tool input."""
        if self.bad_input is not None:
            self.problems.append(self.bad_input)
            self.bad_input = None


def _str(value: Any) -> bool:
    return type(value) is str


def _check_message_start(st: _State, event: dict[str, Any], at: str) -> None:
    message = event.get("message")
    if type(message) is not dict:
        st.add(f"{at}.message", "malformed_event", "message_start without a message object")
        return
    for key, want in (("id", str), ("model", str), ("content", list), ("usage", dict)):
        if type(message.get(key)) is not want:
            st.add(f"{at}.message.{key}", "malformed_event", f"expected {want.__name__}")
    if message.get("type") != "message" or message.get("role") != "assistant":
        st.add(f"{at}.message", "malformed_event", "expected type 'message' and role 'assistant'")
    content = message.get("content")
    st.next_index = len(content) if type(content) is list else 0


def _check_block_start(st: _State, event: dict[str, Any], at: str) -> None:
    st.flush()
    if event.get("index") != st.next_index:
        st.add(
            f"{at}.index", "bad_index", f"expected block index {st.next_index}, got {event.get('index')!r}"
        )
    st.next_index += 1
    block = event.get("content_block")
    kind = block.get("type") if type(block) is dict else None
    if not _str(kind):
        st.add(f"{at}.content_block", "malformed_event", "content_block without a type")
        st.block = "?"
        return
    assert type(block) is dict and type(kind) is str
    st.block, st.json = kind, []
    if kind in CALL_BLOCKS:
        if not (_str(block.get("id")) and _str(block.get("name"))):
            st.add(f"{at}.content_block", "missing_id", f"{kind} block without its id and name")
        if type(block.get("input")) is not dict:
            st.add(f"{at}.content_block.input", "malformed_event", "tool input must be an object")
    elif kind == "text" and not _str(block.get("text")):
        st.add(f"{at}.content_block.text", "malformed_event", "expected a string")


def _check_open_index(st: _State, event: dict[str, Any], at: str) -> None:
    if event.get("index") != st.next_index - 1:
        st.add(
            f"{at}.index",
            "bad_index",
            f"expected the open block {st.next_index - 1}, got {event.get('index')!r}",
        )


def _check_block_delta(st: _State, event: dict[str, Any], at: str) -> None:
    _check_open_index(st, event, at)
    delta = event.get("delta")
    kind = delta.get("type") if type(delta) is dict else None
    if type(delta) is not dict or not _str(kind):
        st.add(f"{at}.delta", "malformed_event", "delta without a type")
        return
    allowed = DELTA_BLOCKS.get(kind)  # type: ignore[arg-type]
    if allowed is None or st.block not in allowed:
        st.add(f"{at}.delta.type", "delta_mismatch", f"{kind} cannot extend a {st.block} block")
        return
    name = _DELTA_FIELDS.get(kind)  # type: ignore[arg-type]
    if name is not None and not _str(delta.get(name)):
        st.add(f"{at}.delta.{name}", "malformed_event", "expected a string")
    elif kind == "input_json_delta":
        st.json.append(delta["partial_json"])


def _check_block_stop(st: _State, event: dict[str, Any], at: str) -> None:
    _check_open_index(st, event, at)
    st.flush()
    if st.block in CALL_BLOCKS and st.json:
        why = parse_object("".join(st.json))
        if isinstance(why, str):
            message = f"the input_json_delta chunks are not a JSON object ({why})"
            st.bad_input = Problem(at, "invalid_tool_input", message)
    st.block, st.json = None, []


def _check_message_delta(st: _State, event: dict[str, Any], at: str) -> None:
    delta, usage = event.get("delta"), event.get("usage")
    if type(delta) is not dict or "stop_reason" not in delta:
        st.add(f"{at}.delta", "malformed_event", "message_delta without delta.stop_reason")
    if type(usage) is not dict or type(usage.get("output_tokens")) is not int:
        st.add(f"{at}.usage", "malformed_event", "message_delta without usage.output_tokens")
    reason = delta.get("stop_reason") if type(delta) is dict else None
    if reason is not None and type(reason) is not str:
        st.add(f"{at}.delta.stop_reason", "malformed_event", "stop_reason is not a string")
        reason = None
    if reason in _CUT_SHORT:
        st.bad_input = None  # the output was cut: the last tool input may be truncated
    st.flush()
    if st.block is not None and reason not in _CUT_SHORT:
        st.add(at, "block_not_closed", f"message_delta ({reason}) while block {st.next_index - 1} is open")
    st.block = None


def _check_error(st: _State, event: dict[str, Any], at: str) -> None:
    error = event.get("error")
    if type(error) is not dict or not (_str(error.get("type")) and _str(error.get("message"))):
        st.add(f"{at}.error", "malformed_event", "error event without error.type and error.message")


_CHECKS: dict[str, Callable[[_State, dict[str, Any], str], None]] = {
    "message_start": _check_message_start,
    "content_block_start": _check_block_start,
    "content_block_delta": _check_block_delta,
    "content_block_stop": _check_block_stop,
    "message_delta": _check_message_delta,
    "message_stop": lambda st, event, at: None,
    "ping": lambda st, event, at: None,
    "error": _check_error,
}


def check_stream(events: Iterable[ParsedEvent]) -> list[Problem]:
    """Check one Anthropic stream (parsed SSE data, in order); the problems found (empty: valid)."""
    st = _State()
    count = 0
    for count, event in enumerate(events, 1):
        at = f"$[{count - 1}]"
        kind = event.get("type") if type(event) is dict else None
        if type(event) is not dict or not _str(kind):
            st.add(at, "malformed_event", "an event must be an object with a string type")
            continue
        assert type(event) is dict and type(kind) is str
        check = _CHECKS.get(kind)
        if check is None:
            st.add(at, "unknown_event", f"unknown event type {kind!r}")
            continue
        if st.state in _FINAL:
            st.add(at, "event_after_end", f"{kind} after the end of the stream")
            continue
        following = TRANSITIONS.get((st.state, kind))
        if following is None:
            st.add(at, "unexpected_event", f"{kind} not allowed in state {st.state!r}")
            continue
        check(st, event, at)
        st.state = following
    st.flush()
    if st.state not in _FINAL:
        st.add(f"$[{count}]", "missing_terminal", "the stream ended without message_stop or error")
    return st.problems
