"""Incremental :func:`~toolwire.partial_json.parse_partial`: a stream of argument text in linear time.

:class:`PartialParser` is fed the text of one tool call's arguments piece by piece and gives,
after any piece, exactly ``parse_partial(text_so_far)``. It never re-reads what it has parsed:

- **A stack of open containers.** Each open ``{`` or ``[`` is a real ``dict``/``list``, attached
  to its parent the moment it opens (``parse_partial('{"a": [')`` shows ``{"a": []}``).
  Completed members are stored in it once and never built again (structural sharing).
- **One provisional leaf.** The unfinished string or number at the end of the text is the only
  thing rebuilt by :meth:`PartialParser.value`; it is put into its container and taken out
  again before the next piece is parsed.
- **C where it counts.** A value that is complete in the new text is parsed by the C scanner of
  :mod:`json` (the one ``parse_partial`` uses, so ``NaN``, lone surrogates and big numbers come
  out the same); the body of a long string is found with one regular expression per piece.
- **Exact or not at all.** The parser follows the strict grammar of :func:`json.loads`. Any text
  that is not a prefix of a valid document (malformed JSON), a duplicate key, an integer too long
  for ``int()``, or nesting deeper than :data:`MAX_OPEN` switches it to the reference: from then on
  :meth:`~PartialParser.value` is ``parse_partial(text)`` of the whole text (quadratic again, but
  the same answer, the same ``None`` for hopeless text, and the same ``RecursionError`` that
  ``json.loads`` raises for nesting deeper than Python's recursion limit).

What ``parse_partial`` shows of an unfinished tail, and so what this parser shows:

=================================  ==========================================================
tail of the text                   shown
=================================  ==========================================================
``{"a": "Par``                     the string so far: ``{"a": "Par"}``
``"x\\``, ``"x\\u00``               the string without the unfinished escape
``"\\ud83d``, ``"\\ud83d\\ud``       the string without a high surrogate that may yet pair
``{"a": 12`` / ``12.`` / ``1e``    ``12`` as far as it is a number: ``{"a": 12}`` / ``{}``
``{"a": tr``, ``{"a": -``          nothing: ``{}`` (a literal or sign alone is not a value)
``{"a"`` / ``{"a":`` / ``{"a``     nothing: a key shows only once its value has started
=================================  ==========================================================
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import msgspec

from toolwire.partial_json import _STRICT, parse_partial

__all__ = ["MAX_OPEN", "PartialParser"]

MAX_OPEN = 256
"""Most containers open at once before the parser hands over to ``parse_partial``."""

_Match = Callable[..., "re.Match[str]"]
_skip_ws: _Match = re.compile(r"[ \t\n\r]*").match  # type: ignore[assignment]  # `*`: always matches
_SCAN: Callable[[str, int], tuple[Any, int]] = _STRICT.scan_once  # type: ignore[attr-defined]
"""The C scanner behind ``json.loads``: the value at a position and where it ends."""
scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
_string_body: _Match = re.compile(  # type: ignore[assignment]  # `*`: always matches
    r"""(?:[^"\\\x00-\x1f]+|\\["\\/bfnrt]|\\u(?![dD][89abAB])[0-9a-fA-F]{4}
    |\\u[dD][89abAB][0-9a-fA-F]{2}(?:\\u[dD][c-fC-F][0-9a-fA-F]{2}
    |(?=[^\\]|\\[^ubf]|\\[bf](?![0-9a-fA-F]{0,2}\\?\Z)|\\u[0-9a-fA-F]{4})))*""",
    re.VERBOSE,
).match
"""The longest run of string content that decodes the same whatever follows: it stops before the
closing quote, a control character, an unfinished escape, and a high surrogate (``\\ud83d``)
whose next six characters, which may pair with it, have not arrived. Like ``parse_partial``
(whose pattern reads ``\\b`` and ``\\f`` as a ``\\u`` cut short), it also holds back a high
surrogate followed by ``\\b`` or ``\\f``, at most two hex digits and maybe a lone ``\\`` at the end."""
_ESCAPE_TAIL = re.compile(
    r"(?:\\u[dD][89abAB][0-9a-fA-F]{2})?(?:\\(?:u[0-9a-fA-F]{0,3})?)?"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\[bf][0-9a-fA-F]{0,2}\\?"
)
"""What may be left at the end of an open string's text: an escape still arriving."""
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
_NUMBER_CHARS = frozenset("0123456789.eE+-")
"""A number followed by one of these is still arriving (or malformed): it is not complete yet."""
_NUMBER_PREFIX = re.compile(r"-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*|\.[0-9]+[eE][-+]?[0-9]*|[eE][-+]?[0-9]*)?)?")
_LITERALS = {"true": True, "false": False, "null": None}
_LITERAL_PREFIXES = frozenset(word[:n] for word in _LITERALS for n in range(1, len(word)))
_LITERAL = re.compile("|".join(sorted(map(re.escape, _LITERALS), key=len, reverse=True)))

_W = r"[ \t\n\r]*+"
_S = r'"[^"\\\x00-\x1f]*+(?:\\.[^"\\\x00-\x1f]*+)*+"'
_ATOM = rf"(?:{_S}|-?[0-9][0-9.eE+-]*+|true|false|null)"


def _nested(depth: int) -> str:
    """A loose pattern for a complete value nested at most ``depth`` deep (validated by decoding)."""
    value = _ATOM
    for _ in range(depth):
        items = rf"(?:{value}(?:{_W},{_W}{value})*+{_W})?"
        members = rf"(?:{_S}{_W}:{_W}{value}(?:{_W},{_W}{_S}{_W}:{_W}{value})*+{_W})?"
        value = rf"(?>{_ATOM}|\[{_W}{items}\]|\{{{_W}{members}\}})"
    return value


_VALUE = _nested(3)
_MEMBER = rf"{_S}{_W}:{_W}{_VALUE}"
_DONE = r"(?={_W}[,\]}}]|(?<![0-9])\Z)".replace("{_W}", _W)
"""After a run: its last item is complete (a number at the very end may still grow)."""
_RUNS = {
    (list, False): re.compile(rf"(?:{_W},{_W}{_VALUE})+{_DONE}"),
    (list, True): re.compile(rf"{_W}{_VALUE}(?:{_W},{_W}{_VALUE})*{_DONE}"),
    (dict, False): re.compile(rf"(?:{_W},{_W}{_MEMBER})+{_DONE}"),
    (dict, True): re.compile(rf"{_W}{_MEMBER}(?:{_W},{_W}{_MEMBER})*{_DONE}"),
}
"""(container type, first item?) -> a run of complete items, each nested at most three deep.
The patterns are loose (any bracket closes, any run of number characters is a number): the run
is decoded in one call by :func:`_loads`, which is strict, and the steps take over if it fails."""
_decode: Callable[[str], Any] = msgspec.json.Decoder().decode


def _loads(text: str) -> Any:
    """``json.loads(text)`` without ``NaN``/``Infinity``: msgspec (C), or ``json`` where it refuses
    what ``json`` takes (a lone surrogate escape, a float beyond the double range)."""
    try:
        return _decode(text)
    except ValueError:
        return _STRICT.decode(text)


_BRACKETS = {list: "[]", dict: "{}"}
_CLOSER = {"[": "]", "{": "}"}

# Parser states: what the text at the current position must be.
_VALUE, _FIRST_ITEM, _FIRST_KEY, _KEY, _COLON, _AFTER, _STRING, _END = range(8)
_Step = Callable[["PartialParser", str, int], int]
"""A step reads the text from a position and returns where it stopped: ``>= 0`` when it
consumed a token, ``~pos`` (negative) when the token at ``pos`` is still arriving."""


class PartialParser:
    """``parse_partial`` of a growing text, one piece at a time, in time linear in the text.

    The value returned by :meth:`value` is the parser's own, updated in place by later pieces:
    read it, don't change it (``copy.deepcopy`` it to keep a snapshot).

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
        self.scanned = 0
        """Characters handed to the scanners so far: the parser's work, for complexity tests."""

    def feed(self, text: str) -> None:
        """Add the next piece of the text (parsed lazily, by the next :meth:`value`)."""
        if text:
            self._chunks.append(text)

    def text(self) -> str:
        """The whole text fed so far."""
        chunks = self._chunks
        if len(chunks) > 1 and self._done in (0, len(chunks)):
            chunks[:] = ["".join(chunks)]
            self._done = min(self._done, 1)
        return chunks[0] if len(chunks) == 1 else "".join(chunks)

    def value(self) -> Any:
        """``parse_partial(self.text())``, rebuilding only what the new text changed."""
        if self._done == len(self._chunks):
            return self._reference if self._failed else self._root
        if not self._failed:
            new = "".join(self._chunks[self._done :])
            self._done = len(self._chunks)
            self._drop_leaf()
            self._parse(self._buf + new)
        if self._failed:
            self._done = len(self._chunks)
            self._reference = parse_partial(self.text())
            return self._reference
        self._put_leaf()
        return self._root

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
        if self._state not in (_VALUE, _FIRST_ITEM):
            return False, None
        word = self._buf[_skip_ws(self._buf).end() :]
        match = _NUMBER.fullmatch(word)
        if match is None:
            return False, None
        return _number(word, match)

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
        pos = _skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        char = buf[pos]
        if self._state == _FIRST_ITEM:
            if char == "]":
                return self._close(buf, pos)
            if (end := self._run(buf, pos, True)) != pos:
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
        # no closing bracket ahead: surely unfinished, and a failed scan costs an exception
        if buf.find(_CLOSER[buf[pos]], pos) >= 0:
            try:
                value, end = _SCAN(buf, pos)
            except (StopIteration, ValueError, RecursionError):
                pass  # unfinished (or malformed, which the steps inside will find)
            else:
                self.scanned += end - pos
                self._add(value)
                return end
        self.scanned += len(buf) - pos
        if len(self._stack) >= MAX_OPEN:
            return self._fail(pos)
        container: dict[str, Any] | list[Any] = {} if buf[pos] == "{" else []
        self._add(container)
        self._stack.append(container)
        self._keys.append("")
        self._state = _FIRST_KEY if buf[pos] == "{" else _FIRST_ITEM
        return pos + 1

    def _start_scalar(self, buf: str, pos: int) -> int:
        literal = _LITERAL.match(buf, pos)
        if literal is not None:
            self.scanned += literal.end() - pos
            self._add(_LITERALS[literal.group()])
            return literal.end()
        number = _NUMBER.match(buf, pos)
        if number is not None and number.end() < len(buf) and buf[number.end()] not in _NUMBER_CHARS:
            self.scanned += number.end() - pos
            shown, value = _number(number.group(), number)
            if not shown:
                return self._fail(pos)
            self._add(value)
            return number.end()
        rest = buf[pos:]
        self.scanned += len(rest)
        if rest in _LITERAL_PREFIXES or _NUMBER_PREFIX.fullmatch(rest):
            return ~pos  # still arriving: keep it in the buffer
        return self._fail(pos)

    def _step_key(self, buf: str, pos: int) -> int:
        pos = _skip_ws(buf, pos).end()
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
        pos = _skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        if buf[pos] != ":":
            return self._fail(pos)
        self._state = _VALUE
        return pos + 1

    def _run(self, buf: str, pos: int, first: bool) -> int:
        """Past a run of flat items of the open container (see ``_RUNS``), or ``pos``."""
        top = self._stack[-1]
        run = _RUNS[type(top), first].match(buf, pos)
        if run is None:
            return pos
        text = run.group() if first else run.group().lstrip(" \t\n\r")[1:]
        brackets = _BRACKETS[type(top)]
        try:
            items = _loads(brackets[0] + text + brackets[1])
        except ValueError:  # malformed, or an int too long for int(): the steps will see it
            return pos
        self.scanned += run.end() - pos
        if isinstance(top, dict):
            top.update(items)
        else:
            top.extend(items)
        self._state = _AFTER
        return run.end()

    def _step_after(self, buf: str, pos: int) -> int:
        pos = self._run(buf, pos, False)
        pos = _skip_ws(buf, pos).end()
        if pos == len(buf):
            return ~pos
        self.scanned += 1
        char = buf[pos]
        if char == ",":
            self._state = _KEY if isinstance(self._stack[-1], dict) else _VALUE
            return pos + 1
        return self._close(buf, pos)

    def _step_end(self, buf: str, pos: int) -> int:
        pos = _skip_ws(buf, pos).end()
        return ~pos if pos == len(buf) else self._fail(pos)

    def _close(self, buf: str, pos: int) -> int:
        if buf[pos] != ("}" if isinstance(self._stack[-1], dict) else "]"):
            return self._fail(pos)
        self._stack.pop()
        self._keys.pop()
        self._state = _AFTER if self._stack else _END
        return pos + 1

    def _step_string(self, buf: str, pos: int) -> int:
        end = _string_body(buf, pos).end()
        self.scanned += end - pos
        if end > pos:
            piece = buf[pos:end]
            # the only reference left is ours, so CPython grows the string in place, and
            # following a long string costs O(its length), not O(length x pieces)
            text, self._open = self._open, ""
            text += scanstring(piece + '"', 0)[0] if "\\" in piece else piece
            self._open = text
        if end == len(buf):
            return end
        if buf[end] == '"':
            text, self._open = self._open, ""
            return self._end_string(text, end + 1)
        if buf[end] == "\\" and _ESCAPE_TAIL.fullmatch(buf, end):
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


def _number(word: str, match: re.Match[str]) -> tuple[bool, Any]:
    """The value of a number token, as ``json.loads`` gives it; ``False`` if ``int()`` refuses it."""
    if match.group(1) is None and match.group(2) is None:
        try:
            return True, int(word)
        except ValueError:  # more digits than sys.get_int_max_str_digits()
            return False, None
    return True, float(word)


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
