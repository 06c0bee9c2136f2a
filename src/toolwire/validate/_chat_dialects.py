"""What a Chat-compatible provider refuses that the Chat Completions API accepts, from its
row in :data:`~toolwire.formats.openai_chat.dialects.DIALECTS`.

Codes:

======================  ==========================================================================
``invalid_call_id``     a call id (or a tool message's ``tool_call_id``) outside the provider's
                        id rule (Mistral: ``^[a-zA-Z0-9]{9}$``)
``invalid_tool_choice`` a ``tool_choice`` mode the provider does not have
``unknown_parameter``   a top-level field the provider refuses (Mistral's closed schema)
``unknown_field``       a message field outside the provider's closed message schema
``invalid_role``        a ``developer`` message for a provider without that role
======================  ==========================================================================
"""

from __future__ import annotations

import re
from typing import Any

from toolwire.formats.openai_chat.dialects import Dialect
from toolwire.ir.problem import Problem

__all__ = ["check_dialect"]

_ID_RULES = {"alnum9": re.compile(r"[a-zA-Z0-9]{9}")}


def _ids(message: dict[str, Any], index: int, rule: re.Pattern[str]) -> list[Problem]:
    found: list[tuple[str, Any]] = []
    for position, call in enumerate(message.get("tool_calls") or ()):
        if isinstance(call, dict):
            found.append((f"$.messages[{index}].tool_calls[{position}].id", call.get("id")))
    if message.get("role") == "tool":
        found.append((f"$.messages[{index}].tool_call_id", message.get("tool_call_id")))
    return [
        Problem(path, "invalid_call_id", f"call id {value!r} must match {rule.pattern}")
        for path, value in found
        if isinstance(value, str) and not rule.fullmatch(value)
    ]


def _message(message: Any, index: int, d: Dialect) -> list[Problem]:
    if not isinstance(message, dict):
        return []
    path = f"$.messages[{index}]"
    problems: list[Problem] = []
    role = message.get("role")
    if role == "developer" and not d.developer_role:
        problems.append(Problem(f"{path}.role", "invalid_role", f"{d.title} has no 'developer' role"))
    rule = _ID_RULES.get(d.call_ids) if d.call_ids is not None else None
    if rule is not None:
        problems.extend(_ids(message, index, rule))
    allowed = d.closed_messages.get(role) if d.closed_messages is not None and type(role) is str else None
    for key in message if allowed is not None else ():
        if key not in allowed:  # type: ignore[operator]
            problems.append(
                Problem(f"{path}.{key}", "unknown_field", f"{d.title} {role} messages have no {key!r}")
            )
    return problems


def check_dialect(payload: dict[str, Any], d: Dialect) -> list[Problem]:
    """The problems of a Chat request ``payload`` for the provider ``d`` (its documented
    differences only; the Chat structure is :func:`~toolwire.validate`'s without a dialect)."""
    problems = [
        Problem(f"$.{key}", "unknown_parameter", f"{d.title} does not accept {key!r}")
        for key in payload
        if key in d.rejects
    ]
    choice = payload.get("tool_choice")
    if isinstance(choice, str) and choice not in d.tool_choice:
        expected = ", ".join(sorted(d.tool_choice))
        problems.append(
            Problem("$.tool_choice", "invalid_tool_choice", f"{d.title} tool_choice is one of {expected}")
        )
    messages = payload.get("messages")
    for index, message in enumerate(messages if isinstance(messages, list) else ()):
        problems.extend(_message(message, index, d))
    return problems
