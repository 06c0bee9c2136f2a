"""The emulator's deterministic model: a canonical request in, a :class:`Plan` out.

Format-independent: it reads the IR only. Behaviour, in order:

1. a :class:`~toolwire.emulator.script.Script` turn for this point of the conversation, if any;
2. after tool results, a text answer quoting each result verbatim
   (``Results: get_weather -> {"temp": 21}``);
3. with callable tools (``tool_choice`` not ``none``), tool calls with arguments built from each
   tool's schema (plain strings take the names and quoted phrases of the user's text, see
   :func:`~toolwire.emulator.arguments.text_hints`): the named tool, else the tools the user
   text mentions (else the first tool);
   several calls (one per tool, up to ``max_parallel``) when the user text asks for several things
   (see :data:`PARALLEL_TRIGGERS`) and parallel calls are allowed;
4. otherwise a text answer echoing the user's last text.

Structured outputs: when the request asks for JSON (``response_format``, ``text.format``,
Gemini ``responseSchema``/``responseJsonSchema``, Anthropic ``output_config.format``), every text
answer of steps 2 and 4 is instead a JSON document built from the schema by
:func:`~toolwire.emulator.arguments.example_value` (so it validates against it), or ``{}`` for
JSON mode without a schema.

Reasoning (text to be signed by the format layer) is planned when the request enables it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolwire._json import dumps_str
from toolwire.emulator.arguments import example_arguments, example_value, text_hints
from toolwire.emulator.script import Script, ScriptedCall, Turn
from toolwire.ir import CustomTool, Message, Request, TextPart, Tool, ToolCall, ToolResult

__all__ = ["PARALLEL_TRIGGERS", "Plan", "ScriptedModel", "reasoning_enabled"]

PARALLEL_TRIGGERS: tuple[str, ...] = ("parallel", "several", "each", "all of", "both", " and ")
"""Phrases in the user's text that ask for several tool calls at once."""

_WORD = re.compile(r"[a-z0-9]+")
_NO_EFFORT = frozenset({"none", "minimal"})


@dataclass(frozen=True, slots=True)
class Plan:
    """What the model answers, before any format: reasoning, text and tool calls in order."""

    text: str | None = None
    reasoning: str | None = None
    tool_calls: tuple[ScriptedCall, ...] = ()


def reasoning_enabled(request: Request) -> bool:
    """Whether the request turns reasoning/thinking on."""
    cfg = request.reasoning
    if cfg is None or cfg.enabled is False:
        return False
    if cfg.effort is not None:
        return cfg.effort not in _NO_EFFORT
    if cfg.budget_tokens is not None:
        return cfg.budget_tokens != 0
    return bool(cfg.enabled or cfg.include_thoughts or cfg.summary)


class ScriptedModel:
    """Deterministic answers for canonical requests.

    Args:
        script: exact turns to play first, by assistant-turn count.
        max_parallel: the most tool calls in one turn.
    """

    def __init__(self, script: Script | None = None, *, max_parallel: int = 4) -> None:
        self.script = script
        self.max_parallel = max(1, max_parallel)

    def plan(self, request: Request) -> Plan:
        """The answer to ``request``."""
        thinking = reasoning_enabled(request)
        turn = self.script.turn(_assistant_turns(request)) if self.script is not None else None
        if turn is not None:
            return _from_turn(turn, thinking)
        results = _pending_results(request.messages)
        if results:
            text = "Results: " + "; ".join(_quote(r, request.messages) for r in results)
            return Plan(
                text=_structured(request, text),
                reasoning=_think(thinking, "The tool results are in; I will report them."),
            )
        user = _last_user_text(request.messages)
        calls = self._calls(request, user)
        if calls:
            names = ", ".join(c.name for c in calls)
            return Plan(
                tool_calls=calls, reasoning=_think(thinking, f"The user asked: {user!r}. Calling {names}.")
            )
        text = f"You said: {user}" if user else "Hello."
        return Plan(text=_structured(request, text, user), reasoning=_think(thinking, "No tool needed."))

    def _calls(self, request: Request, user: str) -> tuple[ScriptedCall, ...]:
        choice = request.tool_choice
        mode = choice.mode if choice is not None else "auto"
        tools = _callable(request, choice.allowed if choice is not None else None)
        if mode == "none" or not tools:
            return ()
        if mode == "named" and choice is not None:
            named = [t for t in tools if t.name == choice.name]
            return tuple(_call(t, text_hints(user)) for t in named[:1])
        chosen = _mentioned(tools, user) or tools[:1]
        if request.parallel_tool_calls is not False and _wants_several(user):
            chosen = (chosen if len(chosen) > 1 else tools)[: self.max_parallel]
        else:
            chosen = chosen[:1]
        hints = text_hints(user)
        return tuple(_call(t, hints) for t in chosen)


def _structured(request: Request, text: str, user: str = "") -> str:
    """``text``, or the JSON document the request's structured-output format asks for."""
    fmt = request.response_format
    if fmt is None or fmt.type == "text":
        return text
    if fmt.type == "json_object" or not fmt.schema:
        return dumps_str({"answer": text}) if fmt.type == "json_object" else "{}"
    return dumps_str(example_value(fmt.schema, key="answer", hints=text_hints(user)))


def _think(enabled: bool, text: str) -> str | None:
    return text if enabled else None


def _from_turn(turn: Turn, thinking: bool) -> Plan:
    reasoning = turn.reasoning if turn.reasoning is not None else _think(thinking, "Following the script.")
    return Plan(text=turn.text, reasoning=reasoning, tool_calls=turn.tool_calls)


def _assistant_turns(request: Request) -> int:
    return sum(1 for m in request.messages if m.role == "assistant")


def _pending_results(messages: tuple[Message, ...]) -> list[ToolResult]:
    """Tool results after the last assistant turn (the ones to answer now)."""
    out: list[ToolResult] = []
    for message in reversed(messages):
        if message.role == "assistant":
            break
        out[:0] = [p for p in message.parts if isinstance(p, ToolResult)]
    return out


def _result_text(result: ToolResult) -> str:
    texts = [p.text for p in result.content if isinstance(p, TextPart)]
    others = len(result.content) - len(texts)
    text = "".join(texts)
    return text + (f" [+{others} non-text part(s)]" if others else "")


def _quote(result: ToolResult, messages: tuple[Message, ...]) -> str:
    name = result.name or _call_name(result.call_id, messages) or result.call_id or "tool"
    prefix = "error from " if result.is_error else ""
    return f"{prefix}{name} -> {_result_text(result)}"


def _call_name(call_id: str | None, messages: tuple[Message, ...]) -> str | None:
    if call_id is None:
        return None
    for message in reversed(messages):
        for part in message.parts:
            if isinstance(part, ToolCall) and part.id == call_id:
                return part.name
    return None


def _last_user_text(messages: tuple[Message, ...]) -> str:
    for message in reversed(messages):
        if message.role == "user":
            text = " ".join(p.text for p in message.parts if isinstance(p, TextPart))
            if text:
                return text
    return ""


def _callable(request: Request, allowed: tuple[str, ...] | None) -> list[Tool | CustomTool]:
    tools = [t for t in request.tools if isinstance(t, (Tool, CustomTool))]
    return [t for t in tools if allowed is None or t.name in allowed]


def _mentioned(tools: list[Tool | CustomTool], user: str) -> list[Tool | CustomTool]:
    """Tools one of whose name words (``get_weather`` -> ``weather``) appears in the text."""
    words = set(_WORD.findall(user.lower()))
    stop = {"get", "set", "list", "fetch", "do", "run", "the", "a", "of", "to", "by"}
    out = []
    for tool in tools:
        parts = set(_WORD.findall(tool.name.lower().replace("_", " ").replace("-", " "))) - stop
        if parts & words:
            out.append(tool)
    return out


def _wants_several(user: str) -> bool:
    text = f" {user.lower()} "
    return any(trigger in text for trigger in PARALLEL_TRIGGERS)


def _call(tool: Tool | CustomTool, hints: list[str]) -> ScriptedCall:
    if isinstance(tool, CustomTool):
        return ScriptedCall(tool.name, hints[0] if hints else f"input for {tool.name}", tool.namespace)
    return ScriptedCall(tool.name, dumps_str(example_arguments(tool.parameters, hints)), tool.namespace)
