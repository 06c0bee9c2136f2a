"""Hypothesis strategies for hostile input: the real fixture corpus, mutated.

Three levels, as untrusted input arrives:

- **JSON values** (a parsed body): a corpus payload with 1-4 structural mutations at any depth:
  a value replaced by arbitrary JSON or by a hostile value (huge or deep or lone-surrogate or
  control-character text, huge numbers, wrong types), a key deleted or added, a list item
  duplicated or dropped, a list truncated.
- **Streams** (a list of events): the same mutations inside events, plus events dropped,
  duplicated, reordered or cut off.
- **Bytes** (a body on the wire): the JSON or SSE text of the above, then bytes flipped, inserted,
  deleted or cut, and split into chunks at any positions.
"""

from __future__ import annotations

import copy
import itertools
import json
from functools import cache
from typing import Any

from hypothesis import strategies as st

from tests.corpus import Sample, StreamItem, samples

MAX_NODES = 4000
"""Nodes of a payload considered as mutation sites (the first ones in breadth-first order)."""

LEAF = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
JSON = st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
"""Arbitrary small JSON values."""


def _deep(depth: int, kind: str) -> Any:
    value: Any = "bottom"
    for _ in range(depth):
        value = [value] if kind == "list" else {"type": "object", "properties": {"x": value}}
    return value


HOSTILE = st.sampled_from(
    [
        "",
        " ",
        "\x00",
        "\ud800",  # a lone surrogate (not encodable as UTF-8)
        "a\udcffb",
        "\u202e\ufeff\u200b",
        "x" * 100_000,
        "€" * 20_000,
        "%s%d%%",
        "$ref",
        "#/$defs/none",
        "{",
        '{"a": ',
        "[DONE]",
        "\n\ndata: {}\n\n",
        10**30,
        -(10**30),
        1e308,
        -1,
        0,
        True,
        [],
        {},
        [None] * 5000,
        {str(i): i for i in range(2000)},
    ]
) | st.builds(_deep, st.integers(50, 400), st.sampled_from(["list", "schema"]))
"""Values that break naive code: huge, deep, empty, invalid Unicode, format characters.

Shared objects: always ``copy.deepcopy`` a drawn one before it can be mutated, or later examples
would draw a changed value (Hypothesis reports that as a flaky strategy)."""


def _swap(value: Any) -> Any:
    """A value of another JSON type than ``value``."""
    if isinstance(value, dict):
        return list(value.values())
    if isinstance(value, list):
        return {str(i): v for i, v in enumerate(value)}
    if isinstance(value, str):
        return len(value)
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return str(value)
    return {}


def sites(root: Any) -> list[tuple[Any, Any]]:
    """``(container, key)`` of every value under ``root``, breadth first, at most :data:`MAX_NODES`."""
    out: list[tuple[Any, Any]] = []
    queue = [root]
    while queue and len(out) < MAX_NODES:
        node = queue.pop(0) if len(queue) < 64 else queue.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            out.append((node, key))
            if isinstance(value, (dict, list)) and value:
                queue.append(value)
    return out


OPS = ("replace", "hostile", "swap", "delete", "add", "duplicate", "truncate", "null")


def mutate_once(draw: st.DrawFn, root: Any) -> Any:
    """Apply one mutation somewhere in ``root`` (in place when possible); returns the root."""
    if not isinstance(root, (dict, list)) or not root:
        return copy.deepcopy(draw(JSON | HOSTILE, label="new root"))
    where = sites(root)
    container, key = draw(st.sampled_from(where), label="site")
    op = draw(st.sampled_from(OPS), label="op")
    value = container[key]
    if op == "replace":
        container[key] = draw(JSON, label="json")
    elif op == "hostile":
        container[key] = copy.deepcopy(draw(HOSTILE, label="hostile"))
    elif op == "swap":
        container[key] = _swap(value)
    elif op == "null":
        container[key] = None
    elif op == "delete":
        del container[key]
    elif op == "add" and isinstance(value, dict):
        value[draw(st.text(max_size=12), label="key")] = copy.deepcopy(draw(JSON | HOSTILE, label="value"))
    elif op == "duplicate" and isinstance(container, list):
        container.insert(key, copy.deepcopy(value))
    elif op == "truncate" and isinstance(value, (list, str)):
        container[key] = value[: draw(st.integers(0, max(0, len(value) - 1)), label="cut")]
    else:
        container[key] = _swap(value)
    return root


def mutate(draw: st.DrawFn, payload: Any) -> Any:
    """A deep copy of ``payload`` with 0-4 mutations (0 keeps the real payload as it was)."""
    root = copy.deepcopy(payload)
    for _ in range(draw(st.integers(0, 4), label="mutations")):
        root = mutate_once(draw, root)
    return root


@cache
def corpus(fmt: str, kind: str) -> tuple[Sample, ...]:
    """The corpus samples of a format and kind."""
    return tuple(samples(fmt, kind))


@st.composite
def payloads(draw: st.DrawFn, fmt: str, kind: str) -> Any:
    """A mutated corpus payload of ``fmt`` and ``kind`` (or, now and then, arbitrary JSON)."""
    pool = corpus(fmt, kind)
    if not pool or draw(st.integers(0, 19), label="arbitrary?") == 0:
        return copy.deepcopy(draw(JSON | HOSTILE, label="arbitrary"))
    return mutate(draw, draw(st.sampled_from(pool), label="sample").payload)


def _event_data(item: Any) -> Any:
    return item.data if isinstance(item, StreamItem) else item


@st.composite
def stream_events(draw: st.DrawFn, fmt: str) -> list[Any]:
    """A mutated corpus stream of ``fmt``: parsed event data (dicts, and Chat's ``[DONE]``)."""
    pool = corpus(fmt, "stream")
    events = [copy.deepcopy(_event_data(i)) for i in draw(st.sampled_from(pool), label="stream").payload]
    for _ in range(draw(st.integers(0, 3), label="stream mutations")):
        if not events:
            break
        op = draw(
            st.sampled_from(["inside", "inside", "drop", "duplicate", "move", "cut"]), label="stream op"
        )
        i = draw(st.integers(0, len(events) - 1), label="event")
        if op == "inside":
            events[i] = mutate_once(draw, events[i])
        elif op == "drop":
            del events[i]
        elif op == "duplicate":
            events.insert(i, copy.deepcopy(events[i]))
        elif op == "move":
            events.insert(draw(st.integers(0, len(events) - 1), label="to"), events.pop(i))
        else:
            events = events[:i]
    return events


def sse_bytes(events: list[Any]) -> bytes:
    """The SSE body of ``events`` (``data:`` lines; non-JSON-encodable values as their text)."""
    out = []
    for data in events:
        try:
            text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
            out.append(b"data: " + text.encode("utf-8", "surrogatepass") + b"\n\n")
        except (ValueError, RecursionError):
            out.append(b"data: " + repr(data)[:1000].encode("utf-8", "surrogatepass") + b"\n\n")
    return b"".join(out)


BYTE_OPS = ("flip", "insert", "delete", "cut", "bom", "crlf", "garbage")


@st.composite
def mutated_bytes(draw: st.DrawFn, body: bytes) -> bytes:
    """``body`` with 0-3 byte-level mutations."""
    data = bytearray(body)
    for _ in range(draw(st.integers(0, 3), label="byte mutations")):
        op = draw(st.sampled_from(BYTE_OPS), label="byte op")
        at = draw(st.integers(0, len(data)), label="at")
        if op == "flip" and at < len(data):
            data[at] ^= 1 << draw(st.integers(0, 7), label="bit")
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=8), label="bytes")
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 16), label="length")]
        elif op == "cut":
            del data[at:]
        elif op == "bom":
            data[at:at] = b"\xef\xbb\xbf"
        elif op == "crlf":
            data = bytearray(bytes(data).replace(b"\n", b"\r\n"))
        else:
            data[at:at] = draw(
                st.sampled_from([b"\xff\xfe", b"\xc3", b"\x00", b"[" * 3000, b"\r"]), label="junk"
            )
    return bytes(data)


@st.composite
def chunked(draw: st.DrawFn, body: bytes) -> list[bytes]:
    """``body`` split at 0-8 positions drawn anywhere (byte by byte now and then)."""
    if body and draw(st.integers(0, 30), label="bytewise?") == 0 and len(body) < 20_000:
        return [body[i : i + 1] for i in range(len(body))]
    cuts = sorted(set(draw(st.lists(st.integers(0, len(body)), max_size=8), label="cuts")))
    bounds = [0, *cuts, len(body)]
    return [body[a:b] for a, b in itertools.pairwise(bounds)]


@st.composite
def stream_chunks(draw: st.DrawFn, fmt: str) -> list[bytes]:
    """A mutated corpus stream of ``fmt`` as SSE bytes, byte-mutated and split anywhere."""
    pool = corpus(fmt, "stream")
    sample = draw(st.sampled_from(pool), label="stream")
    if sample.raw and draw(st.booleans(), label="raw?"):
        body = sample.raw.encode("utf-8", "surrogatepass")
    else:
        body = sse_bytes(draw(stream_events(fmt)))
    return draw(chunked(draw(mutated_bytes(body))))


@st.composite
def json_bytes(draw: st.DrawFn, fmt: str, kind: str) -> bytes:
    """A mutated corpus payload as JSON bytes, byte-mutated."""
    value = draw(payloads(fmt, kind))
    try:
        body = json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")
    except (ValueError, RecursionError):
        body = b"{"
    return draw(mutated_bytes(body))


SCHEMA_KEYS = {
    "openai-chat": (("function", "parameters"),),
    "openai-responses": (("parameters",),),
    "anthropic": (("input_schema",),),
    "gemini": (),
}


@cache
def corpus_schemas() -> tuple[Any, ...]:
    """Every tool parameter schema in the corpus requests (all formats)."""
    found: list[Any] = []
    for fmt in SCHEMA_KEYS:
        for sample in corpus(fmt, "request"):
            tools = sample.payload.get("tools") if isinstance(sample.payload, dict) else None
            for tool in tools if isinstance(tools, list) else ():
                found += _tool_schemas(fmt, tool)
    return tuple(s for s in found if isinstance(s, dict))


def _tool_schemas(fmt: str, tool: Any) -> list[Any]:
    if not isinstance(tool, dict):
        return []
    if fmt == "gemini":
        decls = tool.get("functionDeclarations") or tool.get("function_declarations") or []
        return [
            d.get(k) for d in decls if isinstance(d, dict) for k in ("parameters", "parametersJsonSchema")
        ]
    out = []
    for keys in SCHEMA_KEYS[fmt]:
        node: Any = tool
        for key in keys:
            node = node.get(key) if isinstance(node, dict) else None
        out.append(node)
    return out


SCHEMA_WORDS = st.sampled_from(
    [
        "type",
        "properties",
        "items",
        "required",
        "$ref",
        "$defs",
        "definitions",
        "anyOf",
        "oneOf",
        "allOf",
        "not",
        "enum",
        "const",
        "format",
        "pattern",
        "additionalProperties",
        "prefixItems",
        "minItems",
        "maxLength",
        "nullable",
        "description",
        "default",
        "$schema",
        "$id",
        "$dynamicRef",
        "if",
        "then",
        "else",
        "dependentSchemas",
        "patternProperties",
        "propertyNames",
        "title",
    ]
)
SCHEMA_VALUES = st.sampled_from(
    [
        "object",
        "string",
        "integer",
        "number",
        "array",
        "boolean",
        "null",
        "#",
        "#/$defs/a",
        "#/definitions/a",
        "https://example.com/s.json",
        "date-time",
        "^(a+)+$",
        "[",
        ["string", "null"],
        [],
        {},
        None,
        0,
        -1,
        2**64,
    ]
)
SCHEMAS = st.recursive(
    SCHEMA_VALUES,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(SCHEMA_WORDS | st.text(max_size=6), inner, max_size=5)
    ),
    max_leaves=20,
)
"""Schema-shaped JSON: schema keywords with schema-like values, nested arbitrarily."""


@st.composite
def schemas(draw: st.DrawFn) -> Any:
    """A mutated corpus schema, or a generated schema-shaped value."""
    pool = corpus_schemas()
    if pool and draw(st.booleans(), label="corpus schema?"):
        return mutate(draw, draw(st.sampled_from(pool), label="schema"))
    return draw(SCHEMAS, label="generated schema")
