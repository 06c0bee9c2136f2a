"""Chat Completions conversation rules: tool calls answered by ``tool`` messages, tool choice.

The API requires every assistant message with ``tool_calls`` to be followed by one ``tool``
message per call before any other message, and a ``tool`` message to answer a call of the
assistant message right before it. Locations use the API's own ``messages.[3].role`` spelling.
"""

from __future__ import annotations

from typing import Any

from toolwire.validate._engine import Ctx, Path
from toolwire.validate._openai_strict import check_strict_schema
from toolwire.validate._rules import check_parameters_root, tool_choice_names_missing

__all__ = ["check_choices", "check_strict_tools", "check_tool_turns", "tool_names"]


def tool_names(tools: Any) -> list[tuple[int, str, Path]]:
    """(index, name, path of the name) of each function or custom tool."""
    out: list[tuple[int, str, Path]] = []
    for i, tool in enumerate(tools if isinstance(tools, list) else ()):
        if not isinstance(tool, dict):
            continue
        kind = tool.get("type")
        if not isinstance(kind, str):
            continue
        inner = tool.get(kind)
        if isinstance(inner, dict) and isinstance(inner.get("name"), str):
            out.append((i, inner["name"], ("tools", i, kind, "name")))
    return out


def check_choices(payload: dict[str, Any], names: list[tuple[int, str, Path]], ctx: Ctx) -> None:
    """``tool_choice``/``parallel_tool_calls``/``function_call`` need tools; a named choice names one."""
    has_tools = bool(payload.get("tools"))
    for key in ("tool_choice", "parallel_tool_calls"):
        if key in payload and payload[key] is not None and not has_tools:
            ctx.add(
                (key,),
                "tool_choice_without_tools",
                f"Invalid value for '{key}': '{key}' is only allowed when 'tools' are specified.",
            )
    if payload.get("function_call") is not None and not payload.get("functions"):
        ctx.add(
            ("function_call",),
            "tool_choice_without_tools",
            "Invalid value for 'function_call': 'function_call' is only allowed when 'functions' are "
            "specified.",
        )
    choice = payload.get("tool_choice")
    if has_tools and isinstance(choice, dict):
        kind = choice.get("type")
        if kind not in ("function", "custom"):
            return
        named = choice.get(kind)
        if isinstance(named, dict) and isinstance(named.get("name"), str):
            tool_choice_names_missing(
                [named["name"]],
                {name for _, name, _ in names},
                ("tool_choice", str(kind), "name"),
                ctx,
                "Invalid value for 'tool_choice': function '{name}' is not among the provided tools.",
            )


def check_tool_turns(messages: list[Any], ctx: Ctx) -> None:
    """Each assistant ``tool_calls`` answered by ``tool`` messages before the next other message."""
    pending: dict[str, Path] = {}
    open_turn: int | None = None
    seen_ids: set[str] = set()
    for i, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = message.get("role")
        if role == "tool":
            _answer(message, i, pending, open_turn, ctx)
            continue
        if pending and open_turn is not None:
            _unanswered(open_turn, i, pending, ctx)
        pending, open_turn = {}, None
        if role == "assistant":
            if all(
                message.get(k) is None for k in ("content", "tool_calls", "function_call", "audio", "refusal")
            ):
                ctx.add_at(
                    ("messages", i, "content"),
                    ("messages", i, "content"),
                    "missing_content",
                    "Invalid value for 'content': expected a string, got null.",
                )
            pending = _calls(message, i, seen_ids, ctx)
            open_turn = i if message.get("tool_calls") else None
    if pending and open_turn is not None:
        _unanswered(open_turn, len(messages) - 1, pending, ctx, at_end=True)


def _calls(message: dict[str, Any], i: int, seen: set[str], ctx: Ctx) -> dict[str, Path]:
    calls = message.get("tool_calls")
    out: dict[str, Path] = {}
    for k, call in enumerate(calls if isinstance(calls, list) else ()):
        call_id = call.get("id") if isinstance(call, dict) else None
        if not isinstance(call_id, str):
            continue
        path = ("messages", i, "tool_calls", k, "id")
        if call_id in seen:
            ctx.add(
                path, "duplicate_call_id", f"Duplicate value for 'tool_call_id': '{call_id}' is used twice."
            )
        seen.add(call_id)
        out[call_id] = path
    return out


def _answer(
    message: dict[str, Any],
    i: int,
    pending: dict[str, Path],
    open_turn: int | None,
    ctx: Ctx,
) -> None:
    call_id = message.get("tool_call_id")
    if open_turn is None:
        ctx.add_at(
            ("messages", i),
            ("messages", f"[{i}]", "role"),
            "orphan_tool_result",
            "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
            "with 'tool_calls'.",
        )
    elif isinstance(call_id, str) and call_id not in pending:
        ctx.add_at(
            ("messages", i, "tool_call_id"),
            ("messages", f"[{i}]", "tool_call_id"),
            "orphan_tool_result",
            f"Invalid parameter: 'tool_call_id' of '{call_id}' not found in 'tool_calls' of previous "
            "message.",
        )
    elif isinstance(call_id, str):
        del pending[call_id]


def _unanswered(turn: int, at: int, pending: dict[str, Path], ctx: Ctx, *, at_end: bool = False) -> None:
    ids = ", ".join(pending)
    ctx.add_at(
        ("messages", turn, "tool_calls"),
        ("messages", f"[{at if not at_end else turn}]", "role"),
        "orphan_tool_call",
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        f"'tool_call_id'. The following tool_call_ids did not have response messages: {ids}",
    )


def check_strict_tools(tools: Any, ctx: Ctx) -> None:
    """Function ``parameters`` must have an object root; with ``strict: true``, be strict-mode."""
    for i, tool in enumerate(tools if isinstance(tools, list) else ()):
        function = tool.get("function") if isinstance(tool, dict) and tool.get("type") == "function" else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            continue
        name, schema = function["name"], function.get("parameters")
        path = ("tools", i, "function", "parameters")
        if check_parameters_root(name, schema, path, ctx) and function.get("strict") is True:
            check_strict_schema(name, schema, path, ctx)
