"""Pretty-printed JSON with the span of every value, and JSON paths mapped to those spans (pure).

The trace page shows each payload pretty-printed and highlights what a note points at. A note's
path (``$.messages[2].content[0].text``) names a value of the parsed payload;
:func:`pretty_spans` prints the payload and records, for each value, where its text starts and
ends, so :func:`locate` can turn the path into a ``(start, end)`` of the printed text.

======================  ============================================================================
path syntax             meaning
======================  ============================================================================
``$``                   the whole payload
``.name``               object key ``name`` (up to the next ``.`` or ``[``; ``a-b`` allowed)
``[3]``                 array index 3
``["any key"]``         object key as a JSON string (how ``formats/_wire.child`` writes odd keys)
``['any key']``         the same, single-quoted (no escapes)
======================  ============================================================================

Layout: two-space indent, ``", "`` never used, ``": "`` after keys, empty containers as ``{}``
and ``[]``, non-ASCII kept (as ``json.dumps(value, indent=2, ensure_ascii=False)`` prints it).
An object member's span covers ``"key": value`` (the highlight shows which key); an array
element's and the root's span cover the value. Spans of a payload nest or are disjoint, never
overlap partly, so highlights can be written as nested elements. A path that names nothing in
the payload (a key a conversion dropped, say) is located at its deepest existing ancestor, and
:func:`locate` says so. Nesting deeper than :data:`MAX_SPAN_DEPTH` is printed compactly, without
spans inside.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_SPAN_DEPTH", "Located", "PathKey", "PrettyJson", "locate", "parse_path", "pretty_spans"]

MAX_SPAN_DEPTH = 64
"""Deepest value that gets its own span (deeper subtrees are printed on one line)."""

PathKey = tuple[str | int, ...]
"""A parsed JSON path: object keys and array indexes from the root."""


@dataclass(frozen=True, slots=True)
class PrettyJson:
    """A payload printed for people.

    Attributes:
        text: the printed JSON.
        spans: ``(start, end)`` offsets into ``text`` of each value, by its path.
    """

    text: str
    spans: dict[PathKey, tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Located:
    """Where a path's value is in the printed text.

    Attributes:
        start: offset of the first character.
        end: offset just after the last character.
        exact: ``False`` when the path names nothing and this is its deepest existing ancestor.
    """

    start: int
    end: int
    exact: bool


class _Printer:
    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.spans: dict[PathKey, tuple[int, int]] = {}

    def write(self, text: str) -> None:
        self.parts.append(text)
        self.size += len(text)

    def value(self, value: Any, path: PathKey, indent: int) -> None:
        if len(path) > MAX_SPAN_DEPTH:
            self.write(json.dumps(value, ensure_ascii=False))
        elif isinstance(value, dict) and value:
            self._object(value, path, indent)
        elif isinstance(value, list) and value:
            self._array(value, path, indent)
        else:
            self.write(json.dumps(value, ensure_ascii=False))

    def _object(self, value: dict[str, Any], path: PathKey, indent: int) -> None:
        inner = "  " * (indent + 1)
        self.write("{")
        for i, (key, item) in enumerate(value.items()):
            self.write(("," if i else "") + "\n" + inner)
            start = self.size
            self.write(json.dumps(key, ensure_ascii=False) + ": ")
            self.value(item, (*path, key), indent + 1)
            self.spans[(*path, key)] = (start, self.size)
        self.write("\n" + "  " * indent + "}")

    def _array(self, value: list[Any], path: PathKey, indent: int) -> None:
        inner = "  " * (indent + 1)
        self.write("[")
        for i, item in enumerate(value):
            self.write(("," if i else "") + "\n" + inner)
            start = self.size
            self.value(item, (*path, i), indent + 1)
            self.spans[(*path, i)] = (start, self.size)
        self.write("\n" + "  " * indent + "]")


def pretty_spans(value: Any) -> PrettyJson:
    """``value`` (parsed JSON) printed with two-space indents, and the span of each value.

    Example:
        >>> doc = pretty_spans({"a": [1, {"b": "x"}]})
        >>> start, end = doc.spans[("a", 1, "b")]
        >>> doc.text[start:end]
        '"b": "x"'
    """
    printer = _Printer()
    printer.value(value, (), 0)
    printer.spans[()] = (0, printer.size)
    return PrettyJson("".join(printer.parts), printer.spans)


def parse_path(path: str) -> PathKey | None:
    """The keys of a JSON path (see the module docstring), or ``None`` when it is malformed.

    Example:
        >>> parse_path('$.messages[2].content[0]["a b"]')
        ('messages', 2, 'content', 0, 'a b')
    """
    if not path.startswith("$"):
        return None
    keys: list[str | int] = []
    i = 1
    while i < len(path):
        step = _STEPS.get(path[i])
        found = step(path, i) if step is not None else None
        if found is None:
            return None
        key, i = found
        keys.append(key)
    return tuple(keys)


def _dot(path: str, i: int) -> tuple[str | int, int] | None:
    end = i + 1
    while end < len(path) and path[end] not in ".[":
        end += 1
    return (path[i + 1 : end], end) if end > i + 1 else None


def _bracket(path: str, i: int) -> tuple[str | int, int] | None:
    close = path.find("]", i)
    if close < 0:
        return None
    inner = path[i + 1 : close]
    if inner.isdigit():
        return int(inner), close + 1
    if inner[:1] == '"':
        return _json_key(path, i + 1)
    if inner[:1] == "'" and len(inner) >= 2 and inner.endswith("'"):
        return inner[1:-1], close + 1
    return None


def _json_key(path: str, start: int) -> tuple[str | int, int] | None:
    try:
        key, end = json.JSONDecoder().raw_decode(path, start)
    except ValueError:
        return None
    if not isinstance(key, str) or path[end : end + 1] != "]":
        return None
    return key, end + 1


_STEPS = {".": _dot, "[": _bracket}
"""How each step of a path starts: ``.name`` or ``[...]``."""


def locate(doc: PrettyJson, path: str) -> Located | None:
    """The span of ``path``'s value in ``doc`` (its deepest existing ancestor when the value is
    absent); ``None`` when the path is malformed.

    Example:
        >>> doc = pretty_spans({"tools": [{"name": "f"}]})
        >>> found = locate(doc, "$.tools[0].strict")
        >>> doc.text[found.start:found.end], found.exact
        ('{\\n    "name": "f"\\n  }', False)
    """
    keys = parse_path(path)
    if keys is None:
        return None
    for depth in range(len(keys), -1, -1):
        span = doc.spans.get(keys[:depth])
        if span is not None:
            return Located(span[0], span[1], depth == len(keys))
    return None
