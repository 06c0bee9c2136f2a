"""Requests real clients send validate clean; each documented 400 is caught with the provider's wording.

The client requests are written from the clients' own request types (Codex CLI's
``ResponsesApiRequest`` and ``ResponseItem`` serialization, Codex's Chat mode tool list, Claude
Code's adaptive-thinking tool loop); each documented 400 is checked next to a valid neighbour.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from toolwire.validate import Problem, validate

_SHELL = {
    "type": "object",
    "properties": {"command": {"type": "array", "items": {"type": "string"}}},
    "required": ["command"],
    "additionalProperties": False,
}

CODEX: dict[str, Any] = {
    "model": "gpt-5-codex",
    "instructions": "You are Codex.",
    "input": [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list files"}]},
        {"type": "reasoning", "summary": [], "content": None, "encrypted_content": "gAAAAB"},
        {"type": "function_call", "name": "shell", "arguments": '{"command":["ls"]}', "call_id": "call_1"},
        {"type": "function_call_output", "call_id": "call_1", "output": "a.txt"},
        {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": "done"}],
            "encrypted_content": None,
        },
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a.txt"}]},
        {
            "type": "custom_tool_call",
            "status": "completed",
            "call_id": "call_2",
            "name": "apply_patch",
            "input": "*** Begin Patch",
        },
        {"type": "custom_tool_call_output", "call_id": "call_2", "output": "ok"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "thanks"}]},
    ],
    "tools": [
        {"type": "function", "name": "shell", "description": "Run", "strict": False, "parameters": _SHELL},
        {
            "type": "custom",
            "name": "apply_patch",
            "description": "Patch files",
            "format": {"type": "grammar", "syntax": "lark", "definition": "start: /.+/"},
        },
        {"type": "local_shell"},
        {"type": "web_search"},
        {
            "type": "namespace",
            "name": "image_gen",
            "description": "Tools in the image_gen namespace.",
            "tools": [{"type": "function", "name": "imagegen", "parameters": {"type": "object"}}],
        },
    ],
    "tool_choice": "auto",
    "parallel_tool_calls": False,
    "reasoning": {"effort": "medium", "summary": "auto"},
    "store": False,
    "stream": True,
    "include": ["reasoning.encrypted_content"],
    "prompt_cache_key": "0199a1b2-c3d4",
    "text": {"verbosity": "low"},
    "client_metadata": {"x-codex-installation-id": "abc"},
}

CODEX_CHAT: dict[str, Any] = {
    "model": "gpt-oss:20b",
    "messages": [{"role": "system", "content": "You are Codex."}, {"role": "user", "content": "list files"}],
    "tools": [
        {
            "type": "function",
            "name": "shell",
            "function": {"name": "shell", "description": "Run", "strict": False, "parameters": _SHELL},
        }
    ],
    "stream": True,
}

_SIG = "EqQBCkYIARgCKkB"
CLAUDE_CODE: dict[str, Any] = {
    "model": "claude-opus-4-6",
    "max_tokens": 32000,
    "thinking": {"type": "adaptive"},
    "system": [{"type": "text", "text": "You are Claude Code.", "cache_control": {"type": "ephemeral"}}],
    "messages": [
        {"role": "user", "content": [{"type": "text", "text": "list files"}]},
        {"role": "user", "content": [{"type": "text", "text": "<system-reminder>cwd</system-reminder>"}]},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "ls"}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.txt"}]},
    ],
    "tools": [{"name": "Bash", "description": "Run", "input_schema": {"type": "object", "properties": {}}}],
    "metadata": {"user_id": "user_1"},
    "stream": True,
}


def _errors(payload: dict[str, Any], fmt: str, **options: Any) -> list[Problem]:
    return validate(payload, format=fmt, **options)


@pytest.mark.parametrize(
    ("payload", "fmt"),
    [(CODEX, "openai-responses"), (CODEX_CHAT, "openai-chat"), (CLAUDE_CODE, "anthropic")],
    ids=["codex", "codex-chat", "claude-code-adaptive"],
)
def test_real_client_requests_validate_clean(payload: dict[str, Any], fmt: str) -> None:
    assert _errors(payload, fmt) == []


def test_codex_chat_tool_name_is_a_warning() -> None:
    found = _errors(CODEX_CHAT, "openai-chat", warnings=True)
    assert [(p.path, p.code, p.severity) for p in found] == [
        ("$.tools[0].name", "ignored_parameter", "warning")
    ]
    assert found[0].message == "'tools[0].name' is not part of the API; the provider ignores it."


def test_namespace_tools_are_checked_as_tools() -> None:
    payload = copy.deepcopy(CODEX)
    payload["tools"][-1]["tools"][0]["name"] = "image gen"
    assert [(p.code, p.path) for p in _errors(payload, "openai-responses")] == [
        ("pattern_mismatch", "$.tools[4].tools[0].name")
    ]
    payload["tools"][-1]["tools"] = []
    assert [(p.code, p.path) for p in _errors(payload, "openai-responses")] == [
        ("empty_array", "$.tools[4].tools")
    ]


def test_unknown_field_elsewhere_is_still_an_error() -> None:
    payload = copy.deepcopy(CODEX_CHAT)
    payload["tools"][0]["title"] = "Shell"
    assert [(p.code, p.severity) for p in _errors(payload, "openai-chat")] == [("unknown_parameter", "error")]


def test_claude_code_with_enabled_thinking_needs_leading_thinking() -> None:
    """The leading-thinking rule holds for ``enabled`` thinking, naming the block as written."""
    payload = copy.deepcopy(CLAUDE_CODE)
    payload["thinking"] = {"type": "enabled", "budget_tokens": 2048}
    (problem,) = _errors(payload, "anthropic")
    assert (problem.code, problem.path, problem.param) == (
        "thinking_placement",
        "$.messages[2].content[0].type",
        "messages.2.content.0.type",
    )
    assert problem.message.startswith("messages.2.content.0.type: Expected `thinking` or `redacted_thinking`")
    payload["messages"][2]["content"].insert(0, {"type": "thinking", "thinking": "t", "signature": _SIG})
    assert _errors(payload, "anthropic") == []


# --- documented 400s: (format, valid neighbour, edit making it invalid, code, path, message) -----------

_THINKING = {"type": "enabled", "budget_tokens": 2048}
_ANTHROPIC = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 4096,
    "messages": [{"role": "user", "content": "Hi"}],
}
_TOOL = {"name": "get_weather", "input_schema": {"type": "object", "properties": {}}}
_RESPONSES = {"model": "gpt-5", "input": [{"role": "user", "content": "Hi"}]}
_GEMINI = {"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}
_REFUSAL_ITEM = {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]}


def _cached(n: int) -> list[dict[str, Any]]:
    return [{"type": "text", "text": f"part {i}", "cache_control": {"type": "ephemeral"}} for i in range(n)]


CASES: list[tuple[str, str, dict[str, Any], dict[str, Any], str, str, str]] = [
    (
        "temperature with thinking",
        "anthropic",
        {**_ANTHROPIC, "thinking": _THINKING, "temperature": 1},
        {"temperature": 0.7},
        "thinking_sampling",
        "$.temperature",
        "`temperature` may only be set to 1 when thinking is enabled. Please consult our documentation at "
        "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility",
    ),
    (
        "top_k with thinking",
        "anthropic",
        {**_ANTHROPIC, "thinking": _THINKING},
        {"top_k": 5},
        "thinking_sampling",
        "$.top_k",
        "`top_k` must be unset when thinking is enabled.",
    ),
    (
        "forced tool with thinking",
        "anthropic",
        {**_ANTHROPIC, "thinking": _THINKING, "tools": [_TOOL], "tool_choice": {"type": "auto"}},
        {"tool_choice": {"type": "any"}},
        "thinking_tool_choice",
        "$.tool_choice.type",
        "Thinking may not be enabled when tool_choice forces tool use.",
    ),
    (
        "five cache breakpoints",
        "anthropic",
        {**_ANTHROPIC, "system": _cached(4)},
        {"system": _cached(5)},
        "too_many_cache_breakpoints",
        "$.system[4].cache_control",
        "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    ),
    (
        "prefill ending in whitespace",
        "anthropic",
        {**_ANTHROPIC, "messages": [*_ANTHROPIC["messages"], {"role": "assistant", "content": "Sure"}]},
        {"messages": [*_ANTHROPIC["messages"], {"role": "assistant", "content": "Sure "}]},
        "prefill_trailing_whitespace",
        "$.messages[1].content",
        "messages: final assistant content cannot end with trailing whitespace",
    ),
    (
        "input_schema not an object",
        "anthropic",
        {**_ANTHROPIC, "tools": [_TOOL]},
        {"tools": [{**_TOOL, "input_schema": {"type": "array"}}]},
        "invalid_value",
        "$.tools[0].input_schema.type",
        "tools.0.custom.input_schema.type: Input should be 'object'",
    ),
    (
        "responses without model",
        "openai-responses",
        _RESPONSES,
        {"model": None},
        "missing_required_parameter",
        "$.model",
        "Missing required parameter: 'model'.",
    ),
    (
        "json_schema format without name",
        "openai-responses",
        {**_RESPONSES, "text": {"format": {"type": "json_schema", "name": "answer", "schema": {}}}},
        {"text": {"format": {"type": "json_schema", "schema": {}}}},
        "missing_required_parameter",
        "$.text.format.name",
        "Missing required parameter: 'text.format.name'.",
    ),
    (
        "assistant message with input_text",
        "openai-responses",
        {**_RESPONSES, "input": [{"role": "assistant", "content": [{"type": "output_text", "text": "x"}]}]},
        {"input": [{"role": "assistant", "content": [{"type": "input_text", "text": "x"}]}]},
        "invalid_value",
        "$.input[0].content[0].type",
        "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'.",
    ),
    (
        "compaction item without its content",
        "openai-responses",
        {**_RESPONSES, "input": [{"type": "compaction", "id": "cmp_1", "encrypted_content": "e"}]},
        {"input": [{"type": "compaction", "id": "cmp_1"}]},
        "missing_required_parameter",
        "$.input[0].encrypted_content",
        "Missing required parameter: 'input[0].encrypted_content'.",
    ),
    (
        "responses parameters not an object",
        "openai-responses",
        {**_RESPONSES, "tools": [{"type": "function", "name": "f", "parameters": {"type": "object"}}]},
        {"tools": [{"type": "function", "name": "f", "parameters": {"type": "array"}}]},
        "invalid_function_parameters",
        "$.tools[0].parameters",
        "Invalid schema for function 'f': schema must be a JSON Schema of 'type: \"object\"', "
        "got 'type: \"array\"'.",
    ),
    (
        "chat parameters not an object",
        "openai-chat",
        {
            "model": "gpt-4o",
            "messages": [{"role": "user", "content": "Hi"}],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
        },
        {"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "string"}}}]},
        "invalid_function_parameters",
        "$.tools[0].function.parameters",
        "Invalid schema for function 'f': schema must be a JSON Schema of 'type: \"object\"', "
        "got 'type: \"string\"'.",
    ),
    (
        "gemini parameters not an object",
        "gemini",
        {**_GEMINI, "tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "OBJECT"}}]}]},
        {"tools": [{"functionDeclarations": [{"name": "f", "parameters": {"type": "ARRAY"}}]}]},
        "invalid_function_parameters",
        "$.tools[0].functionDeclarations[0].parameters.type",
        "* GenerateContentRequest.tools[0].function_declarations[0].parameters.type: schema of function "
        "'f' must be of type OBJECT, got ARRAY.",
    ),
    (
        "anthropic empty messages",
        "anthropic",
        _ANTHROPIC,
        {"messages": []},
        "empty_messages",
        "$.messages",
        "messages: at least one message is required",
    ),
    (
        "responses refusal in an input message (the spec has it in output items only)",
        "openai-responses",
        {**_RESPONSES, "input": [{**_REFUSAL_ITEM, "id": "msg_1", "status": "completed"}]},
        {"input": [_REFUSAL_ITEM]},
        "refusal_in_input",
        "$.input[0].content[0].type",
        "Invalid value: 'refusal' at input[0].content[0]: a refusal part is only valid in an output "
        "message item (with 'id' and 'status').",
    ),
    (
        "gemini empty contents",
        "gemini",
        _GEMINI,
        {"contents": []},
        "empty_contents",
        "$.contents",
        "* GenerateContentRequest.contents: contents is not specified",
    ),
]


@pytest.mark.parametrize(
    ("fmt", "valid", "edit", "code", "path", "message"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_documented_400(
    fmt: str, valid: dict[str, Any], edit: dict[str, Any], code: str, path: str, message: str
) -> None:
    assert _errors(valid, fmt) == []
    broken = {k: v for k, v in {**valid, **edit}.items() if v is not None}
    assert [(p.code, p.path, p.message) for p in _errors(broken, fmt)] == [(code, path, message)]
