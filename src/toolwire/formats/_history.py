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


def _stored_fields(req: Request, target: str) -> None:
    for field in STATE_FIELDS:
        if req.extra.get(field) is not None:
            _refuse(
                f"$.{field}",
                f"{field} continues a conversation stored by OpenAI; {target} needs the whole "
                "history in the request (send the earlier turns, or keep a store)",
            )


_HISTORY_KEYS = {"openai-responses": "input", "gemini": "contents"}
"""Where a source format keeps its turns (``messages`` otherwise), for error paths."""

_Refusal = tuple[str, str]


def _between_ok(message: Message) -> bool:
    """Results, or another assistant message (encoders merge consecutive assistant turns)."""
    return message.role == "assistant" or (
        bool(message.parts) and all(isinstance(part, ToolResult) for part in message.parts)
    )


class _Scan:
    """One pass over the history that finds the first refusal of each check.

    The checks, in the order their refusals win (the first one found is raised): an
    ``item_reference`` (input items stored by OpenAI), an orphan (a result without its call, a
    call id used twice, two results for one call), a result without id beyond the id-less calls
    before it (Gemini pairs by position), a result that does not follow its call's turn, a call
    left without its result before the last turn.
    """

    __slots__ = (
        "answered",
        "called",
        "calls",
        "gemini",
        "has_item",
        "key",
        "late",
        "open_calls",
        "orphan",
        "positional",
        "ref",
        "results",
        "target",
    )

    def __init__(self, req: Request, target: str) -> None:
        self.target = target
        self.gemini = target == "gemini"
        self.key = _HISTORY_KEYS.get(req.origin or "", "messages")
        self.called: dict[str, int] = {}
        self.answered: set[str] = set()
        self.open_calls: dict[str, int] = {}
        self.calls = self.results = 0
        self.has_item = False
        self.ref: _Refusal | None = None
        self.orphan: _Refusal | None = None
        self.positional: _Refusal | None = None
        self.late: _Refusal | None = None

    def run(self, messages: tuple[Message, ...]) -> None:
        called, answered, open_calls = self.called, self.answered, self.open_calls
        for index, message in enumerate(messages):
            if message.extra and "~item" in message.extra:
                self._item(message, index)
            if self._orphaned():  # the first orphan wins; only item refs matter now
                continue
            opened: list[str] | None = None  # the turn's calls with an id, not built-in
            for part in message.parts:
                kind = type(part)
                if kind is ToolResult:
                    call_id = part.call_id  # type: ignore[union-attr]
                    if (  # the common case of _result: the first result of an open call of the turn before
                        call_id is not None
                        and open_calls.get(call_id) == index - 1
                        and call_id not in answered  # (a turn may answer its own call: still open)
                        and part.kind != "builtin"  # type: ignore[union-attr]
                    ):
                        answered.add(call_id)
                        del open_calls[call_id]
                    else:
                        self._result(part, index, messages)  # type: ignore[arg-type]
                elif kind is ToolCall:
                    call_id = part.id  # type: ignore[union-attr]
                    if call_id is None or part.kind == "builtin":  # type: ignore[union-attr]
                        self._call(part, index)  # type: ignore[arg-type]
                        continue
                    if call_id in called:
                        self._call(part, index)  # type: ignore[arg-type]
                    else:  # what _call does with a new id
                        called[call_id] = index
                    if opened is None:
                        opened = []
                    opened.append(call_id)
                if self.orphan is not None:
                    break
            if opened is not None:  # open once the whole turn is read: its own results do not follow it
                for call_id in opened:
                    open_calls[call_id] = index

    def _orphaned(self) -> bool:
        """Whether an orphan was found. (A method: a check of ``self.orphan`` itself would narrow it
        to ``None`` for the scan of the turn that sets it, and a compiled build checks that.)"""
        return self.orphan is not None

    def _at(self, index: int) -> str:
        return f"$.{self.key}[{index}]"

    def _item(self, message: Message, index: int) -> None:
        self.has_item = True
        item = message.extra.get("~item")
        if self.ref is None and isinstance(item, dict) and not message.parts:
            self.ref = (
                f"$.input[{index}]",
                f"item_reference {item.get('id')!r} points at an item stored by OpenAI; {self.target} "
                "needs the item itself",
            )

    def _result(self, part: ToolResult, index: int, messages: tuple[Message, ...]) -> None:
        target = self.target
        call_id = part.call_id if part.kind != "builtin" else None
        if call_id is not None:
            if call_id in self.answered and not self.gemini:
                self.orphan = (self._at(index), f"tool call {call_id!r} has two results; {target} takes one")
                return
            self.answered.add(call_id)
            if call_id not in self.called:
                self.orphan = (
                    self._at(index),
                    f"tool result for call {call_id!r} answers no tool call earlier in the "
                    f"history; {target} rejects a result without its call",
                )
                return
            start = self.open_calls.pop(call_id, None)
            between = messages[start + 1 : index] if start is not None and self.late is None else ()
            if between and not all(_between_ok(m) for m in between):
                self.late = (
                    self._at(index),
                    f"the result of tool call {call_id!r} does not follow its call's turn; "
                    f"{target} needs results right after the calls",
                )
        if part.call_id is None:
            self.results += 1
            if self.results > self.calls and self.positional is None:
                self.positional = (
                    self._at(index),
                    f"a tool result without id answers no earlier tool call; {target} rejects it",
                )

    def _call(self, part: ToolCall, index: int) -> None:
        if part.kind == "builtin":
            return
        if part.id is None:
            self.calls += 1
            return
        if part.id in self.called and not self.gemini:  # Gemini pairs by position
            self.orphan = (
                f"$.{self.key}[{index}]",
                f"tool call id {part.id!r} is used twice; {self.target} needs unique ids",
            )
            return
        self.called[part.id] = index

    def refuse(self, req: Request) -> None:
        """Raise the refusal that wins, if any."""
        target = self.target
        if target == "openai-responses" and self.has_item:
            return  # an item_reference resolves on OpenAI's side and may hold the call
        for found in (self.ref, self.orphan, self.positional):
            if found is not None:
                _refuse(*found)
        if self.calls > self.results:
            _refuse(
                f"$.{self.key}",
                f"{self.calls - self.results} tool call(s) without id have no result; {target} rejects them",
            )
        if self.late is not None and target != "openai-responses":
            _refuse(*self.late)
        last = -1  # found on the first call left without its result: most histories have none
        for call_id, index in self.called.items():
            if call_id in self.answered:
                continue
            if last < 0:
                last = _last_turn(req)
            if index < last:
                _refuse(
                    f"$.{self.key}[{index}]",
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
        _stored_fields(req, target)
    scan = _Scan(req, target)
    scan.run(req.messages)
    scan.refuse(req)
