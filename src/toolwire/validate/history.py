"""History linter: tool-call/result pairing and order in a canonical conversation.

Rules (codes):

========================  ============================================================
``orphan_tool_call``      an assistant tool call that no later tool result answers
``orphan_tool_result``    a tool result whose ``call_id`` matches no earlier call
``result_not_next``       a result that does not follow its call's turn directly
                          (another assistant turn came in between)
``duplicate_call_id``     two tool calls share an id
``duplicate_result``      two results answer the same call
``missing_call_id``       a call or result without an id where pairing needs one
``call_not_assistant``    a tool call in a non-assistant message
========================  ============================================================

Paths point into the canonical model (``$.messages[3].parts[1]``); format
validators map them to wire paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from toolwire.ir.content import Message, ToolCall, ToolResult
from toolwire.ir.problem import Problem

__all__ = ["Problem", "lint_history"]


@dataclass(slots=True)
class _Call:
    path: str
    turn: int
    answered: bool = False


def lint_history(messages: Sequence[Message], *, require_ids: bool = True) -> list[Problem]:
    """Check tool-call/result pairing and order; returns the problems found (empty when fine).

    Args:
        messages: the conversation.
        require_ids: report calls/results without ids (``False`` for Gemini, which pairs
            by name and order).
    """
    problems: list[Problem] = []
    calls: dict[str, _Call] = {}
    assistant_turn = -1
    for m_index, message in enumerate(messages):
        if message.role == "assistant":
            assistant_turn += 1
        for p_index, part in enumerate(message.parts):
            path = f"$.messages[{m_index}].parts[{p_index}]"
            if isinstance(part, ToolCall):
                _check_call(part, path, message, assistant_turn, calls, problems, require_ids)
            elif isinstance(part, ToolResult):
                _check_result(part, path, assistant_turn, calls, problems, require_ids)
    for call_id, call in calls.items():
        if not call.answered:
            problems.append(Problem(call.path, "orphan_tool_call", f"tool call {call_id!r} has no result"))
    return problems


def _check_call(
    part: ToolCall,
    path: str,
    message: Message,
    turn: int,
    calls: dict[str, _Call],
    problems: list[Problem],
    require_ids: bool,
) -> None:
    if message.role != "assistant":
        problems.append(Problem(path, "call_not_assistant", f"tool call in a {message.role!r} message"))
    if part.kind == "builtin":
        return
    if part.id is None:
        if require_ids:
            problems.append(Problem(path, "missing_call_id", f"tool call {part.name!r} has no id"))
        return
    if part.id in calls:
        problems.append(Problem(path, "duplicate_call_id", f"tool call id {part.id!r} is used twice"))
        return
    calls[part.id] = _Call(path, turn)


def _check_result(
    part: ToolResult,
    path: str,
    turn: int,
    calls: dict[str, _Call],
    problems: list[Problem],
    require_ids: bool,
) -> None:
    if part.kind == "builtin":
        return
    if part.call_id is None:
        if require_ids:
            problems.append(Problem(path, "missing_call_id", "tool result has no call id"))
        return
    call = calls.get(part.call_id)
    if call is None:
        problems.append(
            Problem(path, "orphan_tool_result", f"tool result for {part.call_id!r} answers no earlier call")
        )
        return
    if call.answered:
        problems.append(Problem(path, "duplicate_result", f"tool call {part.call_id!r} is answered twice"))
        return
    call.answered = True
    if call.turn != turn:
        problems.append(
            Problem(
                path,
                "result_not_next",
                f"tool result for {part.call_id!r} comes after a later assistant turn",
            )
        )
