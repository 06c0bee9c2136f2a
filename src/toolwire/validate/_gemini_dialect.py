"""Gemini's wording of validation errors.

Two families, as the API answers them (status ``INVALID_ARGUMENT``): JSON-to-proto parse errors
(``Invalid JSON payload received. Unknown name "foo" at 'contents[0]': Cannot find field.``,
``Invalid value at 'contents[0].parts[0].function_response.response'
(type.googleapis.com/google.protobuf.Struct), "sunny"``) and request checks
(``* GenerateContentRequest.contents: contents is not specified``). Locations use the proto
field names (snake_case) with ``[i]`` indices.
"""

from __future__ import annotations

import json
import re
from typing import Any

from toolwire.validate._engine import (
    Anything,
    Arr,
    Bool,
    Dialect,
    Either,
    Int,
    Num,
    Obj,
    Path,
    Spec,
    Str,
    Tag,
)

__all__ = ["PROTO", "GeminiDialect", "camel", "request_check", "snake"]

PROTO = "type.googleapis.com/google.ai.generativelanguage.v1beta."
_UPPER = re.compile(r"(?<!^)([A-Z])")


def snake(name: str) -> str:
    """``functionCall`` -> ``function_call`` (proto field name)."""
    return _UPPER.sub(r"_\1", name).lower()


def camel(name: str) -> str:
    """``function_call`` -> ``functionCall`` (proto JSON name); other names are kept."""
    if "_" not in name or name.startswith("_"):
        return name
    head, *rest = name.split("_")
    return head + "".join(p[:1].upper() + p[1:] for p in rest)


def request_check(param: str, text: str) -> str:
    """A request-check message: ``* GenerateContentRequest.<param>: <text>``."""
    return f"* GenerateContentRequest.{param}: {text}"


def _proto_type(spec: Spec) -> str:
    if isinstance(spec, Either):
        return _proto_type(spec.options[-1])
    if isinstance(spec, Arr):
        return _proto_type(spec.items)
    if isinstance(spec, Str):
        return "TYPE_STRING"
    if isinstance(spec, Bool):
        return "TYPE_BOOL"
    if isinstance(spec, Int):
        return "TYPE_INT32"
    if isinstance(spec, Num):
        return "TYPE_FLOAT"
    if isinstance(spec, Obj) and spec.name:
        return spec.name if "." in spec.name and "/" in spec.name else PROTO + spec.name
    if isinstance(spec, Anything) and spec.kind == "any":
        return "type.googleapis.com/google.protobuf.Value"
    return "type.googleapis.com/google.protobuf.Struct"


class GeminiDialect(Dialect):
    """Proto field names in locations; proto-JSON parse errors and ``GenerateContentRequest`` checks."""

    def param(self, path: Path) -> str:
        out: list[str] = []
        for seg in path:
            if isinstance(seg, int):
                out.append(f"[{seg}]")
            elif not isinstance(seg, Tag):
                out.append(("." if out else "") + snake(seg))
        return "".join(out)

    def missing(self, param: str, name: str) -> str:
        return request_check(param, f"{snake(name)} is not specified")

    def wrong_type(self, param: str, spec: Spec, value: Any) -> str:
        shown = json.dumps(value, ensure_ascii=False)
        return f"Invalid value at '{param}' ({_proto_type(spec)}), {shown}"

    def bad_enum(self, param: str, value: Any, allowed: tuple[str, ...], name: str = "") -> str:
        shown = json.dumps(value, ensure_ascii=False)
        return f"Invalid value at '{param}' ({PROTO + name if name else 'TYPE_ENUM'}), {shown}"

    def bad_length(self, param: str, code: str, limit: int, actual: int) -> str:
        if code == "empty_array":
            return request_check(param, f"{param.rsplit('.', 1)[-1]} must not be empty.")
        if code == "empty_string":
            return request_check(param, f"{param.rsplit('.', 1)[-1]} must not be empty.")
        return request_check(param, f"must have at most {limit} elements, got {actual}.")

    def bad_number(self, param: str, code: str, limit: float, value: float) -> str:
        relation = "at most" if "above" in code else "at least"
        shown = int(limit) if float(limit).is_integer() else limit
        return request_check(param, f"must be {relation} {shown}, got {value}.")

    def unknown(self, param: str, name: str, parent: str) -> str:
        where = f" at '{parent}'" if parent else ""
        return f'Invalid JSON payload received. Unknown name "{name}"{where}: Cannot find field.'
