"""Deterministic tool arguments from a JSON Schema.

:func:`example_value` walks a schema and builds the same value every time: ``const``, then
``examples``/``default``, then the first ``enum`` member, else a value of the (first non-null)
type that honors bounds (``minimum``, ``minLength``, ``minItems``...) and ``required``.
Local ``$ref`` (``#/$defs/...``, ``#/definitions/...``) are followed; ``anyOf``/``oneOf`` take
the first non-null branch; ``allOf`` branches are merged. Plain strings (no ``format``) take the
``hints`` in order (words from the user's text, see :func:`text_hints`), then the property name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["example_arguments", "example_value", "text_hints"]

_MAX_DEPTH = 12
_Builder = Callable[[dict[str, Any], "_Ctx", str, int], Any]
_QUOTED = re.compile(r"\"([^\"]{1,80})\"|'([^']{1,80})'")
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][\w-]+(?:\s+[A-Z][\w-]+)*")


@dataclass(slots=True)
class _Ctx:
    """The schema root (for ``$ref``) and the string hints not used yet."""

    root: dict[str, Any]
    hints: list[str] = field(default_factory=list)


def text_hints(text: str) -> list[str]:
    """Values a user's text suggests, in order: quoted strings, then capitalized names that do not
    start a sentence (``"Weather in Paris?"`` -> ``["Paris"]``)."""
    quoted = [a or b for a, b in _QUOTED.findall(text)]
    bare = _QUOTED.sub(" ", text)
    return quoted + [m.group(0) for m in _NAME.finditer(bare.strip())]


_FORMATS: dict[str, str] = {
    "date": "2024-01-15",
    "date-time": "2024-01-15T12:00:00Z",
    "time": "12:00:00",
    "email": "user@example.com",
    "uri": "https://example.com",
    "url": "https://example.com",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "hostname": "example.com",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
}


def example_arguments(schema: dict[str, Any] | None, hints: Sequence[str] = ()) -> dict[str, Any]:
    """Arguments object for a tool whose parameters are ``schema`` (``{}`` for no schema)."""
    if not schema:
        return {}
    value = _value(schema, _Ctx(schema, list(hints)), "value", 0)
    return value if isinstance(value, dict) else {}


def example_value(schema: Any, *, key: str = "value", hints: Sequence[str] = ()) -> Any:
    """A deterministic value valid for ``schema``; ``key`` names the property (used for strings)."""
    return _value(schema, _Ctx(schema if isinstance(schema, dict) else {}, list(hints)), key, 0)


def _value(schema: Any, ctx: _Ctx, key: str, depth: int) -> Any:
    if not isinstance(schema, dict) or depth > _MAX_DEPTH:
        return None if depth > _MAX_DEPTH else key
    schema = _resolve(schema, ctx.root)
    if "const" in schema:
        return schema["const"]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    if "default" in schema:
        return schema["default"]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return next((v for v in enum if v is not None), enum[0])
    branch = _branch(schema, ctx.root)
    if branch is not None:
        return _value(branch, ctx, key, depth + 1)
    builder: _Builder = _BUILDERS.get(_type(schema), _build_string)
    return builder(schema, ctx, key, depth)


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    seen = 0
    while isinstance(schema.get("$ref"), str) and seen < _MAX_DEPTH:
        ref: str = schema["$ref"]
        target: Any = root
        for token in ref.removeprefix("#").strip("/").split("/") if ref.startswith("#") else ["?"]:
            if not token:
                continue
            token = token.replace("~1", "/").replace("~0", "~")
            target = target.get(token) if isinstance(target, dict) else None
        if not isinstance(target, dict):
            return {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
        seen += 1
    all_of = schema.get("allOf")
    if isinstance(all_of, list):
        merged = {k: v for k, v in schema.items() if k != "allOf"}
        for part in all_of:
            if isinstance(part, dict):
                _merge(merged, _resolve(part, root))
        return merged
    return schema


def _merge(into: dict[str, Any], part: dict[str, Any]) -> None:
    for k, v in part.items():
        if k == "properties" and isinstance(v, dict):
            into["properties"] = {**into.get("properties", {}), **v}
        elif k == "required" and isinstance(v, list):
            into["required"] = [*into.get("required", []), *v]
        else:
            into.setdefault(k, v)


def _branch(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any] | None:
    for keyword in ("anyOf", "oneOf"):
        options = schema.get(keyword)
        if isinstance(options, list) and options:
            usable = [o for o in options if isinstance(o, dict) and _type(_resolve(o, root)) != "null"]
            return usable[0] if usable else options[0]
    return None


def _type(schema: dict[str, Any]) -> str:
    """The (first non-null) type, lower case: Gemini's OpenAPI schemas spell it ``STRING``."""
    t = schema.get("type")
    if isinstance(t, list):
        t = next((x for x in t if str(x).lower() != "null"), "null")
    if isinstance(t, str):
        return t.lower()
    if "properties" in schema:
        return "object"
    if "items" in schema:
        return "array"
    return "string"


def _build_object(schema: dict[str, Any], ctx: _Ctx, key: str, depth: int) -> dict[str, Any]:
    props = schema.get("properties")
    props = props if isinstance(props, dict) else {}
    required = schema.get("required")
    names = list(props)
    if isinstance(required, list):
        names += [r for r in required if isinstance(r, str) and r not in props]
    return {n: _value(props.get(n, {}), ctx, n, depth + 1) for n in names}


def _build_array(schema: dict[str, Any], ctx: _Ctx, key: str, depth: int) -> list[Any]:
    items = schema.get("items")
    prefix = schema.get("prefixItems")
    if isinstance(prefix, list):
        return [_value(s, ctx, key, depth + 1) for s in prefix]
    count = max(_int(schema.get("minItems"), 1), 1)
    maximum = schema.get("maxItems")
    if isinstance(maximum, int):
        count = min(count, maximum)
    return [_value(items if isinstance(items, dict) else {}, ctx, key, depth + 1) for _ in range(count)]


def _int(value: Any, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def _number(schema: dict[str, Any], integer: bool) -> int | float:
    value: float = 1 if integer else 1.5
    low, high = schema.get("minimum"), schema.get("maximum")
    ex_low, ex_high = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    if isinstance(low, (int, float)) and value < low:
        value = low
    if isinstance(ex_low, (int, float)) and value <= ex_low:
        value = ex_low + 1
    if isinstance(high, (int, float)) and value > high:
        value = high
    if isinstance(ex_high, (int, float)) and value >= ex_high:
        value = ex_high - 1
    return int(value) if integer else float(value)


def _build_string(schema: dict[str, Any], ctx: _Ctx, key: str, depth: int) -> str:
    fmt = schema.get("format")
    if isinstance(fmt, str):
        text = _FORMATS.get(fmt, key)
    else:
        text = ctx.hints.pop(0) if ctx.hints and "pattern" not in schema else key
    low = _int(schema.get("minLength"), 0)
    high = schema.get("maxLength")
    if len(text) < low:
        text = text + "x" * (low - len(text))
    if isinstance(high, int) and len(text) > high:
        text = text[:high]
    return text


def _build_integer(schema: dict[str, Any], ctx: _Ctx, key: str, depth: int) -> int | float:
    return _number(schema, True)


def _build_number(schema: dict[str, Any], ctx: _Ctx, key: str, depth: int) -> int | float:
    return _number(schema, False)


def _build_boolean(schema: dict[str, Any], ctx: _Ctx, key: str, depth: int) -> bool:
    return True


def _build_null(schema: dict[str, Any], ctx: _Ctx, key: str, depth: int) -> None:
    return None


_BUILDERS: dict[str, _Builder] = {
    "object": _build_object,
    "array": _build_array,
    "string": _build_string,
    "integer": _build_integer,
    "number": _build_number,
    "boolean": _build_boolean,
    "null": _build_null,
}
