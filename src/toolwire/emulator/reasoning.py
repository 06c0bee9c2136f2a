"""Check that the reasoning state the emulator handed out came back unchanged.

Run on every decoded request. Each format carries the state differently:

- Anthropic: every ``thinking`` block's ``signature`` must be ours and bind its text; with
  thinking enabled, the last assistant turn, when it made tool calls, must start with a
  thinking block.
- Responses: every ``reasoning`` item must carry ``encrypted_content`` that is ours, or be
  named by the id of a reasoning item of a stored response (the API resolves stored items by
  id; it keeps none when ``store`` is false, hence its "not found" wording). The emulator
  knows such ids by their tag (:func:`~toolwire.emulator.signature.kept_id`), so it does not
  notice a deleted response: the one departure.
- Gemini: every ``thoughtSignature`` must be ours and bind its part; with thinking enabled, the
  first ``functionCall`` of each model turn must carry one. Google's documented dummy values
  (:data:`DUMMY_SIGNATURES`, for histories Gemini did not make) pass on function calls, as
  written or base64 encoded (the google-genai SDK sends ``bytes`` signatures base64).

The stricter replay rules of ``rules="provider"`` are in :mod:`toolwire.emulator.rules`.

A failure is the provider's 400 message (``None`` when all is well).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from toolwire.emulator.model import reasoning_enabled
from toolwire.emulator.render import canonical_call
from toolwire.emulator.signature import PLACEHOLDERS, is_placeholder, verify
from toolwire.ir import Format, Message, ReasoningPart, Request, TextPart, ToolCall

__all__ = ["DUMMY_SIGNATURES", "GEMINI_MISSING", "Kept", "check_reasoning", "gemini_part_ok"]

DUMMY_SIGNATURES = frozenset(PLACEHOLDERS)
"""Google's documented placeholder ``thoughtSignature`` values that skip validation."""

_ANTHROPIC_MISSING = (
    "messages.{i}.content.0.type: Expected `thinking` or `redacted_thinking`, but found `{found}`. When "
    "`thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the "
    "lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from "
    "previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)
GEMINI_MISSING = (
    "Function call is missing a thought_signature in functionCall parts. This is required for tools to "
    "work correctly, and missing thought_signature may lead to degraded model performance. Additional "
    "data, function call `{name}` , position {pos}. Please refer to "
    "https://ai.google.dev/gemini-api/docs/thought-signatures for more details."
)
"""Gemini's 400 for a function-call turn without its thought signature (``{name}``, ``{pos}``)."""


def _conversation(request: Request) -> list[Message]:
    return [m for m in request.messages if m.role not in ("system", "developer")]


Kept: TypeAlias = Callable[[str], bool]
"""Whether a reasoning item id names an item the store kept."""


def _none_kept(item: str) -> bool:
    return False


def _anthropic(request: Request, secret: bytes, kept: Kept) -> str | None:
    messages = _conversation(request)
    for i, message in enumerate(messages):
        if message.role != "assistant":
            continue
        for j, part in enumerate(message.parts):
            if isinstance(part, ReasoningPart) and part.redacted is None:
                if verify(secret, part.signature, part.text or ""):
                    continue
                return f"messages.{i}.content.{j}: Invalid `signature` in `thinking` block"
    if not reasoning_enabled(request):
        return None
    last = max((i for i, m in enumerate(messages) if m.role == "assistant"), default=None)
    if last is None:
        return None
    parts = messages[last].parts
    if any(isinstance(p, ToolCall) for p in parts) and not isinstance(parts[0], ReasoningPart):
        found = "tool_use" if isinstance(parts[0], ToolCall) else "text"
        return _ANTHROPIC_MISSING.format(i=last, found=found)
    return None


def _responses(request: Request, secret: bytes, kept: Kept) -> str | None:
    for message in request.messages:
        for part in message.parts:
            if not isinstance(part, ReasoningPart):
                continue
            item = part.id or "reasoning"
            if part.encrypted is None and part.id is not None and kept(part.id):
                continue
            if part.encrypted is None:
                return (
                    f"Item with id '{item}' not found. Items are not persisted when `store` is set to false. "
                    "Try again with `store` set to true, or remove this item from your input."
                )
            if not verify(secret, part.encrypted, None):
                return f"The encrypted content for item {item} could not be verified."
    return None


def gemini_part_ok(part: object, secret: bytes) -> bool:
    """Whether a Gemini part's thought signature, if any, is ours (binding the part), or a
    placeholder on a function call."""
    if isinstance(part, ToolCall) and part.thought_signature is not None:
        if is_placeholder(part.thought_signature):
            return True
        return verify(secret, part.thought_signature, canonical_call(part.name, part.arguments))
    if isinstance(part, TextPart) and part.thought_signature is not None:
        return verify(secret, part.thought_signature, part.text)
    if isinstance(part, ReasoningPart) and part.signature is not None:
        return verify(secret, part.signature, None)
    return True


def _gemini(request: Request, secret: bytes, kept: Kept) -> str | None:
    thinking = reasoning_enabled(request)
    for i, message in enumerate(request.messages):
        if message.role != "assistant":
            continue
        first_call = True
        for j, part in enumerate(message.parts):
            if not gemini_part_ok(part, secret):
                return f"Corrupted thought signature (contents[{i}].parts[{j}])."
            if isinstance(part, ToolCall):
                if thinking and first_call and part.thought_signature is None:
                    return GEMINI_MISSING.format(name=f"default_api:{part.name}", pos=j + 1)
                first_call = False
    return None


_CHECKS: dict[Format, Callable[[Request, bytes, Kept], str | None]] = {
    "anthropic": _anthropic,
    "openai-responses": _responses,
    "gemini": _gemini,
}


def check_reasoning(request: Request, fmt: Format, secret: bytes, kept: Kept = _none_kept) -> str | None:
    """The provider's 400 message when reasoning state was lost or altered, else ``None``
    (``kept``: whether a Responses reasoning item id names one the store kept)."""
    check = _CHECKS.get(fmt)
    return check(request, secret, kept) if check is not None else None
