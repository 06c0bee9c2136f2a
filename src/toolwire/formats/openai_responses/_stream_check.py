"""The legal order of Responses stream events, as two transition tables.

Response level (:data:`RESPONSE_TABLE`, state x event class -> next state)::

    start    --created-->  open  --queued/in_progress/item events-->  open
    open     --completed/incomplete/failed-->  ended
    any      --error-->  errored  --failed-->  ended

Item level (:data:`ITEM_TABLE`, per ``output_index``): an item is opened by
``output_item.added`` in the state named after its type (``message``, ``function_call``,
``custom_tool_call``, ``reasoning``; any other type is ``builtin``) and moves on each event
naming its ``output_index`` until ``output_item.done``. Built-in items accept any event that is
not one of the core content events.

Invariants besides the tables: every event is an object with a string ``type``;
``sequence_number`` is on all events or none, and strictly increasing (recordings trimmed by
hand have gaps, so gaps are allowed); added ``output_index`` values increase; an added item
carries an ``id`` (function and custom calls also ``call_id`` and ``name``);
``content_index`` / ``summary_index`` count from 0 without gaps; the done item has the added
item's type; a terminal event's ``response.status`` matches it; message, call and reasoning
items are done before a ``completed`` or ``incomplete`` event (built-in items may stay open:
the API leaves ``mcp_list_tools`` items so); nothing follows the terminal event. With
``stable_ids``: one response id on all lifecycle events, events' ``item_id`` equal to their
item's id, and the done item's id equal to the added one's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from toolwire.ir.problem import Problem

__all__ = ["ITEM_TABLE", "RESPONSE_TABLE", "check_stream"]

RESPONSE_TABLE: dict[tuple[str, str], str] = {
    ("start", "created"): "open",
    ("open", "progress"): "open",
    ("open", "item"): "open",
    ("open", "terminal"): "ended",
    ("open", "failed"): "ended",
    ("start", "error"): "errored",
    ("open", "error"): "errored",
    ("errored", "failed"): "ended",
}
"""Response-level transitions: (state, event class) -> next state."""

_CLASS = {
    "response.created": "created",
    "response.queued": "progress",
    "response.in_progress": "progress",
    "response.completed": "terminal",
    "response.incomplete": "terminal",
    "response.failed": "failed",
    "error": "error",
}
_TERMINAL_STATUS = {
    "response.completed": "completed",
    "response.incomplete": "incomplete",
    "response.failed": "failed",
}

ITEM_TABLE: dict[tuple[str, str], str] = {
    ("message", "response.content_part.added"): "message_part",
    ("message_part", "response.output_text.delta"): "message_part",
    ("message_part", "response.output_text.done"): "message_part",
    ("message_part", "response.output_text.annotation.added"): "message_part",
    ("message_part", "response.refusal.delta"): "message_part",
    ("message_part", "response.refusal.done"): "message_part",
    ("message_part", "response.content_part.done"): "message",
    ("message", "response.output_item.done"): "done",
    ("function_call", "response.function_call_arguments.delta"): "function_call",
    ("function_call", "response.function_call_arguments.done"): "function_call",
    ("function_call", "response.output_item.done"): "done",
    ("custom_tool_call", "response.custom_tool_call_input.delta"): "custom_tool_call",
    ("custom_tool_call", "response.custom_tool_call_input.done"): "custom_tool_call",
    ("custom_tool_call", "response.output_item.done"): "done",
    ("reasoning", "response.reasoning_summary_part.added"): "summary_part",
    ("summary_part", "response.reasoning_summary_text.delta"): "summary_part",
    ("summary_part", "response.reasoning_summary_text.done"): "summary_part",
    ("summary_part", "response.reasoning_summary_part.done"): "reasoning",
    ("reasoning", "response.reasoning_text.delta"): "reasoning",
    ("reasoning", "response.reasoning_text.done"): "reasoning",
    ("reasoning", "response.output_item.done"): "done",
    ("builtin", "response.output_item.done"): "done",
}
"""Item-level transitions: (item state, event type) -> next state."""

_CORE = frozenset(event for _, event in ITEM_TABLE)
_MODELLED = frozenset({"message", "function_call", "custom_tool_call", "reasoning"})
_SLOT_OF_STATE = {"message_part": "content_index", "summary_part": "summary_index"}
_SLOT_OPENERS = {
    "response.content_part.added": "content_index",
    "response.reasoning_summary_part.added": "summary_index",
}


@dataclass(slots=True)
class _Item:
    state: str
    kind: str
    id: Any
    slots: int = 0
    open_slot: Any = None


@dataclass(slots=True)
class _Check:
    stable_ids: bool = False
    problems: list[Problem] = field(default_factory=list)
    state: str = "start"
    items: dict[int, _Item] = field(default_factory=dict)
    last_added: int = -1
    last_seq: int | None = None
    with_seq: bool | None = None
    mixed_seq: bool = False
    response_id: Any = None

    def add(self, position: int, code: str, message: str, key: str | None = None) -> None:
        path = f"$[{position}]" + (f".{key}" if key else "")
        self.problems.append(Problem(path, code, message))


def check_stream(events: Iterable[Any], *, stable_ids: bool = False) -> list[Problem]:
    """Problems in a Responses event stream (parsed SSE data dicts); empty when it is legal.

    Args:
        events: the stream's wire events in order.
        stable_ids: also require the response id, each item's id and the ``item_id`` of its
            events to stay the same (OpenAI keeps them, and its SDK insists; GitHub Copilot's
            Responses endpoint rotates them on every event, so the default allows that).
    """
    check = _Check(stable_ids=stable_ids)
    position = -1
    for position, event in enumerate(events):
        if type(event) is not dict or type(event.get("type")) is not str:
            check.add(position, "malformed_event", "expected an object with a string 'type'")
            continue
        _sequence(check, position, event)
        _transition(check, position, event)
    if check.state not in ("ended", "errored"):
        check.add(position + 1, "missing_terminal", "the stream has no terminal event")
    return check.problems


def _sequence(check: _Check, position: int, event: dict[str, Any]) -> None:
    seq = event.get("sequence_number")
    has = seq is not None
    if check.with_seq is None:
        check.with_seq = has
    elif check.with_seq != has:
        if not check.mixed_seq:
            check.add(
                position, "sequence_number", "sequence_number is on some events only", "sequence_number"
            )
        check.mixed_seq = True
        return
    if not has:
        return
    if type(seq) is not int:
        check.add(position, "sequence_number", "sequence_number must be an integer", "sequence_number")
    elif check.last_seq is not None and seq <= check.last_seq:
        check.add(
            position, "sequence_number", f"sequence_number {seq} after {check.last_seq}", "sequence_number"
        )
    else:
        check.last_seq = seq


def _transition(check: _Check, position: int, event: dict[str, Any]) -> None:
    kind = event["type"]
    cls = _CLASS.get(kind, "item")
    nxt = RESPONSE_TABLE.get((check.state, cls))
    if nxt is None:
        code = "after_terminal" if check.state == "ended" else "unexpected_event"
        check.add(position, code, f"{kind!r} is not allowed in state {check.state!r}", "type")
        return
    check.state = nxt
    if cls == "item":
        _item_event(check, position, event)
    elif cls != "error":
        _lifecycle(check, position, event)
    elif not isinstance(event.get("message"), str) and not isinstance(
        (event.get("error") or {}).get("message"), str
    ):
        check.add(position, "malformed_event", "an error event needs a message", "message")


def _lifecycle(check: _Check, position: int, event: dict[str, Any]) -> None:
    response = event.get("response")
    if type(response) is not dict:
        check.add(position, "malformed_event", "expected a 'response' object", "response")
        return
    if check.response_id is None:
        check.response_id = response.get("id")
    elif check.stable_ids and response.get("id") != check.response_id:
        check.add(position, "response_id", "the response id changed", "response.id")
    status = _TERMINAL_STATUS.get(event["type"])
    if status is None:
        return
    if response.get("status") != status:
        check.add(
            position, "status", f"{event['type']} with status {response.get('status')!r}", "response.status"
        )
    if status == "failed":
        return  # a failed response may leave its items unfinished
    for output_index, item in sorted(check.items.items()):
        if item.kind in _MODELLED:
            check.add(position, "item_not_done", f"output item {output_index} ({item.kind}) was never done")


def _item_event(check: _Check, position: int, event: dict[str, Any]) -> None:
    output_index = event.get("output_index")
    if type(output_index) is not int:
        if event["type"] in _CORE or event["type"] == "response.output_item.added":
            check.add(position, "malformed_event", "expected an integer output_index", "output_index")
        return
    if event["type"] == "response.output_item.added":
        _added(check, position, output_index, event.get("item"))
        return
    item = check.items.get(output_index)
    if item is None:
        check.add(position, "unknown_item", f"no open output item {output_index}", "output_index")
        return
    if check.stable_ids and "item_id" in event and item.id is not None and event["item_id"] != item.id:
        check.add(position, "item_id", f"item_id {event['item_id']!r} is not {item.id!r}", "item_id")
    _item_transition(check, position, output_index, item, event)


def _added(check: _Check, position: int, output_index: int, item: Any) -> None:
    if type(item) is not dict or type(item.get("type")) is not str:
        check.add(position, "malformed_event", "expected an 'item' object with a string 'type'", "item")
        return
    if output_index in check.items or output_index <= check.last_added:
        check.add(
            position, "output_index", f"output_index {output_index} after {check.last_added}", "output_index"
        )
    check.last_added = max(check.last_added, output_index)
    kind = item["type"]
    if type(item.get("id")) is not str:
        check.add(position, "missing_id", f"added {kind} item without an id", "item.id")
    if kind in ("function_call", "custom_tool_call"):
        for key in ("call_id", "name"):
            if type(item.get(key)) is not str:
                check.add(position, "missing_id", f"added {kind} item without {key!r}", f"item.{key}")
    state = kind if kind in _MODELLED else "builtin"
    check.items[output_index] = _Item(state, kind, item.get("id"))


def _item_transition(
    check: _Check, position: int, output_index: int, item: _Item, event: dict[str, Any]
) -> None:
    kind = event["type"]
    nxt = ITEM_TABLE.get((item.state, kind))
    if nxt is None:
        if item.state == "builtin" and kind not in _CORE:
            return
        check.add(position, "unexpected_event", f"{kind!r} is not allowed for a {item.state!r} item", "type")
        return
    slot_key = _SLOT_OPENERS.get(kind)
    if slot_key is not None:
        if event.get(slot_key) != item.slots:
            check.add(
                position, slot_key, f"{slot_key} {event.get(slot_key)!r}, expected {item.slots}", slot_key
            )
        item.slots += 1
        item.open_slot = event.get(slot_key)
    else:
        slot_key = _SLOT_OF_STATE.get(item.state)
        if slot_key is not None and event.get(slot_key, item.open_slot) != item.open_slot:
            check.add(position, slot_key, f"{slot_key} {event[slot_key]!r} is not the open part", slot_key)
    if nxt == "done":
        _done(check, position, output_index, item, event.get("item"))
        return
    item.state = nxt


def _done(check: _Check, position: int, output_index: int, item: _Item, final: Any) -> None:
    del check.items[output_index]
    if type(final) is not dict:
        check.add(position, "malformed_event", "expected an 'item' object", "item")
        return
    if final.get("type") != item.kind:
        check.add(
            position, "item_changed", f"a {item.kind} item was done as {final.get('type')!r}", "item.type"
        )
    elif check.stable_ids and final.get("id") != item.id:
        check.add(position, "item_changed", f"the item id changed from {item.id!r}", "item.id")
