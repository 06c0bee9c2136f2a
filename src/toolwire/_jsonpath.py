"""The JSON paths toolwire writes (``$.messages[3].content[1]``, ``$.tools[0]["a-b"]``), in one
spelling for every layer (formats, schema, validate, pytools, runner, note paths).

A path is ``$`` followed by ``.key`` (a key that is a Python identifier), ``[n]`` (an array
index) or ``["key"]`` (any other key, JSON-quoted). :func:`child` writes one step and
:func:`render` a whole path; :func:`segments` reads one back (also the older dotted spellings
``.~hint`` and ``.a-b``). :func:`locate` walks a document along a path as far as it goes: a note's
path may name something the source does not hold (a value made up for the target), and the
caller then shows the nearest thing it does hold.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

__all__ = ["child", "holds", "json_type", "locate", "parsed", "render", "segments"]

_SEGMENT = re.compile(r"\.((?:[^\W\d]|[$~])[\w$~-]*)|\[(\d+)\]|\[(\"(?:[^\"\\]|\\.)*\")\]")


_JSON_TYPES: dict[type, str] = {
    dict: "object",
    list: "array",
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    type(None): "null",
}


def json_type(value: Any) -> str:
    """The JSON type name of a decoded value (``object``, ``array``, ``string``, ``integer`` and
    ``number`` told apart...); another Python type by its own name."""
    return _JSON_TYPES.get(type(value), type(value).__name__)


def child(path: str, key: str | int) -> str:
    """The JSON path of ``key`` (object key or array index) under ``path``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if key.isidentifier():
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key, ensure_ascii=False)}]"  # quotes, backslashes, newlines escaped


def segments(path: str) -> list[str | int] | None:
    """The keys and indexes of ``path``; ``None`` when it is not a path of this grammar."""
    if not path.startswith("$"):
        return None
    out: list[str | int] = []
    pos = 1
    while pos < len(path):
        match = _SEGMENT.match(path, pos)
        if match is None:
            return None
        key, index, quoted = match.groups()
        out.append(key if key is not None else int(index) if index is not None else json.loads(quoted))
        pos = match.end()
    return out


@lru_cache(maxsize=4096)
def parsed(path: str) -> tuple[str | int, ...] | None:
    """:func:`segments` as a tuple, cached: note paths repeat from call to call."""
    found = segments(path)
    return None if found is None else tuple(found)


def render(parts: Sequence[str | int]) -> str:
    """The path of ``parts`` (the inverse of :func:`segments`), written by :func:`child`."""
    return _rendered(tuple(parts))


@lru_cache(maxsize=4096)
def _rendered(parts: tuple[str | int, ...]) -> str:
    """:func:`render`, cached: note paths repeat from call to call."""
    text = "$"
    for part in parts:
        text = child(text, part)
    return text


def holds(document: Any, path: str) -> bool:
    """Whether ``document`` holds the whole of ``path`` (``locate(document, path)[2]``)."""
    parts = parsed(path)
    if parts is None:
        return False
    node = document
    for part in parts:
        if isinstance(part, int):
            if not isinstance(node, list) or part >= len(node):
                return False
        elif not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def locate(document: Any, path: str) -> tuple[str, Any, bool]:
    """Walk ``document`` along ``path`` as far as it goes.

    Returns:
        ``(reached, value, whole)``: the longest prefix of the path the document holds, the value
        there, and whether that is the whole path.
    """
    found = parsed(path)
    parts = found or ()
    node = document
    for depth, part in enumerate(parts):
        held = (
            isinstance(node, list) and part < len(node)
            if isinstance(part, int)
            else (isinstance(node, dict) and part in node)
        )
        if not held:
            return render(parts[:depth]), node, False
        node = node[part]
    return render(parts), node, found is not None
