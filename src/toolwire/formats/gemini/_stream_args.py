"""Streamed function-call arguments (``functionCall.partialArgs``), written as JSON text.

Newer Gemini models (``streamFunctionCallArguments``) stream a call in several parts:

1. ``{"functionCall": {"name": "f", "willContinue": true}}`` opens the call;
2. ``{"functionCall": {"partialArgs": [{"jsonPath": "$.a.b[0]", "stringValue": "x",
   "willContinue": true}], "willContinue": true}}`` sets values by JSON path; a string may
   arrive in pieces (each piece but the last has ``willContinue: true``);
3. a ``functionCall`` without ``willContinue`` (often ``{}``) closes the call.

The values arrive in document order (the model writes its JSON front to back), so
:class:`ArgsWriter` turns each entry straight into the next stretch of compact JSON text:
argument deltas can be streamed on, and the finished text equals the compact JSON of the
whole arguments object. An entry that cannot continue the document (unparseable path, a
type clash, an index out of order, a path back into a finished container, a string left
unfinished) raises :class:`~toolwire.errors.PayloadError`: arguments are never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from toolwire._json import dumps_str
from toolwire.formats._wire import as_dict, as_list, child, fail, json_type, req_str

__all__ = ["ArgsWriter", "parse_json_path"]

_SEGMENT = re.compile(
    r"\.(?P<name>[^.\[\]]+)|\[(?P<index>\d+)\]|\['(?P<sq>(?:[^'\\]|\\.)*)'\]|\[\"(?P<dq>(?:[^\"\\]|\\.)*)\"\]"
)
_UNESCAPE = re.compile(r"\\(.)")
_VALUE_KEYS = ("stringValue", "numberValue", "boolValue", "nullValue")
_SCALARS = {"numberValue": (int, float), "boolValue": (bool,)}

Key = str | int


def parse_json_path(text: str, path: str) -> tuple[Key, ...]:
    """The keys of a ``$.a.b[0]['c d']`` path (object keys as str, array indexes as int)."""
    if not text.startswith("$"):
        fail(path, f"JSON path {text!r} does not start with '$'")
    keys: list[Key] = []
    at = 1
    while at < len(text):
        match = _SEGMENT.match(text, at)
        if match is None:
            fail(path, f"cannot parse JSON path {text!r} at offset {at}")
        if match["index"] is not None:
            keys.append(int(match["index"]))
        else:
            quoted = match["sq"] if match["sq"] is not None else match["dq"]
            keys.append(match["name"] if quoted is None else _UNESCAPE.sub(r"\1", quoted))
        at = match.end()
    if not keys:
        fail(path, "JSON path '$' sets no argument")
    return tuple(keys)


def _value(entry: dict[str, Any], path: str) -> tuple[str, Any]:
    for kind in _VALUE_KEYS:
        if kind in entry:
            value = entry[kind]
            if kind == "nullValue":
                return kind, None
            types = _SCALARS.get(kind, (str,))
            if type(value) not in types or (kind == "numberValue" and type(value) is bool):
                fail(child(path, kind), f"unexpected {json_type(value)}")
            return kind, value
    fail(path, "partial argument without stringValue, numberValue, boolValue or nullValue")


def _escaped(text: str) -> str:
    """``text`` as JSON string content (no quotes); escaping is per character, so pieces concatenate."""
    return dumps_str(text)[1:-1]


@dataclass(slots=True)
class _Container:
    """An object or array of the document still open."""

    key: Key | None  # its key in the parent (None: the root)
    array: bool
    count: int = 0  # members written
    names: set[str] = field(default_factory=set)  # object keys written


class ArgsWriter:
    """Turns one call's ``partialArgs`` entries into compact JSON text, in arrival order."""

    __slots__ = ("_stack", "_string")

    def __init__(self) -> None:
        self._stack: list[_Container] = []
        self._string: tuple[Key, ...] | None = None  # the string still being continued

    def apply(self, raw: Any, path: str) -> str:
        """Apply a ``partialArgs`` array (``path`` is its JSON path); the JSON text it adds."""
        out: list[str] = []
        for index, item in enumerate(as_list(raw, path)):
            where = f"{path}[{index}]"
            self._apply_one(as_dict(item, where), where, out)
        return "".join(out)

    def finish(self, path: str) -> str:
        """The text that closes the document (all of ``{}`` when nothing was set)."""
        if self._string is not None:
            fail(path, f"string argument {_render(self._string)} left unfinished")
        if not self._stack:
            return "{}"
        closing = "".join("]" if c.array else "}" for c in reversed(self._stack))
        self._stack.clear()
        return closing

    def _apply_one(self, entry: dict[str, Any], path: str, out: list[str]) -> None:
        keys = parse_json_path(req_str(entry, "jsonPath", path), child(path, "jsonPath"))
        kind, value = _value(entry, path)
        more = kind == "stringValue" and entry.get("willContinue") is True
        if self._string is not None:
            if keys != self._string or kind != "stringValue":
                fail(path, f"string argument {_render(self._string)} left unfinished")
            out.append(_escaped(value))
        else:
            if not self._stack:
                self._stack.append(_Container(None, False))
                out.append("{")
            self._descend(keys, path, out)
            self._member(keys[-1], path, out)
            out.append('"' + _escaped(value) if kind == "stringValue" else dumps_str(value))
        if kind == "stringValue" and not more:
            out.append('"')
        self._string = keys if more else None

    def _descend(self, keys: tuple[Key, ...], path: str, out: list[str]) -> None:
        """Close containers off the path to ``keys``' parent, open the ones it needs."""
        parents = keys[:-1]
        same = 0
        while same < min(len(parents), len(self._stack) - 1) and self._stack[same + 1].key == parents[same]:
            same += 1
        while len(self._stack) > same + 1:
            out.append("]" if self._stack.pop().array else "}")
        for depth in range(same, len(parents)):
            self._member(parents[depth], path, out)
            array = isinstance(keys[depth + 1], int)
            out.append("[" if array else "{")
            self._stack.append(_Container(parents[depth], array))

    def _member(self, key: Key, path: str, out: list[str]) -> None:
        """Write the separator and key of the next member of the innermost container."""
        parent = self._stack[-1]
        if parent.array != isinstance(key, int):
            what = f"index [{key}]" if isinstance(key, int) else f"key {key!r}"
            fail(path, f"{what} applied to an {'array' if parent.array else 'object'}")
        if isinstance(key, int) and key != parent.count:
            fail(path, f"array index [{key}] out of order (next is [{parent.count}])")
        if isinstance(key, str):
            if key in parent.names:
                fail(path, f"key {key!r} set twice (or revisited after its value was finished)")
            parent.names.add(key)
        if parent.count:
            out.append(",")
        if isinstance(key, str):
            out.append(dumps_str(key) + ":")
        parent.count += 1


def _render(keys: tuple[Key, ...]) -> str:
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys)
