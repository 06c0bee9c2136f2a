"""Realistic, deterministic payloads for benchmarks."""

from __future__ import annotations

import random
from typing import Any

__all__ = ["chat_tools"]

_WORDS = [
    "customer",
    "order",
    "invoice",
    "account",
    "ticket",
    "shipment",
    "product",
    "user",
    "region",
    "warehouse",
    "payment",
    "refund",
    "message",
    "calendar",
    "event",
    "document",
    "folder",
    "repository",
    "branch",
    "commit",
    "issue",
    "label",
    "report",
    "metric",
]


def _property(rng: random.Random, depth: int) -> dict[str, Any]:
    kind = rng.choice(("string", "integer", "number", "boolean", "enum", "array", "object"))
    description = f"The {rng.choice(_WORDS)} {rng.choice(_WORDS)} to use, as described in the docs."
    if kind == "enum":
        return {"type": "string", "enum": rng.sample(_WORDS, 4), "description": description}
    if kind == "array":
        return {"type": "array", "items": {"type": "string"}, "description": description, "maxItems": 20}
    if kind == "object" and depth < 2:
        return _object(rng, depth + 1, description)
    if kind == "object":
        kind = "string"
    return {"type": kind, "description": description}


def _object(rng: random.Random, depth: int, description: str | None = None) -> dict[str, Any]:
    names = rng.sample(_WORDS, rng.randint(2, 6))
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {
            f"{n}_{'id' if i % 2 else 'name'}": _property(rng, depth) for i, n in enumerate(names)
        },
        "required": [f"{names[0]}_name"],
    }
    if description:
        schema["description"] = description
    return schema


def chat_tools(count: int = 128, seed: int = 7) -> list[dict[str, Any]]:
    """``count`` OpenAI Chat function tools with nested, varied parameter schemas."""
    rng = random.Random(seed)
    tools = []
    for index in range(count):
        verb, noun = rng.choice(("get", "list", "create", "update", "delete")), rng.choice(_WORDS)
        function: dict[str, Any] = {
            "name": f"{verb}_{noun}_{index}",
            "description": f"{verb.title()} a {noun} by its identifier and return the full record.",
            "parameters": _object(rng, 0),
        }
        if index % 3 == 0:
            function["strict"] = False
        tools.append({"type": "function", "function": function})
    return tools
