"""Tools registered by JSON Schema: the schema is checked offline at registration, every call is validated."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from toolwire.errors import SchemaError
from toolwire.ir import TextPart, ToolCall, ToolResult
from toolwire.runner import Toolbox, execute_sync

ROUTE = {
    "type": "object",
    "$defs": {
        "stop": {
            "type": "object",
            "properties": {"lat": {"type": "number"}, "lon": {"type": "number"}},
            "required": ["lat", "lon"],
            "additionalProperties": False,
        }
    },
    "properties": {
        "stops": {"type": "array", "items": {"$ref": "#/$defs/stop"}, "minItems": 1},
        "mode": {"anyOf": [{"const": "car"}, {"const": "bike"}]},
        "when": {"type": "string", "format": "date-time"},
    },
    "required": ["stops"],
}


def route(**arguments: Any) -> str:
    return f"route with {len(arguments['stops'])} stops, keys {sorted(arguments)}"


def run_call(box: Toolbox, arguments: str, name: str = "route") -> ToolResult:
    [result] = execute_sync([ToolCall(id="call_1", name=name, arguments=arguments)], box)
    return result


def text(result: ToolResult) -> str:
    return "".join(p.text for p in result.content if isinstance(p, TextPart))


@pytest.fixture
def box() -> Toolbox:
    toolbox = Toolbox()
    toolbox.register_schema("route", ROUTE, route, description="Plan a route.")
    return toolbox


def test_valid_arguments_reach_the_handler(box: Toolbox) -> None:
    result = run_call(
        box, '{"stops": [{"lat": 1, "lon": 2.5}], "mode": "bike", "when": "2024-01-15T12:00:00Z"}'
    )
    assert result.is_error is None
    assert text(result) == "route with 1 stops, keys ['mode', 'stops', 'when']"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ('{"stops": [{"lat": "x", "lon": 1}]}', '$.stops[0].lat: "x" is not of type "number"'),
        ('{"stops": [{"lat": 1}]}', '$.stops[0]: "lon" is a required property'),
        ('{"stops": [{"lat": 1, "lon": 1, "alt": 3}]}', "$.stops[0]: Additional properties are not allowed"),
        ('{"stops": []}', "$.stops: [] has less than 1 item"),
        ('{"stops": [{"lat": 1, "lon": 1}], "mode": "boat"}', '$.mode: "boat" is not valid under any'),
        ('{"stops": [{"lat": 1, "lon": 1}], "when": "tomorrow"}', '$.when: "tomorrow" is not a "date-time"'),
        ("{}", '$: "stops" is a required property'),
        ("[1]", "$: tool arguments must be a JSON object, got array"),
    ],
)
def test_invalid_arguments_become_the_error_result(box: Toolbox, arguments: str, message: str) -> None:
    result = run_call(box, arguments)
    assert result.is_error is True
    assert text(result).startswith(f"Error: invalid arguments for 'route': {message}")


def test_validation_does_not_need_the_jsonschema_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """The old Toolbox skipped validation without a word when ``jsonschema`` was missing."""
    monkeypatch.setitem(sys.modules, "jsonschema", None)
    toolbox = Toolbox()
    toolbox.register_schema("route", ROUTE, route)
    assert text(run_call(toolbox, '{"stops": [{"lat": 1}]}')).endswith('"lon" is a required property')


@pytest.mark.parametrize(
    ("schema", "path"),
    [
        ({"type": "object", "properties": {"home": {"$ref": "https://example.com/address.json"}}}, "home"),
        ({"type": "object", "properties": {"home": {"$ref": "http://example.com/a.json#/$defs/x"}}}, "home"),
        (
            {"type": "object", "properties": {"home": {"$dynamicRef": "https://example.com/a.json"}}},
            "home",
        ),
    ],
)
def test_remote_ref_is_refused_at_registration(schema: dict[str, Any], path: str) -> None:
    toolbox = Toolbox()
    with pytest.raises(SchemaError) as info:
        toolbox.register_schema("t", schema, route)
    key = next(iter(schema["properties"][path]))
    assert info.value.path == f'$.properties.{path}["{key}"]'
    assert info.value.message.startswith(f"remote {key} ")
    assert "never fetches schemas" in info.value.message
    assert "t" not in toolbox


def test_ref_relative_to_a_remote_base_is_refused_not_fetched() -> None:
    """``item.json`` under a remote ``$id`` is remote: the compiler asks our retriever, which refuses."""
    schema = {
        "$id": "https://example.com/root.json",
        "type": "object",
        "properties": {"item": {"$ref": "item.json"}},
    }
    with pytest.raises(SchemaError) as info:
        Toolbox().register_schema("t", schema, route)
    assert info.value.path == '$.properties.item["$ref"]'
    assert "https://example.com/item.json" in info.value.message
    assert "toolwire never fetches schemas" in info.value.message


@pytest.mark.parametrize(
    ("schema", "path", "fragment"),
    [
        (
            {"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}},
            '$.properties.a["$ref"]',
            "points to nothing",
        ),
        (
            {"type": "object", "$defs": {"x": {}}, "properties": {"a": {"items": {"$ref": "#/$defs/x/y"}}}},
            '$.properties.a.items["$ref"]',
            "points to nothing",
        ),
        ({"type": "object", "properties": {"a": {"$ref": "#nowhere"}}}, '$.properties.a["$ref"]', "nowhere"),
        (
            {"type": "object", "properties": {"a": {"$ref": "other.json"}}},
            '$.properties.a["$ref"]',
            "other.json",
        ),
        ({"$schema": "https://example.com/my-meta", "type": "object"}, '$["$schema"]', "never fetched"),
    ],
)
def test_unresolvable_ref_is_refused_at_registration(
    schema: dict[str, Any], path: str, fragment: str
) -> None:
    with pytest.raises(SchemaError) as info:
        Toolbox().register_schema("t", schema, route)
    assert info.value.path == path
    assert fragment in info.value.message


def test_refs_inside_the_schema_resolve() -> None:
    """A ``$ref`` naming the schema's own ``$id``, an anchor, and draft-07 ``definitions`` all resolve."""
    toolbox = Toolbox()
    toolbox.register_schema(
        "own_id",
        {
            "$id": "https://example.com/tool.json",
            "type": "object",
            "$defs": {"city": {"$anchor": "city", "type": "string"}},
            "properties": {
                "a": {"$ref": "https://example.com/tool.json#/$defs/city"},
                "b": {"$ref": "#city"},
            },
        },
        lambda **kw: "ok",
    )
    toolbox.register_schema(
        "draft7",
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "definitions": {"n": {"type": "integer"}},
            "properties": {"n": {"$ref": "#/definitions/n"}},
        },
        lambda **kw: "ok",
    )
    assert text(run_call(toolbox, '{"a": "Oslo", "b": "Rome"}', "own_id")) == "ok"
    assert text(run_call(toolbox, '{"a": "Oslo", "b": 3}', "own_id")).endswith(
        '$.b: 3 is not of type "string"'
    )
    assert text(run_call(toolbox, '{"n": 2}', "draft7")) == "ok"
    assert text(run_call(toolbox, '{"n": 2.5}', "draft7")).endswith('$.n: 2.5 is not of type "integer"')
