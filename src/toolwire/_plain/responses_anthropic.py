"""The Responses -> Anthropic pair in one pass: a plain Responses request straight to Anthropic.

Issue 18: at 1,000 messages, the pair's lane (:func:`responses_read.read
<toolwire._plain.responses_read.read>` then :func:`anthropic_write.write
<toolwire._plain.anthropic_write.write>`) spent as long reading the items into turns as writing
them, and the turns were a tuple per item to build, scan (the garbage collector) and free. Its
one pass reads each ``input`` item and writes its Anthropic block in the same loop.
:func:`translate` writes exactly what that lane writes (and notes what it notes), or returns
``None`` when it is not sure of that: anything it does not take goes to the lane
(:func:`toolwire._plain.plain_lane`), which takes or refuses it. The request's other fields are
the lane's own: read by :func:`responses_read.fields <toolwire._plain.responses_read.fields>`,
written by :func:`anthropic_write.finish <toolwire._plain.anthropic_write.finish>`. It takes:

* ``instructions`` (a non-empty string) and ``input``, a non-empty list of: untyped messages
  ``{"role", "content": "text"}`` (user, system, developer; assistant first in its turn);
  ``function_call`` items of a name Anthropic takes as it is and arguments a JSON object (or
  ``""``); after a turn's calls, its ``function_call_output`` items (non-empty text), each call
  answered once, in any order.

The writer's rules, in the loop: system texts hoisted to ``system`` (one after the conversation
started noted), user texts after a user message (results included) added to it, a turn's text
and calls one assistant message, no two assistant messages in a row, a turn's results one user
message in their order, the call ids checked together at the end, no prefill ending in
whitespace. The bytes API's messages are the writer's Structs (:mod:`~toolwire._plain._request_out`),
a message of one block holding it in a tuple.
"""

from __future__ import annotations

from typing import Any

from toolwire._plain._request_out import (
    AnthropicMessageOut,
    AnthropicTextOut,
    AnthropicToolResultOut,
)
from toolwire._plain.anthropic_write import finish, ids_ok, tool_use
from toolwire._plain.responses_read import fields

__all__ = ["translate"]


def _wire(items: list[Any], system: list[str]) -> tuple[list[Any], bool] | None:
    """The messages of ``items`` as Structs and whether the writer notes one (a system text
    after the conversation started), its system texts added to ``system``; ``None`` when an item
    is not of the module's shape. Raises ``KeyError`` for an item without a field its size
    requires.

    ``calls`` is the reader's: ``None`` (no turn open), ``()`` (an assistant text, the first
    item of its turn), or the open call turn's call id (one call) or ids (more); ``owed`` the
    ids of a turn of more calls still to be answered, once its first result came."""
    out: list[Any] = []
    append = out.append
    ids: set[Any] = set()  # every call id so far (the reader's, and the writer's to check)
    noted = False
    role: Any = None  # the role of the last message
    message: Any = None  # the last message
    calls: Any = None
    owed: Any = None
    for item in items:
        if type(item) is not dict:
            return None
        size = len(item)
        if size == 2:  # {"role", "content"}: the content a non-empty string
            text, kind = item["content"], item["role"]
            if type(text) is not str or not text or owed or calls:
                return None
            if kind == "user":
                calls = None
                if role == "user":
                    message.content += (AnthropicTextOut("text", text),)
                else:
                    role = "user"
                    message = AnthropicMessageOut("user", (AnthropicTextOut("text", text),))
                    append(message)
            elif kind == "assistant":
                if calls is not None or role == "assistant":
                    return None
                calls = ()
                role = "assistant"
                message = AnthropicMessageOut("assistant", (AnthropicTextOut("text", text),))
                append(message)
            elif kind == "system" or kind == "developer":
                calls = None
                if out:
                    noted = True  # a mid-conversation system message moved to the top
                system.append(text)
            else:
                return None
        elif size == 4:  # {"type": "function_call", "call_id", "name", "arguments"}
            call_id, name, arguments = item["call_id"], item["name"], item["arguments"]
            if item["type"] != "function_call" or type(call_id) is not str or not call_id:
                return None
            if type(arguments) is not str or owed or call_id in ids or type(name) is not str or not name:
                return None
            block = tool_use(call_id, name, arguments, True)
            if block is None:
                return None
            ids.add(call_id)
            if calls is None:  # a turn of calls only
                if role == "assistant":
                    return None
                role = "assistant"
                message = AnthropicMessageOut("assistant", (block,))
                append(message)
                calls = call_id
            else:
                message.content += (block,)
                calls = (
                    call_id if calls == () else [calls, call_id] if type(calls) is str else [*calls, call_id]
                )
        elif size == 3 and item["type"] == "function_call_output":
            call_id, output = item["call_id"], item["output"]
            if type(output) is not str or type(call_id) is not str or not output:
                return None
            if calls:  # the call turn ends: its calls are answered next
                if type(calls) is str:  # one call: its one result
                    if call_id != calls:
                        return None
                    calls = None
                    role = "user"
                    message = AnthropicMessageOut(
                        "user", (AnthropicToolResultOut("tool_result", call_id, output),)
                    )
                    append(message)
                    continue
                owed = set(calls)
                calls = None
                role = "user"
                message = AnthropicMessageOut("user", ())
                append(message)
            if not owed or call_id not in owed:
                return None
            owed.discard(call_id)
            message.content += (AnthropicToolResultOut("tool_result", call_id, output),)
        else:
            return None
    if owed or calls or not out or not ids_ok(ids):
        return None
    return out, noted


def _dicts(items: list[Any], system: list[str]) -> tuple[list[Any], bool] | None:
    """:func:`_wire` writing dicts (the dict API's), each branch its dicts straight (no check
    per item of which to build); ``blocks`` is the last message's content."""
    out: list[Any] = []
    append = out.append
    ids: set[Any] = set()  # every call id so far (the reader's, and the writer's to check)
    noted = False
    role: Any = None  # the role of the last message
    blocks: Any = None  # the last message's content
    calls: Any = None
    owed: Any = None
    for item in items:
        if type(item) is not dict:
            return None
        size = len(item)
        if size == 2:  # {"role", "content"}: the content a non-empty string
            text, kind = item["content"], item["role"]
            if type(text) is not str or not text or owed or calls:
                return None
            if kind == "user":
                calls = None
                if role == "user":
                    blocks.append({"type": "text", "text": text})
                else:
                    role = "user"
                    blocks = [{"type": "text", "text": text}]
                    append({"role": "user", "content": blocks})
            elif kind == "assistant":
                if calls is not None or role == "assistant":
                    return None
                calls = ()
                role = "assistant"
                blocks = [{"type": "text", "text": text}]
                append({"role": "assistant", "content": blocks})
            elif kind == "system" or kind == "developer":
                calls = None
                if out:
                    noted = True  # a mid-conversation system message moved to the top
                system.append(text)
            else:
                return None
        elif size == 4:  # {"type": "function_call", "call_id", "name", "arguments"}
            call_id, name, arguments = item["call_id"], item["name"], item["arguments"]
            if item["type"] != "function_call" or type(call_id) is not str or not call_id:
                return None
            if type(arguments) is not str or owed or call_id in ids or type(name) is not str or not name:
                return None
            block = tool_use(call_id, name, arguments, False)
            if block is None:
                return None
            ids.add(call_id)
            if calls is None:  # a turn of calls only
                if role == "assistant":
                    return None
                role = "assistant"
                blocks = [block]
                append({"role": "assistant", "content": blocks})
                calls = call_id
            else:
                blocks.append(block)
                calls = (
                    call_id if calls == () else [calls, call_id] if type(calls) is str else [*calls, call_id]
                )
        elif size == 3 and item["type"] == "function_call_output":
            call_id, output = item["call_id"], item["output"]
            if type(output) is not str or type(call_id) is not str or not output:
                return None
            if calls:  # the call turn ends: its calls are answered next
                if type(calls) is str:  # one call: its one result
                    if call_id != calls:
                        return None
                    calls = None
                    role = "user"
                    blocks = [{"type": "tool_result", "tool_use_id": call_id, "content": output}]
                    append({"role": "user", "content": blocks})
                    continue
                owed = set(calls)
                calls = None
                role = "user"
                blocks = []
                append({"role": "user", "content": blocks})
            if not owed or call_id not in owed:
                return None
            owed.discard(call_id)
            blocks.append({"type": "tool_result", "tool_use_id": call_id, "content": output})
        else:
            return None
    if owed or calls or not out or not ids_ok(ids):
        return None
    return out, noted


def _prefill_ok(message: Any, wire: bool) -> bool:
    """Whether the general path keeps the last message as is: an assistant one of one text
    block (a prefill) ending in whitespace is trimmed, noted."""
    content = message.content if wire else message["content"]
    if len(content) != 1:
        return True
    block = content[0]
    if wire:
        if type(block) is not AnthropicTextOut or message.role != "assistant":
            return True
        text = block.text
    else:
        if block["type"] != "text" or message["role"] != "assistant":
            return True
        text = block["text"]
    return bool(text == text.rstrip())


def translate(p: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    """The Anthropic request the Responses request ``p`` translates to and whether the lane
    notes something for it (see the module docstring), or ``None``: not of that shape (the
    pair's lane then reads and writes it). ``wire``: the messages as Structs (the bytes API's)."""
    plain = fields(p)
    if plain is None:
        return None
    items = p.get("input")
    if type(items) is not list or not items:
        return None
    system: list[str] = []
    if "instructions" in p:
        instructions = p["instructions"]
        if type(instructions) is not str or not instructions:
            return None
        system.append(instructions)
    try:
        found = _wire(items, system) if wire else _dicts(items, system)
    except KeyError:
        return None
    if found is None or not _prefill_ok(found[0][-1], wire):
        return None
    messages, plain.noted = found
    out = finish(plain, system, messages)
    return None if out is None else (out, plain.noted)
