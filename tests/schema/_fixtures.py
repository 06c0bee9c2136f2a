"""Tool and output schemas harvested from the recorded provider payloads (via ``tests.corpus``).

Every request, response and stream event of the four formats is searched (JSON strings inside are
parsed too) and schemas are recognized by the shape around them: Chat/Responses function tools
and ``json_schema`` response formats, Anthropic ``input_schema``, Gemini function declarations.
OpenAI Responses bodies echo the request's tools, so schemas the API *accepted* are found too.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from tests.corpus import samples


@dataclass(frozen=True)
class FixtureSchema:
    """One schema found in a fixture: where, for which format field, and whether it was strict."""

    id: str
    field: str  # "openai", "anthropic", "gemini", "gemini-json"
    strict: bool
    schema: Any


def _values(node: Any) -> list[Any]:
    """Every nested value; JSON object texts inside strings are parsed and included."""
    out, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, str) and item.lstrip().startswith("{"):
            try:
                item = json.loads(item)
            except ValueError:
                continue
        if isinstance(item, dict):
            out.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


def _found(node: dict[str, Any]) -> list[tuple[str, bool, Any]]:
    function = node.get("function")
    if node.get("type") == "function" and isinstance(function, dict) and "parameters" in function:
        return [("openai", function.get("strict") is True, function["parameters"])]
    if node.get("type") == "function" and "name" in node and "parameters" in node:
        return [("openai", node.get("strict") is True, node["parameters"])]
    if node.get("type") == "json_schema" and isinstance(node.get("json_schema"), dict):
        inner = node["json_schema"]
        return [("openai", inner.get("strict") is True, inner["schema"])] if "schema" in inner else []
    if "input_schema" in node and "name" in node:
        return [("anthropic", node.get("strict") is True, node["input_schema"])]
    found = []
    for key in ("functionDeclarations", "function_declarations"):
        for decl in node.get(key) or ():
            if isinstance(decl, dict) and "parameters" in decl:
                found.append(("gemini", False, decl["parameters"]))
            if isinstance(decl, dict) and "parametersJsonSchema" in decl:
                found.append(("gemini-json", False, decl["parametersJsonSchema"]))
    return found


def _payloads(sample: Any) -> list[Any]:
    if sample.kind == "stream":
        return [item.data for item in sample.payload if isinstance(item.data, dict)]
    return [sample.payload]


@functools.cache
def fixture_schemas() -> tuple[FixtureSchema, ...]:
    """Distinct schemas per field, in corpus order (requests, echoed tools in responses and streams)."""
    seen: set[tuple[str, bool, str]] = set()
    out: list[FixtureSchema] = []
    for sample in samples():
        for payload in _payloads(sample):
            for node in _values(payload):
                for field, strict, schema in _found(node):
                    key = (field, strict, json.dumps(schema, sort_keys=True))
                    if not sample.format.startswith(field.split("-")[0]):
                        continue  # e.g. an OpenAI MCP tool listing carries "input_schema" too
                    if isinstance(schema, (dict, bool)) and key not in seen:
                        seen.add(key)
                        out.append(FixtureSchema(f"{sample.id}#{len(out)}", field, strict, schema))
    return tuple(out)
