"""The replay rules of ``rules="provider"``: what the real providers refuse in replayed history.

The default mode (``rules="lenient"``) checks requests with the validator (when
``validate`` is on) and the reasoning state with :mod:`toolwire.emulator.reasoning`, which
accepts a state re-encoded by a client. In ``provider`` mode the emulator also enforces, with
validation on or off, the rules each provider enforces on history, and answers that provider's
400:

=====================  =====================================================================
format                 rule (400 when broken)
=====================  =====================================================================
``anthropic``          ``tool_use`` ids unique; every ``tool_use`` answered by a
                       ``tool_result`` at the start of the next user message, every
                       ``tool_result`` answering the turn before; with thinking ``enabled``,
                       the assistant turn of the last tool loop starts with a thinking block;
                       a thinking ``signature`` is byte for byte the one issued for its text;
                       ``redacted_thinking`` data is refused (the emulator issues none)
``gemini`` (3)         for models named ``gemini-3*``: in the current turn (the contents after
                       the last user text), the first ``functionCall`` of each model step
                       carries a ``thoughtSignature``, ours or a documented placeholder
``openai-chat``        ``tool`` messages follow the assistant message with ``tool_calls`` and
                       answer each of its ids before any other message (by id: the API pairs
                       by ``tool_call_id``, so their order among themselves is free)
``openai-responses``   each ``function_call_output`` pairs with a ``function_call`` by
                       ``call_id`` and each call is answered (over the stored conversation when
                       ``previous_response_id`` is given); ``encrypted_content`` is byte for
                       byte the emulator's
=====================  =====================================================================

The structural rules are the validator's (:data:`REPLAY_CODES`, same wording); the state rules
are here. Gemini 3 models always think, so the emulator signs their calls in both modes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from toolwire.emulator.reasoning import GEMINI_MISSING
from toolwire.emulator.render import always_thinks
from toolwire.emulator.signature import exact
from toolwire.ir import Format, Message, ReasoningPart, Request, TextPart, ToolCall, ToolResult
from toolwire.validate import validate

__all__ = ["REPLAY_CODES", "Violation", "check_replay"]

REPLAY_CODES = frozenset(
    {
        "orphan_tool_call",
        "orphan_tool_result",
        "duplicate_call_id",
        "duplicate_result",
        "call_not_assistant",
        "thinking_placement",
        "reasoning_without_follower",
    }
)
"""Validator codes (see :mod:`toolwire.validate.validator`) that provider mode always enforces."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A broken replay rule: the provider's message and, for OpenAI, its ``param``."""

    message: str
    param: str | None = None


def _structural(fmt: Format, payload: dict[str, Any], beta: bool) -> Violation | None:
    for problem in validate(payload, format=fmt, kind="request", beta=beta):
        if problem.code in REPLAY_CODES:
            return Violation(problem.message, problem.param)
    return None


def _conversation(request: Request) -> list[Message]:
    return [m for m in request.messages if m.role not in ("system", "developer")]


def _anthropic(request: Request, secret: bytes, model: str | None) -> str | None:
    for i, message in enumerate(_conversation(request)):
        for j, part in enumerate(message.parts if message.role == "assistant" else ()):
            if not isinstance(part, ReasoningPart):
                continue
            if part.redacted is not None:
                return f"messages.{i}.content.{j}: Invalid `data` in `redacted_thinking` block"
            if not exact(secret, part.signature, part.text or ""):
                return f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block"
    return None


def _responses(request: Request, secret: bytes, model: str | None) -> str | None:
    items = [p for m in request.messages for p in m.parts if isinstance(p, ReasoningPart)]
    for part in items:
        if part.encrypted is not None and not exact(secret, part.encrypted):
            return f"The encrypted content for item {part.id or 'reasoning'} could not be verified."
    return None


def _turn_start(messages: tuple[Message, ...]) -> int:
    """Index of the last user message with text (a new turn), else 0."""
    for i in range(len(messages) - 1, -1, -1):
        parts = messages[i].parts
        texts = any(isinstance(p, TextPart) for p in parts)
        if messages[i].role == "user" and texts and not any(isinstance(p, ToolResult) for p in parts):
            return i
    return 0


def _gemini(request: Request, secret: bytes, model: str | None) -> str | None:
    if not always_thinks(model or request.model):
        return None
    start = _turn_start(request.messages)
    for message in request.messages[start:]:
        if message.role != "assistant":
            continue
        for j, part in enumerate(message.parts):
            if isinstance(part, ToolCall):
                if not part.thought_signature:  # its validity: check_reasoning, in both modes
                    return GEMINI_MISSING.format(name=f"default_api:{part.name}", pos=j + 1)
                break
    return None


_STATE: dict[Format, Callable[[Request, bytes, str | None], str | None]] = {
    "anthropic": _anthropic,
    "openai-responses": _responses,
    "gemini": _gemini,
}


def check_replay(
    fmt: Format,
    payload: dict[str, Any],
    request: Request,
    *,
    secret: bytes,
    model: str | None = None,
    beta: bool = False,
) -> Violation | None:
    """The first replay rule of ``fmt``'s provider that the request breaks, else ``None``.

    Args:
        fmt: the request's format.
        payload: the wire request (for Responses, with any stored conversation prepended).
        request: the decoded request.
        secret: key of the emulator's reasoning-state signatures.
        model: the model of the URL (Gemini), else the request's.
        beta: the request went to Anthropic's beta surface.
    """
    found = _structural(fmt, payload, beta)
    if found is not None:
        return found
    check = _STATE.get(fmt)
    message = check(request, secret, model) if check is not None else None
    return Violation(message) if message is not None else None
