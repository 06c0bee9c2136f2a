"""Refusals for histories a target cannot take: state kept by the server, results without calls.

A request encoded for another format must carry its whole conversation: Chat Completions,
Messages and ``generateContent`` are stateless, and a Responses request without
``previous_response_id`` is too. So, before encoding for another format:

================================================  ===========================================
the request has                                   what happens
================================================  ===========================================
``previous_response_id`` or ``conversation``      :class:`~toolwire.errors.ConversionError`:
(Responses)                                       the earlier turns live on OpenAI's servers
an ``item_reference`` input item                  ``ConversionError``: the item lives there too
a tool result whose ``call_id`` answers no        ``ConversionError``: every target answers 400
earlier tool call, or a tool call (not built-in)  to an orphan result or call, or to a
with no result before the last turn, a call id    repeated call id or result (Gemini pairs
used twice, or two results for one call           by position: repeated ids pass)
a result after other turns than results (not      ``ConversionError``: results must follow
for Responses)                                    their call's turn
only system messages (Gemini)                     ``ConversionError``: Gemini requires a turn
================================================  ===========================================

Refusals are not notes: no policy makes them pass, since the target would reject the payload.
Results without an id (Gemini pairs by position) are counted: as many id-less calls before them,
and as many results as calls in the end.
For a Responses target stored state is no problem, and with an ``item_reference`` (which may
hold the call) orphans are not checked either.
"""

from __future__ import annotations

from toolwire.errors import ConversionError
from toolwire.ir.content import Message, ToolCall, ToolResult
from toolwire.ir.request import Request

__all__ = ["STATE_FIELDS", "refuse_unsendable_history"]

STATE_FIELDS = ("previous_response_id", "conversation")
"""Responses request fields that point at a history stored by OpenAI."""


def _refuse(path: str, message: str) -> None:
    raise ConversionError(message, path=path)


def _stored_state(req: Request, target: str) -> None:
    for field in STATE_FIELDS:
        if req.extra.get(field) is not None:
            _refuse(
                f"$.{field}",
                f"{field} continues a conversation stored by OpenAI; {target} needs the whole "
                "history in the request (send the earlier turns, or keep a store)",
            )
    for index, message in enumerate(req.messages):
        item = message.extra.get("~item")
        if isinstance(item, dict) and not message.parts:
            _refuse(
                f"$.input[{index}]",
                f"item_reference {item.get('id')!r} points at an item stored by OpenAI; {target} "
                "needs the item itself",
            )


_HISTORY_KEYS = {"openai-responses": "input", "gemini": "contents"}
"""Where a source format keeps its turns (``messages`` otherwise), for error paths."""


def _positional_orphans(req: Request, target: str, key: str) -> None:
    """Results without an id (Gemini pairs by position) need as many id-less calls before them."""
    calls = results = 0
    for index, message in enumerate(req.messages):
        for part in message.parts:
            if isinstance(part, ToolCall) and part.id is None and part.kind != "builtin":
                calls += 1
            elif isinstance(part, ToolResult) and part.call_id is None:
                results += 1
                if results > calls:
                    _refuse(
                        f"$.{key}[{index}]",
                        f"a tool result without id answers no earlier tool call; {target} rejects it",
                    )
    if calls > results:
        _refuse(
            f"$.{key}", f"{calls - results} tool call(s) without id have no result; {target} rejects them"
        )


def _answered(part: object) -> str | None:
    """The call id a function or custom result answers (``None``: no id, or a built-in output,
    which goes with its call)."""
    if isinstance(part, ToolResult) and part.kind != "builtin":
        return part.call_id
    return None


def _between_ok(message: Message) -> bool:
    """Results, or another assistant message (encoders merge consecutive assistant turns)."""
    return message.role == "assistant" or (
        bool(message.parts) and all(isinstance(part, ToolResult) for part in message.parts)
    )


def _late_results(req: Request, target: str, key: str) -> None:
    """Stateless targets take a call's result right after the call's turn: only messages of
    results may come between."""
    open_calls: dict[str, int] = {}
    for index, message in enumerate(req.messages):
        for part in message.parts:
            answered = _answered(part)
            if answered is not None and answered in open_calls:
                start = open_calls.pop(answered)
                if not all(_between_ok(m) for m in req.messages[start + 1 : index]):
                    _refuse(
                        f"$.{key}[{index}]",
                        f"the result of tool call {answered!r} does not follow its call's turn; "
                        f"{target} needs results right after the calls",
                    )
        for part in message.parts:
            if isinstance(part, ToolCall) and part.id is not None and part.kind != "builtin":
                open_calls[part.id] = index


def _orphans(req: Request, target: str) -> None:
    called: dict[str, int] = {}
    answered: set[str] = set()
    key = _HISTORY_KEYS.get(req.origin or "", "messages")
    for index, message in enumerate(req.messages):
        for part in message.parts:
            call_id = _answered(part)
            if call_id is not None:
                if call_id in answered and target != "gemini":
                    _refuse(f"$.{key}[{index}]", f"tool call {call_id!r} has two results; {target} takes one")
                answered.add(call_id)
            if isinstance(part, ToolCall) and part.id is not None and part.kind != "builtin":
                if part.id in called and target != "gemini":  # Gemini pairs by position
                    _refuse(
                        f"$.{key}[{index}]",
                        f"tool call id {part.id!r} is used twice; {target} needs unique ids",
                    )
                called[part.id] = index
            elif call_id is not None and call_id not in called:
                _refuse(
                    f"$.{key}[{index}]",
                    f"tool result for call {call_id!r} answers no tool call earlier in the "
                    f"history; {target} rejects a result without its call",
                )
    _positional_orphans(req, target, key)
    if target != "openai-responses":
        _late_results(req, target, key)
    last = _last_turn(req)
    for call_id, index in called.items():
        if call_id not in answered and index < last:
            _refuse(
                f"$.{key}[{index}]",
                f"tool call {call_id!r} has no result in the history; {target} rejects a call "
                "without its result",
            )


def _last_turn(req: Request) -> int:
    """Index of the last message that is not only results: calls of that turn (or later) are
    the turn being answered now, left to the caller."""
    for index in range(len(req.messages) - 1, -1, -1):
        message = req.messages[index]
        if not message.parts or not all(isinstance(part, ToolResult) for part in message.parts):
            return index
    return 0


_SYSTEM_ROLES = frozenset({"system", "developer"})


def _no_turns(req: Request, target: str) -> None:
    if target == "gemini" and req.messages and all(m.role in _SYSTEM_ROLES for m in req.messages):
        _refuse("$", f"the request has no user or assistant turn; {target} requires at least one")


def refuse_unsendable_history(req: Request, target: str) -> None:
    """Raise when ``req`` (decoded from another format) cannot be sent to ``target`` as is.

    Args:
        req: the decoded request.
        target: the target format name, for the message.

    Raises:
        ConversionError: a server-side history reference, a tool result without its call, or
            no turn at all.
    """
    _no_turns(req, target)
    if target != "openai-responses":
        _stored_state(req, target)
    elif any("~item" in message.extra for message in req.messages):
        return  # an item_reference resolves on OpenAI's side and may hold the call
    _orphans(req, target)
