"""Whether streamed tool-call arguments make a complete JSON object, in bounded memory.

Stream codecs note a tool call whose arguments end as something other than a JSON object (a
stream cut short, a broken model). Holding every delta to parse the whole text at the end made a
stream's memory grow with its argument deltas (about 60 bytes per delta, 12 MiB for 100k), for
targets that otherwise pass the deltas straight through. :class:`ArgumentsCheck` holds the text
up to about :data:`HELD` characters and parses it exactly at the end, as before; past that it keeps
only the shape of the text (nesting depth, inside a string or not, a pending escape), so memory
stays flat however many deltas arrive. Beyond :data:`HELD` the check is structural: an object
whose strings and containers are all closed passes, a cut-off one fails (the case that happens);
malformed tokens inside a closed, longer-than-``HELD`` object are not looked at.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from toolwire._json import loads
from toolwire.errors import PayloadError

__all__ = ["HELD", "TRIM", "ArgumentsCheck", "object_problem"]

HELD = 1 << 16
"""Characters of argument text held for an exact check at the end (64 Ki)."""

TRIM = 64
"""Pieces between two :meth:`ArgumentsCheck.trim` calls (a power of two: owners test a counter
with ``& (TRIM - 1)``)."""

_Match = Callable[[str, int], "re.Match[str]"]
_ws: _Match = re.compile(r"[ \t\n\r]*").match  # type: ignore[assignment]  # `*`: always matches
_string_body: _Match = re.compile(r'[^"\\]*').match  # type: ignore[assignment]
_plain: _Match = re.compile(r'[^"{}\[\]]*').match  # type: ignore[assignment]


def object_problem(text: str) -> str | None:
    """``None`` when ``text`` is a JSON object (``""`` counts as ``{}``), else why it is not."""
    if not text:
        return None
    try:
        value = loads(text)
    except PayloadError as exc:
        return exc.message
    return None if type(value) is dict else "not a JSON object"


class _Shape:
    """The structure of a JSON text seen piece by piece: O(1) memory."""

    __slots__ = ("depth", "done", "escape", "in_string", "problem", "started")

    def __init__(self) -> None:
        self.depth = 0
        self.started = False
        self.in_string = False
        self.escape = False
        self.done = False
        self.problem: str | None = None

    def feed(self, text: str) -> None:
        end = len(text)
        pos = 0
        if self.escape and end:
            self.escape, pos = False, 1
        while pos < end and self.problem is None:
            pos = self._step(text, pos, end)

    def _step(self, text: str, pos: int, end: int) -> int:
        if self.done:
            if _ws(text, pos).end() < end:
                self.problem = "invalid JSON: extra data after the object"
            return end
        if not self.started:
            pos = _ws(text, pos).end()
            if pos < end:
                if text[pos] != "{":
                    self.problem = "not a JSON object"
                self.started, self.depth = True, 1
                pos += 1
            return pos
        if self.in_string:
            pos = _string_body(text, pos).end()
            if pos >= end:
                return end
            if text[pos] == "\\":
                if pos + 1 >= end:
                    self.escape = True
                return pos + 2
            self.in_string = False
            return pos + 1
        pos = _plain(text, pos).end()
        if pos < end:
            char = text[pos]
            if char == '"':
                self.in_string = True
            elif char in "{[":
                self.depth += 1
            else:
                self.depth -= 1
                self.done = self.depth == 0
            pos += 1
        return pos

    def verdict(self) -> str | None:
        if self.problem is not None:
            return self.problem
        if self.in_string or self.escape:
            return "invalid JSON: unterminated string"
        if self.started and not self.done:
            return f"invalid JSON: {self.depth} unclosed object(s) or array(s)"
        return None


class ArgumentsCheck(list[str]):
    """Argument text of one tool call: a list of its pieces (``append`` is the list's own, so a
    hot path pays nothing more), which its owner calls :meth:`trim` on every few pieces.

    Example:
        >>> check = ArgumentsCheck()
        >>> for piece in ('{"city": ', '"Par'):
        ...     check.append(piece)
        >>> check.problem()
        'invalid JSON: Input data was truncated'
    """

    __slots__ = ("_shape",)

    def __init__(self) -> None:
        super().__init__()
        self._shape: _Shape | None = None

    def trim(self) -> None:
        """Join the pieces into one string, or, past :data:`HELD` characters, stop holding
        them: from then on only the shape of the text is kept (call every ``TRIM`` pieces or so;
        memory is bounded by :data:`HELD` plus what comes between two calls)."""
        shape = self._shape
        if shape is None:
            joined = "".join(self)
            if len(joined) <= HELD:
                self[:] = [joined]
                return
            shape = self._shape = _Shape()
            self[:] = [joined]
        for piece in self:
            shape.feed(piece)
        self.clear()

    def text(self) -> str | None:
        """The whole text so far, or ``None`` once it grew past :data:`HELD` (no longer held)."""
        return "".join(self) if self._shape is None else None

    def problem(self) -> str | None:
        """``None`` when the text is a JSON object or empty, else why it is not (exact up to
        :data:`HELD` characters, structural beyond)."""
        if self._shape is None:
            return object_problem("".join(self))
        self.trim()
        return self._shape.verdict()
