"""The :class:`Plain` of an IR request, for testing a lane's reader and writer against the codecs.

:func:`plain_of_ir` is what a :class:`Plain` means, written from the IR side: an IR request of
the plain shape (text messages, function calls with ids and their text results, function tools,
a tool choice, the sampling numbers; no extra field but hints) as a :class:`Plain`, else
``None``. A reader's :class:`Plain` must equal the one of the IR its format's decoder makes, and
a writer must write what its format's encoder writes for that IR.
"""

from __future__ import annotations

from typing import Any

from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain, arguments_text
from toolwire.formats._lanes import lossless, unnoted_call
from toolwire.ir.content import Message, TextPart, ToolResult
from toolwire.ir.request import Request
from toolwire.ir.tools import Tool

__all__ = ["plain_of_ir", "spelled_as_ir"]

_UNSET = ("top_k", "stop", "response_format", "reasoning")


def _text(part: Any) -> str | None:
    if type(part) is not TextPart or part.thought_signature is not None or not lossless(part.extra):
        return None
    return part.text


def _plain_message(message: Message) -> bool:
    return message.name is None and message.id is None and lossless(message.extra)


def _result(part: Any) -> tuple[str, str] | None:
    if type(part) is not ToolResult or part.kind != "function" or part.call_id is None:
        return None
    if part.is_error is not None or not lossless(part.extra) or len(part.content) != 1:
        return None
    text = _text(part.content[0])
    return None if text is None else (part.call_id, text)


def _assistant(message: Message) -> tuple[Any, ...] | None:
    parts = message.parts
    text = _text(parts[0]) if parts else None
    calls = []
    for part in parts[0 if text is None else 1 :]:
        call = unnoted_call(part)
        if call is None:
            return None
        assert call.id is not None
        calls.append((call.id, call.name, call.arguments))
    if text is None and not calls:
        return None
    return (ASSISTANT, text, tuple(calls))


def _turn(message: Message) -> tuple[Any, ...] | None:
    if not _plain_message(message) or not message.parts:
        return None
    role = message.role
    if role == "assistant":
        return _assistant(message)
    if role in ("tool", "user") and any(type(p) is ToolResult for p in message.parts):
        results = [_result(part) for part in message.parts]
        return None if None in results else (RESULTS, tuple(results))
    text = _text(message.parts[0]) if len(message.parts) == 1 else None
    if text is None or role == "tool":
        return None
    return (USER, text) if role == "user" else (SYSTEM, role, text)


def _turns(messages: tuple[Message, ...]) -> list[tuple[Any, ...]] | None:
    turns: list[tuple[Any, ...]] = []
    for message in messages:
        turn = _turn(message)
        if turn is None:
            return None
        if turn[0] == RESULTS and turns and turns[-1][0] == RESULTS:  # one IR message per result
            turns[-1] = (RESULTS, turns[-1][1] + turn[1])
        else:
            turns.append(turn)
    return [_flat(turn) for turn in turns]


def _flat(turn: tuple[Any, ...]) -> tuple[Any, ...]:
    """A turn of one call (no text) or of one result as the readers write it: flat."""
    if turn[0] == ASSISTANT and turn[1] is None and len(turn[2]) == 1:
        return (CALL, *turn[2][0])
    if turn[0] == RESULTS and len(turn[1]) == 1:
        return (RESULT, *turn[1][0])
    return turn


def _tools(req: Request, plain: Plain) -> bool:
    if not req.tools:
        return True
    tools = []
    for tool in req.tools:
        if type(tool) is not Tool or tool.namespace is not None or not lossless(tool.extra):
            return False
        tools.append((tool.name, tool.description, tool.parameters, tool.strict))
    plain.tools = tools
    return True


def _choice(req: Request, plain: Plain) -> bool:
    choice = req.tool_choice
    if choice is None:
        return True
    if choice.allowed is not None or not lossless(choice.extra):
        return False
    plain.choice = ("tool", choice.name) if choice.mode == "named" else choice.mode  # type: ignore[assignment]
    return choice.mode != "named" or choice.name is not None


def plain_of_ir(req: Request) -> Plain | None:
    """The :class:`Plain` of ``req``, or ``None`` when it is not of the plain shape."""
    if not lossless(req.extra) or any(getattr(req, name) is not None for name in _UNSET):
        return None
    turns = _turns(req.messages)
    if turns is None:
        return None
    plain = Plain(req.model, turns)
    if not _tools(req, plain) or not _choice(req, plain):
        return None
    plain.parallel = req.parallel_tool_calls
    plain.max_tokens = req.max_tokens
    plain.temperature = req.temperature
    plain.top_p = req.top_p
    plain.stream = req.stream
    plain.user = req.user
    plain.metadata = req.metadata
    return plain


_FIELDS = (
    "choice",
    "max_tokens",
    "metadata",
    "noted",
    "parallel",
    "stream",
    "temperature",
    "tools",
    "top_p",
    "user",
)
"""The fields of a :class:`Plain` but its model and turns (named: a compiled class has no ``__slots__``)."""


def _ir_turn(turn: tuple[Any, ...]) -> tuple[Any, ...]:
    if turn[0] == ASSISTANT:
        return (ASSISTANT, turn[1], tuple((i, n, arguments_text(a)) for i, n, a in turn[2]))
    if turn[0] == CALL:
        return (CALL, turn[1], turn[2], arguments_text(turn[3]))
    return (RESULTS, tuple(turn[1])) if turn[0] == RESULTS else turn


def spelled_as_ir(plain: Plain) -> Plain:
    """``plain`` in :func:`plain_of_ir`'s spelling: calls and results as tuples, arguments as the
    JSON text of an object source's argument objects (Anthropic, Gemini readers pass those)."""
    out = Plain(plain.model, [_ir_turn(turn) for turn in plain.turns])
    for name in _FIELDS:
        setattr(out, name, getattr(plain, name))
    return out
