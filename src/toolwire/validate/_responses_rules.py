"""Responses API input rules: call/output pairing by ``call_id``, reasoning items, unique ids.

Wording follows the API: ``No tool output found for function call call_1.``, ``No tool call found
for function call output with call_id call_1.``, ``Item 'rs_1' of type 'reasoning' was provided
without its required following item.`` (all reported with ``param: "input"``); an assistant
message with ``input_text`` content: ``Invalid value: 'input_text'. Supported values are:
'output_text' and 'refusal'.`` (``param: "input[1].content[0]"``); a function whose
``parameters`` root is not an object: ``Invalid schema for function 'f': schema must be a JSON
Schema of 'type: "object"', got 'type: "array"'.``
"""

from __future__ import annotations

from typing import Any

from toolwire.validate._engine import Ctx, Path
from toolwire.validate._openai_strict import check_strict_schema
from toolwire.validate._rules import check_parameters_root, tool_choice_names_missing

__all__ = ["check_assistant_parts", "check_choice", "check_items", "check_strict_tools", "tool_names"]

_REFUSAL_WORDS = "a refusal part is only valid in an output message item (with 'id' and 'status')."
_CALL_KINDS = {"function_call": "function call", "custom_tool_call": "custom tool call"}
_OUTPUT_KINDS = {"function_call_output": "function_call", "custom_tool_call_output": "custom_tool_call"}


def _type(item: dict[str, Any]) -> str:
    """An input item's type (``message`` when absent; ``""`` when not a string)."""
    kind = item.get("type", "message")
    return kind if isinstance(kind, str) else ""


def check_choice(choice: Any, names: set[str], ctx: Ctx) -> None:
    """A ``function``/``custom`` tool choice must name a declared tool."""
    if (
        isinstance(choice, dict)
        and choice.get("type") in ("function", "custom")
        and isinstance(choice.get("name"), str)
    ):
        tool_choice_names_missing(
            [choice["name"]],
            names,
            ("tool_choice", "name"),
            ctx,
            f"Tool choice '{choice['type']}' not found in 'tools' parameter.",
        )


def tool_names(tools: Any) -> list[tuple[int, str, Path]]:
    """(index, name, path of the name) of each function or custom tool."""
    out: list[tuple[int, str, Path]] = []
    for i, tool in enumerate(tools if isinstance(tools, list) else ()):
        if (
            isinstance(tool, dict)
            and tool.get("type") in ("function", "custom")
            and isinstance(tool.get("name"), str)
        ):
            out.append((i, tool["name"], ("tools", i, "name")))
    return out


def check_items(items: list[dict[str, Any]], continued: bool, ctx: Ctx) -> None:
    """Call/output pairing by ``call_id``, unique ids, reasoning placement.

    ``continued``: the request continues a stored response (``previous_response_id`` or
    ``conversation``), so outputs may answer calls that are not in ``input``.
    """
    calls: dict[str, tuple[int, str]] = {}  # call_id -> (index, item type)
    answered: set[str] = set()
    ids: set[str] = set()
    for i, item in enumerate(items):
        kind = _type(item)
        item_id = item.get("id")
        if isinstance(item_id, str) and kind != "item_reference":
            if item_id in ids:
                ctx.add_at(
                    ("input", i, "id"),
                    ("input",),
                    "duplicate_item_id",
                    f"Duplicate item found with id {item_id}. Remove duplicate items from your input and "
                    "try again.",
                )
            ids.add(item_id)
        call_id = item.get("call_id")
        if not isinstance(call_id, str):
            continue
        if kind in _CALL_KINDS:
            if call_id in calls:
                ctx.add_at(
                    ("input", i, "call_id"),
                    ("input",),
                    "duplicate_call_id",
                    f"Duplicate call_id '{call_id}': each {_CALL_KINDS[kind]} needs its own call_id.",
                )
            calls[call_id] = (i, kind)
        elif kind in _OUTPUT_KINDS:
            if call_id not in calls and not continued:
                noun = "function call output" if kind == "function_call_output" else "custom tool call output"
                ctx.add_at(
                    ("input", i, "call_id"),
                    ("input",),
                    "orphan_tool_result",
                    f"No tool call found for {noun} with call_id {call_id}.",
                )
            answered.add(call_id)
    for call_id, (i, kind) in calls.items():
        if call_id not in answered:
            ctx.add_at(
                ("input", i),
                ("input",),
                "orphan_tool_call",
                f"No tool output found for {_CALL_KINDS[kind]} {call_id}.",
            )
    _check_reasoning(items, ctx)


_FOLLOWERS = frozenset(
    {
        "function_call",
        "custom_tool_call",
        "message",
        "reasoning",
        "web_search_call",
        "file_search_call",
        "computer_call",
        "code_interpreter_call",
        "image_generation_call",
        "local_shell_call",
        "shell_call",
        "apply_patch_call",
        "mcp_call",
        "tool_search_call",
    }
)


def _check_reasoning(items: list[dict[str, Any]], ctx: Ctx) -> None:
    """A reasoning item must be followed by the output item it preceded (a call or assistant message).

    An assistant message is recognized as that output item by its ``id``: re-sent without it, it
    is a new input message and the reasoning item is reported as lacking its following item
    (recorded API behaviour). Calls are recognized without an id. Reasoning items without an id
    are not checked.
    """
    for i, item in enumerate(items):
        # Only items with an id: Codex CLI (store: false) re-sends reasoning items without ids, each
        # followed by an id-less assistant message or call, and the API accepts them.
        if _type(item) != "reasoning" or not isinstance(item.get("id"), str):
            continue
        nxt = items[i + 1] if i + 1 < len(items) else None
        ok = (
            nxt is not None
            and _type(nxt) in _FOLLOWERS
            and (
                _type(nxt) != "message" or (nxt.get("role") == "assistant" and isinstance(nxt.get("id"), str))
            )
        )
        if not ok:
            ctx.add_at(
                ("input", i),
                ("input",),
                "reasoning_without_follower",
                f"Item '{item.get('id')}' of type 'reasoning' was provided without its required "
                "following item.",
            )


def check_strict_tools(tools: Any, ctx: Ctx) -> None:
    """Function tools with an explicit ``strict: true`` must have strict-mode ``parameters``."""
    for i, tool in enumerate(tools if isinstance(tools, list) else ()):
        if (
            not isinstance(tool, dict)
            or tool.get("type") != "function"
            or not isinstance(tool.get("name"), str)
        ):
            continue
        path = ("tools", i, "parameters")
        if check_parameters_root(tool["name"], tool.get("parameters"), path, ctx) and tool.get("strict"):
            check_strict_schema(tool["name"], tool.get("parameters"), path, ctx)


def check_assistant_parts(items: list[dict[str, Any]], ctx: Ctx) -> None:
    """An assistant message's content parts must be output parts (``input_text`` is a 400), and a
    ``refusal`` part belongs to an output message item only (the spec's ``OutputMessage``, which
    requires ``id`` and ``status``; an input message's content list has no refusal)."""
    allowed = ("output_text", "refusal")
    d = ctx.dialect
    for i, item in enumerate(items):
        content = item.get("content")
        if _type(item) != "message" or item.get("role") != "assistant" or not isinstance(content, list):
            continue
        output_item = "id" in item and "status" in item
        for j, part in enumerate(content):
            kind = part.get("type") if isinstance(part, dict) else None
            where = ("input", i, "content", j)
            if isinstance(kind, str) and kind.startswith("input_"):
                message = d.bad_enum(d.param(where), kind, allowed)
                ctx.add_at((*where, "type"), where, "invalid_value", message)
            elif kind == "refusal" and not output_item:
                message = f"Invalid value: 'refusal' at {d.param(where)}: {_REFUSAL_WORDS}"
                ctx.add_at((*where, "type"), where, "refusal_in_input", message)
