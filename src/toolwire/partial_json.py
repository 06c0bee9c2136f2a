"""Parse the JSON prefix of a tool call's arguments while they stream, for progressive UIs.

``parse_partial('{"city": "Par')`` gives ``{"city": "Par"}``: the value the text would have if
it ended here, closing open strings, arrays and objects, and leaving out a key whose value has
not started. The full text is still the source of truth: a complete argument string is parsed
with a real JSON parser by the caller; this module never turns a truncated argument into ``{}``
silently; it only offers the best view of an incomplete one.

The grammar is strict JSON (RFC 8259): ``NaN``, ``Infinity`` and ``-Infinity``, which
:func:`json.loads` accepts, are not values, so a text that holds one is malformed (``None``, or the
part before a trailing one that may still become something else).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["complete_json", "parse_partial"]

_LITERALS = ("true", "false", "null")


def _no_constant(word: str) -> Any:
    raise ValueError(f"{word} is not JSON")


_STRICT = json.JSONDecoder(parse_constant=_no_constant)
"""``json.loads`` of strict JSON: the same values, but ``NaN``/``Infinity`` raise ``ValueError``."""
# an escape cut short at the end of an open string: "\u00", or a high surrogate without its pair
_PARTIAL_ESCAPE = re.compile(
    r"(?<!\\)((?:\\\\)*)\\u(?:[0-9a-fA-F]{0,3}|[dD][89abAB][0-9a-fA-F]{2}(?:\\u?[0-9a-fA-F]{0,3})?)$"
)


def _scan(text: str) -> tuple[list[str], bool, bool]:
    """The open containers (``{``/``[``) of ``text``, whether it ends inside a string, after ``\\``."""
    stack: list[str] = []
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "{[":
            stack.append(ch)
        elif ch in "}]" and stack:
            stack.pop()
    return stack, in_string, escaped


def _trim_tail(text: str) -> str:
    """Drop an unfinished token at the end: a dangling comma, colon, key, or partial literal/number."""
    text = text.rstrip()
    while text:
        last = text[-1]
        if last in ",:":
            text = text[:-1].rstrip()
            if last == ":":  # the key has no value yet: drop the key too
                text = _drop_key(text)
            continue
        word_start = len(text)
        while word_start > 0 and (text[word_start - 1].isalnum() or text[word_start - 1] in "+-."):
            word_start -= 1
        word = text[word_start:]
        if word and not _is_complete_scalar(word):
            text = text[:word_start].rstrip()
            continue
        break
    return text


def _is_complete_scalar(word: str) -> bool:
    if word in _LITERALS:
        return True
    try:
        _STRICT.decode(word)
    except ValueError:
        return False
    return not word.endswith(".") and not word.endswith("e") and not word.endswith("E")


def _drop_key(text: str) -> str:
    """``text`` without its last (complete) string, which is an object key."""
    if not text.endswith('"'):
        return text
    i = len(text) - 2
    while i >= 0:
        if text[i] == '"':
            backslashes = 0
            j = i - 1
            while j >= 0 and text[j] == "\\":
                backslashes += 1
                j -= 1
            if backslashes % 2 == 0:
                return text[:i].rstrip()
        i -= 1
    return text


def complete_json(text: str) -> str:
    """The shortest JSON text that closes the unfinished JSON prefix ``text``.

    An object key that has no value yet is left out; an open string is closed as it stands.
    """
    stack, in_string, escaped = _scan(text)
    if in_string:
        if escaped:
            text = text[:-1]
        text = _PARTIAL_ESCAPE.sub(r"\1", text)
        # a string that is an object key (inside an object, after "{" or ",") has no value: drop it
        head = text[: text.rfind('"')].rstrip()
        if stack and stack[-1] == "{" and head.endswith(("{", ",")):
            text = head
        else:
            text += '"'
    text = _trim_tail(text)
    stack, _, _ = _scan(text)
    if stack and stack[-1] == "{" and text.endswith('"'):
        head = _drop_key(text)
        if head.endswith(("{", ",")):  # a complete key with no colon yet
            text = _trim_tail(head)
            stack, _, _ = _scan(text)
    return text + "".join("}" if c == "{" else "]" for c in reversed(stack))


def parse_partial(text: str) -> Any:
    """The value the JSON prefix ``text`` describes so far, or ``None`` when nothing has started."""
    if not text.strip():
        return None
    try:
        return _STRICT.decode(text)
    except ValueError:
        pass
    completed = complete_json(text)
    if not completed:
        return None
    try:
        return _STRICT.decode(completed)
    except ValueError:
        return None
