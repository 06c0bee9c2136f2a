"""The Chat -> Responses pair in one pass: a plain Chat request straight to Responses (issue 18).

The pair's lane (:func:`chat_read.read <toolwire._plain.chat_read.read>` then
:func:`responses_write.write <toolwire._plain.responses_write.write>`) built a turn tuple per
message, then walked the turns again to write the ``input`` items. Its one pass reads each
message and writes its items in the same loop. :func:`translate` writes exactly what that lane
writes (and notes what it notes), or returns ``None`` when it is not sure of that: anything it
does not take goes to the lane (:func:`toolwire._plain.plain_lane`), which takes or refuses it.
The request's other fields are the lane's own: read by :func:`chat_read.fields
<toolwire._plain.chat_read.fields>`, written by :func:`responses_write.finish
<toolwire._plain.responses_write.finish>`. It takes a ``model`` (the caller's is not passed to
the one passes) and ``messages``, a non-empty list of:

* ``{"role", "content": "text"}`` of a user, system, developer or assistant message (an
  assistant one not right after an assistant message), the text not empty: an item ``{"role",
  "content"}``, but a first system message, which is the ``instructions``;
* an assistant ``{"role", "content", "tool_calls"}`` (not right after an assistant message), the
  content ``null`` or a text (then an assistant item first), each call a ``function_call`` item
  (a new non-empty id, a name Responses takes as it is, arguments text), followed by one
  ``{"role": "tool", "tool_call_id", "content"}`` per call in the calls' order, each a
  ``function_call_output`` item.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolwire._plain.chat_read import fields, read_call, read_result
from toolwire._plain.responses_write import call_item, finish

__all__ = ["translate"]


def _calls(calls: list[Any], rest: Iterator[Any], ids: set[Any], items: list[dict[str, Any]]) -> bool:
    """The items of the calls ``calls`` (a non-empty list; their ids added to ``ids``) and of
    their results, the next messages of ``rest`` in the calls' order, added to ``items``;
    ``False`` when not plain."""
    outputs: list[Any] = []
    for entry in calls:
        call = read_call(entry, ids)
        if call is None:
            return False
        item = call_item(call[0], call[1], call[2])
        if item is None:
            return False
        ids.add(call[0])
        items.append(item)
        outputs.append(call[0])
    for call_id in outputs:
        result = read_result(next(rest, None), call_id)
        if result is None:
            return False
        items.append({"type": "function_call_output", "call_id": call_id, "output": result[1]})
    return True


def _items(messages: list[Any], out: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The ``input`` items of ``messages`` (a first system message is ``out``'s
    ``instructions``), or ``None`` when a message is not of the module's shape. Raises
    ``KeyError`` for a message without a field its size requires."""
    items: list[dict[str, Any]] = []
    append = items.append
    ids: set[Any] = set()  # every call id so far
    after_assistant = False  # the last message an assistant text
    rest = iter(messages)
    first = messages[0]  # a system text first: the instructions
    if type(first) is dict and len(first) == 2 and first["role"] == "system":
        text = first["content"]
        if type(text) is str and text:
            out["instructions"] = text
            next(rest)
    for item in rest:
        if type(item) is not dict:
            return None
        if len(item) == 2:  # {"role", "content"}: the content a non-empty string
            role, text = item["role"], item["content"]
            if type(text) is not str or not text:
                return None
            if role == "assistant":
                if after_assistant:
                    return None
                after_assistant = True
            elif role == "user" or role == "system" or role == "developer":
                after_assistant = False
            else:
                return None
            append({"role": role, "content": text})
            continue
        if len(item) != 3 or after_assistant:
            return None
        role, content, calls = item["role"], item["content"], item["tool_calls"]
        if role != "assistant" or type(calls) is not list or not calls:
            return None
        if content is not None:
            if type(content) is not str or not content:
                return None
            append({"role": "assistant", "content": content})
        if not _calls(calls, rest, ids, items):
            return None
    return items


def translate(p: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    """The Responses request the Chat request ``p`` translates to and whether the lane notes
    something for it (see the module docstring), or ``None``: not of that shape (the pair's
    lane then reads and writes it). ``wire``: the bytes API's (the same dicts: Responses has no
    Structs)."""
    plain = fields(p, None)
    if plain is None or plain.model is None:
        return None
    out: dict[str, Any] = {"model": plain.model}
    try:
        items = _items(p["messages"], out)
    except KeyError:
        return None
    if items is None:
        return None
    out["input"] = items
    if not finish(plain, out):
        return None
    return out, plain.noted
