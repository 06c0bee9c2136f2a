"""``refuse_unsendable_history`` in one pass raises exactly what the four passes it replaced
raised (issue 18): on thousands of random histories of calls, results, ids, built-in parts,
item references and roles, for every target, the same refusal (path and message) or none.

The reference below is the earlier implementation, kept verbatim as the oracle.
"""

from __future__ import annotations

import random

import pytest

from toolwire.errors import ConversionError
from toolwire.formats._history import refuse_unsendable_history
from toolwire.ir.content import Message, TextPart, ToolCall, ToolResult
from toolwire.ir.request import Request

TARGETS = ("openai-chat", "openai-responses", "anthropic", "gemini")


def _refuse(path: str, message: str) -> None:
    raise ConversionError(message, path=path)


def _stored_state(req: Request, target: str) -> None:
    for field in ("previous_response_id", "conversation"):
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
                f"item_reference {item.get('id')!r} points at an item stored by OpenAI; "
                f"{target} needs the item itself",
            )


_KEYS = {"openai-responses": "input", "gemini": "contents"}


def _positional_orphans(req: Request, target: str, key: str) -> None:
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
    return part.call_id if isinstance(part, ToolResult) and part.kind != "builtin" else None


def _between_ok(message: Message) -> bool:
    return message.role == "assistant" or (
        bool(message.parts) and all(isinstance(p, ToolResult) for p in message.parts)
    )


def _late_results(req: Request, target: str, key: str) -> None:
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


def _last_turn(req: Request) -> int:
    for index in range(len(req.messages) - 1, -1, -1):
        message = req.messages[index]
        if not message.parts or not all(isinstance(part, ToolResult) for part in message.parts):
            return index
    return 0


def _orphans(req: Request, target: str) -> None:
    called: dict[str, int] = {}
    answered: set[str] = set()
    key = _KEYS.get(req.origin or "", "messages")
    for index, message in enumerate(req.messages):
        for part in message.parts:
            call_id = _answered(part)
            if call_id is not None:
                if call_id in answered and target != "gemini":
                    _refuse(f"$.{key}[{index}]", f"tool call {call_id!r} has two results; {target} takes one")
                answered.add(call_id)
            if isinstance(part, ToolCall) and part.id is not None and part.kind != "builtin":
                if part.id in called and target != "gemini":
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


def reference(req: Request, target: str) -> None:
    if target == "gemini" and req.messages and all(m.role in ("system", "developer") for m in req.messages):
        _refuse("$", f"the request has no user or assistant turn; {target} requires at least one")
    if target != "openai-responses":
        _stored_state(req, target)
    elif any("~item" in message.extra for message in req.messages):
        return
    _orphans(req, target)


def _outcome(check: object, req: Request, target: str) -> tuple[str, str] | None:
    try:
        check(req, target)  # type: ignore[operator]
    except ConversionError as exc:
        return (str(exc.path), exc.message)
    return None


def _random_request(rng: random.Random) -> Request:
    ids = ["a", "b", "c", None]
    messages = []
    for _ in range(rng.randint(0, 7)):
        roll = rng.random()
        if roll < 0.08:
            extra = {"~item": {"id": "it_1"}} if rng.random() < 0.7 else {"~item": "x"}
            parts: tuple[object, ...] = () if rng.random() < 0.7 else (TextPart(text="t"),)
            messages.append(Message(role="user", parts=parts, extra=extra))  # type: ignore[arg-type]
            continue
        role = rng.choice(["user", "assistant", "assistant", "tool", "system"])
        parts = tuple(
            rng.choice(
                [
                    lambda: TextPart(text="t"),
                    lambda: ToolCall(
                        id=rng.choice(ids),
                        name="f",
                        arguments="{}",
                        kind=rng.choice(["function", "function", "builtin", "custom"]),
                    ),
                    lambda: ToolResult(
                        call_id=rng.choice(ids), kind=rng.choice(["function", "function", "builtin"])
                    ),
                ]
            )()
            for _ in range(rng.randint(0, 3))
        )
        messages.append(Message(role=role, parts=parts))  # type: ignore[arg-type]
    origin = rng.choice(["openai-chat", "openai-responses", "anthropic", "gemini"])
    return Request(messages=tuple(messages), origin=origin)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", range(8))
def test_one_pass_refuses_exactly_as_the_four_passes(seed: int) -> None:
    rng = random.Random(seed)
    refused = 0
    for _ in range(1500):
        req = _random_request(rng)
        for target in TARGETS:
            expected = _outcome(reference, req, target)
            refused += expected is not None
            assert _outcome(refuse_unsendable_history, req, target) == expected, (req, target)
    assert 1000 < refused < 5000  # both outcomes well covered
