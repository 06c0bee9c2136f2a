"""What a provider is sent when the opaque reasoning state of a turn did not come back.

Chat has no slot. Without a store (:mod:`toolwire.opaque`), a Chat client's turn reaches the
upstream without the state, and :func:`apply_fallbacks` takes the provider's documented way out,
noted (``strict`` refuses); so it does for any client that dropped the state:

- Anthropic: no ``thinking`` for a turn whose last assistant turn used tools without a signed
  thinking block (the API's 400 otherwise, our ``validate`` kind ``thinking_placement``).
- Bedrock: the same as Anthropic, for Bedrock's own signed reasoning (Claude on Bedrock).
- Gemini: the placeholder signature :data:`GEMINI_PLACEHOLDER` on the first function call of
  each model turn that has none, when the request thinks or names a Gemini 3 model (Gemini 3
  answers 400 otherwise). Google's thought-signature guide names this dummy value for
  histories that did not come from Gemini.

A Responses upstream returns its state only when ``include`` asks for it: :func:`ask_for_state`
asks for a request of another format that reasons. The envelope itself is
:mod:`toolwire.opaque`, which re-exports these names.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from toolwire.ir.base import Format
from toolwire.ir.content import Message, ReasoningPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.request import ReasoningConfig, Request

__all__ = [
    "ENCRYPTED_INCLUDE",
    "FALLBACKS",
    "GEMINI_PLACEHOLDER",
    "GEMINI_3",
    "apply_fallbacks",
    "ask_for_state",
]

GEMINI_PLACEHOLDER = "skip_thought_signature_validator"
"""Google's documented dummy ``thoughtSignature`` for function calls Gemini did not sign."""

GEMINI_3 = "gemini-3"
"""Model names of the Gemini generation that validates signatures even without a thinking config."""


def _conversation(req: Request) -> list[Message]:
    return [m for m in req.messages if m.role not in ("system", "developer")]


def _thinking_on(cfg: ReasoningConfig | None) -> bool:
    """Whether a reasoning config of another format turns thinking on (as the encoders map it)."""
    if cfg is None or cfg.enabled is False:
        return False
    if cfg.budget_tokens is not None and cfg.budget_tokens >= 0:
        return cfg.budget_tokens > 0
    if cfg.enabled is None and cfg.effort is None:
        return False
    return cfg.effort != "none"


def _vanishes_for(message: Message, origin: Format) -> bool:
    """An assistant turn of only another provider's reasoning: the ``origin`` encoder drops it."""
    return (
        message.role == "assistant"
        and bool(message.parts)
        and all(isinstance(p, ReasoningPart) and p.origin != origin for p in message.parts)
    )


def _unsigned_tool_turn(req: Request, origin: Format) -> bool:
    """Thinking is on and the last assistant turn used tools without ``origin``'s signed thinking."""
    if not _thinking_on(req.reasoning):
        return False
    turns = [m for m in _conversation(req) if not _vanishes_for(m, origin)]
    last = max((i for i, m in enumerate(turns) if m.role == "assistant"), default=None)
    if last is None or last == len(turns) - 1:
        return False
    parts = turns[last].parts
    signed = any(isinstance(p, ReasoningPart) and p.origin == origin for p in parts)
    return not signed and any(isinstance(p, ToolCall) for p in parts)


def _thinking_off(origin: Format, provider: str) -> Callable[[Request, Notes], Request]:
    def fallback(req: Request, notes: Notes) -> Request:
        if not _unsigned_tool_turn(req, origin):
            return req
        notes.add(
            "$.reasoning",
            "dropped",
            "thinking turned off for this turn: the last assistant turn used tools and has no signed "
            f"{provider} thinking block to replay (none came back through the client)",
        )
        return msgspec.structs.replace(req, reasoning=None)

    fallback.__doc__ = (
        f"No thinking when the turn answering tool calls has no signed {provider} thinking to replay."
    )
    return fallback


_anthropic = _thinking_off("anthropic", "Anthropic")
_bedrock = _thinking_off("bedrock-converse", "Bedrock")


def _gemini_message(message: Message, notes: Notes, path: str) -> Message:
    for j, part in enumerate(message.parts):
        if isinstance(part, ToolCall):
            if part.thought_signature is not None:
                return message
            notes.add(
                f"{path}.parts[{j}]",
                "approximated",
                f"Gemini's placeholder thought signature on call {part.name!r} (no signature to replay)",
            )
            parts = list(message.parts)
            parts[j] = msgspec.structs.replace(part, thought_signature=GEMINI_PLACEHOLDER)
            return msgspec.structs.replace(message, parts=tuple(parts))
    return message


def _gemini(req: Request, notes: Notes) -> Request:
    """Google's placeholder signature on the first call of each model turn that has none, when
    the model thinks (thinking asked for, or a Gemini 3 model, which always thinks)."""
    if not _thinking_on(req.reasoning) and GEMINI_3 not in (req.model or ""):
        return req
    messages = tuple(
        _gemini_message(m, notes, f"$.messages[{i}]") if m.role == "assistant" else m
        for i, m in enumerate(req.messages)
    )
    changed = any(a is not b for a, b in zip(messages, req.messages, strict=True))
    return msgspec.structs.replace(req, messages=messages) if changed else req


ENCRYPTED_INCLUDE = "reasoning.encrypted_content"
"""The ``include`` value that makes a Responses upstream return its reasoning state."""


def ask_for_state(body: dict[str, Any], req: Request, notes: Notes) -> None:
    """Ask a Responses upstream for its reasoning state (``include``) when ``req`` reasons.

    The API returns ``encrypted_content`` only when asked; without it, a stateless hop has no
    state to seal into the client's slot and replay next turn. For a request of another format
    (a Responses client asks for itself).
    """
    if not _thinking_on(req.reasoning):
        return
    include = body.setdefault("include", [])
    if isinstance(include, list) and ENCRYPTED_INCLUDE not in include:
        include.append(ENCRYPTED_INCLUDE)
        notes.info("$.include", "synthesized", f"{ENCRYPTED_INCLUDE!r} asked for, to replay it next turn")


FALLBACKS: dict[Format, Callable[[Request, Notes], Request]] = {
    "anthropic": _anthropic,
    "gemini": _gemini,
    "bedrock-converse": _bedrock,  # Claude on Bedrock refuses thinking after an unsigned tool turn
}
"""Upstream format -> its documented way out when opaque state could not come back."""


def apply_fallbacks(req: Request, upstream: Format, notes: Notes) -> Request:
    """``req`` (already opened) made acceptable to ``upstream`` where state is missing, noted.

    Only for a request of another format: a same-format client carries its own state.
    """
    fallback = FALLBACKS.get(upstream)
    if fallback is None or req.origin == upstream:
        return req
    return fallback(req, notes)
