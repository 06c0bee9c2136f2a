"""The steps of :class:`~toolwire._partial_parser.PartialParser`, one per parser state.

:class:`ParserSteps` holds what the steps read and change (the open containers, their keys, the
state, the open string, the work counts); each step reads the text from a position and says where
it stopped. :class:`~toolwire._partial_parser.PartialParser` builds on it: the pieces fed, the
fast path over whole items, the provisional leaf and the reference it switches to on failure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._partial_lex import (
    ESCAPE_TAIL,
    LITERAL,
    LITERAL_PREFIXES,
    LITERALS,
    NUMBER,
    NUMBER_CHARS,
    NUMBER_PREFIX,
    balanced,
    complete_items,
    loads,
    number,
    scanstring,
    skip_ws,
    string_body,
)

__all__ = [
    "AFTER",
    "COLON",
    "DEFER",
    "END",
    "FIRST_ITEM",
    "FIRST_KEY",
    "KEY",
    "MAX_OPEN",
    "STRING",
    "VALUE",
    "ParserSteps",
]

MAX_OPEN = 256
"""Most containers open at once before the parser hands over to ``parse_partial``."""

DEFER = 512
"""Longest unfinished item (inside an open container) shown by :func:`tail_value` rather than
opened: it is read again with each piece until it completes, then decoded in one C call."""

# Parser states: what the text at the current position must be.
VALUE, FIRST_ITEM, FIRST_KEY, KEY, COLON, AFTER, STRING, END = range(8)
_Step = Callable[["ParserSteps", str, int], int]
"""A step reads the text from a position and returns where it stopped: ``>= 0`` when it
consumed a token, ``~pos`` (negative) when the token at ``pos`` is still arriving."""


class ParserSteps:
    """The tokenizing half of :class:`~toolwire._partial_parser.PartialParser`: its state and steps."""

    __slots__ = (
        "_buf",
        "_defer",
        "_failed",
        "_keys",
        "_open",
        "_root",
        "_stack",
        "_state",
        "_string_is_key",
        "rescanned",
        "scanned",
    )

    def __init__(self) -> None:
        self._buf = ""  # unparsed text, from the start of the current unfinished token
        self._stack: list[dict[str, Any] | list[Any]] = []  # open containers, outermost first
        self._keys: list[str] = []  # the key being filled in each open object (parallel to _stack)
        self._root: Any = None
        self._state = VALUE
        self._open = ""  # decoded text of the open string
        self._string_is_key = False
        self._failed = False
        self._defer = True  # may keep a short unfinished container item as text (DEFER)
        self.scanned = 0
        """Characters parsed into the value so far: the parser's work, for complexity tests."""
        self.rescanned = 0
        """Characters of unfinished items read again to show them (at most :data:`DEFER` a piece)."""

    def _parse(self, buf: str) -> None:
        pos, end, steps = 0, len(buf), _STEPS
        while 0 <= pos < end:
            pos = steps[self._state](self, buf, pos)
        self._buf = "" if pos >= end else buf[~pos:]

    # -- steps: one per state, see _Step --------------------------------------------------

    def _fail(self, pos: int) -> int:
        self._failed = True
        return ~pos

    def _add(self, value: Any) -> None:
        """A complete value: into its container, or the root."""
        if not self._stack:
            self._root = value
            self._state = END
            return
        top = self._stack[-1]
        if isinstance(top, dict):
            top[self._keys[-1]] = value
        else:
            top.append(value)
        self._state = AFTER

    def _step_value(self, buf: str, pos: int) -> int:
        pos = skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        char = buf[pos]
        if self._state == FIRST_ITEM and char == "]":
            return self._close(buf, pos)
        if self._stack and type(self._stack[-1]) is list and (end := self._run(buf, pos, True)) != pos:
            return end
        return _VALUE_STARTS.get(char, ParserSteps._start_scalar)(self, buf, pos)

    def _start_string(self, buf: str, pos: int) -> int:
        self._string_is_key = self._state in (FIRST_KEY, KEY)
        if buf.find('"', pos + 1) >= 0:  # else surely unfinished: spare the exception
            try:
                text, end = scanstring(buf, pos + 1)
            except ValueError:
                pass  # unfinished (or malformed, which _step_string will find)
            else:
                self.scanned += end - pos
                return self._end_string(text, end)
        self._open = ""
        self._state = STRING
        return pos + 1

    def _start_container(self, buf: str, pos: int) -> int:
        top = self._stack[-1] if self._stack else None
        closer = max(buf.rfind("}"), buf.rfind("]")) + 1
        if type(top) is dict and closer > pos and balanced(buf, pos, closer):
            try:  # the value of a key, complete up to the last closing bracket
                value = loads(buf[pos:closer])
            except (ValueError, RecursionError):
                pass  # unfinished, or more follows (the steps will see it)
            else:
                self.scanned += closer - pos
                self._add(value)
                return closer
        if self._defer and top is not None and len(buf) - pos <= DEFER:
            self.rescanned += len(buf) - pos
            return ~pos  # unfinished: shown by tail_value until it completes
        self.scanned += 1
        if len(self._stack) >= MAX_OPEN:
            return self._fail(pos)
        container: dict[str, Any] | list[Any] = {} if buf[pos] == "{" else []
        self._add(container)
        self._stack.append(container)
        self._keys.append("")
        self._state = FIRST_KEY if buf[pos] == "{" else FIRST_ITEM
        return pos + 1

    def _start_scalar(self, buf: str, pos: int) -> int:
        literal = LITERAL.match(buf, pos)
        if literal is not None:
            self.scanned += literal.end() - pos
            self._add(LITERALS[literal.group()])
            return literal.end()
        found = NUMBER.match(buf, pos)
        if found is not None and found.end() < len(buf) and buf[found.end()] not in NUMBER_CHARS:
            self.scanned += found.end() - pos
            shown, value = number(found.group(), found)
            if not shown:
                return self._fail(pos)
            self._add(value)
            return found.end()
        rest = buf[pos:]
        self.scanned += len(rest)
        if rest in LITERAL_PREFIXES or NUMBER_PREFIX.fullmatch(rest):
            return ~pos  # still arriving: keep it in the buffer
        return self._fail(pos)

    def _step_key(self, buf: str, pos: int) -> int:
        pos = skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        char = buf[pos]
        if self._state == FIRST_KEY:
            if char == "}":
                return self._close(buf, pos)
            if (end := self._run(buf, pos, True)) != pos:
                return end
        if char != '"':
            return self._fail(pos)
        return self._start_string(buf, pos)

    def _step_colon(self, buf: str, pos: int) -> int:
        pos = skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        if buf[pos] != ":":
            return self._fail(pos)
        self._state = VALUE
        return pos + 1

    def _run(self, buf: str, pos: int, first: bool) -> int:
        """Past a run of complete items of the open container (see ``complete_items``), or ``pos``."""
        top = self._stack[-1]
        start = pos
        if not first:
            start = skip_ws(buf, pos).end()
            if buf[start : start + 1] != ",":
                return pos
            start += 1
        items, end = complete_items(buf, start, type(top))
        if items is None:
            return pos
        self.scanned += end - pos
        if isinstance(top, dict):
            top.update(items)
        else:
            top.extend(items)
        self._state = AFTER
        return end

    def _step_after(self, buf: str, pos: int) -> int:
        pos = self._run(buf, pos, False)
        pos = skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        char = buf[pos]
        if char == ",":
            self._state = KEY if isinstance(self._stack[-1], dict) else VALUE
            return pos + 1
        return self._close(buf, pos)

    def _step_end(self, buf: str, pos: int) -> int:
        pos = skip_ws(buf, pos).end()
        return ~pos if pos == len(buf) else self._fail(pos)

    def _close(self, buf: str, pos: int) -> int:
        if buf[pos] != ("}" if isinstance(self._stack[-1], dict) else "]"):
            return self._fail(pos)
        self._stack.pop()
        self._keys.pop()
        self._state = AFTER if self._stack else END
        return pos + 1

    def _step_string(self, buf: str, pos: int) -> int:
        end = string_body(buf, pos).end()
        self.scanned += end - pos
        if end > pos:
            piece = buf[pos:end]
            # the only reference left is ours, so CPython grows the string in place, and
            # following a long string costs O(its length), not O(length x pieces)
            text, self._open = self._open, ""
            text += loads('"' + piece + '"') if "\\" in piece else piece
            self._open = text
        if end == len(buf):
            return end
        if buf[end] == '"':
            text, self._open = self._open, ""
            return self._end_string(text, end + 1)
        if buf[end] == "\\" and ESCAPE_TAIL.fullmatch(buf, end):
            return ~end  # an escape still arriving: keep it in the buffer
        return self._fail(end)  # a control character or a bad escape

    def _end_string(self, text: str, pos: int) -> int:
        if not self._string_is_key:
            self._add(text)
            return pos
        top = self._stack[-1]
        if text in top:  # a duplicate key: parse_partial's answer depends on the order of values
            return self._fail(pos)
        self._keys[-1] = text
        self._state = COLON
        return pos


_VALUE_STARTS: dict[str, _Step] = {
    '"': ParserSteps._start_string,
    "{": ParserSteps._start_container,
    "[": ParserSteps._start_container,
}
"""First character of a value -> its step (anything else is a number or a literal)."""

_STEPS: dict[int, _Step] = {
    VALUE: ParserSteps._step_value,
    FIRST_ITEM: ParserSteps._step_value,
    FIRST_KEY: ParserSteps._step_key,
    KEY: ParserSteps._step_key,
    COLON: ParserSteps._step_colon,
    AFTER: ParserSteps._step_after,
    STRING: ParserSteps._step_string,
    END: ParserSteps._step_end,
}
"""Parser state -> the step that reads the text at the current position."""
