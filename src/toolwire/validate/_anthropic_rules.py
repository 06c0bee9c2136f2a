"""Anthropic request rules outside the turn structure: thinking compatibility, cache breakpoints,
the assistant prefill.

Each rule is a documented 400 of the Messages API, worded as the API words it:

==================================  ================================================================
``thinking_sampling``               ``temperature`` other than 1, ``top_k`` set, or ``top_p`` below
                                    0.95 with ``thinking: {"type": "enabled"}``
``thinking_tool_choice``            ``tool_choice`` ``any`` or ``tool`` with ``enabled`` thinking
``too_many_cache_breakpoints``      more than :data:`MAX_BREAKPOINTS` blocks with ``cache_control``
                                    (tools, system blocks, message blocks and tool result parts)
``prefill_trailing_whitespace``     the final assistant message (a prefill) ends in whitespace
==================================  ================================================================

Sources: the extended-thinking guide ("Thinking isn't compatible with temperature or top_k
modifications as well as forced tool use"; top_p between 0.95 and 1), the prompt-caching guide
("up to 4 cache breakpoints"), and the API's own error for a prefill with trailing whitespace.
Adaptive thinking is exempt from the thinking rules: the model may skip thinking, and a recorded
adaptive request with ``tool_choice: {"type": "any"}`` was answered 200 (pydantic-ai
``test_anthropic_opus_46_adaptive_thinking_accepts_tool_output``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from toolwire.validate._engine import Ctx, Path

__all__ = ["MAX_BREAKPOINTS", "RULES", "check_rules", "thinking_enabled", "thinking_on"]

MAX_BREAKPOINTS = 4
_THINKING_DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking#feature-compatibility"


def thinking_on(payload: dict[str, Any]) -> bool:
    """Whether the request turns thinking on (``enabled`` or ``adaptive``)."""
    thinking = payload.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") in ("enabled", "adaptive")


def thinking_enabled(payload: dict[str, Any]) -> bool:
    """Whether the request sets ``thinking: {"type": "enabled"}`` (a fixed budget)."""
    thinking = payload.get("thinking")
    return isinstance(thinking, dict) and thinking.get("type") == "enabled"


def _check_sampling(payload: dict[str, Any], ctx: Ctx) -> None:
    if not thinking_enabled(payload):
        return
    temperature, top_k, top_p = payload.get("temperature"), payload.get("top_k"), payload.get("top_p")
    if isinstance(temperature, int | float) and not isinstance(temperature, bool) and temperature != 1:
        ctx.add(
            ("temperature",),
            "thinking_sampling",
            "`temperature` may only be set to 1 when thinking is enabled. Please consult our "
            f"documentation at {_THINKING_DOCS}",
        )
    if top_k is not None:
        ctx.add(("top_k",), "thinking_sampling", "`top_k` must be unset when thinking is enabled.")
    if isinstance(top_p, int | float) and not isinstance(top_p, bool) and top_p < 0.95:
        ctx.add(
            ("top_p",),
            "thinking_sampling",
            "`top_p` must be greater than or equal to 0.95 or unset when thinking is enabled.",
        )


def _check_forced_tool(payload: dict[str, Any], ctx: Ctx) -> None:
    choice = payload.get("tool_choice")
    if thinking_enabled(payload) and isinstance(choice, dict) and choice.get("type") in ("any", "tool"):
        ctx.add(
            ("tool_choice", "type"),
            "thinking_tool_choice",
            "Thinking may not be enabled when tool_choice forces tool use.",
        )


def _blocks(value: Any, path: Path) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Each dict of a list, with its path."""
    for i, item in enumerate(value if isinstance(value, list) else ()):
        if isinstance(item, dict):
            yield (*path, i), item


def _breakpoints(payload: dict[str, Any]) -> Iterator[Path]:
    """The path of each ``cache_control`` in request order: tools, system, messages."""
    for path, tool in _blocks(payload.get("tools"), ("tools",)):
        if tool.get("cache_control") is not None:
            yield (*path, "cache_control")
    for path, block in _blocks(payload.get("system"), ("system",)):
        if block.get("cache_control") is not None:
            yield (*path, "cache_control")
    for m_path, message in _blocks(payload.get("messages"), ("messages",)):
        for path, block in _blocks(message.get("content"), (*m_path, "content")):
            if block.get("cache_control") is not None:
                yield (*path, "cache_control")
            for part_path, part in _blocks(block.get("content"), (*path, "content")):
                if part.get("cache_control") is not None:
                    yield (*part_path, "cache_control")


def _check_breakpoints(payload: dict[str, Any], ctx: Ctx) -> None:
    found = list(_breakpoints(payload))
    if len(found) > MAX_BREAKPOINTS:
        ctx.add_at(
            found[MAX_BREAKPOINTS],
            (),
            "too_many_cache_breakpoints",
            f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {len(found)}.",
        )


def _final_text(message: dict[str, Any], i: int) -> tuple[Path, str] | None:
    content = message.get("content")
    if isinstance(content, str):
        return ("messages", i, "content"), content
    if isinstance(content, list) and content and isinstance(content[-1], dict):
        block = content[-1]
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            return ("messages", i, "content", len(content) - 1, "text"), block["text"]
    return None


def _check_prefill(payload: dict[str, Any], ctx: Ctx) -> None:
    messages = payload.get("messages")
    if not isinstance(messages, list) or not messages or not isinstance(messages[-1], dict):
        return
    last = messages[-1]
    found = _final_text(last, len(messages) - 1) if last.get("role") == "assistant" else None
    if found is not None and found[1] and found[1] != found[1].rstrip():
        ctx.add_at(
            found[0],
            ("messages",),
            "prefill_trailing_whitespace",
            "messages: final assistant content cannot end with trailing whitespace",
        )


RULES: tuple[Callable[[dict[str, Any], Ctx], None], ...] = (
    _check_sampling,
    _check_forced_tool,
    _check_breakpoints,
    _check_prefill,
)
"""The rules :func:`check_rules` runs, in the order their problems are reported."""


def check_rules(payload: dict[str, Any], ctx: Ctx) -> None:
    """Run each of :data:`RULES` over a request payload."""
    for rule in RULES:
        rule(payload, ctx)
