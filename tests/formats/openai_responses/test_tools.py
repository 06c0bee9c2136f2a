"""Responses tool definitions, namespaces, built-ins, tool choice and the Chat seed contract."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError, PayloadError
from toolwire.formats import ToolConfig, get_codec
from toolwire.formats import openai_responses as resp
from toolwire.ir import BuiltinTool, CustomTool, Notes, Tool, ToolChoice

GRAMMAR = {"type": "grammar", "syntax": "lark", "definition": "start: /[a-z]+/"}
NAMESPACED: list[dict[str, Any]] = [
    {
        "type": "namespace",
        "name": "crm",
        "description": "Customer tools",
        "tools": [
            {"type": "function", "name": "find", "parameters": {"type": "object"}},
            {"type": "custom", "name": "query", "format": GRAMMAR},
        ],
    },
    {
        "type": "namespace",
        "name": "crm",
        "description": "a second block of the same namespace",
        "tools": [{"type": "function", "name": "drop", "strict": True, "parameters": None}],
    },
    {"type": "web_search_preview", "search_context_size": "low"},
    {"type": "function", "name": "f", "description": None, "parameters": {"type": "object"}, "strict": True},
]


def test_namespaces_flatten_and_regroup_exactly() -> None:
    notes = Notes("strict")
    tools = resp.decode_tools(NAMESPACED, notes)
    assert [(type(t).__name__, getattr(t, "namespace", None)) for t in tools] == [
        ("Tool", "crm"),
        ("CustomTool", "crm"),
        ("Tool", "crm"),
        ("BuiltinTool", None),
        ("Tool", None),
    ]
    custom = tools[1]
    assert isinstance(custom, CustomTool) and custom.format == GRAMMAR
    builtin = tools[3]
    assert isinstance(builtin, BuiltinTool)
    assert builtin.origin == "openai-responses" and builtin.payload is NAMESPACED[2]
    assert resp.encode_tools(tools, notes) == NAMESPACED
    assert not notes.items


def test_namespace_without_wrapper_hint_gets_an_empty_description() -> None:
    notes = Notes()
    tools = (Tool(name="a", namespace="ns", parameters={}, strict=True), Tool(name="b", namespace="ns"))
    out = resp.encode_tools(tools, notes)
    assert out == [
        {
            "type": "namespace",
            "name": "ns",
            "description": "",
            "tools": [
                {"type": "function", "name": "a", "parameters": {}, "strict": True},
                {
                    "type": "function",
                    "name": "b",
                    "parameters": {"type": "object", "properties": {}},
                    "strict": False,
                },
            ],
        }
    ]
    assert [n.kind for n in notes] == ["synthesized"] * 3


def test_seed_contract_chat_tools_to_responses() -> None:
    """Nested -> flat, no 'function' key, type kept, parameters by reference, strict:false synthesized."""
    params = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    chat_tools = [
        {"type": "function", "function": {"name": "weather", "description": "Weather", "parameters": params}},
        {"type": "function", "function": {"name": "strict_one", "parameters": params, "strict": True}},
        {"type": "function", "function": {"name": "bare"}},
    ]
    ir = get_codec("openai-chat").decode_tools(chat_tools, Notes("strict"), "$.tools")
    notes = Notes("strict")  # the synthesized defaults keep Chat's meaning: info notes, never raised
    out = resp.encode_tools(ir, notes)
    assert out == [
        {
            "type": "function",
            "name": "weather",
            "description": "Weather",
            "parameters": params,
            "strict": False,
        },
        {"type": "function", "name": "strict_one", "parameters": params, "strict": True},
        {
            "type": "function",
            "name": "bare",
            "parameters": {"type": "object", "properties": {}},
            "strict": False,
        },
    ]
    assert all("function" not in tool for tool in out)
    assert out[0]["parameters"] is params
    assert [(n.path, n.kind) for n in notes] == [
        ("$.tools[0].strict", "synthesized"),
        ("$.tools[2].parameters", "synthesized"),
        ("$.tools[2].strict", "synthesized"),
    ]


def test_builtins_pass_through_for_the_openai_family_only() -> None:
    chat_builtin = BuiltinTool(origin="openai-chat", wire_type="web_search", payload={"type": "web_search"})
    gemini_builtin = BuiltinTool(origin="gemini", wire_type="googleSearch", payload={"googleSearch": {}})
    notes = Notes()
    assert resp.encode_tools((chat_builtin, gemini_builtin), notes) == [{"type": "web_search"}]
    assert [(n.path, n.kind) for n in notes] == [("$.tools[1]", "dropped")]
    with pytest.raises(ConversionError):
        resp.encode_tools((gemini_builtin,), Notes("strict"))


def test_same_format_omitted_strict_and_parameters_are_not_added() -> None:
    wire = [{"type": "function", "name": "f"}]
    tools = resp.decode_tools(wire, Notes("strict"))
    assert isinstance(tools[0], Tool) and tools[0].strict is None and tools[0].parameters is None
    assert resp.encode_tools(tools, Notes("strict")) == wire


@pytest.mark.parametrize(
    ("entry", "path"),
    [
        (None, "$.tools[0]"),
        ({"name": "x"}, "$.tools[0]"),
        ({"type": "function"}, "$.tools[0]"),
        ({"type": "function", "name": 3}, "$.tools[0]"),
        ({"type": "function", "name": "x", "parameters": "nope"}, "$.tools[0]"),
        ({"type": "function", "name": "x", "strict": "yes"}, "$.tools[0]"),
        ({"type": "custom", "name": "x", "format": []}, "$.tools[0]"),
        ({"type": "namespace", "name": "ns", "tools": []}, "$.tools[0]"),
        ({"type": "namespace", "name": "ns", "tools": [{"type": "mcp"}]}, "$.tools[0].tools[0]"),
    ],
)
def test_invalid_tools_raise_under_strict_and_are_skipped_otherwise(entry: Any, path: str) -> None:
    with pytest.raises(ConversionError) as info:
        resp.decode_tools([entry], Notes("strict"))
    assert info.value.path == path
    notes = Notes("drop")
    kept = resp.decode_tools([entry, {"type": "function", "name": "ok"}], notes)
    assert kept == (Tool(name="ok", extra={"~responses_absent": ["parameters", "strict"]}),)
    assert [(n.path, n.kind) for n in notes] == [(path, "skipped")]


def test_tools_must_be_an_array() -> None:
    with pytest.raises(PayloadError) as info:
        resp.decode_tool_config({"tools": {"type": "function"}}, Notes())
    assert info.value.path == "$.tools"


CHOICES: list[tuple[Any, ToolChoice]] = [
    ("auto", ToolChoice(mode="auto")),
    ("none", ToolChoice(mode="none")),
    ("required", ToolChoice(mode="required")),
    ({"type": "function", "name": "f"}, ToolChoice(mode="named", name="f")),
    ({"type": "custom", "name": "c"}, ToolChoice(mode="named", name="c")),
    (
        {
            "type": "allowed_tools",
            "mode": "required",
            "tools": [{"type": "function", "name": "f"}, {"type": "custom", "name": "c"}],
        },
        ToolChoice(mode="required", allowed=("f", "c")),
    ),
    ({"type": "web_search_preview"}, ToolChoice(mode="auto")),
    ({"type": "mcp", "server_label": "deepwiki", "name": "ask"}, ToolChoice(mode="auto")),
    (
        {
            "type": "allowed_tools",
            "mode": "auto",
            "tools": [{"type": "function", "name": "f"}, {"type": "mcp"}],
        },
        ToolChoice(mode="auto", allowed=("f",)),
    ),
]


@pytest.mark.parametrize(("wire", "expected"), CHOICES)
def test_tool_choice_every_way(wire: Any, expected: ToolChoice) -> None:
    payload = {"tool_choice": wire, "parallel_tool_calls": False}
    cfg = resp.decode_tool_config(payload, Notes("strict"))
    choice = cfg.tool_choice
    assert choice is not None
    assert (choice.mode, choice.name, choice.allowed) == (expected.mode, expected.name, expected.allowed)
    assert cfg.parallel_tool_calls is False
    assert resp.encode_tool_config(cfg, Notes("strict")) == payload


def test_tool_choice_from_another_format_takes_the_kind_from_the_tools() -> None:
    tools = (Tool(name="f", parameters={}, strict=True), CustomTool(name="c"))
    cfg = ToolConfig(tools=tools, tool_choice=ToolChoice(mode="named", name="c"))
    assert resp.encode_tool_config(cfg, Notes("strict"))["tool_choice"] == {"type": "custom", "name": "c"}
    allowed = ToolConfig(tools=tools, tool_choice=ToolChoice(mode="required", allowed=("c", "f")))
    assert resp.encode_tool_config(allowed, Notes("strict"))["tool_choice"] == {
        "type": "allowed_tools",
        "mode": "required",
        "tools": [{"type": "custom", "name": "c"}, {"type": "function", "name": "f"}],
    }
    notes = Notes()
    none_allowed = ToolConfig(tools=tools, tool_choice=ToolChoice(mode="none", allowed=("f",)))
    assert resp.encode_tool_config(none_allowed, notes)["tool_choice"] == "none"
    assert [n.kind for n in notes] == ["dropped"]


@pytest.mark.parametrize(
    ("wire", "path"),
    [
        ("sometimes", "$.tool_choice"),
        (3, "$.tool_choice"),
        ({"type": "function"}, "$.tool_choice.name"),
        ({"type": "allowed_tools", "mode": "any", "tools": []}, "$.tool_choice.mode"),
        ({"type": "allowed_tools", "mode": "auto", "tools": [1]}, "$.tool_choice.tools[0]"),
        ({"type": "allowed_tools", "mode": "auto"}, "$.tool_choice.tools"),
        ({"name": "f"}, "$.tool_choice.type"),
    ],
)
def test_invalid_tool_choice_names_the_path(wire: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        resp.decode_tool_config({"tool_choice": wire}, Notes())
    assert info.value.path == path
