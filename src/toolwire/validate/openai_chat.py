"""Validation tables and cross-item rules for OpenAI Chat Completions (``openai-chat``).

Structure follows ``CreateChatCompletionRequest`` and ``CreateChatCompletionResponse`` of the
OpenAI OpenAPI spec; the cross-item rules are the ones the API enforces on conversations
(tool calls answered by ``tool`` messages before the next non-tool message, ...).
"""

from __future__ import annotations

from typing import Any

from toolwire.validate._chat_rules import check_choices, check_strict_tools, check_tool_turns, tool_names
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
    Spec,
    Str,
    Tagged,
    opt,
    req,
)
from toolwire.validate._openai import OpenAIDialect
from toolwire.validate._rules import unique_names

__all__ = ["DIALECT", "REQUEST", "RESPONSE", "TOOL_NAME_PATTERN", "check_request", "check_response"]

TOOL_NAME_PATTERN = "^[a-zA-Z0-9_-]+$"
MAX_TOOLS = 128

DIALECT = OpenAIDialect("Unrecognized request argument supplied: {name}")

_ANY = Anything()
_OBJECT = Anything("object")
_S = Str()
_CACHE = {"prompt_cache_breakpoint": opt(_ANY)}

_TEXT = Obj({"type": req(_S), "text": req(_S), **_CACHE}, closed=True)
_USER_PART = Tagged(
    "type",
    {
        "text": _TEXT,
        "image_url": Obj(
            {
                "type": req(_S),
                "image_url": req(Obj({"url": req(_S), "detail": opt(Str(enum=("auto", "low", "high")))})),
                **_CACHE,
            },
            closed=True,
        ),
        "input_audio": Obj(
            {
                "type": req(_S),
                "input_audio": req(Obj({"data": req(_S), "format": req(Str(enum=("wav", "mp3")))})),
                **_CACHE,
            },
            closed=True,
        ),
        "file": Obj(
            {
                "type": req(_S),
                "file": req(Obj({"filename": opt(_S), "file_data": opt(_S), "file_id": opt(_S)})),
                **_CACHE,
            },
            closed=True,
        ),
    },
)
_REFUSAL = Obj({"type": req(_S), "refusal": req(_S)}, closed=True)
_ASSISTANT_PART = Tagged("type", {"text": _TEXT, "refusal": _REFUSAL})
_TEXT_ONLY = Tagged("type", {"text": _TEXT})

_WORDS = "one of a string or array of objects"


def _content(part: Spec) -> Either:
    return Either((_S, Arr(part, min_items=1)), _WORDS)


_FUNCTION_CALL = Obj({"name": req(_S), "arguments": req(_S)})
TOOL_CALL = Tagged(
    "type",
    {
        "function": Obj({"id": req(_S), "type": req(_S), "function": req(_FUNCTION_CALL)}),
        "custom": Obj(
            {"id": req(_S), "type": req(_S), "custom": req(Obj({"name": req(_S), "input": req(_S)}))}
        ),
    },
)

_NAME = {"name": opt(_S)}
# Messages are open: the API ignores fields it does not know there (recorded requests carry `parsed`).
# Roles are listed in the order the API's "Supported values are: ..." message names them.
MESSAGE = Tagged(
    "role",
    {
        "system": Obj({"role": req(_S), "content": req(_content(_TEXT_ONLY)), **_NAME}),
        "assistant": Obj(
            {
                "role": req(_S),
                "content": opt(_content(_ASSISTANT_PART), nullable=True),
                "refusal": opt(_S, nullable=True),
                "audio": opt(Obj({"id": req(_S)}), nullable=True),
                "tool_calls": opt(Arr(TOOL_CALL)),
                "function_call": opt(_FUNCTION_CALL, nullable=True),
                **_NAME,
            },
        ),
        "user": Obj({"role": req(_S), "content": req(_content(_USER_PART)), **_NAME}),
        "function": Obj({"role": req(_S), "content": req(_S, nullable=True), "name": req(_S)}),
        "tool": Obj(
            {"role": req(_S), "content": req(_content(_TEXT_ONLY)), "tool_call_id": req(_S)},
        ),
        "developer": Obj({"role": req(_S), "content": req(_content(_TEXT_ONLY)), **_NAME}),
    },
)

IGNORED_TOOL_FIELDS: dict[str, str] = {
    "name": 'Codex CLI in Chat mode (wire_api = "chat") repeats the function name beside `function`; '
    "Chat Completions servers it runs against ignore it.",
}
"""Fields of a function tool the API ignores (a warning) -> where that is known from."""

_FN_NAME = Str(pattern=TOOL_NAME_PATTERN, max_len=64)
FUNCTION = Obj(
    {
        "name": req(_FN_NAME),
        "description": opt(_S),
        "parameters": opt(_OBJECT),
        "strict": opt(Bool(), nullable=True),
    },
    closed=True,
)
_GRAMMAR = Obj({"definition": req(_S), "syntax": req(Str(enum=("lark", "regex")))})
_CUSTOM_FORMAT = Tagged(
    "type",
    {
        "text": Obj({"type": req(_S)}, closed=True),
        "grammar": Obj({"type": req(_S), "grammar": req(_GRAMMAR)}, closed=True),
    },
)
TOOL = Tagged(
    "type",
    {
        "function": Obj(
            {"type": req(_S), "function": req(FUNCTION)},
            closed=True,
            ignored=IGNORED_TOOL_FIELDS,
        ),
        "custom": Obj(
            {
                "type": req(_S),
                "custom": req(
                    Obj(
                        {"name": req(_FN_NAME), "description": opt(_S), "format": opt(_CUSTOM_FORMAT)},
                        closed=True,
                    )
                ),
            },
            closed=True,
        ),
    },
)
_NAMED = Obj({"name": req(_S)})
TOOL_CHOICE = Either(
    (
        Str(enum=("none", "auto", "required")),
        Tagged(
            "type",
            {
                "function": Obj({"type": req(_S), "function": req(_NAMED)}, closed=True),
                "custom": Obj({"type": req(_S), "custom": req(_NAMED)}, closed=True),
                "allowed_tools": Obj(
                    {
                        "type": req(_S),
                        "allowed_tools": req(
                            Obj(
                                {"mode": req(Str(enum=("auto", "required"))), "tools": req(Arr(_OBJECT))},
                                closed=True,
                            )
                        ),
                    },
                    closed=True,
                ),
            },
        ),
    ),
    "one of a string or object",
)
_RESPONSE_FORMAT = Tagged(
    "type",
    {
        "text": Obj({"type": req(_S)}),
        "json_object": Obj({"type": req(_S)}),
        "json_schema": Obj(
            {
                "type": req(_S),
                "json_schema": req(
                    Obj(
                        {
                            "name": req(Str(pattern=TOOL_NAME_PATTERN, max_len=64)),
                            "description": opt(_S),
                            "schema": opt(_OBJECT),
                            "strict": opt(Bool(), nullable=True),
                        }
                    )
                ),
            }
        ),
    },
)
_EFFORT = Str(enum=("none", "minimal", "low", "medium", "high", "xhigh", "max"))
_TIER = Str(enum=("auto", "default", "flex", "scale", "priority", "fast"))

REQUEST = Obj(
    {
        "model": req(_S),
        "messages": req(Arr(MESSAGE, min_items=1)),
        "metadata": opt(Map(_S), nullable=True),
        "top_logprobs": opt(Int(0, 20), nullable=True),
        "temperature": opt(Num(0, 2), nullable=True),
        "top_p": opt(Num(0, 1), nullable=True),
        "user": opt(_S),
        "safety_identifier": opt(Str(max_len=64), nullable=True),
        "prompt_cache_key": opt(_S, nullable=True),
        "prompt_cache_retention": opt(Str(enum=("in_memory", "24h")), nullable=True),
        "prompt_cache_options": opt(_OBJECT, nullable=True),
        "service_tier": opt(_TIER, nullable=True),
        "modalities": opt(Arr(Str(enum=("text", "audio"))), nullable=True),
        "verbosity": opt(Str(enum=("low", "medium", "high")), nullable=True),
        "reasoning_effort": opt(_EFFORT, nullable=True),
        "max_completion_tokens": opt(Int(), nullable=True),
        "frequency_penalty": opt(Num(-2, 2), nullable=True),
        "presence_penalty": opt(Num(-2, 2), nullable=True),
        "web_search_options": opt(_OBJECT),
        "response_format": opt(_RESPONSE_FORMAT),
        "audio": opt(Obj({"voice": req(_ANY), "format": req(_S)}), nullable=True),
        "store": opt(Bool(), nullable=True),
        "moderation": opt(_OBJECT, nullable=True),
        "stream": opt(Bool(), nullable=True),
        "stop": opt(
            Either((_S, Arr(_S, min_items=1, max_items=4)), "one of a string or array"), nullable=True
        ),
        "logit_bias": opt(Map(Int()), nullable=True),
        "logprobs": opt(Bool(), nullable=True),
        "max_tokens": opt(Int(), nullable=True),
        "n": opt(Int(1, 128), nullable=True),
        "prediction": opt(_OBJECT, nullable=True),
        "seed": opt(Int(), nullable=True),
        "stream_options": opt(
            Obj({"include_usage": opt(Bool()), "include_obfuscation": opt(Bool())}), nullable=True
        ),
        "tools": opt(Arr(TOOL, max_items=MAX_TOOLS)),
        "tool_choice": opt(TOOL_CHOICE),
        "parallel_tool_calls": opt(Bool()),
        "function_call": opt(Either((Str(enum=("none", "auto")), _NAMED), "one of a string or object")),
        "functions": opt(
            Arr(
                Obj({"name": req(_FN_NAME), "description": opt(_S), "parameters": opt(_OBJECT)}),
                min_items=1,
                max_items=MAX_TOOLS,
            )
        ),
    },
    closed=True,
)

# --- response -------------------------------------------------------------------------------------

_RESPONSE_MESSAGE = Obj(
    {
        "role": req(Str(enum=("assistant",))),
        "content": req(_S, nullable=True),
        "refusal": opt(_S, nullable=True),
        "tool_calls": opt(Arr(TOOL_CALL)),
        "function_call": opt(_FUNCTION_CALL, nullable=True),
        "annotations": opt(Arr(_OBJECT)),
        "audio": opt(_OBJECT, nullable=True),
    }
)
_FINISH = Str(enum=("stop", "length", "tool_calls", "content_filter", "function_call"))
RESPONSE = Obj(
    {
        "id": req(_S),
        "object": req(Str(enum=("chat.completion",))),
        "created": req(Int()),
        "model": req(_S),
        "choices": req(
            Arr(
                Obj(
                    {
                        "index": req(Int()),
                        "message": req(_RESPONSE_MESSAGE),
                        "finish_reason": req(_FINISH, nullable=True),
                        "logprobs": opt(_OBJECT, nullable=True),
                    }
                )
            )
        ),
        "usage": opt(
            Obj({"prompt_tokens": req(Int()), "completion_tokens": req(Int()), "total_tokens": req(Int())}),
            nullable=True,
        ),
        "service_tier": opt(_S, nullable=True),
        "system_fingerprint": opt(_S, nullable=True),
    }
)


# --- entry points ---------------------------------------------------------------------------------


def check_request(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure, then the conversation rules and the tool/tool_choice consistency rules."""
    REQUEST.check(payload, (), ctx)
    messages = payload.get("messages")
    if isinstance(messages, list):
        check_tool_turns(messages, ctx)
    names = tool_names(payload.get("tools"))
    unique_names(names, ("tools",), ctx, "Duplicate tool name: '{name}'. Tool names must be unique.")
    check_choices(payload, names, ctx)
    check_strict_tools(payload.get("tools"), ctx)


def check_response(payload: dict[str, Any], ctx: Ctx) -> None:
    """Structure of a non-streamed chat completion."""
    RESPONSE.check(payload, (), ctx)
