"""Validation tables and cross-item rules for Anthropic Messages (``anthropic``).

Structure follows ``CreateMessageParams`` and ``Message`` of the Anthropic OpenAPI spec (closed
objects: unknown fields are "Extra inputs are not permitted"). Cross-item rules work on *turns*:
the API merges consecutive messages of one role into one turn and reports locations in the
merged turn (``messages.0.content.1``), so the rules do the same.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from toolwire.validate._anthropic_dialect import AnthropicDialect
from toolwire.validate._anthropic_rules import check_rules, thinking_on
from toolwire.validate._anthropic_turns import check_turns
from toolwire.validate._engine import (
    Anything,
    Arr,
    Bool,
    Ctx,
    Either,
    Int,
    Num,
    Obj,
    Str,
    Tagged,
    opt,
    req,
)
from toolwire.validate._rules import tool_choice_names_missing, unique_names

__all__ = [
    "BLOCK",
    "DIALECT",
    "REQUEST",
    "RESPONSE",
    "TOOL",
    "TOOL_NAME_PATTERN",
    "check_request",
    "check_response",
]

DIALECT = AnthropicDialect()
TOOL_NAME_PATTERN = "^[a-zA-Z0-9_-]{1,128}$"
MAX_MESSAGES = 100_000

_ANY = Anything()
_OBJECT = Anything("object")
_S = Str()
_CACHE = {
    "cache_control": opt(
        Obj({"type": req(Str(enum=("ephemeral",))), "ttl": opt(Str(enum=("5m", "1h")))}, closed=True),
        nullable=True,
    )
}
_TYPE = {"type": req(_S)}

TEXT = Obj(
    {**_TYPE, "text": req(Str(min_len=1)), "citations": opt(Arr(_OBJECT), nullable=True), **_CACHE},
    closed=True,
)
_MEDIA = ("image/jpeg", "image/png", "image/gif", "image/webp")
_IMAGE_SOURCE = Tagged(
    "type",
    {
        "base64": Obj({**_TYPE, "media_type": req(Str(enum=_MEDIA)), "data": req(_S)}, closed=True),
        "url": Obj({**_TYPE, "url": req(_S)}, closed=True),
        "file": Obj({**_TYPE, "file_id": req(_S)}, closed=True),
    },
    tag_in_path=True,
)
IMAGE = Obj({**_TYPE, "source": req(_IMAGE_SOURCE), **_CACHE}, closed=True)
DOCUMENT = Obj(
    {
        **_TYPE,
        "source": req(_OBJECT),
        "title": opt(_S, nullable=True),
        "context": opt(_S, nullable=True),
        "citations": opt(_OBJECT, nullable=True),
        **_CACHE,
    },
    closed=True,
)
_RESULT_PART = Tagged(
    "type",
    {"text": TEXT, "image": IMAGE, "document": DOCUMENT, "search_result": _OBJECT, "tool_reference": _OBJECT},
    tag_in_path=True,
)
TOOL_USE_ID = Str(pattern="^[a-zA-Z0-9_-]+$")
TOOL_USE = Obj(
    {
        **_TYPE,
        "id": req(TOOL_USE_ID),
        "name": req(Str(min_len=1, max_len=200)),
        "input": req(_OBJECT),
        "caller": opt(_OBJECT),
        **_CACHE,
    },
    closed=True,
)
TOOL_RESULT = Obj(
    {
        **_TYPE,
        "tool_use_id": req(TOOL_USE_ID),
        "content": opt(Either((_S, Arr(_RESULT_PART)))),
        "is_error": opt(Bool()),
        **_CACHE,
    },
    closed=True,
)
THINKING = Obj({**_TYPE, "thinking": req(_S), "signature": req(_S)}, closed=True)
REDACTED_THINKING = Obj({**_TYPE, "data": req(_S)}, closed=True)
_SERVER_BLOCKS = (
    "server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result",
    "bash_code_execution_tool_result", "text_editor_code_execution_tool_result", "tool_search_tool_result",
    "container_upload", "search_result",
)  # fmt: skip
BLOCK = Tagged(
    "type",
    {
        "text": TEXT,
        "image": IMAGE,
        "document": DOCUMENT,
        "thinking": THINKING,
        "redacted_thinking": REDACTED_THINKING,
        "tool_use": TOOL_USE,
        "tool_result": TOOL_RESULT,
        **{t: _OBJECT for t in _SERVER_BLOCKS},
    },
    tag_in_path=True,
)
MESSAGE = Obj(
    # role is a string here; its values ("user"/"assistant", no "system") are checked by check_turns
    {"role": req(_S), "content": req(Either((_S, Arr(BLOCK))))},
    closed=True,
)

_INPUT_SCHEMA = Obj(
    {
        "type": req(Str(enum=("object",))),
        "properties": opt(_OBJECT, nullable=True),
        "required": opt(Arr(_S), nullable=True),
    }
)
CUSTOM_TOOL = Obj(
    {
        "type": opt(_S, nullable=True),
        "name": req(Str(min_len=1, max_len=128, pattern=TOOL_NAME_PATTERN)),
        "description": opt(_S),
        "input_schema": req(_INPUT_SCHEMA),
        "strict": opt(Bool()),
        "eager_input_streaming": opt(Bool(), nullable=True),
        "allowed_callers": opt(Arr(_ANY)),
        "defer_loading": opt(Bool()),
        "input_examples": opt(Arr(_OBJECT)),
        **_CACHE,
    },
    closed=True,
)
_SERVER_TOOL = Obj({**_TYPE, "name": req(_S)})
_SERVER_TOOLS = (
    "bash_20250124", "code_execution_20250522", "code_execution_20250825", "code_execution_20260120",
    "memory_20250818", "text_editor_20250124", "text_editor_20250429", "text_editor_20250728",
    "web_search_20250305", "web_fetch_20250910", "web_search_20260209", "web_fetch_20260209",
    "web_fetch_20260309", "tool_search_tool_bm25_20251119", "tool_search_tool_bm25",
    "tool_search_tool_regex_20251119", "tool_search_tool_regex",
)  # fmt: skip
TOOL = Tagged(
    "type",
    {"custom": CUSTOM_TOOL, **{t: _SERVER_TOOL for t in _SERVER_TOOLS}},
    default="custom",
    tag_in_path=True,
)
_PARALLEL = {"disable_parallel_tool_use": opt(Bool())}
TOOL_CHOICE = Tagged(
    "type",
    {
        "auto": Obj({**_TYPE, **_PARALLEL}, closed=True),
        "any": Obj({**_TYPE, **_PARALLEL}, closed=True),
        "tool": Obj({**_TYPE, "name": req(_S), **_PARALLEL}, closed=True),
        "none": Obj(_TYPE, closed=True),
    },
    tag_in_path=True,
)
_DISPLAY = {"display": opt(_ANY, nullable=True)}
THINKING_CONFIG = Tagged(
    "type",
    {
        "enabled": Obj({**_TYPE, "budget_tokens": req(Int(1024)), **_DISPLAY}, closed=True),
        "disabled": Obj(_TYPE, closed=True),
        "adaptive": Obj({**_TYPE, **_DISPLAY}, closed=True),
    },
    tag_in_path=True,
)

REQUEST = Obj(
    {
        "model": req(_S),
        "messages": req(Arr(MESSAGE, max_items=MAX_MESSAGES)),
        "max_tokens": req(Int(0)),
        "cache_control": opt(_OBJECT, nullable=True),
        "container": opt(_ANY, nullable=True),
        "inference_geo": opt(_S, nullable=True),
        "metadata": opt(Obj({"user_id": opt(Str(max_len=512), nullable=True)}, closed=True)),
        "output_config": opt(_OBJECT),
        "service_tier": opt(Str(enum=("auto", "standard_only"))),
        "stop_sequences": opt(Arr(_S)),
        "stream": opt(Bool()),
        "system": opt(Either((_S, Arr(Tagged("type", {"text": TEXT}, tag_in_path=True))))),
        "temperature": opt(Num(0, 1)),
        "thinking": opt(THINKING_CONFIG),
        "tool_choice": opt(TOOL_CHOICE),
        "tools": opt(Arr(TOOL)),
        "top_k": opt(Int(0)),
        "top_p": opt(Num(0, 1)),
        # beta (?beta=true) parameters
        "betas": opt(Arr(_S)),
        "mcp_servers": opt(Arr(_OBJECT)),
        "context_management": opt(_OBJECT, nullable=True),
        "output_format": opt(_OBJECT, nullable=True),
        "speed": opt(_S, nullable=True),
    },
    closed=True,
)

# Beta requests (``/v1/messages?beta=true`` with an ``anthropic-beta`` header) may use block and tool
# types newer than the spec and inline ``system`` messages: unknown tags and top-level fields pass.
BLOCK_BETA = replace(BLOCK, open_tags=True)
REQUEST_BETA = Obj(
    {
        **REQUEST.fields,
        "messages": req(
            Arr(
                Obj({"role": req(_S), "content": req(Either((_S, Arr(BLOCK_BETA))))}, closed=True),
                max_items=MAX_MESSAGES,
            )
        ),
        "tools": opt(Arr(replace(TOOL, open_tags=True))),
    }
)

# --- response -------------------------------------------------------------------------------------

_RESPONSE_BLOCK = Tagged(
    "type",
    {
        "text": Obj({**_TYPE, "text": req(_S), "citations": opt(Arr(_OBJECT), nullable=True)}),
        "thinking": Obj({**_TYPE, "thinking": req(_S), "signature": req(_S)}),
        "redacted_thinking": Obj({**_TYPE, "data": req(_S)}),
        "tool_use": Obj({**_TYPE, "id": req(_S), "name": req(_S), "input": req(_OBJECT)}),
        **{t: _OBJECT for t in _SERVER_BLOCKS},
    },
    open_tags=True,
    tag_in_path=True,
)
STOP_REASONS = (
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
    "compaction",
)
RESPONSE = Obj(
    {
        "id": req(_S),
        "type": req(Str(enum=("message",))),
        "role": req(Str(enum=("assistant",))),
        "content": req(Arr(_RESPONSE_BLOCK)),
        "model": req(_S),
        "stop_reason": req(Str(enum=STOP_REASONS), nullable=True),
        "stop_sequence": opt(_S, nullable=True),
        "usage": req(Obj({"input_tokens": req(Int(0)), "output_tokens": req(Int(0))})),
        "container": opt(_OBJECT, nullable=True),
        "stop_details": opt(_OBJECT, nullable=True),
        "context_management": opt(_OBJECT, nullable=True),
    }
)


# --- cross-item rules -----------------------------------------------------------------------------


def check_request(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure, then turn rules (pairing, thinking placement, system role), tools and tool_choice,
    then thinking compatibility, cache breakpoints and the prefill (:mod:`._anthropic_rules`)."""
    (REQUEST_BETA if ctx.beta else REQUEST).check(payload, (), ctx)
    messages = payload.get("messages")
    if messages == []:
        ctx.add(("messages",), "empty_messages", "messages: at least one message is required")
    if isinstance(messages, list):
        thinking = payload.get("thinking")
        adaptive = isinstance(thinking, dict) and thinking.get("type") == "adaptive"
        check_turns(messages, thinking_on(payload), ctx, inline_system=ctx.beta, adaptive=adaptive)
    tools = payload.get("tools")
    names = [
        (i, t["name"], ("tools", i, "name"))
        for i, t in enumerate(tools if isinstance(tools, list) else ())
        if isinstance(t, dict) and isinstance(t.get("name"), str)
    ]
    unique_names(names, ("tools",), ctx, "tools: Tool names must be unique.")
    _check_choice(payload, {n for _, n, _ in names}, ctx)
    _check_budget(payload, ctx)
    check_rules(payload, ctx)


def check_response(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure of a non-streamed Message."""
    RESPONSE.check(payload, (), ctx)


def _check_choice(payload: dict[str, Any], names: set[str], ctx: Ctx) -> None:
    choice = payload.get("tool_choice")
    if not isinstance(choice, dict):
        return
    if not payload.get("tools") and choice.get("type") in ("any", "tool"):
        ctx.add(
            ("tool_choice",),
            "tool_choice_without_tools",
            "tool_choice: tool_choice may only be specified while providing tools.",
        )
    elif choice.get("type") == "tool" and isinstance(choice.get("name"), str):
        name = choice["name"]
        tool_choice_names_missing(
            [name],
            names,
            ("tool_choice", "name"),
            ctx,
            f"tool_choice.tool.name: Tool '{name}' not found in `tools`.",
        )


def _check_budget(payload: dict[str, Any], ctx: Ctx) -> None:
    thinking, max_tokens = payload.get("thinking"), payload.get("max_tokens")
    if not isinstance(thinking, dict) or thinking.get("type") != "enabled":
        return
    budget = thinking.get("budget_tokens")
    if isinstance(budget, int) and isinstance(max_tokens, int) and max_tokens <= budget:
        ctx.add(
            ("thinking", "budget_tokens"),
            "budget_exceeds_max_tokens",
            "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at "
            "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size",
        )
