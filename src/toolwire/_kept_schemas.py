"""A request's tools kept as JSON text through the bytes API, with a bounded cache (issue 18).

An agent sends the same tools with every turn, and their ``parameters`` schemas are most of a
request's bytes: in the 9 KB Chat request of the benchmarks, 6.6 KB of five tools. The bytes
API parsed each schema into dicts only to serialize it again, unchanged, into the target body.

:func:`split_chat_request` parses a Chat request body. The first time it sees a ``tools`` array
(a *miss*) it parses the body member by member, and stores in :data:`TOOLS` the array's exact
source text with the tools as parsed, each object schema replaced by its compact serialization
(``msgspec.Raw``: what ``dumps`` of the parsed schema writes). When a body holds a stored text
as its ``tools`` value (a *hit*) it parses only the rest: the stored text is cut out for a
one-time marker string, and the marker must come back as the top-level ``tools`` value, which
proves the text was that value. In both cases each schema in the parsed request is a
*placeholder*, a one-key dict that stands for it: a pair's lane that passes ``parameters`` on as
they are (Chat -> Responses) copies the placeholder into its output, and
:func:`restore_schemas` swaps the serialization in before the body is written. The output bytes
are those of the parse-and-dump path by construction; when anything does not fit (a part the
lane does not take, a placeholder the output does not hold exactly once), the general path gets
the payload a full parse gives (:func:`parse_schemas`: each schema parsed back from its stored
text), so its output, errors and notes are exactly the old ones.

Validity: a stored text was parsed in full when it was stored, and a hit is an exact byte match
of it, so invalid UTF-8 or JSON never passes; everything else in a body is parsed in full. The
depth limit is kept: a stored tools array was parsed within the limit at the same place in a
body (the top level's ``tools``), and on a miss the first parse, which skips the members' values,
counts the nesting of what it skips.

Bounds: at most :data:`MAX_ENTRIES` tools arrays of at most :data:`MAX_TEXT_BYTES` each, and
:data:`MAX_TOTAL_BYTES` of source and serialized text; the oldest entries go first. Stores and
evictions take a lock; a look-up does not (it reads immutable entries).
"""

from __future__ import annotations

import secrets
import threading
from typing import Any, Final

import msgspec

__all__ = [
    "MAX_ENTRIES",
    "MAX_TEXT_BYTES",
    "MAX_TOTAL_BYTES",
    "TOOLS",
    "Kept",
    "parse_schemas",
    "ToolsCache",
    "restore_schemas",
    "split_chat_request",
]

MAX_ENTRIES: Final = 256
"""The most ``tools`` arrays :data:`TOOLS` holds."""
MAX_TEXT_BYTES: Final = 1024 * 1024
"""A ``tools`` array longer than this (source bytes) is parsed in full every time, never stored."""
MAX_TOTAL_BYTES: Final = 32 * 1024 * 1024
"""The most source and serialized bytes :data:`TOOLS` holds together."""
_HEAD: Final = 64
"""How many leading bytes of a ``tools`` text index it (a look-up compares the rest at once)."""

_FIELDS: Final = msgspec.json.Decoder(dict[str, msgspec.Raw])
"""A JSON object's members, each value left as its JSON text (its nesting counted, not parsed)."""
_VALUE: Final = msgspec.json.Decoder()
_ENCODE: Final = msgspec.json.Encoder().encode
_MARKER: Final = "toolwire-kept-tools-" + secrets.token_hex(16)
"""The string a hit's ``tools`` text is cut out for: random per process, so no body can hold it
by chance or by design."""
_MARKER_JSON: Final = _ENCODE(_MARKER)
_ERRORS: Final = (msgspec.DecodeError, RecursionError, UnicodeDecodeError)

Tools = tuple[Any, ...]
"""Parsed tools, each object schema (a function tool's ``parameters``) as its ``msgspec.Raw``."""
Kept = list[tuple[dict[str, Any], msgspec.Raw]]
"""Each placeholder of a request with the serialization it stands for."""


class ToolsCache:
    """A bounded map from a ``tools`` array's source text to its :data:`Tools`, indexed by the
    text's first bytes (a look-up compares the rest, no hash of the whole text), with a
    doorkeeper: a text is stored the second time its first bytes are offered, so that a body
    whose tools are never seen again costs no more than before (:meth:`admit`)."""

    __slots__ = ("_by_head", "_count", "_lock", "_order", "_seen", "_size", "max_entries", "max_total")

    def __init__(self, max_entries: int = MAX_ENTRIES, max_total: int = MAX_TOTAL_BYTES) -> None:
        self._by_head: dict[bytes, tuple[tuple[bytes, Tools, int], ...]] = {}
        self._order: dict[int, bytes] = {}  # entry number -> its text's head, oldest first
        self._seen: dict[bytes, None] = {}  # the doorkeeper: heads offered once, oldest first
        self._count = 0
        self._size = 0
        self._lock = threading.Lock()
        self.max_entries = max_entries
        self.max_total = max_total

    def __len__(self) -> int:
        return len(self._order)

    @property
    def size(self) -> int:
        """The source and serialized bytes held."""
        return self._size

    def find(self, body: bytes, start: int) -> tuple[bytes, Tools] | None:
        """A stored text that ``body`` holds at ``start``, with its tools, else ``None``."""
        for text, tools, _ in self._by_head.get(body[start : start + _HEAD], ()):
            if body.startswith(text, start):
                return text, tools
        return None

    def admit(self, body: bytes, start: int) -> bool:
        """Whether a text at ``start`` of ``body`` (not stored) is worth parsing to store: its
        first bytes were offered before (else they are remembered, and it is not)."""
        head = body[start : start + _HEAD]
        if head in self._seen:
            return True
        with self._lock:
            seen = self._seen
            seen[head] = None
            if len(seen) > 4 * self.max_entries:
                del seen[next(iter(seen))]
        return False

    def put(self, text: bytes, tools: Tools) -> None:
        """Store ``tools`` for ``text``, the oldest entries evicted to stay within bounds."""
        cost = _cost(text, tools)
        if len(text) > MAX_TEXT_BYTES or cost > self.max_total:
            return
        head = text[:_HEAD]
        with self._lock:
            if any(entry[0] == text for entry in self._by_head.get(head, ())):
                return
            order = self._order
            while order and (len(order) >= self.max_entries or self._size + cost > self.max_total):
                self._evict()
            number = self._count = self._count + 1
            self._by_head[head] = (*self._by_head.get(head, ()), (text, tools, number))
            self._order[number] = head
            self._size += cost

    def _evict(self) -> None:
        """Drop the oldest entry."""
        number = next(iter(self._order))
        head = self._order.pop(number)
        rest = []
        for entry in self._by_head[head]:
            if entry[2] == number:
                self._size -= _cost(entry[0], entry[1])
            else:
                rest.append(entry)
        if rest:
            self._by_head[head] = tuple(rest)
        else:
            del self._by_head[head]

    def clear(self) -> None:
        """Forget every entry and every offer (what a cold start sees: the benchmarks' cold case)."""
        with self._lock:
            self._by_head.clear()
            self._order.clear()
            self._seen.clear()
            self._size = 0


TOOLS: Final = ToolsCache()
"""The process's cache, shared by every ``translate_request_bytes`` call."""


def _function(tool: Any) -> tuple[dict[str, Any] | None, Any]:
    """A tool's ``function`` object (else ``None``) and that object's ``parameters`` (else ``None``)."""
    function = tool.get("function") if type(tool) is dict else None
    if type(function) is not dict:
        return None, None
    return function, function.get("parameters")


def _cost(text: bytes, tools: Tools) -> int:
    """What an entry holds, in bytes: its source text and its serialized schemas."""
    return len(text) + sum(len(schema) for _, schema in map(_function, tools) if type(schema) is msgspec.Raw)


def _stored(tools: list[Any]) -> Tools:
    """Parsed ``tools`` as stored: each non-empty object schema serialized (``msgspec.Raw``)."""
    out = []
    for tool in tools:
        function, schema = _function(tool)
        if function is not None and type(schema) is dict and schema:
            tool = {**tool, "function": {**function, "parameters": msgspec.Raw(_ENCODE(schema))}}
        out.append(tool)
    return tuple(out)


def _fresh(tools: Tools, kept: Kept) -> list[Any]:
    """New dicts of stored ``tools`` for one request, each serialized schema a new placeholder
    (its pair added to ``kept``): the stored entry itself is never handed out."""
    out: list[Any] = []
    for tool in tools:
        function, schema = _function(tool)
        if function is not None and type(schema) is msgspec.Raw:
            placeholder = {"": len(kept)}
            kept.append((placeholder, schema))
            tool = {**tool, "function": {**function, "parameters": placeholder}}
        elif function is not None:  # an empty schema ({}) copied too: nothing stored is handed out
            function = dict(function)
            if type(schema) is dict:
                function["parameters"] = dict(schema)
            tool = {**tool, "function": function}
        elif type(tool) is dict:
            tool = dict(tool)
        out.append(tool)
    return out


def _tools_start(body: bytes) -> int:
    """Where the value of the first ``"tools"`` key of ``body`` starts, else -1 (where it is
    not the top level's, the hit's marker check fails)."""
    at = body.find(b'"tools"')
    if at < 0:
        return -1
    at = _after_space(body, at + 7)
    if at >= len(body) or body[at] != 58:  # ":"
        return -1
    return _after_space(body, at + 1)


def _after_space(body: bytes, at: int) -> int:
    """The first index from ``at`` of ``body`` that is not JSON whitespace (``len(body)``: none)."""
    size = len(body)
    while at < size and body[at] in b" \t\r\n":
        at += 1
    return at


def _hit(body: bytes, start: int) -> dict[str, Any] | None:
    """``body`` parsed with a stored ``tools`` text at ``start`` cut out (``tools``: the stored
    tools), else ``None`` (no stored text there, or it is not the top level's ``tools``)."""
    found = TOOLS.find(body, start)
    if found is None:
        return None
    text, tools = found
    try:
        payload = _VALUE.decode(body[:start] + _MARKER_JSON + body[start + len(text) :])
    except _ERRORS:
        return None
    if type(payload) is not dict or payload.get("tools") != _MARKER:
        return None
    payload["tools"] = tools
    return payload


def _miss(body: bytes) -> dict[str, Any] | None:
    """``body`` parsed member by member, its ``tools`` text stored (``tools``: the stored
    tools), else ``None``: no ``tools`` array, or not JSON (the caller says what is wrong)."""
    try:
        members = _FIELDS.decode(body)
        text = members.get("tools")
        if text is None:
            return None
        payload = {key: _VALUE.decode(value) for key, value in members.items()}
    except _ERRORS:
        return None
    tools = payload["tools"]
    if type(tools) is not list:
        return None
    stored = _stored(tools)
    TOOLS.put(bytes(text), stored)
    payload["tools"] = stored
    return payload


def split_chat_request(body: bytes) -> tuple[dict[str, Any], Kept] | None:
    """``body`` (a Chat request) parsed, each function tool's object ``parameters`` a placeholder
    (see the module docstring), with the placeholders; ``None`` when ``body`` has no ``tools``
    array or is not JSON: the caller parses it in full, which says what is wrong."""
    start = _tools_start(body)
    if start < 0:  # no "tools" key (or one spelled with escapes): nothing to keep
        return None
    payload = _hit(body, start)
    if payload is None:
        if not TOOLS.admit(body, start):  # tools not offered before: parsed in full as before
            return None
        payload = _miss(body)
        if payload is None:
            return None
    kept: Kept = []
    payload["tools"] = _fresh(payload["tools"], kept)
    return payload, kept


def restore_schemas(out: dict[str, Any], kept: Kept) -> bool:
    """Swap each placeholder of ``kept`` in ``out``'s ``tools[*].parameters`` (a Responses
    request) for its serialization; ``False`` when the tools do not hold every placeholder
    exactly once (the caller then parses the body in full)."""
    if not kept:
        return True
    tools = out.get("tools")
    if type(tools) is not list:
        return False
    found: set[int] = set()
    for tool in tools:
        index = _placeholder(tool.get("parameters") if type(tool) is dict else None, kept)
        if index >= 0:
            if index in found:  # copied twice: not a lane that passes schemas on as they are
                return False
            tool["parameters"] = kept[index][1]
            found.add(index)
    return len(found) == len(kept)


def _placeholder(value: Any, kept: Kept) -> int:
    """The index in ``kept`` of the placeholder ``value`` is, else -1."""
    if type(value) is not dict or len(value) != 1:
        return -1
    index = value.get("")
    return index if type(index) is int and 0 <= index < len(kept) and kept[index][0] is value else -1


def parse_schemas(payload: dict[str, Any], kept: Kept) -> None:
    """Put each placeholder of ``kept`` in ``payload``'s tools back as its parsed schema: the
    payload a full parse gives (for the general path, which reads schemas)."""
    for tool in payload["tools"]:
        function, schema = _function(tool)
        index = _placeholder(schema, kept)
        if function is not None and index >= 0:
            function["parameters"] = _VALUE.decode(kept[index][1])
