"""The tool definitions and results the loopback tests use, in each SDK's spelling."""

from __future__ import annotations

import json
from typing import Any

WEATHER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    },
    "required": ["city", "unit"],
    "additionalProperties": False,
}
TIME_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"timezone": {"type": "string", "enum": ["UTC", "CET"]}},
    "required": ["timezone"],
    "additionalProperties": False,
}
SCHEMAS = {"get_weather": WEATHER_SCHEMA, "get_time": TIME_SCHEMA}
EXPECTED_ARGS = {"get_weather": {"city": "city", "unit": "celsius"}, "get_time": {"timezone": "UTC"}}
"""Arguments the emulator builds from the schemas when the user's text names nothing."""


def expected_args(name: str, text: str) -> dict[str, Any]:
    """The arguments for ``name``; a text mentioning Paris puts it in the first plain string."""
    args = dict(EXPECTED_ARGS[name])
    if "Paris" in text and name == "get_weather":
        args["city"] = "Paris"
    return args


def result_for(name: str) -> str:
    """The (JSON text) result a test tool returns."""
    return json.dumps({"get_weather": {"temp_c": 21, "sky": "clear"}, "get_time": {"time": "12:00"}}[name])


def chat_tools() -> list[dict[str, Any]]:
    return [{"type": "function", "function": {"name": n, "parameters": s}} for n, s in SCHEMAS.items()]


def responses_tools() -> list[dict[str, Any]]:
    return [{"type": "function", "name": n, "parameters": s, "strict": True} for n, s in SCHEMAS.items()]


def anthropic_tools() -> list[dict[str, Any]]:
    return [{"name": n, "input_schema": s} for n, s in SCHEMAS.items()]
