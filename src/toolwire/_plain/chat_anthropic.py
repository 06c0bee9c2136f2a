"""The Chat -> Anthropic pair in one pass: a plain Chat request straight to Anthropic.

Issue 18: at 1,000 messages, the pair's lane (:func:`chat_read.read
<toolwire._plain.chat_read.read>` then :func:`anthropic_write.write
<toolwire._plain.anthropic_write.write>`) built a turn tuple per message to write, scan (the
garbage collector) and free. Its one pass reads each message and writes its Anthropic message
in the same loop. :func:`translate` writes exactly what that lane writes (and notes what it
notes), or returns ``None`` when it is not sure of that: anything it does not take goes to the
lane (:func:`toolwire._plain.plain_lane`), which takes or refuses it. The request's other fields
are the lane's own: read by :func:`chat_read.fields <toolwire._plain.chat_read.fields>`, written
by :func:`anthropic_write.finish <toolwire._plain.anthropic_write.finish>`. It takes:

* a ``model`` (the caller's is not passed to the one passes) and ``messages``, a non-empty list
  of: ``{"role", "content": "text"}`` (user, system, developer; an assistant one not right after
  an assistant message); an assistant ``{"role", "content", "tool_calls"}`` (not right after an
  assistant message), each call read by :func:`chat_read.read_call
  <toolwire._plain.chat_read.read_call>` and written by :func:`anthropic_write.tool_use
  <toolwire._plain.anthropic_write.tool_use>`, followed by one result per call in the calls'
  order (:func:`chat_read.read_result <toolwire._plain.chat_read.read_result>`).

The writer's rules, in the loop: system texts hoisted to ``system`` (one after the conversation
started noted), a user text after a user message (results included) added to it, a call turn
one assistant message and its results one user message, no two assistant messages in a row, the
call ids checked together at the end, no prefill ending in whitespace. The bytes API's messages
and blocks are the writer's Structs (:mod:`~toolwire._plain._request_out`), in lists.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolwire._plain._request_out import AnthropicMessageOut, AnthropicTextOut, AnthropicToolResultOut
from toolwire._plain.anthropic_write import finish, ids_ok, tool_use
from toolwire._plain.chat_read import fields, read_call, read_result

__all__ = ["translate"]


def _turn(
    content: Any, calls: list[Any], rest: Iterator[Any], ids: set[Any], wire: bool
) -> tuple[Any, Any] | None:
    """The assistant message of a call turn (``content`` ``None`` or its text, ``calls`` a
    non-empty list; its call ids added to ``ids``) and the user message of its results, the
    next messages of ``rest`` in the calls' order; ``None`` when not plain."""
    blocks: list[Any] = []
    if content is not None:
        if type(content) is not str or not content:
            return None
        blocks.append(AnthropicTextOut("text", content) if wire else {"type": "text", "text": content})
    results: list[Any] = []
    for entry in calls:
        call = read_call(entry, ids)
        if call is None:
            return None
        call_id = call[0]
        block = tool_use(call_id, call[1], call[2], wire)
        if block is None:
            return None
        ids.add(call_id)
        blocks.append(block)
        results.append(call_id)
    for index, call_id in enumerate(results):  # its results: the next messages, in the calls' order
        result = read_result(next(rest, None), call_id)
        if result is None:
            return None
        results[index] = _result_block(call_id, result[1], wire)
    if wire:
        return AnthropicMessageOut("assistant", blocks), AnthropicMessageOut("user", results)
    return {"role": "assistant", "content": blocks}, {"role": "user", "content": results}


def _result_block(call_id: str, output: str, wire: bool) -> Any:
    if wire:
        return AnthropicToolResultOut("tool_result", call_id, output)
    return {"type": "tool_result", "tool_use_id": call_id, "content": output}


def _add(message: Any, block: Any, wire: bool) -> None:
    """``block`` added to the user ``message`` (a user text after a user message)."""
    if wire:
        message.content = (*message.content, block)
    else:
        message["content"].append(block)


def _messages(items: list[Any], system: list[str], wire: bool) -> tuple[list[Any], bool] | None:
    """The messages of ``items`` (Structs when ``wire``, a message of one block holding it in a
    tuple) and whether the writer notes one (a system text after the conversation started), its
    system texts added to ``system``; ``None`` when a message is not of the module's shape.
    Raises ``KeyError`` for a message without a field its size requires. ``prefill`` is the
    text of the last turn but a system one when it is an assistant text (the writer's prefill
    check); the turn of one call and no text, the common one, is written inline."""
    out: list[Any] = []
    append = out.append
    ids: set[Any] = set()  # every call id so far (the reader's, and the writer's to check)
    noted = False
    role: Any = None  # the role of the last message
    prefill: Any = None
    rest = iter(items)
    for item in rest:
        if type(item) is not dict:
            return None
        if len(item) == 2:  # {"role", "content"}: the content a non-empty string
            kind, text = item["role"], item["content"]
            if type(text) is not str or not text:
                return None
            if kind == "user":
                prefill = None
                if role == "user":
                    _add(
                        out[-1],
                        AnthropicTextOut("text", text) if wire else {"type": "text", "text": text},
                        wire,
                    )
                    continue
            elif kind == "assistant":
                if role == "assistant":
                    return None
                prefill = text
            elif kind == "system" or kind == "developer":
                if out:
                    noted = True  # a mid-conversation system message moved to the top
                system.append(text)
                continue
            else:
                return None
            role = kind
            if wire:
                append(AnthropicMessageOut(kind, (AnthropicTextOut("text", text),)))
            else:
                append({"role": kind, "content": [{"type": "text", "text": text}]})
            continue
        if len(item) != 3 or role == "assistant":
            return None
        kind, content, calls = item["role"], item["content"], item["tool_calls"]
        if kind != "assistant" or type(calls) is not list or not calls:
            return None
        role = "user"  # (prefill is None: no call turn follows an assistant text)
        if content is not None or len(calls) != 1:
            turn = _turn(content, calls, rest, ids, wire)
            if turn is None:
                return None
            append(turn[0])
            append(turn[1])
            continue
        call = read_call(calls[0], ids)
        if call is None:
            return None
        call_id = call[0]
        block = tool_use(call_id, call[1], call[2], wire)
        result = read_result(next(rest, None), call_id)
        if block is None or result is None:
            return None
        ids.add(call_id)
        if wire:
            append(AnthropicMessageOut("assistant", (block,)))
            append(AnthropicMessageOut("user", (AnthropicToolResultOut("tool_result", call_id, result[1]),)))
        else:
            append({"role": "assistant", "content": [block]})
            append(
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": call_id, "content": result[1]}],
                }
            )
    if not out or not ids_ok(ids) or (prefill is not None and prefill != prefill.rstrip()):
        return None
    return out, noted


def translate(p: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    """The Anthropic request the Chat request ``p`` translates to and whether the lane notes
    something for it (see the module docstring), or ``None``: not of that shape (the pair's
    lane then reads and writes it). ``wire``: the messages as Structs (the bytes API's)."""
    plain = fields(p, None)
    if plain is None or plain.model is None:
        return None
    system: list[str] = []
    try:
        found = _messages(p["messages"], system, wire)
    except KeyError:
        return None
    if found is None:
        return None
    messages, plain.noted = found
    out = finish(plain, system, messages)
    return None if out is None else (out, plain.noted)
