"""The lexical side of :mod:`toolwire._partial_parser`: patterns, C decoders, and the unfinished tail.

Everything here runs in C but the loop of :func:`tail_value`, which sees one short text per call.

What ``parse_partial`` shows of an unfinished tail, and so what the parser shows:

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

from toolwire.partial_json import _STRICT

__all__ = ["HIDDEN", "string_piece", "tail_member", "tail_value"]  # and the tables the parser shares

_Match = Callable[..., "re.Match[str]"]
skip_ws: _Match = re.compile(r"[ \t\n\r]*").match  # type: ignore[assignment]  # `*`: always matches
SCAN: Callable[[str, int], tuple[Any, int]] = _STRICT.scan_once  # type: ignore[attr-defined]
"""The C scanner behind ``json.loads``: the value at a position and where it ends."""
scanstring: Callable[[str, int], tuple[str, int]] = json.decoder.scanstring  # type: ignore[attr-defined]
string_body: _Match = re.compile(  # type: ignore[assignment]  # `*`: always matches
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
ESCAPE_TAIL = re.compile(
    r"(?:\\u[dD][89abAB][0-9a-fA-F]{2})?(?:\\(?:u[0-9a-fA-F]{0,3})?)?"
    r"|\\u[dD][89abAB][0-9a-fA-F]{2}\\[bf][0-9a-fA-F]{0,2}\\?"
)
"""What may be left at the end of an open string's text: an escape still arriving."""
NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")
NUMBER_CHARS = frozenset("0123456789.eE+-")
"""A number followed by one of these is still arriving (or malformed): it is not complete yet."""
NUMBER_PREFIX = re.compile(r"-?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*|\.[0-9]+[eE][-+]?[0-9]*|[eE][-+]?[0-9]*)?)?")
LITERALS = {"true": True, "false": False, "null": None}
LITERAL_PREFIXES = frozenset(word[:n] for word in LITERALS for n in range(1, len(word)))
LITERAL = re.compile("|".join(sorted(map(re.escape, LITERALS), key=len, reverse=True)))

BRACKETS: dict[type, tuple[str, str]] = {list: ("[", "]"), dict: ("{", "}")}
decode: Callable[[str], Any] = msgspec.json.Decoder().decode


def loads(text: str) -> Any:
    """``json.loads(text)`` of strict JSON (no ``NaN``/``Infinity``), decoded by msgspec in C.

    msgspec gives the same values as :mod:`json` or refuses: where :mod:`json` may still take the
    text (a lone surrogate, escaped or not, a number beyond the double range) it decides.
    """
    try:
        return decode(text)
    except (msgspec.ValidationError, UnicodeEncodeError):  # a number out of range, a lone surrogate
        return _STRICT.decode(text)
    except ValueError:
        if "\\u" not in text:
            raise
        return _STRICT.decode(text)


def balanced(text: str, start: int, end: int) -> bool:
    """A cheap test before a decode (which costs an exception when it fails): as many closing
    brackets as opening ones and an even number of unescaped quotes, counted in C."""
    count = text.count
    return (
        count("{", start, end) == count("}", start, end)
        and count("[", start, end) == count("]", start, end)
        and not (count('"', start, end) - count('\\"', start, end)) & 1
    )


def _imbalance(text: str, start: int, end: int) -> tuple[int, int, int]:
    """Of ``text[start:end]``: open braces less closed ones, the same for square brackets, and
    whether the unescaped quotes are odd (what :func:`balanced` tests is that all three are 0).
    The counts of two adjacent runs add up (when no ``\\"`` straddles the cut), so a long run is
    counted once and a cut near its end by its tail."""
    count = text.count
    return (
        count("{", start, end) - count("}", start, end),
        count("[", start, end) - count("]", start, end),
        (count('"', start, end) - count('\\"', start, end)) & 1,
    )


def string_piece(new: str) -> tuple[str, str] | None:
    """More of an open string: ``new`` decoded, and the escape cut short at its end held back.

    msgspec decodes ``"new"`` only if it holds no closing quote, no control character, no bad or
    cut escape and no lone surrogate (a high one may pair with the next piece): each of those is
    left to the steps (``None``), except an escape cut at the very end (``\\u00``, or a pair cut in
    two, ``\\ud83d\\ude``), which is held back for the next piece like the steps hold it.
    """
    try:
        return decode('"' + new + '"'), ""
    except ValueError:
        pass
    cut = new.rfind("\\", max(0, len(new) - 12))
    if cut < 0 or not ESCAPE_TAIL.fullmatch(new, cut):
        return None
    if cut >= 6 and ESCAPE_TAIL.fullmatch(new, cut - 6):
        cut -= 6  # a surrogate pair cut in two
    try:
        return decode('"' + new[:cut] + '"'), new[cut:]
    except ValueError:
        return None


CUTS = 8
"""Most cuts :func:`_walk` tries left of the last two (see :func:`complete_items`)."""

LONG_RUN = 256
"""Length of text from which :func:`complete_items` walks further left (a shorter one, such as the
piece of a live stream, is kept as text until its item completes)."""


def complete_items(text: str, start: int, kind: type) -> tuple[Any, int]:
    """The complete items (or members) of a ``kind`` container that ``text[start:]`` opens with,
    and where they end; ``(None, start)`` if none was found.

    The run is cut at the last comma or closing bracket of the text and decoded in one C call: it
    decodes only if every bracket and string in it is closed and every item is whole, so where it
    decodes it is the container's own items (the cut is at its depth). A long text whose last two
    cuts fail may end inside a nested item (``[1, {"a": [2, {"b"``): more cuts to their left are
    tried (:func:`_walk`). A cut that does not decode is left to the caller's steps.
    """
    comma = text.rfind(",", start)
    closer = max(text.rfind("}", start), text.rfind("]", start))
    cuts = (closer + 1, comma) if closer > comma else (comma, closer + 1)
    for cut in cuts:
        if cut > start and balanced(text, start, cut):
            items = _run_items(text, start, cut, kind)
            if items:  # not blank: "[1, , 2]" is no run
                return items, cut
    if len(text) - start > LONG_RUN and min(comma, closer) > start:
        return _walk(text, start, min(comma, closer), kind)
    return None, start


def _walk(text: str, start: int, bound: int, kind: type) -> tuple[Any, int]:
    """:func:`complete_items` of a long text, at up to :data:`CUTS` more cuts left of ``bound``,
    from the right, with at most two decodes.

    The brackets and quotes are counted once for the whole text, and each cut's balance is that
    less the text after it. A run of closing brackets at the end (the container closing, and its
    parents) is stepped over at once. A text that opens more than :data:`CUTS` brackets in all is
    not walked: one that ends inside a nested item opens that item's depth, while one that opens
    many levels (the steps descending into deep nesting call this at each level) walks in vain.
    """
    end = len(text)
    whole = _imbalance(text, start, end)
    if whole[0] + whole[1] > CUTS:
        return None, start
    bound = min(bound, len(text.rstrip(_CLOSING_RUN)))
    decodes = 2
    for _ in range(CUTS):
        comma = text.rfind(",", start, bound)
        closer = max(text.rfind("}", start, bound), text.rfind("]", start, bound))
        cut, bound = (closer + 1, closer) if closer > comma else (comma, comma)
        if cut <= start:
            break
        if _imbalance(text, cut, end) != whole:
            continue
        items = _run_items(text, start, cut, kind)
        if items is None:
            decodes -= 1
            if not decodes:
                break
            continue
        if items:
            return items, cut
    return None, start


def _run_items(text: str, start: int, cut: int, kind: type) -> Any:
    """``text[start:cut]`` decoded as the items of a ``kind`` container, or ``None`` when it
    does not decode (unfinished, malformed or too deep)."""
    opener, close = BRACKETS[kind]
    try:
        return loads(opener + text[start:cut] + close)
    except (ValueError, RecursionError):
        return None


_CLOSING_RUN = "]} \t\n\r"


def number(word: str, match: re.Match[str]) -> tuple[bool, Any]:
    """The value of a number token, as ``json.loads`` gives it; ``False`` if ``int()`` refuses it."""
    if match.group(1) is None and match.group(2) is None:
        try:
            return True, int(word)
        except ValueError:  # more digits than sys.get_int_max_str_digits()
            return False, None
    return True, float(word)


HIDDEN: Any = object()
""":func:`tail_value`: the unfinished item shows nothing yet (``tr``, ``"key":``, ``1.``)."""
_BAIL: Any = object()
_TAIL_DEPTH = 8
_W = r"[ \t\n\r]*+"
_KEY = re.compile(r'("[^"\\]*+(?:\\.[^"\\]*+)*+")' + rf"{_W}:{_W}")
_KEY_PREFIX = re.compile(
    r'"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*+'
    rf'(?:\\(?:u[0-9a-fA-F]{{0,3}})?\Z|"{_W}\Z)?\Z'
)
"""An object key still arriving, or complete with no colon yet."""


def tail_value(text: str, pos: int) -> Any:
    """What ``parse_partial`` shows of the unfinished item ``text[pos:]`` (from its first character
    to the end of the text): its value, :data:`HIDDEN`, or ``None`` for "use the steps" (the text is
    unusual: malformed, nested deeper than the patterns, a duplicate key)."""
    value = _tail(text, pos, _TAIL_DEPTH)
    return None if value is _BAIL else (value,)


def _tail(text: str, pos: int, depth: int) -> Any:
    char = text[pos]
    if char == '"':
        return _tail_string(text, pos + 1)
    if char in "{[":
        return _tail_container(text, pos, depth - 1) if depth else _BAIL
    word = text[pos:]
    if (match := NUMBER.fullmatch(word)) is not None:
        shown, value = number(word, match)
        return value if shown else HIDDEN  # too many digits: parse_partial leaves it out
    if word in LITERALS:
        return LITERALS[word]
    return HIDDEN if word in LITERAL_PREFIXES or NUMBER_PREFIX.fullmatch(word) else _BAIL


def _tail_string(text: str, pos: int) -> Any:
    end = string_body(text, pos).end()
    if end < len(text) and not ESCAPE_TAIL.fullmatch(text, end):
        return _BAIL  # a closing quote (not a tail), a control character or a bad escape
    piece = text[pos:end]
    return loads('"' + piece + '"') if "\\" in piece else piece


def _tail_container(text: str, pos: int, depth: int) -> Any:
    container: Any = {} if text[pos] == "{" else []
    kind = type(container)
    items, pos = complete_items(text, pos + 1, kind)
    if items is not None:
        if kind is dict:
            container.update(items)
        else:
            container.extend(items)
        pos = skip_ws(text, pos).end()
        if pos == len(text):
            return container
        if text[pos] != ",":
            return _BAIL  # a closing bracket: complete, so not a tail
        pos += 1
    pos = skip_ws(text, pos).end()
    if pos == len(text):
        return container
    if kind is list:
        value = _tail(text, pos, depth)
        if value is not HIDDEN and value is not _BAIL:
            container.append(value)
        return _BAIL if value is _BAIL else container
    return _tail_member(text, pos, depth, container)


def _tail_member(text: str, pos: int, depth: int, container: dict[str, Any]) -> Any:
    member = _member(text, pos, depth)
    if member is _BAIL or member is HIDDEN:
        return container if member is HIDDEN else _BAIL
    if member[0] in container:
        return _BAIL  # a duplicate key: parse_partial's answer depends on the order of values
    container[member[0]] = member[1]
    return container


def tail_member(text: str, pos: int) -> Any:
    """:func:`tail_value` of an unfinished object member ``"key": value``: ``(key, value)``,
    :data:`HIDDEN` (no value yet), or ``None`` for "use the steps"."""
    member = _member(text, pos, _TAIL_DEPTH)
    return None if member is _BAIL else member


def _member(text: str, pos: int, depth: int) -> Any:
    key = _KEY.match(text, pos)
    if key is None:
        return HIDDEN if _KEY_PREFIX.match(text, pos) else _BAIL
    try:
        name = scanstring(key.group(1), 1)[0]
    except ValueError:  # a bad escape or a control character
        return _BAIL
    if key.end() == len(text):
        return HIDDEN
    value = _tail(text, key.end(), depth)
    return value if value is _BAIL or value is HIDDEN else (name, value)
