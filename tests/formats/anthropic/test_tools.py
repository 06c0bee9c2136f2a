"""Anthropic tool definitions, tool choice and the parallel switch."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError, PayloadError
from toolwire.formats import ToolConfig, get_codec
from toolwire.formats.anthropic import (
    CODEC,
    decode_tool_choice,
    decode_tool_config,
    decode_tools,
    encode_tool_choice,
    encode_tool_config,
    encode_tools,
)
from toolwire.formats.anthropic.tools import CUSTOM_INPUT_SCHEMA
from toolwire.ir import BuiltinTool, CustomTool, Notes, Tool, ToolChoice

_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}


def test_codec_is_registered() -> None:
    assert get_codec("anthropic") is CODEC
    assert CODEC.name == "anthropic"


def test_client_tool_decodes_with_extras() -> None:
    wire = [
        {
            "name": "get_weather",
            "description": "Weather.",
            "input_schema": _SCHEMA,
            "cache_control": {"type": "ephemeral"},
            "strict": True,
            "type": "custom",
        }
    ]
    (tool,) = decode_tools(wire, Notes("strict"))
    assert tool == Tool(
        name="get_weather",
        description="Weather.",
        parameters=_SCHEMA,
        strict=True,
        extra={"cache_control": {"type": "ephemeral"}, "~type": "custom"},
    )
    assert tool.parameters is _SCHEMA  # passed by reference
    assert encode_tools([tool], Notes("strict")) == wire


def test_server_tools_are_builtins() -> None:
    wire: list[dict[str, Any]] = [
        {"type": "web_search_20250305", "name": "web_search", "max_uses": 3},
        {"type": "bash_20250124", "name": "bash"},
        {"type": "text_editor_20250728", "name": "str_replace_based_edit_tool"},
    ]
    tools = decode_tools(wire, Notes("strict"))
    assert tools[0] == BuiltinTool(
        origin="anthropic", wire_type="web_search_20250305", payload=wire[0], name="web_search"
    )
    assert [t.wire_type for t in tools if isinstance(t, BuiltinTool)] == [w["type"] for w in wire]
    assert encode_tools(tools, Notes("strict")) == wire


@pytest.mark.parametrize(
    ("item", "path"),
    [
        (None, "$.tools[1]"),
        ({"description": "x", "input_schema": _SCHEMA}, "$.tools[1].name"),
        ({"name": "f"}, "$.tools[1].input_schema"),
        ({"name": "f", "input_schema": "object"}, "$.tools[1].input_schema"),
        ({"name": "f", "input_schema": _SCHEMA, "description": 3}, "$.tools[1].description"),
        ({"name": "f", "input_schema": _SCHEMA, "strict": "yes"}, "$.tools[1].strict"),
        ({"type": 7, "name": "f"}, "$.tools[1].type"),
    ],
)
def test_invalid_tools_skipped_or_raised(item: Any, path: str) -> None:
    good = {"name": "ok", "input_schema": _SCHEMA}
    notes = Notes("warn")
    tools = decode_tools([good, item], notes)
    assert [t.name for t in tools] == ["ok"]
    assert [(n.path, n.kind) for n in notes] == [(path, "skipped")]
    with pytest.raises(ConversionError) as err:
        decode_tools([good, item], Notes("strict"))
    assert err.value.path == path


def test_tools_must_be_an_array() -> None:
    with pytest.raises(PayloadError) as err:
        decode_tools({"name": "x"}, Notes())
    assert err.value.path == "$.tools"


def test_function_without_parameters_gets_an_empty_object_schema() -> None:
    out = encode_tools([Tool(name="ping")], Notes("strict"))
    assert out == [{"name": "ping", "input_schema": {"type": "object", "properties": {}}}]


def test_custom_tool_is_approximated_as_input_string() -> None:
    notes = Notes("warn")
    out = encode_tools([CustomTool(name="apply_patch", description="Patch.")], notes)
    assert out == [{"name": "apply_patch", "description": "Patch.", "input_schema": CUSTOM_INPUT_SCHEMA}]
    assert [(n.path, n.kind) for n in notes] == [("$.tools[0]", "approximated")]


def test_builtin_of_another_format_is_dropped() -> None:
    notes = Notes("warn")
    tool = BuiltinTool(origin="openai-responses", wire_type="web_search", payload={"type": "web_search"})
    assert encode_tools([Tool(name="a"), tool], notes) == [
        {"name": "a", "input_schema": {"type": "object", "properties": {}}}
    ]
    assert [(n.path, n.kind) for n in notes] == [("$.tools[1]", "dropped")]


def test_namespace_is_dropped_with_a_note() -> None:
    notes = Notes("warn")
    encode_tools([Tool(name="a", namespace="crm")], notes)
    assert [(n.path, n.kind) for n in notes] == [("$.tools[0].name", "dropped")]


# ---------------------------------------------------------------- tool choice


@pytest.mark.parametrize(
    ("wire", "choice", "parallel"),
    [
        ({"type": "auto"}, ToolChoice(mode="auto"), None),
        ({"type": "any"}, ToolChoice(mode="required"), None),
        ({"type": "none"}, ToolChoice(mode="none"), None),
        ({"type": "tool", "name": "f"}, ToolChoice(mode="named", name="f"), None),
        ({"type": "auto", "disable_parallel_tool_use": True}, ToolChoice(mode="auto"), False),
        ({"type": "any", "disable_parallel_tool_use": False}, ToolChoice(mode="required"), True),
        (
            {"type": "tool", "name": "f", "disable_parallel_tool_use": True},
            ToolChoice(mode="named", name="f"),
            False,
        ),
    ],
)
def test_tool_choice_both_ways(wire: dict[str, Any], choice: ToolChoice, parallel: bool | None) -> None:
    assert decode_tool_choice(wire) == (choice, parallel)
    assert encode_tool_choice(choice, parallel, Notes("strict")) == wire


def test_tool_choice_unknown_type_is_kept_raw_by_the_request() -> None:
    payload = {"tools": [], "tool_choice": {"type": "auto_v2"}}
    assert decode_tool_choice(payload["tool_choice"]) is None
    cfg = decode_tool_config(payload, Notes("strict"))
    assert cfg == ToolConfig()


@pytest.mark.parametrize(
    ("wire", "path"),
    [
        ("auto", "$.tool_choice"),
        ({"name": "f"}, "$.tool_choice.type"),
        ({"type": "tool"}, "$.tool_choice.name"),
    ],
)
def test_tool_choice_errors_have_paths(wire: Any, path: str) -> None:
    with pytest.raises(PayloadError) as err:
        decode_tool_config({"tool_choice": wire}, Notes())
    assert err.value.path == path


def test_parallel_false_without_choice_becomes_auto() -> None:
    notes = Notes("strict")
    assert encode_tool_choice(None, False, notes) == {"type": "auto", "disable_parallel_tool_use": True}
    assert [n.kind for n in notes] == ["synthesized"]  # informational, strict did not raise
    assert encode_tool_choice(None, True, Notes("strict")) is None


def test_parallel_is_not_sent_with_none() -> None:
    assert encode_tool_choice(ToolChoice(mode="none"), False, Notes("strict")) == {"type": "none"}


def test_allowed_list_single_required_becomes_named() -> None:
    notes = Notes("strict")
    out = encode_tool_choice(ToolChoice(mode="required", allowed=("f",)), None, notes)
    assert out == {"type": "tool", "name": "f"}


def test_allowed_list_is_approximated() -> None:
    notes = Notes("warn")
    out = encode_tool_choice(ToolChoice(mode="required", allowed=("f", "g")), True, notes)
    assert out == {"type": "any", "disable_parallel_tool_use": False}
    assert [(n.path, n.kind) for n in notes] == [("$.tool_choice", "approximated")]
    with pytest.raises(ConversionError):
        encode_tool_choice(ToolChoice(mode="auto", allowed=("f", "g")), None, Notes("strict"))


def test_empty_allowed_list_means_none() -> None:
    assert encode_tool_choice(ToolChoice(mode="auto", allowed=()), None, Notes("strict")) == {"type": "none"}


def test_named_without_name_is_approximated() -> None:
    notes = Notes("warn")
    assert encode_tool_choice(ToolChoice(mode="named"), None, notes) == {"type": "any"}
    assert [n.kind for n in notes] == ["approximated"]


def test_tool_config_round_trip() -> None:
    payload = {
        "model": "m",
        "tools": [
            {"name": "f", "input_schema": _SCHEMA},
            {"type": "web_search_20250305", "name": "web_search"},
        ],
        "tool_choice": {"type": "any", "disable_parallel_tool_use": True},
    }
    cfg = decode_tool_config(payload, Notes("strict"))
    assert cfg.parallel_tool_calls is False
    assert cfg.tool_choice == ToolChoice(mode="required")
    assert encode_tool_config(cfg, Notes("strict")) == {k: payload[k] for k in ("tools", "tool_choice")}


def test_tool_config_from_chat_ir() -> None:
    cfg = ToolConfig(
        tools=(Tool(name="f", parameters=_SCHEMA, strict=False),),
        tool_choice=ToolChoice(mode="named", name="f"),
        parallel_tool_calls=False,
    )
    assert encode_tool_config(cfg, Notes("strict")) == {
        "tools": [{"name": "f", "input_schema": _SCHEMA, "strict": False}],
        "tool_choice": {"type": "tool", "name": "f", "disable_parallel_tool_use": True},
    }
