"""Call ids and result order in a client's history, as the upstream needs them.

Two passes of :class:`~toolwire.translate.Exchange` over a request the client sent:

- ids: an Anthropic client echoes the ids we escaped for it
  (:func:`toolwire._callids.sanitize_call_id`); they are restored to the upstream's originals.
- ids of a Gemini client's results: a ``functionResponse`` without an ``id`` (Gemini pairs by
  position) answering a turn whose calls carry ids (those we sent it) takes the id of the first
  unanswered call of that turn with its name, so an upstream that pairs by id gets a valid pair.
- order: Gemini pairs ``functionResponse`` parts with the ``functionCall`` parts of the turn
  before by position, so the results answering one assistant turn are put in the order of its
  calls (results of unknown calls keep their place after the known ones). A result answering
  no call of that turn is a loss note: Gemini will pair it by position.
"""

from __future__ import annotations

import msgspec

from toolwire._callids import restore_call_id
from toolwire.ir.content import Message, Part, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request

__all__ = ["fill_result_ids", "order_results", "restore_history_ids"]


def _restored(part: Part) -> Part:
    if isinstance(part, ToolCall) and part.id is not None:
        original = restore_call_id(part.id)
        return part if original == part.id else msgspec.structs.replace(part, id=original)
    if isinstance(part, ToolResult) and part.call_id is not None:
        original = restore_call_id(part.call_id)
        return part if original == part.call_id else msgspec.structs.replace(part, call_id=original)
    return part


def restore_history_ids(ir: Request) -> Request:
    """``ir`` with every escaped call id of its history restored (others unchanged)."""
    messages: list[Message] | None = None  # copied on the first change only: most ids are not escaped
    for index, message in enumerate(ir.messages):
        parts: list[Part] | None = None
        for j, part in enumerate(message.parts):
            restored = _restored(part)
            if restored is not part:
                if parts is None:
                    parts = list(message.parts)
                parts[j] = restored
        if parts is not None:
            if messages is None:
                messages = list(ir.messages)
            messages[index] = msgspec.structs.replace(message, parts=tuple(parts))
    return ir if messages is None else msgspec.structs.replace(ir, messages=tuple(messages))


def _run_end(messages: tuple[Message, ...], start: int) -> int:
    """The index after the run of non-assistant messages starting at ``start``."""
    end = start
    while end < len(messages) and messages[end].role not in ("assistant", "system", "developer"):
        end += 1
    return end


def _reorder(run: list[Message], order: dict[str, int], notes: Notes, path: str) -> list[Message]:
    slots = [
        (m, p)
        for m, message in enumerate(run)
        for p, part in enumerate(message.parts)
        if isinstance(part, ToolResult)
    ]
    results = [run[m].parts[p] for m, p in slots]
    unknown = len(order)
    for index, result in enumerate(results):
        assert isinstance(result, ToolResult)
        if result.call_id is not None and result.call_id not in order:
            notes.add(
                f"{path}.results[{index}]",
                "approximated",
                f"tool result {result.call_id!r} answers no call of the turn before; "
                "Gemini pairs it by position",
            )
    ranked = sorted(results, key=lambda r: order.get(r.call_id or "", unknown))  # type: ignore[union-attr]
    if ranked == results:
        return run
    notes.info(path, "approximated", "tool results put in the order of their calls (Gemini pairs by order)")
    parts = [list(message.parts) for message in run]
    for (m, p), result in zip(slots, ranked, strict=True):
        parts[m][p] = result
    return [msgspec.structs.replace(m, parts=tuple(new)) for m, new in zip(run, parts, strict=True)]


def order_results(ir: Request, notes: Notes) -> Request:
    """``ir`` with the results of each assistant turn's calls in the order of those calls."""
    messages = list(ir.messages)
    changed = False
    for index, message in enumerate(ir.messages):
        if message.role != "assistant":
            continue
        calls = [p.id for p in message.parts if isinstance(p, ToolCall) and p.kind != "builtin"]
        if len(calls) < 2:
            continue
        order = {call_id: rank for rank, call_id in enumerate(calls) if call_id is not None}
        end = _run_end(ir.messages, index + 1)
        run = messages[index + 1 : end]
        new = _reorder(run, order, notes, f"$.messages[{index + 1}]")
        if new is not run:
            messages[index + 1 : end] = new
            changed = True
    return msgspec.structs.replace(ir, messages=tuple(messages)) if changed else ir


def _filled(run: list[Message], calls: list[ToolCall]) -> list[Message]:
    """``run`` with each id-less result given the id of the first unanswered call of its name."""
    answered = {p.call_id for m in run for p in m.parts if isinstance(p, ToolResult) and p.call_id}
    open_calls = [c for c in calls if c.id is not None and c.id not in answered]
    out = []
    for message in run:
        parts = list(message.parts)
        for index, part in enumerate(parts):
            if not isinstance(part, ToolResult) or part.call_id is not None:
                continue
            call = next((c for c in open_calls if c.name == part.name), None)
            if call is not None:
                open_calls.remove(call)
                parts[index] = msgspec.structs.replace(part, call_id=call.id)
        out.append(
            message if tuple(parts) == message.parts else msgspec.structs.replace(message, parts=tuple(parts))
        )
    return out


def fill_result_ids(ir: Request) -> Request:
    """``ir`` with the id-less results of each assistant turn paired to its calls' ids, by name and order."""
    messages = list(ir.messages)
    for index, message in enumerate(ir.messages):
        if message.role != "assistant":
            continue
        calls = [p for p in message.parts if isinstance(p, ToolCall) and p.kind != "builtin"]
        if not calls:
            continue
        end = _run_end(ir.messages, index + 1)
        run = messages[index + 1 : end]
        if any(isinstance(p, ToolResult) and p.call_id is None for m in run for p in m.parts):
            messages[index + 1 : end] = _filled(run, calls)  # it changes only id-less results
    new = tuple(messages)
    return ir if new == ir.messages else msgspec.structs.replace(ir, messages=new)
