"""Incremental :func:`~toolwire.partial_json.parse_partial`: a stream of argument text in linear time.

:class:`PartialParser` is fed the text of one tool call's arguments piece by piece and gives,
after any piece, exactly ``parse_partial(text_so_far)``. It never re-reads what it has parsed:

- **A stack of open containers.** An open ``{`` or ``[`` is a real ``dict``/``list``, attached
  to its parent (``parse_partial('{"a": [')`` shows ``{"a": []}``). Completed members are stored
  in it once and never built again (structural sharing).
- **One provisional leaf.** The unfinished item at the end of the text is the only thing rebuilt
  by :meth:`PartialParser.value`; it is put into its container and taken out again before the
  next piece is parsed. A short unfinished item inside a container (up to :data:`DEFER`
  characters: a record, a number, a member) is kept as text and shown by
  :func:`~toolwire._partial_lex.tail_value`; once it completes it is decoded in one call.
- **C where it counts** (per character, Python's ``re`` is slow; ``str.rfind``/``count`` and
  msgspec are not). Complete items are found by cutting the new text at its last comma or closing
  bracket and decoding the run in one msgspec call (``complete_items``: it decodes only if the cut
  is at the container's depth). A long open string grows by decoding each piece as ``"piece"``
  with msgspec and appending it in place.
- **Exact or not at all.** The parser follows strict JSON (RFC 8259: no ``NaN``/``Infinity``,
  like ``parse_partial``). Any text that is not a prefix of a valid document (malformed JSON), a
  duplicate key, an integer too long for ``int()``, or nesting deeper than :data:`MAX_OPEN`
  switches it to the reference: from then on :meth:`~PartialParser.value` is
  ``parse_partial(text)`` of the whole text (quadratic again, but the same answer, the same
  ``None`` for hopeless text, and the same ``RecursionError`` that ``json.loads`` raises for
  nesting deeper than Python's recursion limit). Valid text never takes that path (tested).

What it shows of an unfinished tail is tabled in :mod:`toolwire._partial_lex`; the steps, one per
parser state, are :class:`~toolwire._partial_steps.ParserSteps`, which it builds on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._partial_lex import (
    HIDDEN,
    NUMBER,
    loads,
    number,
    skip_ws,
    string_piece,
    tail_member,
    tail_value,
)
from toolwire._partial_steps import AFTER as _AFTER
from toolwire._partial_steps import DEFER, MAX_OPEN, ParserSteps
from toolwire._partial_steps import END as _END
from toolwire._partial_steps import FIRST_ITEM as _FIRST_ITEM
from toolwire._partial_steps import FIRST_KEY as _FIRST_KEY
from toolwire._partial_steps import KEY as _KEY
from toolwire._partial_steps import STRING as _STRING
from toolwire._partial_steps import VALUE as _VALUE
from toolwire.partial_json import parse_partial

__all__ = ["MAX_OPEN", "PartialParser"]

SLICE = 2048
"""Longest text parsed in one go: a longer one (many pieces fed between two :meth:`~PartialParser.value`
calls, or one big piece) is parsed a slice at a time. The bulk decodes look ahead to the last
bracket of the text they are given, so a slice bounds each look-ahead and keeps the whole
linear in the text however it was fed."""

_CLOSERS = ("}", "]")
_FAST_STATES = {list: (_VALUE, _FIRST_ITEM), dict: (_KEY, _FIRST_KEY)}
"""Container type -> the states before an item, where :meth:`PartialParser._run_fast` starts."""


class PartialParser(ParserSteps):
    """``parse_partial`` of a growing text, one piece at a time, in time linear in the text.

    The value returned by :meth:`value` is the parser's own, updated in place by later pieces:
    read it, don't change it (``copy.deepcopy`` it to keep a snapshot). The root and every complete
    value stay the same objects; the unfinished item at the end is a new object at each call.

    Example:
        >>> parser = PartialParser()
        >>> parser.feed('{"city": "Par')
        >>> parser.value()
        {'city': 'Par'}
        >>> parser.feed('is", "days": 3}')
        >>> parser.value()
        {'city': 'Paris', 'days': 3}
    """

    __slots__ = ("_chunks", "_done", "_leaf", "_reference")

    def __init__(self) -> None:
        super().__init__()
        self._chunks: list[str] = []  # every piece fed, for text() and the reference
        self._done = 0  # how many of _chunks are parsed
        self._leaf = False  # a provisional leaf is in its container (or is the root)
        self._reference: Any = None

    def feed(self, text: str) -> None:
        """Add the next piece of the text (parsed lazily, by the next :meth:`value`)."""
        if text:
            self._chunks.append(text)

    @property
    def feed_raw(self) -> Callable[[str], None]:
        """:meth:`feed` without its check, for a caller's hot loop: the bound ``append`` of the
        piece list (it stays valid: :meth:`text` joins the pieces in place). Never pass ``""``."""
        return self._chunks.append

    def text(self) -> str:
        """The whole text fed so far."""
        chunks = self._chunks
        if len(chunks) > 1 and self._done in (0, len(chunks)):
            chunks[:] = ["".join(chunks)]
            self._done = min(self._done, 1)
        return chunks[0] if len(chunks) == 1 else "".join(chunks)

    def value(self) -> Any:
        """``parse_partial(self.text())``, rebuilding only what the new text changed."""
        chunks, done = self._chunks, self._done
        if done == len(chunks):
            return self._reference if self._failed else self._root
        pending = chunks[-1] if done == len(chunks) - 1 else "".join(chunks[done:])
        self._done = len(chunks)
        if not done and self._whole(pending):
            return self._root
        if self._leaf and self._state == _STRING and self._grow(self._buf + pending):
            return self._root
        if not self._failed:
            self._drop_leaf()
            self._parse_slices(pending)
            if not self._failed:
                self._put_leaf()
        if self._failed:
            self._reference = parse_partial(self.text())
            return self._reference
        return self._root

    def _whole(self, text: str) -> bool:
        """The first read is of a whole document (a view read once, at the end of its stream):
        decoded in one C call. Tried only when the text ends with a closing bracket."""
        if text.rstrip()[-1:] not in _CLOSERS:
            return False
        try:
            value = loads(text)
        except (ValueError, RecursionError):
            return False  # unfinished, malformed or too deep: the slices will say which
        self._root, self._state = value, _END
        self.scanned += len(text)
        return True

    def _parse_slices(self, pending: str) -> None:
        """Parse ``pending`` a :data:`SLICE` at a time (inside an open string, one C decode a slice
        while the slice holds no closing quote)."""
        for start in range(0, len(pending), SLICE):
            buf = self._buf + pending[start : start + SLICE]
            if self._state == _STRING and self._extend(buf):
                continue
            if not self._run_fast(buf):
                self._parse(buf)
            if self._failed:
                return

    def _grow(self, new: str) -> bool:
        """The fast path of a long string shown as the leaf: ``new`` (with an escape held back from
        the last piece) only adds to the open string.

        The string is taken out of its container while it grows, so that CPython extends it in
        place: a long string costs its length, not its length times the pieces.
        """
        self._set_leaf("")
        grown = self._extend(new)
        self._set_leaf(self._open)
        return grown

    def _extend(self, new: str) -> bool:
        """Add ``new`` to the open string if :func:`~toolwire._partial_lex.string_piece` decodes it
        (no closing quote, control character or bad escape in it), in place: ``self._open`` holds
        the only reference while it grows."""
        grown = string_piece(new)
        if grown is None:
            return False
        piece, self._buf = grown
        self.scanned += len(new) - len(self._buf)
        text, self._open = self._open, ""
        text += piece
        self._open = text
        return True

    def _set_leaf(self, value: Any) -> None:
        if not self._stack:
            self._root = value
        elif isinstance(top := self._stack[-1], dict):
            top[self._keys[-1]] = value
        else:
            top[-1] = value

    def _run_fast(self, buf: str) -> bool:
        """The common piece inside a container: complete items, then at most one unfinished item.

        The items are decoded in one C call (``complete_items``); the unfinished one is kept as text
        and shown by the leaf (``tail_value``). Anything else is left to the steps (``False``).
        """
        if not self._stack:
            return False
        top, state = self._stack[-1], self._state
        if state != _AFTER and state not in _FAST_STATES[type(top)]:
            return False
        end = self._run(buf, 0, state != _AFTER)
        if end == 0:  # no item completes: the piece goes on with the unfinished one
            start = skip_ws(buf).end()
            if state == _AFTER:
                if buf[start : start + 1] != ",":
                    return False
                start = skip_ws(buf, start + 1).end()
            if not start < len(buf) <= start + DEFER:
                return False
            self._buf = buf[start:]
            if state == _AFTER:
                self._state = _KEY if isinstance(top, dict) else _VALUE
            return True
        rest = skip_ws(buf, end).end()
        if rest < len(buf) and buf[rest] == ",":
            rest = skip_ws(buf, rest + 1).end()
            if len(buf) - rest <= DEFER:  # tail_value leaves anything but one item to the steps
                self._buf = buf[rest:]
                self._state = _KEY if isinstance(top, dict) else _VALUE
                return True
        self._parse(buf[end:])
        return True

    # -- the provisional leaf: the unfinished string or number at the end ---------------------

    def _leaf_value(self) -> tuple[bool, Any]:
        if self._state == _STRING:
            if self._string_is_key:
                return False, None
            return True, self._open
        word = self._buf[skip_ws(self._buf).end() :]
        if not word:
            return False, None
        if self._state in (_VALUE, _FIRST_ITEM):
            return self._tail_leaf(word, tail_value(word, 0))
        if self._state in (_KEY, _FIRST_KEY):
            member = tail_member(word, 0)
            if member is None or member is HIDDEN or member[0] in self._stack[-1]:
                return self._tail_leaf(word, None if member is not HIDDEN else (HIDDEN,))
            self._keys[-1] = member[0]
            return True, member[1]
        return False, None

    def _tail_leaf(self, word: str, shown: Any) -> tuple[bool, Any]:
        """An unfinished item kept as text (see :data:`DEFER`), or parsed by the steps if unusual."""
        self.rescanned += len(word)
        if shown is not None:
            return shown[0] is not HIDDEN, shown[0]
        if not self._defer:  # the steps kept it too: a number or literal still arriving
            match = NUMBER.fullmatch(word)
            return (False, None) if match is None else number(word, match)
        self._defer = False
        self._parse(self._buf)
        after: tuple[bool, Any] = (False, None) if self._failed else self._leaf_value()
        self._defer = True
        return after

    def _put_leaf(self) -> None:
        shown, value = self._leaf_value()
        if not shown:
            return
        self._leaf = True
        if not self._stack:
            self._root = value
        elif isinstance(top := self._stack[-1], dict):
            top[self._keys[-1]] = value
        else:
            top.append(value)

    def _drop_leaf(self) -> None:
        if not self._leaf:
            return
        self._leaf = False
        if not self._stack:
            self._root = None
        elif isinstance(top := self._stack[-1], dict):
            del top[self._keys[-1]]
        else:
            top.pop()
