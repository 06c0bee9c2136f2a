"""The text of ``{"input": "..."}`` arguments, decoded while they stream.

A custom tool sent upstream as a function (see :mod:`toolwire._shims`) streams its call as JSON
argument deltas; the client wants the ``input`` text itself, delta by delta
(``response.custom_tool_call_input.delta``). :class:`InputText` decodes the string value as it
arrives, in one pass (each character is looked at a bounded number of times), holding back only
an escape sequence cut by a delta boundary (a surrogate pair counts as one). Arguments of another
shape stop the decoding (``broken``); the caller then sends the text decoded from the final
arguments.
"""

from __future__ import annotations

import json
import re

__all__ = ["InputText"]

_OPENING = '{"input":"'
_HEAD = re.compile(r'\s*\{\s*"input"\s*:\s*"')
_STOP = re.compile(r'["\\]')
_HIGH = re.compile(r"u[dD][89abAB][0-9a-fA-F]{2}")
_LOW = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")
_LOW_START = re.compile(r"(?:\\(?:u(?:[dD](?:[c-fC-F][0-9a-fA-F]{0,2})?)?)?)?")


class InputText:
    """Feed argument text deltas, get the decoded ``input`` text deltas.

    Example:
        >>> text = InputText()
        >>> [text.feed(d) for d in ['{"in', 'put": "a\\\\', 'nb', '"}']]
        ['', 'a', '\\nb', '']
        >>> text.sent
        'a\\nb'
    """

    __slots__ = ("_head", "_opened", "_pending", "broken", "done", "sent")

    def __init__(self) -> None:
        self._head = ""
        self._opened = False
        self._pending = ""
        self.broken = False
        self.done = False
        self.sent = ""

    def feed(self, delta: str) -> str:
        """The decoded text that ``delta`` completes ('' when none yet)."""
        if self.broken or self.done:
            return ""
        if not self._opened:
            delta = self._open(delta)
            if not delta:
                return ""
        return self._decode(self._pending + delta)

    def _open(self, delta: str) -> str:
        """Before the string value: wait for ``{"input":"``; what follows it, or ''."""
        head = self._head + delta
        match = _HEAD.match(head)
        if match is None:
            compact = "".join(head.split())
            if not _OPENING.startswith(compact):
                self.broken = True
            self._head = head
            return ""
        self._opened = True
        self._head = ""
        return head[match.end() :]

    def _decode(self, raw: str) -> str:
        end = len(raw)
        pos = 0
        safe = end
        while True:
            stop = _STOP.search(raw, pos)
            if stop is None:
                break
            at = stop.start()
            if raw[at] == '"':
                self.done = True
                safe = end = at
                break
            size = _escape_size(raw, at)
            if at + size > len(raw):
                safe = at
                break
            pos = at + size
        self._pending = raw[safe:] if not self.done else ""
        chunk = raw[:safe]
        if not chunk:
            return ""
        try:
            text = str(json.loads('"' + chunk + '"'))
        except ValueError:
            self.broken = True
            return ""
        self.sent += text
        return text


def _escape_size(raw: str, at: int) -> int:
    """How many characters the escape at ``raw[at]`` takes (a surrogate pair is one escape)."""
    if raw[at + 1 : at + 2] != "u":
        return 2
    if _HIGH.match(raw, at + 1):
        tail = raw[at + 6 : at + 12]
        if _LOW.fullmatch(tail) or (len(tail) < 6 and _LOW_START.fullmatch(tail)):
            return 12  # a pair, or maybe one: wait for the rest
    return 6
