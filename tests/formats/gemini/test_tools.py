"""Gemini tool definitions and tool choice, both directions."""

from __future__ import annotations

import importlib.util
from typing import Any

import pytest

from toolwire.formats import ToolConfig, gemini
from toolwire.ir import BuiltinTool, CustomTool, Notes, Tool, ToolChoice

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}}


@pytest.mark.parametrize(
    ("wire", "choice"),
    [
        ({"mode": "AUTO"}, ToolChoice(mode="auto")),
        ({"mode": "NONE"}, ToolChoice(mode="none")),
        ({"mode": "ANY"}, ToolChoice(mode="required")),
        ({"mode": "ANY", "allowedFunctionNames": ["a"]}, ToolChoice(mode="named", name="a")),
        (
            {"mode": "ANY", "allowedFunctionNames": ["a", "b"]},
            ToolChoice(mode="required", allowed=("a", "b")),
        ),
        ({"mode": "VALIDATED"}, ToolChoice(mode="auto", extra={"~mode": "VALIDATED"})),
        ({"mode": "MODE_UNSPECIFIED"}, ToolChoice(mode="auto", extra={"~mode": "MODE_UNSPECIFIED"})),
        ({}, ToolChoice(mode="auto", extra={"~mode": ""})),
    ],
)
def test_tool_choice_both_ways(wire: dict[str, Any], choice: ToolChoice) -> None:
    config = {"functionCallingConfig": wire}
    assert gemini.decode_tool_choice(config) == choice
    assert gemini.encode_tool_choice(choice, Notes("strict")) == config


@pytest.mark.parametrize(
    ("choice", "fcc", "noted"),
    [
        (ToolChoice(mode="auto"), {"mode": "AUTO"}, False),
        (ToolChoice(mode="required"), {"mode": "ANY"}, False),
        (ToolChoice(mode="named", name="f"), {"mode": "ANY", "allowedFunctionNames": ["f"]}, False),
        (
            ToolChoice(mode="auto", allowed=("f", "g")),
            {"mode": "VALIDATED", "allowedFunctionNames": ["f", "g"]},
            True,
        ),
        (ToolChoice(mode="none", allowed=("f",)), {"mode": "NONE"}, True),
        (ToolChoice(mode="auto", extra={"~legacy": True}), {"mode": "AUTO"}, False),
    ],
)
def test_tool_choice_from_other_formats(choice: ToolChoice, fcc: dict[str, Any], noted: bool) -> None:
    notes = Notes("strict")  # approximations here are harmless: info notes only
    assert gemini.encode_tool_choice(choice, notes, same=False) == {"functionCallingConfig": fcc}
    assert bool(notes.items) is noted


def test_tool_config_keeps_other_fields() -> None:
    payload = {"toolConfig": {"includeServerSideToolInvocations": True}}
    cfg = gemini.decode_tool_config(payload, Notes("strict"))
    assert cfg.tool_choice == ToolChoice(
        mode="auto", extra={"includeServerSideToolInvocations": True, "~nofcc": True}
    )
    assert gemini.encode_tool_config(cfg, Notes("strict")) == payload
    notes = Notes("warn")
    assert gemini.encode_tool_choice(cfg.tool_choice, notes, same=False) == {
        "functionCallingConfig": {"mode": "AUTO"}
    }
    assert [(n.path, n.kind) for n in notes] == [("$.toolConfig.includeServerSideToolInvocations", "dropped")]


def test_declarations_and_builtins() -> None:
    wire = [
        {"functionDeclarations": [{"name": "a", "description": "A", "parameters": SCHEMA}]},
        {"googleSearch": {}},
        {
            "function_declarations": [
                {"name": "b", "parametersJsonSchema": SCHEMA, "behavior": "NON_BLOCKING"}
            ]
        },
    ]
    tools = gemini.decode_tools(wire, Notes("strict"))
    assert tools == (
        Tool(name="a", description="A", parameters=SCHEMA, extra={"~schema": "parameters", "~group": 0}),
        BuiltinTool(origin="gemini", wire_type="googleSearch", payload={"googleSearch": {}}),
        Tool(
            name="b",
            parameters=SCHEMA,
            extra={
                "behavior": "NON_BLOCKING",
                "~schema": "parametersJsonSchema",
                "~group": 2,
                "~snake.group": True,
            },
        ),
    )
    assert tools[0].parameters is SCHEMA  # passed by reference
    assert gemini.encode_tools(tools, Notes("strict")) == wire


def test_tools_of_other_formats_go_into_one_group() -> None:
    tools = (
        Tool(name="a", parameters=SCHEMA, strict=True, extra={"cache_control": {"type": "ephemeral"}}),
        CustomTool(name="patch", description="Apply a patch"),
        BuiltinTool(
            origin="anthropic", wire_type="web_search_20250305", payload={"type": "web_search_20250305"}
        ),
        Tool(name="b"),
    )
    notes = Notes("warn")
    out = gemini.encode_tools(tools, notes, same=False)
    assert out == [
        {
            "functionDeclarations": [
                {"name": "a", "parametersJsonSchema": SCHEMA},
                {
                    "name": "patch",
                    "description": "Apply a patch",
                    "parametersJsonSchema": {
                        "type": "object",
                        "properties": {"input": {"type": "string"}},
                        "required": ["input"],
                    },
                },
                {"name": "b"},
            ]
        }
    ]
    assert [(n.path, n.kind) for n in notes] == [
        ("$.tools[0].strict", "dropped"),
        ("$.tools[0].cache_control", "dropped"),
        ("$.tools[1]", "approximated"),
        ("$.tools[2]", "dropped"),
    ]


def test_parallel_switch_is_noted() -> None:
    notes = Notes("warn")
    assert gemini.encode_tool_config(ToolConfig(parallel_tool_calls=False), notes) == {}
    assert [(n.path, n.kind) for n in notes] == [("$.parallel_tool_calls", "dropped")]
    assert gemini.encode_tool_config(ToolConfig(parallel_tool_calls=True), Notes("strict")) == {}


_HAS_SCHEMA = importlib.util.find_spec("toolwire.schema") is not None and hasattr(
    importlib.import_module("toolwire.schema"), "to_gemini"
)


@pytest.mark.skipif(not _HAS_SCHEMA, reason="toolwire.schema.to_gemini is not written yet")
def test_openapi_schema_mode_converts_foreign_schemas() -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"type": ["string", "null"]}},
        "additionalProperties": False,
    }
    out = gemini.encode_tools(
        (Tool(name="f", parameters=schema),), Notes("drop"), schema_mode="openapi", same=False
    )
    decl = out[0]["functionDeclarations"][0]
    assert set(decl) == {"name", "parameters"}
    assert "additionalProperties" not in decl["parameters"]
    # a Gemini tool keeps the field and schema it came with
    own = Tool(name="g", parameters=schema, extra={"~schema": "parametersJsonSchema"})
    out = gemini.encode_tools((own,), Notes("strict"), schema_mode="openapi")
    assert out[0]["functionDeclarations"][0]["parametersJsonSchema"] is schema
