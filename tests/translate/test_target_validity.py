"""Focused cases of issue 13: each translation is a payload the target accepts, or a refusal.

Each test pins one class of output a provider rejected: the exact translated shape (or the
exact error), plus ``toolwire.validate`` on the result.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.schema._util import Tracker
from toolwire import FormatName, validate
from toolwire.formats import ToolConfig
from toolwire.formats.openai_chat.tools import encode_config
from toolwire.ir.tools import BuiltinTool, ToolChoice
from toolwire.translate import translate_request

GEMINI_TOOL = {
    "name": "pick",
    "description": "Pick one.",
    "parameters": {
        "type": "OBJECT",
        "properties": {
            "color": {"type": "STRING", "format": "enum", "enum": ["red", "blue"], "nullable": True},
            "count": {"type": "INTEGER", "minimum": 1},
        },
        "required": ["color"],
        "propertyOrdering": ["count", "color"],
    },
}
JSON_SCHEMA = {
    "type": "object",
    "properties": {
        "count": {"type": "integer", "minimum": 1},
        "color": {"type": ["string", "null"], "enum": ["red", "blue", None]},
    },
    "required": ["color"],
}


def _gemini_request() -> dict[str, Any]:
    return {
        "contents": [{"role": "user", "parts": [{"text": "pick"}]}],
        "tools": [{"functionDeclarations": [GEMINI_TOOL]}],
    }


def _valid(payload: dict[str, Any], target: str) -> None:
    assert validate(payload, format=target) == []  # type: ignore[arg-type]


def test_gemini_subset_schema_becomes_json_schema_for_anthropic() -> None:
    out = translate_request(_gemini_request(), source="gemini", target="anthropic", model="m").payload
    assert out["tools"] == [{"name": "pick", "description": "Pick one.", "input_schema": JSON_SCHEMA}]
    _valid(out, "anthropic")


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses"])
def test_gemini_subset_schema_becomes_json_schema_for_openai(target: FormatName) -> None:
    out = translate_request(_gemini_request(), source="gemini", target=target, model="m").payload
    tool = out["tools"][0]
    assert (tool.get("function") or tool)["parameters"] == JSON_SCHEMA
    assert list(JSON_SCHEMA["properties"]) == ["count", "color"], "propertyOrdering kept as key order"
    _valid(out, target)


def test_gemini_subset_schema_round_trips_unchanged() -> None:
    translation = translate_request(_gemini_request(), source="gemini", target="gemini", model="m")
    assert translation.payload["tools"] == [{"functionDeclarations": [GEMINI_TOOL]}]
    assert translation.notes == ()


def test_gemini_response_schema_becomes_json_schema() -> None:
    request = {
        **_gemini_request(),
        "generationConfig": {
            "responseMimeType": "application/json",
            "responseSchema": GEMINI_TOOL["parameters"],
        },
    }
    out = translate_request(request, source="gemini", target="openai-chat", model="m").payload
    assert out["response_format"]["json_schema"]["schema"] == JSON_SCHEMA
    _valid(out, "openai-chat")


def test_builtin_only_tools_send_no_empty_tools_or_tool_choice() -> None:
    request = {
        "model": "claude-x",
        "max_tokens": 100,
        "messages": [{"role": "user", "content": "run it"}],
        "tools": [{"type": "code_execution_20250522", "name": "code_execution"}],
        "tool_choice": {"type": "auto"},
    }
    translation = translate_request(request, source="anthropic", target="openai-chat")
    assert translation.payload == {
        "model": "claude-x",
        "messages": [{"role": "user", "content": "run it"}],
        "max_completion_tokens": 100,
    }
    _valid(translation.payload, "openai-chat")
    assert {(n.path, n.kind) for n in translation.notes} >= {
        ("$.tools[0]", "dropped"),
        ("$.tool_choice", "dropped"),
    }


@pytest.mark.parametrize(("mode", "lossy"), [("auto", False), ("none", False), ("required", True)])
def test_choice_without_surviving_tools_is_a_loss_only_when_forced(mode: str, lossy: bool) -> None:
    builtin = BuiltinTool(origin="anthropic", wire_type="code_execution_20250522", payload={})
    config = ToolConfig(tools=(builtin,), tool_choice=ToolChoice(mode=mode), parallel_tool_calls=False)  # type: ignore[arg-type]
    notes = Tracker()
    assert encode_config(config, notes, same=False) == {}
    assert [(n.path, n.kind) for n in notes.lossy] == [("$.tools[0]", "dropped")] + (
        [("$.tool_choice", "dropped")] if lossy else []
    )
    assert {n.path for n in notes.items} == {"$.tools[0]", "$.tool_choice", "$.parallel_tool_calls"}
