"""Read just the parts of the official specs the table cross-checks need (fast, no full YAML load)."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import yaml

from tests import data

SPECS = data.SPECS
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCHEMA_START = re.compile(r"^    ([A-Za-z0-9_.-]+):\s*$")


def available() -> bool:
    """Whether the spec folder is present."""
    return (SPECS / "openai-openapi.yaml").is_file() and (SPECS / "anthropic-openapi.json").is_file()


@cache
def _openai_blocks() -> dict[str, str]:
    """Schema name -> its YAML text, sliced from ``components.schemas`` by indentation."""
    text = (SPECS / "openai-openapi.yaml").read_text(encoding="utf-8")
    section = text[text.index("\ncomponents:\n") :]
    section = section[section.index("\n  schemas:\n") + len("\n  schemas:\n") :]
    blocks: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in section.splitlines():
        if line and not line.startswith("    ") and line.strip():
            break  # the next components key (e.g. "  securitySchemes:")
        match = _SCHEMA_START.match(line)
        if match:
            current = blocks.setdefault(match.group(1), [])
        elif current is not None:
            current.append(line[6:] if line.startswith("      ") else line.strip())
    return {name: "\n".join(lines) for name, lines in blocks.items()}


@cache
def openai(name: str) -> Any:
    """One OpenAI component schema, parsed."""
    return yaml.load(_openai_blocks()[name], Loader=_LOADER)


@cache
def _anthropic() -> dict[str, Any]:
    schemas: dict[str, Any] = json.loads((SPECS / "anthropic-openapi.json").read_text("utf-8"))["components"][
        "schemas"
    ]
    return schemas


def anthropic(name: str) -> Any:
    """One Anthropic component schema."""
    return _anthropic()[name]


def resolve(schema: Any, lookup: Any) -> Any:
    """Follow ``$ref`` chains."""
    while isinstance(schema, dict) and "$ref" in schema:
        schema = lookup(schema["$ref"].rsplit("/", 1)[-1])
    return schema


def properties(schema: Any, lookup: Any) -> tuple[dict[str, Any], set[str]]:
    """Properties and required names of an object schema, ``allOf`` merged."""
    schema = resolve(schema, lookup)
    props: dict[str, Any] = dict(schema.get("properties", {}))
    required: set[str] = set(schema.get("required", []))
    for part in schema.get("allOf", []):
        more, req = properties(part, lookup)
        props.update(more)
        required |= req
    return props, required


def enum_of(schema: Any, lookup: Any) -> set[str]:
    """String enum values of a schema (through ``$ref``, ``anyOf``/``oneOf`` and ``const``)."""
    schema = resolve(schema, lookup)
    if not isinstance(schema, dict):
        return set()
    values = {v for v in schema.get("enum", []) if isinstance(v, str)}
    if isinstance(schema.get("const"), str):
        values.add(schema["const"])
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key, []):
            values |= enum_of(option, lookup)
    return values


def variant_tags(schema: Any, lookup: Any, key: str = "type") -> set[str]:
    """Tag values of a ``oneOf`` union (each variant's ``key`` enum/const), nested unions flattened."""
    schema = resolve(schema, lookup)
    tags: set[str] = set()
    for option in schema.get("oneOf", []) + schema.get("anyOf", []):
        option = resolve(option, lookup)
        if "properties" in option and key in option["properties"]:
            tags |= enum_of(option["properties"][key], lookup)
        elif "oneOf" in option or "anyOf" in option:
            tags |= variant_tags(option, lookup, key)
    return tags


# --- Gemini protos -------------------------------------------------------------------------------


@cache
def _proto_text() -> str:
    folder = SPECS / "gemini-generativelanguage-v1beta"
    text = "\n".join(p.read_text("utf-8") for p in sorted(folder.glob("*.proto")))
    return re.sub(r"//[^\n]*", "", text)


def _body(kind: str, name: str) -> str:
    text = _proto_text()
    start = re.search(rf"\b{kind} {name} \{{", text)
    assert start is not None, f"{kind} {name} not in the protos"
    depth, i = 1, start.end()
    while depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[start.end() : i - 1]


def _top_level(body: str) -> str:
    """The body without nested message/enum definitions (oneof groups are kept)."""
    out, depth, skipping = [], 0, False
    for line in body.splitlines():
        stripped = line.strip()
        if depth == 0 and re.match(r"(message|enum) \w+ \{", stripped):
            skipping = True
        if skipping:
            depth += line.count("{") - line.count("}")
            if depth == 0:
                skipping = False
            continue
        out.append(line)
    return "\n".join(out)


def proto_fields(message: str) -> dict[str, bool]:
    """Field name (its ``json_name`` when set) -> REQUIRED, for a proto message's top-level fields."""
    body = _top_level(_body("message", message))
    fields: dict[str, bool] = {}
    for match in re.finditer(r"(?:optional |repeated )?[\w.<>, ]+? (\w+) = \d+\s*(\[[^\]]*\])?\s*;", body):
        options = match.group(2) or ""
        json_name = re.search(r'json_name = "(\w+)"', options)
        fields[json_name.group(1) if json_name else match.group(1)] = "REQUIRED" in options
    return fields


def proto_enum(name: str, within: str | None = None) -> set[str]:
    """Value names of a proto enum, optionally the one nested in message ``within``."""
    text = _body("message", within) if within else _proto_text()
    start = re.search(rf"\benum {name} \{{", text)
    assert start is not None, f"enum {name} not found"
    body = text[start.end() : text.index("}", start.end())]
    return set(re.findall(r"(\w+) = \d+\s*(?:\[[^\]]*\])?\s*;", body))
