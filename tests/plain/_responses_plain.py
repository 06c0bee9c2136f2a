"""The :class:`Plain` a Responses writer is given for an IR request of another format.

The form's spec applied to the IR, independent of any reader, with each source's spelling of
call arguments (an object for Anthropic and Gemini, text for Chat): ``test_responses_write``
compares the writer's payload for it with the general path's.
"""

from __future__ import annotations

from typing import Any

from toolwire._json import dumps, loads
from toolwire._plain._form import ASSISTANT, RESULTS, SYSTEM, USER, Plain
from toolwire.formats._lanes import lossless, unnoted_call
from toolwire.ir.content import Message, TextPart, ToolResult
from toolwire.ir.request import Request
from toolwire.ir.tools import Tool

OBJECT_ARGUMENTS = frozenset({"anthropic", "gemini"})
"""Sources whose calls carry their arguments as an object."""


def _text(parts: tuple[Any, ...]) -> str | None:
    """The text of one plain text part, else ``None``."""
    if len(parts) != 1:
        return None
    part = parts[0]
    if type(part) is not TextPart or part.thought_signature is not None or not lossless(part.extra):
        return None
    return part.text


def _arguments(text: str, source: str) -> Any:
    """The arguments as the source carries them: an object for Anthropic and Gemini."""
    if source not in OBJECT_ARGUMENTS or not text:
        return text
    value = loads(text)
    return value if type(value) is dict and dumps(value).decode() == text else text


def _assistant(message: Message, source: str) -> tuple[Any, ...] | None:
    parts = list(message.parts)
    text = None
    if parts and type(parts[0]) is TextPart:
        if "~msg" in parts[0].extra:
            return None
        text = _text((parts.pop(0),))
        if text is None:
            return None
    calls = []
    for part in parts:
        call = unnoted_call(part)
        if call is None:
            return None
        calls.append((call.id, call.name, _arguments(call.arguments, source)))
    return (ASSISTANT, text, tuple(calls))


def _results(message: Message) -> list[tuple[str, str]] | None:
    out = []
    for part in message.parts:
        if type(part) is not ToolResult or part.kind != "function" or part.call_id is None or part.is_error:
            return None
        text = _text(part.content)
        if text is None or not lossless(part.extra):
            return None
        out.append((part.call_id, text))
    return out if out else None


def _turn(message: Message, source: str, turns: list[tuple[Any, ...]]) -> bool:
    """``message`` appended to ``turns`` as its turn (results merged into one turn)."""
    if message.name is not None or message.id is not None or "~item" in message.extra:
        return False
    role = message.role
    if role == "assistant":
        turn = _assistant(message, source)
    elif role in ("tool", "user") and message.parts and type(message.parts[0]) is ToolResult:
        results = _results(message)
        if results is None:
            return False
        if turns and turns[-1][0] == RESULTS:
            turns[-1] = (RESULTS, (*turns[-1][1], *results))
            return True
        turn = (RESULTS, tuple(results))
    else:
        text = _text(message.parts)
        turn = None if text is None else (USER, text) if role == "user" else (SYSTEM, role, text)
    if turn is None:
        return False
    turns.append(turn)
    return True


def _choice(ir: Request) -> Any:
    choice = ir.tool_choice
    if choice is None or choice.allowed is not None or not lossless(choice.extra):
        return None
    return ("tool", choice.name) if choice.mode == "named" else choice.mode


def plain_of_ir(ir: Request, source: str, noted: bool) -> Plain | None:
    """The :class:`Plain` of a decoded request, or ``None`` when it is not plain."""
    if ir.top_k is not None or ir.stop is not None or ir.response_format is not None:
        return None
    if ir.reasoning is not None or not lossless(ir.extra):
        return None
    turns: list[tuple[Any, ...]] = []
    for message in ir.messages:
        if not lossless(message.extra) or not _turn(message, source, turns):
            return None
    plain = Plain(ir.model, turns)
    if ir.tools:
        tools = []
        for tool in ir.tools:
            if type(tool) is not Tool or tool.namespace is not None or not lossless(tool.extra):
                return None
            tools.append((tool.name, tool.description, tool.parameters, tool.strict))
        plain.tools = tools
    plain.choice = _choice(ir)
    if ir.tool_choice is not None and plain.choice is None:
        return None
    plain.parallel, plain.max_tokens = ir.parallel_tool_calls, ir.max_tokens
    plain.temperature, plain.top_p, plain.stream = ir.temperature, ir.top_p, ir.stream
    plain.user, plain.metadata, plain.noted = ir.user, ir.metadata, noted
    return plain
