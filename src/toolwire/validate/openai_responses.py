"""Validation tables and cross-item rules for the OpenAI Responses API (``openai-responses``).

Structure follows ``CreateResponse`` and ``Response`` of the OpenAI OpenAPI spec. Built-in tool
items and tools are accepted by type with their own fields left open; function and custom tools,
messages, function calls, outputs and reasoning items are checked field by field. Cross-item
rules: every ``function_call_output`` answers an earlier ``function_call`` (and every call is
answered), reasoning items are followed by the item they belong to, ids are unique.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate._engine import (
    Anything,
    Arr,
    Bool,
    Ctx,
    Either,
    Int,
    Map,
    Num,
    Obj,
    Str,
    Tagged,
    opt,
    req,
)
from toolwire.validate._openai import OpenAIDialect
from toolwire.validate._responses_rules import (
    check_assistant_parts,
    check_choice,
    check_items,
    check_strict_tools,
    tool_names,
)
from toolwire.validate._rules import unique_names

__all__ = [
    "BEYOND_SPEC",
    "DIALECT",
    "INPUT_ITEM",
    "ITEM_TYPES",
    "REQUEST",
    "REQUIRED_BEYOND_SPEC",
    "RESPONSE",
    "TEXT",
    "TEXT_FORMAT",
    "TOOL",
    "check_request",
    "check_response",
]

DIALECT = OpenAIDialect()
MAX_TOOLS = 128
TOOL_NAME_PATTERN = "^[a-zA-Z0-9_-]+$"

_ANY = Anything()
_OBJECT = Anything("object")
_S = Str()
_STATUS = Str(enum=("in_progress", "completed", "incomplete"))
_CACHE = {"prompt_cache_breakpoint": opt(_ANY)}

_INPUT_PARTS = {
    "input_text": Obj({"type": req(_S), "text": req(_S), **_CACHE}),
    "input_image": Obj(
        {
            "type": req(_S),
            "image_url": opt(_S, nullable=True),
            "file_id": opt(_S, nullable=True),
            "detail": opt(Str(enum=("low", "high", "auto", "original"))),
            **_CACHE,
        }
    ),
    "input_file": Obj(
        {
            "type": req(_S),
            "file_id": opt(_S, nullable=True),
            "file_data": opt(_S),
            "file_url": opt(_S),
            "filename": opt(_S),
            **_CACHE,
        }
    ),
    "input_audio": Obj({"type": req(_S), "input_audio": req(_OBJECT)}),
}
_OUTPUT_PARTS = {
    "output_text": Obj(
        {"type": req(_S), "text": req(_S), "annotations": opt(Arr(_OBJECT)), "logprobs": opt(Arr(_OBJECT))}
    ),
    "refusal": Obj({"type": req(_S), "refusal": req(_S)}),
}
_MESSAGE_PART = Tagged("type", {**_INPUT_PARTS, **_OUTPUT_PARTS})
_ASSISTANT_PART = Tagged("type", _OUTPUT_PARTS)  # an assistant message answers 400 on input_text
_WORDS = "one of a string or array of objects"

MESSAGE = Obj(
    {
        "type": opt(_S),
        "id": opt(_S),
        "role": req(Str(enum=("user", "assistant", "system", "developer"))),
        "content": req(Either((_S, Arr(_MESSAGE_PART)), _WORDS)),
        "status": opt(_STATUS, nullable=True),
        "phase": opt(_ANY, nullable=True),
    }
)
FUNCTION_CALL = Obj(
    {
        "type": req(_S),
        "id": opt(_S),
        "call_id": req(Str(min_len=1)),
        "name": req(_S),
        "namespace": opt(_S),
        "arguments": req(_S),
        "status": opt(_STATUS, nullable=True),
        "caller": opt(_OBJECT, nullable=True),
    }
)
FUNCTION_CALL_OUTPUT = Obj(
    {
        "type": req(_S),
        "id": opt(_S, nullable=True),
        "call_id": req(Str(min_len=1, max_len=64)),
        "output": req(Either((Str(max_len=10485760), Arr(Tagged("type", _INPUT_PARTS))), _WORDS)),
        "name": opt(_S, nullable=True),
        "namespace": opt(_S, nullable=True),
        "caller": opt(_OBJECT, nullable=True),
        "status": opt(_STATUS, nullable=True),
    }
)
_SUMMARY = Obj({"type": req(Str(enum=("summary_text",))), "text": req(_S)})
REASONING = Obj(
    {
        "type": req(_S),
        # Optional on input beyond the spec: Codex CLI sends reasoning items without `id` (store: false;
        # openai/codex codex-rs/protocol models.rs skips serializing it) and the API accepts them.
        "id": opt(_S),
        "summary": req(Arr(_SUMMARY)),
        "encrypted_content": opt(_S, nullable=True),
        # Nullable beyond the spec: Codex CLI sends `content: null` (same source).
        "content": opt(Arr(_OBJECT), nullable=True),
        "status": opt(_STATUS, nullable=True),
    }
)
_CUSTOM_CALL = Obj(
    {
        "type": req(_S),
        "id": opt(_S),
        "call_id": req(Str(min_len=1)),
        "name": req(_S),
        "input": req(_S),
        "namespace": opt(_S),
        "status": opt(_STATUS, nullable=True),  # Codex CLI echoes it (codex-rs CustomToolCall)
    }
)
_CUSTOM_OUTPUT = Obj(
    {
        "type": req(_S),
        "id": opt(_S),
        "call_id": req(Str(min_len=1)),
        "output": req(Either((_S, Arr(Tagged("type", _INPUT_PARTS))), _WORDS)),
    }
)

# A compaction item (spec: CompactionSummaryItemParam), as /v1/responses/compact returns it.
COMPACTION = Obj(
    {"type": req(_S), "id": opt(_S, nullable=True), "encrypted_content": req(Str(max_len=20971520))}
)
# Built-in tool items: accepted by type, their own fields left open (they change often).
_BUILTIN_ITEMS = (
    "file_search_call", "computer_call", "computer_call_output", "web_search_call", "tool_search_call",
    "tool_search_output", "additional_tools", "image_generation_call", "code_interpreter_call",
    "local_shell_call", "local_shell_call_output", "shell_call", "shell_call_output", "apply_patch_call",
    "apply_patch_call_output", "mcp_list_tools", "mcp_approval_request", "mcp_approval_response", "mcp_call",
    "compaction_trigger", "program", "program_output",
)  # fmt: skip
INPUT_ITEM = Tagged(
    "type",
    {
        "message": MESSAGE,
        "function_call": FUNCTION_CALL,
        "function_call_output": FUNCTION_CALL_OUTPUT,
        "reasoning": REASONING,
        "custom_tool_call": _CUSTOM_CALL,
        "custom_tool_call_output": _CUSTOM_OUTPUT,
        "item_reference": Obj({"type": opt(_S, nullable=True), "id": req(_S)}),
        "compaction": COMPACTION,
        **{t: _OBJECT for t in _BUILTIN_ITEMS},
    },
    default="message",
)
ITEM_TYPES: tuple[str, ...] = tuple(INPUT_ITEM.variants)

_FN_NAME = Str(pattern=TOOL_NAME_PATTERN, max_len=64)
_GRAMMAR_FORMAT = Tagged(
    "type",
    {
        "text": Obj({"type": req(_S)}, closed=True),
        "grammar": Obj(
            {"type": req(_S), "syntax": req(Str(enum=("lark", "regex"))), "definition": req(_S)}, closed=True
        ),
    },
)
_CALLABLE = {"defer_loading": opt(Bool()), "allowed_callers": opt(Arr(_ANY), nullable=True)}
FUNCTION_TOOL = Obj(
    {
        "type": req(_S),
        "name": req(_FN_NAME),
        "description": opt(_S, nullable=True),
        "parameters": opt(_OBJECT, nullable=True),
        "strict": opt(Bool(), nullable=True),
        "output_schema": opt(_OBJECT, nullable=True),
        **_CALLABLE,
    },
    closed=True,
)
CUSTOM_TOOL = Obj(
    {
        "type": req(_S),
        "name": req(_FN_NAME),
        "description": opt(_S),
        "format": opt(_GRAMMAR_FORMAT),
        **_CALLABLE,
    },
    closed=True,
)
_BUILTIN_TOOLS = (
    "file_search", "computer", "computer_use_preview", "web_search", "web_search_2025_08_26", "mcp",
    "code_interpreter", "programmatic_tool_calling", "image_generation", "local_shell", "shell",
    "tool_search", "web_search_preview", "web_search_preview_2025_03_11", "apply_patch",
)  # fmt: skip
TOOL = Tagged(
    "type",
    {
        "function": FUNCTION_TOOL,
        "custom": CUSTOM_TOOL,
        "namespace": Obj(
            {
                "type": req(_S),
                "name": req(_S),
                "description": req(_S),
                "tools": req(
                    Arr(Tagged("type", {"function": FUNCTION_TOOL, "custom": CUSTOM_TOOL}), min_items=1)
                ),
            },
            closed=True,
        ),
        **{t: _OBJECT for t in _BUILTIN_TOOLS},
    },
)
_HOSTED_CHOICES = (
    "file_search", "web_search_preview", "computer", "computer_use_preview", "computer_use",
    "web_search_preview_2025_03_11", "image_generation", "code_interpreter", "programmatic_tool_calling",
    "apply_patch", "shell",
)  # fmt: skip
TOOL_CHOICE = Either(
    (
        Str(enum=("none", "auto", "required")),
        Tagged(
            "type",
            {
                "function": Obj({"type": req(_S), "name": req(_S)}, closed=True),
                "custom": Obj({"type": req(_S), "name": req(_S)}, closed=True),
                "allowed_tools": Obj(
                    {
                        "type": req(_S),
                        "mode": req(Str(enum=("auto", "required"))),
                        "tools": req(Arr(_OBJECT)),
                    },
                    closed=True,
                ),
                "mcp": Obj({"type": req(_S), "server_label": req(_S), "name": opt(_S, nullable=True)}),
                **{t: Obj({"type": req(_S)}) for t in _HOSTED_CHOICES},
            },
        ),
    ),
    "one of a string or object",
)
_EFFORT = Str(enum=("none", "minimal", "low", "medium", "high", "xhigh", "max"))
REASONING_CONFIG = Obj(
    {
        "mode": opt(_ANY, nullable=True),
        "effort": opt(_EFFORT, nullable=True),
        "summary": opt(Str(enum=("auto", "concise", "detailed")), nullable=True),
        "context": opt(Str(enum=("auto", "current_turn", "all_turns")), nullable=True),
        "generate_summary": opt(Str(enum=("auto", "concise", "detailed")), nullable=True),
    },
    closed=True,
)
_JSON_SCHEMA_FORMAT = Obj(
    {
        "type": req(_S),
        "name": req(Str(pattern=TOOL_NAME_PATTERN, max_len=64)),
        "schema": req(_OBJECT),
        "description": opt(_S),
        "strict": opt(Bool(), nullable=True),
    },
    closed=True,
)
TEXT_FORMAT = Tagged(
    "type",
    {
        "text": Obj({"type": req(_S)}, closed=True),
        "json_schema": _JSON_SCHEMA_FORMAT,
        "json_object": Obj({"type": req(_S)}, closed=True),
    },
)
TEXT = Obj(
    {
        "format": opt(TEXT_FORMAT),
        "verbosity": opt(Str(enum=("low", "medium", "high")), nullable=True),
    },
    closed=True,
)
INCLUDE = Str(
    enum=(
        "file_search_call.results", "web_search_call.results", "web_search_call.action.sources",
        "message.input_image.image_url", "computer_call_output.output.image_url",
        "code_interpreter_call.outputs", "reasoning.encrypted_content", "message.output_text.logprobs",
    )
)  # fmt: skip

BEYOND_SPEC: dict[str, str] = {
    "client_metadata": "Codex CLI sends it on every request (openai/codex codex-rs ResponsesApiRequest, "
    "a map of strings); the API accepts it.",
}
"""Request fields the API accepts beyond its OpenAPI spec -> where that is known from."""

REQUIRED_BEYOND_SPEC: dict[str, str] = {
    "model": "The spec marks it optional (a stored prompt may name it); the API answers "
    "\"Missing required parameter: 'model'.\" without it.",
}
"""Request fields the API requires although the spec does not -> where that is known from."""

REQUEST = Obj(
    {
        "model": req(_S),
        "client_metadata": opt(Map(_S), nullable=True),
        "input": opt(Either((_S, Arr(INPUT_ITEM)), _WORDS)),
        "instructions": opt(_S, nullable=True),
        "metadata": opt(Map(_S), nullable=True),
        "top_logprobs": opt(Int(0, 20), nullable=True),
        "temperature": opt(Num(0, 2), nullable=True),
        "top_p": opt(Num(0, 1), nullable=True),
        "user": opt(_S),
        "safety_identifier": opt(Str(max_len=64), nullable=True),
        "prompt_cache_key": opt(_S, nullable=True),
        "prompt_cache_retention": opt(Str(enum=("in_memory", "24h")), nullable=True),
        "prompt_cache_options": opt(_OBJECT, nullable=True),
        "previous_response_id": opt(_S, nullable=True),
        "background": opt(Bool(), nullable=True),
        "max_tool_calls": opt(Int(), nullable=True),
        "text": opt(TEXT),
        "tools": opt(Arr(TOOL, max_items=MAX_TOOLS)),
        "tool_choice": opt(TOOL_CHOICE),
        "prompt": opt(_OBJECT, nullable=True),
        "service_tier": opt(
            Str(enum=("auto", "default", "flex", "scale", "priority", "fast")), nullable=True
        ),
        "truncation": opt(Str(enum=("auto", "disabled")), nullable=True),
        "reasoning": opt(REASONING_CONFIG, nullable=True),
        "include": opt(Arr(INCLUDE), nullable=True),
        "parallel_tool_calls": opt(Bool(), nullable=True),
        "store": opt(Bool(), nullable=True),
        "moderation": opt(_OBJECT, nullable=True),
        "stream": opt(Bool(), nullable=True),
        "stream_options": opt(_OBJECT, nullable=True),
        "conversation": opt(Either((_S, _OBJECT), "one of a string or object"), nullable=True),
        "context_management": opt(Arr(_OBJECT, min_items=1), nullable=True),
        "max_output_tokens": opt(Int(16), nullable=True),
    },
    closed=True,
)

# --- response -------------------------------------------------------------------------------------

_OUTPUT_MESSAGE = Obj(
    {
        "id": req(_S),
        "type": req(_S),
        "role": req(Str(enum=("assistant",))),
        "content": req(Arr(Tagged("type", _OUTPUT_PARTS))),
        "status": req(_STATUS),
    }
)
OUTPUT_ITEM = Tagged(
    "type",
    {
        "message": _OUTPUT_MESSAGE,
        "function_call": FUNCTION_CALL,
        "reasoning": REASONING,
        "custom_tool_call": _CUSTOM_CALL,
        **{t: _OBJECT for t in _BUILTIN_ITEMS},
    },
    open_tags=True,
)
RESPONSE = Obj(
    {
        "id": req(_S),
        "object": req(Str(enum=("response",))),
        "created_at": req(Num()),
        "status": opt(Str(enum=("completed", "failed", "in_progress", "cancelled", "queued", "incomplete"))),
        "model": req(_S),
        "output": req(Arr(OUTPUT_ITEM)),
        "error": opt(_OBJECT, nullable=True),
        "incomplete_details": opt(_OBJECT, nullable=True),
        "usage": opt(
            Obj({"input_tokens": req(Int()), "output_tokens": req(Int()), "total_tokens": req(Int())}),
            nullable=True,
        ),
        "tools": opt(Arr(TOOL)),
        "parallel_tool_calls": opt(Bool()),
    }
)


# --- entry points ---------------------------------------------------------------------------------


def check_request(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure, then call/output pairing, reasoning placement, unique ids and tool names."""
    REQUEST.check(payload, (), ctx)
    items = payload.get("input")
    continued = payload.get("previous_response_id") is not None or payload.get("conversation") is not None
    if isinstance(items, list):
        dicts = [i if isinstance(i, dict) else {} for i in items]
        check_items(dicts, continued, ctx)
        check_assistant_parts(dicts, ctx)
    names = tool_names(payload.get("tools"))
    unique_names(names, ("tools",), ctx, "Duplicate tool name: '{name}'. Tool names must be unique.")
    check_choice(payload.get("tool_choice"), {n for _, n, _ in names}, ctx)
    check_strict_tools(payload.get("tools"), ctx)


def check_response(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure of a non-streamed response object."""
    RESPONSE.check(payload, (), ctx)
