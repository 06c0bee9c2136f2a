"""Turn a format-independent :class:`~toolwire.emulator.model.Plan` into a canonical response
for one wire format: deterministic ids in the provider's style, usage estimates, and the
reasoning state signed and placed where that format carries it (Anthropic thinking
``signature``, Responses ``encrypted_content``, Gemini ``thoughtSignature``; Chat has none).
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass

from toolwire._json import dumps_str, loads
from toolwire.emulator.model import Plan
from toolwire.emulator.signature import kept_id, sign
from toolwire.errors import PayloadError
from toolwire.ir import (
    CustomTool,
    Format,
    Part,
    ReasoningPart,
    Request,
    Response,
    StopReason,
    TextPart,
    ToolCall,
    ToolCallKind,
    Usage,
)

__all__ = [
    "IDS",
    "RAW_STOP",
    "IdStyle",
    "always_thinks",
    "canonical_call",
    "estimate_tokens",
    "input_tokens",
    "render_response",
]


@dataclass(frozen=True, slots=True)
class IdStyle:
    """How a provider spells response and tool-call ids."""

    response: str
    call: str


IDS: dict[Format, IdStyle] = {
    "openai-chat": IdStyle("chatcmpl-", "call_"),
    "openai-responses": IdStyle("resp_", "call_"),
    "anthropic": IdStyle("msg_01", "toolu_01"),
    "gemini": IdStyle("", ""),
    "bedrock-converse": IdStyle("", "tooluse_"),
}
"""Id prefixes per format (Gemini response ids are bare; its calls carry no id)."""


RAW_STOP: dict[Format, dict[StopReason, str]] = {
    "openai-chat": {"tool_calls": "tool_calls", "end_turn": "stop"},
    "openai-responses": {"tool_calls": "completed", "end_turn": "completed"},
    "anthropic": {"tool_calls": "tool_use", "end_turn": "end_turn"},
    "gemini": {"tool_calls": "STOP", "end_turn": "STOP"},
    "bedrock-converse": {"tool_calls": "tool_use", "end_turn": "end_turn"},
}
"""The provider's own stop reason per canonical one (a same-format stream encoder sends it as is:
the Chat stream's last choice chunk carries it as ``finish_reason``)."""


def _digest(seed: bytes, label: str, size: int = 24) -> str:
    return hashlib.sha256(seed + label.encode()).hexdigest()[:size]


def estimate_tokens(text: str) -> int:
    """A deterministic token estimate: about four characters per token, at least one."""
    return max(1, (len(text) + 3) // 4)


def input_tokens(request: Request) -> int:
    """The input tokens of a request: :func:`estimate_tokens` of the canonical JSON of its
    messages (roles, parts, system included) and tools.

    One estimate for the usage a generation reports and for the token-count endpoints
    (``/v1/responses/input_tokens``, ``/v1/messages/count_tokens``, ``:countTokens``), so a count
    and the ``input_tokens`` of a generation of the same request agree.
    """
    messages = [[m.role, m.parts] for m in request.messages]
    return estimate_tokens(dumps_str(messages) + dumps_str(request.tools))


def canonical_call(name: str, arguments: str) -> str:
    """The text a Gemini call signature binds: the name and the arguments in canonical JSON."""
    try:
        value = loads(arguments) if arguments.strip() else {}
    except PayloadError:
        value = arguments
    return f"{name}:{dumps_str(_sorted(value))}"


def _sorted(value: object) -> object:
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def _calls(plan: Plan, request: Request, fmt: Format, seed: bytes) -> list[ToolCall]:
    custom = {t.name for t in request.tools if isinstance(t, CustomTool)}
    prefix = IDS[fmt].call
    out = []
    for i, call in enumerate(plan.tool_calls):
        call_id = f"{prefix}{_digest(seed, f'call{i}')}" if fmt != "gemini" else None
        kind: ToolCallKind = "custom" if call.name in custom else "function"
        out.append(
            ToolCall(
                name=call.name, arguments=call.arguments, id=call_id, kind=kind, namespace=call.namespace
            )
        )
    return out


def _reasoning_id(request: Request, secret: bytes, seed: bytes) -> str:
    """A Responses reasoning item id, tagged as kept (:func:`kept_id`) unless ``store`` is false."""
    base = f"rs_{_digest(seed, 'rs')}"
    return base if request.extra.get("store") is False else kept_id(secret, base)


def _reasoning(plan: Plan, request: Request, fmt: Format, secret: bytes, seed: bytes) -> ReasoningPart | None:
    text = plan.reasoning
    if text is None or fmt == "openai-chat":
        return None
    if fmt in ("anthropic", "bedrock-converse"):  # Bedrock signs Claude's reasoning the same way
        return ReasoningPart(text=text, signature=sign(secret, text), origin=fmt)
    if fmt == "openai-responses":
        return ReasoningPart(
            summary=(text,), encrypted=sign(secret, text), id=_reasoning_id(request, secret, seed), origin=fmt
        )
    cfg = request.reasoning
    return ReasoningPart(text=text, origin=fmt) if cfg is not None and cfg.include_thoughts else None


def _sign_gemini(parts: list[Part], secret: bytes) -> list[Part]:
    """Put a thought signature on the first call (or on the text when there is no call)."""
    for i, part in enumerate(parts):
        if isinstance(part, ToolCall):
            parts[i] = ToolCall(
                name=part.name,
                arguments=part.arguments,
                thought_signature=sign(secret, canonical_call(part.name, part.arguments)),
            )
            return parts
    for i, part in enumerate(parts):
        if isinstance(part, TextPart):
            parts[i] = TextPart(text=part.text, thought_signature=sign(secret, part.text))
            return parts
    return parts


def always_thinks(model: str | None) -> bool:
    """Gemini 3 models always think: they sign their calls whatever the thinking config."""
    return (model or "").removeprefix("models/").startswith("gemini-3")


def render_response(
    plan: Plan, request: Request, fmt: Format, *, secret: bytes, seed: bytes, model: str | None = None
) -> Response:
    """The canonical response that ``fmt``'s encoder turns into the provider's wire answer."""
    parts: list[Part] = []
    reasoning = _reasoning(plan, request, fmt, secret, seed)
    if reasoning is not None:
        parts.append(reasoning)
    if plan.text is not None:
        parts.append(TextPart(text=plan.text))
    calls = _calls(plan, request, fmt, seed)
    parts.extend(calls)
    if fmt == "gemini" and (plan.reasoning is not None or always_thinks(model or request.model)):
        parts = _sign_gemini(parts, secret)
    stop: StopReason = "tool_calls" if calls else "end_turn"
    raw = RAW_STOP[fmt][stop]
    output = (plan.reasoning or "") + (plan.text or "") + "".join(c.name + c.arguments for c in calls)
    inputs = input_tokens(request)
    outputs = estimate_tokens(output)
    usage = Usage(
        input_tokens=inputs,
        output_tokens=outputs,
        total_tokens=inputs + outputs,
        reasoning_tokens=estimate_tokens(plan.reasoning) if plan.reasoning else None,
    )
    return Response(
        parts=tuple(parts),
        id=f"{IDS[fmt].response}{_digest(seed, 'response')}",
        model=model or request.model or "toolwire-emulator",
        stop_reason=stop,
        raw_stop_reason=raw,
        usage=usage,
        created=int(time.time()),
        status="completed",
        origin=None,
    )
