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

What it shows of an unfinished tail is tabled in :mod:`toolwire._partial_lex`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire._partial_lex import (
    ESCAPE_TAIL,
    HIDDEN,
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
    string_piece,
    tail_member,
    tail_value,
)
from toolwire.partial_json import parse_partial

__all__ = ["MAX_OPEN", "PartialParser"]

MAX_OPEN = 256
"""Most containers open at once before the parser hands over to ``parse_partial``."""

DEFER = 512
"""Longest unfinished item (inside an open container) shown by :func:`tail_value` rather than
opened: it is read again with each piece until it completes, then decoded in one C call."""

SLICE = 2048
"""Longest text parsed in one go: a longer one (many pieces fed between two :meth:`~PartialParser.value`
calls, or one big piece) is parsed a slice at a time. The bulk decodes look ahead to the last
bracket of the text they are given, so a slice bounds each look-ahead and keeps the whole
linear in the text however it was fed."""

# Parser states: what the text at the current position must be.
_VALUE, _FIRST_ITEM, _FIRST_KEY, _KEY, _COLON, _AFTER, _STRING, _END = range(8)
_CLOSERS = ("}", "]")
_FAST_STATES = {list: (_VALUE, _FIRST_ITEM), dict: (_KEY, _FIRST_KEY)}
"""Container type -> the states before an item, where :meth:`PartialParser._run_fast` starts."""
_Step = Callable[["PartialParser", str, int], int]
"""A step reads the text from a position and returns where it stopped: ``>= 0`` when it
consumed a token, ``~pos`` (negative) when the token at ``pos`` is still arriving."""


class PartialParser:
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

    __slots__ = (
        "_buf",
        "_chunks",
        "_defer",
        "_done",
        "_failed",
        "_keys",
        "_leaf",
        "_open",
        "_reference",
        "_root",
        "_stack",
        "_state",
        "_string_is_key",
        "rescanned",
        "scanned",
    )

    def __init__(self) -> None:
        self._chunks: list[str] = []  # every piece fed, for text() and the reference
        self._done = 0  # how many of _chunks are parsed
        self._buf = ""  # unparsed text, from the start of the current unfinished token
        self._stack: list[dict[str, Any] | list[Any]] = []  # open containers, outermost first
        self._keys: list[str] = []  # the key being filled in each open object (parallel to _stack)
        self._root: Any = None
        self._state = _VALUE
        self._open = ""  # decoded text of the open string
        self._string_is_key = False
        self._leaf = False  # a provisional leaf is in its container (or is the root)
        self._failed = False
        self._reference: Any = None
        self._defer = True  # may keep a short unfinished container item as text (DEFER)
        self.scanned = 0
        """Characters parsed into the value so far: the parser's work, for complexity tests."""
        self.rescanned = 0
        """Characters of unfinished items read again to show them (at most :data:`DEFER` a piece)."""

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

    def _parse(self, buf: str) -> None:
        pos, end, steps = 0, len(buf), _STEPS
        while 0 <= pos < end:
            pos = steps[self._state](self, buf, pos)
        self._buf = "" if pos >= end else buf[~pos:]

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

    # -- steps: one per state, see _Step --------------------------------------------------

    def _fail(self, pos: int) -> int:
        self._failed = True
        return ~pos

    def _add(self, value: Any) -> None:
        """A complete value: into its container, or the root."""
        if not self._stack:
            self._root = value
            self._state = _END
            return
        top = self._stack[-1]
        if isinstance(top, dict):
            top[self._keys[-1]] = value
        else:
            top.append(value)
        self._state = _AFTER

    def _step_value(self, buf: str, pos: int) -> int:
        pos = skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        char = buf[pos]
        if self._state == _FIRST_ITEM and char == "]":
            return self._close(buf, pos)
        if self._stack and type(self._stack[-1]) is list and (end := self._run(buf, pos, True)) != pos:
            return end
        return _VALUE_STARTS.get(char, PartialParser._start_scalar)(self, buf, pos)

    def _start_string(self, buf: str, pos: int) -> int:
        self._string_is_key = self._state in (_FIRST_KEY, _KEY)
        if buf.find('"', pos + 1) >= 0:  # else surely unfinished: spare the exception
            try:
                text, end = scanstring(buf, pos + 1)
            except ValueError:
                pass  # unfinished (or malformed, which _step_string will find)
            else:
                self.scanned += end - pos
                return self._end_string(text, end)
        self._open = ""
        self._state = _STRING
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
        self._state = _FIRST_KEY if buf[pos] == "{" else _FIRST_ITEM
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
        if self._state == _FIRST_KEY:
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
        self._state = _VALUE
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
        self._state = _AFTER
        return end

    def _step_after(self, buf: str, pos: int) -> int:
        pos = self._run(buf, pos, False)
        pos = skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        char = buf[pos]
        if char == ",":
            self._state = _KEY if isinstance(self._stack[-1], dict) else _VALUE
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
        self._state = _AFTER if self._stack else _END
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
        self._state = _COLON
        return pos


_VALUE_STARTS: dict[str, _Step] = {
    '"': PartialParser._start_string,
    "{": PartialParser._start_container,
    "[": PartialParser._start_container,
}
"""First character of a value -> its step (anything else is a number or a literal)."""

_STEPS: dict[int, _Step] = {
    _VALUE: PartialParser._step_value,
    _FIRST_ITEM: PartialParser._step_value,
    _FIRST_KEY: PartialParser._step_key,
    _KEY: PartialParser._step_key,
    _COLON: PartialParser._step_colon,
    _AFTER: PartialParser._step_after,
    _STRING: PartialParser._step_string,
    _END: PartialParser._step_end,
}
"""Parser state -> the step that reads the text at the current position."""
