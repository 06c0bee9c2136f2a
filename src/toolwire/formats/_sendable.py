"""Refusals for translated requests no target would take, found after encoding.

:mod:`toolwire.formats._history` refuses what the *source* history cannot become (stored state,
orphan results). Some histories only turn out unsendable once encoded for a target, because the
target has no form for some of their turns (a Chat target drops built-in-only turns, Anthropic
and Gemini hoist system messages). So, for a request translated to another format:

========================================  ==================================================
the encoded request has                   what happens
========================================  ==================================================
no turn left (``messages`` is ``[]``)     :class:`~toolwire.errors.ConversionError`: Chat and
                                          Anthropic answer 400 to an empty history (Gemini
                                          refuses in its encoder)
a tool call the history never answers,    ``ConversionError``: every target answers 400 to a
in its last turn too                      call without its result, and a request cannot be
                                          the model's own call turn
a Gemini function call turn first         ``ConversionError``: Gemini needs a user turn (or
(no user turn before it)                  function responses) right before a call turn
a Gemini call turn answered by another    ``ConversionError``: Gemini pairs by position, so
number of function responses              it needs one response per call (a repeated call
                                          or result in the source)
========================================  ==================================================

Refusals are not notes: no policy makes them pass. Paths point into the source request (the
history key of the source format), since the user must change that.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

from toolwire.errors import ConversionError
from toolwire.ir.content import ToolCall, ToolResult
from toolwire.ir.request import Request

__all__ = ["refuse_unsendable_request"]

_HISTORY = {
    "openai-chat": "messages",
    "anthropic": "messages",
    "gemini": "contents",
    "openai-responses": "input",
    "bedrock-converse": "messages",
}
"""Where each format keeps its turns."""

_NEEDS_A_TURN = frozenset({"openai-chat", "anthropic"})
"""Targets that answer 400 to an empty history (a Responses ``input: []`` with ``instructions``
is a request; Gemini refuses in its own encoder)."""


def _empty(out: dict[str, Any], req: Request, target: str) -> None:
    if target in _NEEDS_A_TURN and out.get(_HISTORY[target]) == []:
        raise ConversionError(
            f"no turn of the request can be sent to {target} (only system text, or turns it "
            "cannot carry); it needs at least one message",
            path=f"$.{_HISTORY.get(req.origin or '', 'messages')}",
        )


def _unanswered(out: dict[str, Any], req: Request, target: str) -> None:
    answered: set[str | None] = set()
    calls: list[tuple[int, ToolCall]] = []
    for index, message in enumerate(req.messages):  # one pass: a result may come before its call
        for part in message.parts:
            kind = type(part)
            if kind is ToolResult:
                answered.add(part.call_id)  # type: ignore[union-attr]
            elif kind is ToolCall and part.kind != "builtin":  # type: ignore[union-attr]
                calls.append((index, part))  # type: ignore[arg-type]
    for index, call in calls:
        if call.id not in answered:
            raise ConversionError(
                f"tool call {call.name!r} ({call.id!r}) has no result in the request; "
                f"{target} rejects a call without its result (send the result, or leave the "
                "call out)",
                path=f"$.{_HISTORY.get(req.origin or '', 'messages')}[{index}]",
            )


def _gemini_call_first(out: dict[str, Any], req: Request, target: str) -> None:
    contents = out.get("contents")
    if target != "gemini" or not isinstance(contents, list) or not contents:
        return
    first = contents[0]
    parts = first.get("parts") if isinstance(first, dict) else None
    if first.get("role") == "model" and any(isinstance(p, dict) and "functionCall" in p for p in parts or ()):
        raise ConversionError(
            "the history starts with a tool call turn; gemini needs a user turn before it",
            path=f"$.{_HISTORY.get(req.origin or '', 'messages')}",
        )


def _count(content: Any, key: str) -> int:
    parts = content.get("parts") if isinstance(content, dict) else None
    if not isinstance(parts, list):
        return 0
    count = 0
    for part in parts:  # a loop, not sum() over a generator: most contents have one or two parts
        if isinstance(part, dict) and key in part:
            count += 1
    return count


def _gemini_counts(out: dict[str, Any], req: Request, target: str) -> None:
    contents = out.get("contents")
    if target != "gemini" or not isinstance(contents, list):
        return
    for index, (call_turn, answer) in enumerate(pairwise(contents)):
        calls = _count(call_turn, "functionCall")
        if calls and calls != _count(answer, "functionResponse"):
            raise ConversionError(
                f"gemini content {index} has {calls} function call(s) but the next content answers "
                f"{_count(answer, 'functionResponse')}; gemini pairs them by position (is a call or "
                "result repeated?)",
                path=f"$.{_HISTORY.get(req.origin or '', 'messages')}",
            )


_CHECKS: tuple[Callable[[dict[str, Any], Request, str], None], ...] = (
    _empty,
    _unanswered,
    _gemini_call_first,
    _gemini_counts,
)
_GEMINI_ONLY = frozenset({_gemini_call_first, _gemini_counts})
_CHECKS_FOR: dict[str, tuple[Callable[[dict[str, Any], Request, str], None], ...]] = {
    target: tuple(c for c in _CHECKS if target == "gemini" or c not in _GEMINI_ONLY) for target in _HISTORY
}
"""The checks that apply to each target (the Gemini ones look at nothing else)."""


def refuse_unsendable_request(out: dict[str, Any], req: Request, target: str) -> None:
    """Raise when ``out``, ``req`` encoded for ``target`` (another format), cannot be sent.

    Args:
        out: the encoded request.
        req: the IR request it was encoded from (its ``origin`` names the source format).
        target: the target format name.

    Raises:
        ConversionError: an empty history, a tool call without its result, a Gemini call
            turn first or answered by another number of responses.
    """
    for check in _CHECKS_FOR.get(target, _CHECKS):
        check(out, req, target)
