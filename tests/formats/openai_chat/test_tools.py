"""Tool definitions, tool choice and the parallel switch of the Chat codec."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError, PayloadError
from toolwire.formats import ToolConfig, get_codec
from toolwire.formats import openai_chat as chat
from toolwire.ir import BuiltinTool, CustomTool, Notes, Tool, ToolChoice

WEATHER = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather of a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        "strict": True,
    },
}
GRAMMAR_TOOL = {
    "type": "custom",
    "custom": {
        "name": "math",
        "description": "Arithmetic",
        "format": {"type": "grammar", "grammar": {"definition": "start: NUMBER", "syntax": "lark"}},
    },
}


def _round_trip(fields: dict[str, Any]) -> dict[str, Any]:
    notes = Notes("strict")
    out = chat.encode_tool_config(chat.decode_tool_config(fields, notes), notes)
    assert not notes.items
    return out


def test_codec_registered() -> None:
    assert get_codec("openai-chat") is chat.CODEC
    assert chat.CODEC.name == "openai-chat"


def test_function_and_custom_tools_decode() -> None:
    tools = chat.decode_tools([WEATHER, GRAMMAR_TOOL], Notes("strict"))
    weather, math = tools
    assert isinstance(weather, Tool) and weather.strict is True and weather.description == "Weather of a city"
    assert weather.parameters is WEATHER["function"]["parameters"]  # passed by reference
    assert isinstance(math, CustomTool)
    assert math.format == {
        "type": "grammar",
        "definition": "start: NUMBER",
        "syntax": "lark",
    }  # IR's flat form
    assert chat.encode_tools(tools, Notes("strict")) == [WEATHER, GRAMMAR_TOOL]


def test_unknown_tool_type_is_kept_as_builtin() -> None:
    odd = {"type": "web_search_preview", "search_context_size": "low"}
    (tool,) = chat.decode_tools([odd], Notes("strict"))
    assert isinstance(tool, BuiltinTool) and tool.origin == "openai-chat" and tool.payload is odd
    assert chat.encode_tools([tool], Notes("strict")) == [odd]


def test_builtin_of_other_format_dropped_with_note() -> None:
    notes = Notes("warn")
    tool = BuiltinTool(
        origin="anthropic", wire_type="web_search_20250305", payload={"type": "web_search_20250305"}
    )
    assert chat.encode_tools([tool, Tool(name="f")], notes) == [
        {"type": "function", "function": {"name": "f"}}
    ]
    assert [(n.path, n.kind) for n in notes] == [("$.tools[0]", "dropped")]


@pytest.mark.parametrize(
    ("entry", "path"),
    [
        (None, "$.tools[1]"),
        ({"type": "function"}, "$.tools[1].function"),
        ({"type": "function", "function": {"description": "no name"}}, "$.tools[1].function"),
        ({"type": "function", "function": {"name": 3}}, "$.tools[1].function"),
        ({"type": "function", "function": {"name": "f", "parameters": []}}, "$.tools[1].function"),
        ({"type": "function", "function": {"name": "f", "strict": "yes"}}, "$.tools[1].function"),
        ({"type": "custom", "custom": "x"}, "$.tools[1].custom"),
        ({"function": {"name": "f"}}, "$.tools[1].type"),
    ],
)
def test_invalid_tool_entries(entry: Any, path: str) -> None:
    with pytest.raises(ConversionError) as info:
        chat.decode_tools([WEATHER, entry], Notes("strict"))
    assert info.value.path == path
    notes = Notes("drop")
    tools = chat.decode_tools([WEATHER, entry], notes)
    assert [t.name for t in tools] == ["get_weather"]  # type: ignore[union-attr]
    assert [(n.path, n.kind) for n in notes] == [(path, "skipped")]


def test_tools_not_a_list() -> None:
    with pytest.raises(PayloadError) as info:
        chat.decode_tools({"type": "function"}, Notes())
    assert info.value.path == "$.tools"


@pytest.mark.parametrize(
    "choice",
    [
        "auto",
        "none",
        "required",
        {"type": "function", "function": {"name": "get_weather"}},
        {"type": "custom", "custom": {"name": "math"}},
        {
            "type": "allowed_tools",
            "allowed_tools": {
                "mode": "required",
                "tools": [
                    {"type": "function", "function": {"name": "get_weather"}},
                    {"type": "custom", "custom": {"name": "math"}},
                ],
            },
        },
    ],
)
def test_tool_choice_round_trip(choice: Any) -> None:
    fields = {"tools": [WEATHER, GRAMMAR_TOOL], "tool_choice": choice, "parallel_tool_calls": False}
    assert _round_trip(fields) == fields


def test_tool_choice_ir() -> None:
    notes = Notes("strict")
    assert chat.decode_tool_choice("required") == ToolChoice(mode="required")
    named = chat.decode_tool_choice({"type": "function", "function": {"name": "f"}})
    assert (named.mode, named.name) == ("named", "f")
    allowed = chat.decode_tool_choice(
        {
            "type": "allowed_tools",
            "allowed_tools": {"mode": "auto", "tools": [{"type": "function", "function": {"name": "f"}}]},
        }
    )
    assert (allowed.mode, allowed.allowed) == ("auto", ("f",))
    # the kind of a named choice comes from the tool list, not from hints, across formats
    custom = ToolChoice(mode="named", name="math")
    assert chat.encode_tool_choice(custom, [CustomTool(name="math")], notes, same=False) == {
        "type": "custom",
        "custom": {"name": "math"},
    }


@pytest.mark.parametrize(
    ("choice", "path"),
    [
        ("any", "$.tool_choice"),
        (3, "$.tool_choice"),
        ({"type": "tool", "name": "f"}, "$.tool_choice.type"),
        ({"type": "function"}, "$.tool_choice.function"),
        ({"type": "function", "function": {"name": None}}, "$.tool_choice.function.name"),
        (
            {"type": "allowed_tools", "allowed_tools": {"mode": "any", "tools": []}},
            "$.tool_choice.allowed_tools.mode",
        ),
        (
            {"type": "allowed_tools", "allowed_tools": {"mode": "auto", "tools": [{"type": "function"}]}},
            "$.tool_choice.allowed_tools.tools[0].function",
        ),
    ],
)
def test_invalid_tool_choice(choice: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        chat.decode_tool_config({"tools": [WEATHER], "tool_choice": choice}, Notes())
    assert info.value.path == path


def test_legacy_functions_round_trip() -> None:
    fields = {
        "functions": [
            {"name": "book", "description": "", "parameters": {"type": "object", "properties": {}}}
        ],
        "function_call": {"name": "book"},
    }
    config = chat.decode_tool_config(fields, Notes("strict"))
    assert config.tool_choice is not None and config.tool_choice.mode == "named"
    assert _round_trip(fields) == fields
    assert _round_trip({**fields, "function_call": "auto"}) == {**fields, "function_call": "auto"}


def test_legacy_tools_become_modern_for_other_formats() -> None:
    """Hints of another origin are ignored: legacy IR tools sent cross-format use ``tools``."""
    legacy = chat.decode_tool_config({"functions": [{"name": "f"}], "function_call": "auto"}, Notes())
    out = chat.tools.encode_config(legacy, Notes("strict"), False)
    assert out == {"tools": [{"type": "function", "function": {"name": "f"}}], "tool_choice": "auto"}


def test_cross_format_choices() -> None:
    notes = Notes("warn")
    tools = (Tool(name="a"), Tool(name="b"))
    config = ToolConfig(
        tools=tools, tool_choice=ToolChoice(mode="required", allowed=("a",)), parallel_tool_calls=True
    )
    out = chat.tools.encode_config(config, notes, False)
    assert out["tool_choice"] == {
        "type": "allowed_tools",
        "allowed_tools": {"mode": "required", "tools": [{"type": "function", "function": {"name": "a"}}]},
    }
    assert out["parallel_tool_calls"] is True
    none = chat.tools.encode_config(
        ToolConfig(tools=tools, tool_choice=ToolChoice(mode="none", allowed=("a",))), notes, False
    )
    assert none["tool_choice"] == "none"
    assert [(n.path, n.kind) for n in notes] == [("$.tool_choice", "dropped")]


def test_tool_extras_survive_same_format_only() -> None:
    wire = {
        "type": "function",
        "function": {"name": "f", "x-extra": 1, "strict": None},
        "cache_control": {"a": 1},
    }
    (tool,) = chat.decode_tools([wire], Notes("strict"))
    assert chat.encode_tools([tool], Notes("strict")) == [wire]
    notes = Notes("warn")
    assert chat.tools.encode_config(ToolConfig(tools=(tool,)), notes, False) == {
        "tools": [{"type": "function", "function": {"name": "f"}}]
    }
    assert [(n.path, n.kind) for n in notes] == [
        ('$.tools[0].function["x-extra"]', "dropped"),
        ("$.tools[0].function.cache_control", "dropped"),
    ]
