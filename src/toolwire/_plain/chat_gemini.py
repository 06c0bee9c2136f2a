"""The Chat -> Gemini pair in one pass: a plain Chat request straight to Gemini.

Issue 18: as :mod:`~toolwire._plain.chat_anthropic` for Anthropic, the pair's lane
(:func:`chat_read.read <toolwire._plain.chat_read.read>` then :func:`gemini_write.write
<toolwire._plain.gemini_write.write>`) read the messages into turns, a tuple per message, then
wrote them; its one pass reads each message and writes its Gemini content in the same loop.
:func:`translate` writes exactly what that lane writes (and notes what it notes), or returns
``None`` when it is not sure of that: anything it does not take goes to the lane
(:func:`toolwire._plain.plain_lane`), which takes or refuses it. The request's other fields are
the lane's own: read by :func:`chat_read.fields <toolwire._plain.chat_read.fields>`, written by
:func:`gemini_write.finish <toolwire._plain.gemini_write.finish>`. It takes:

* a ``model`` (the caller's is not passed to the one passes) and ``messages``, a non-empty list
  of: ``{"role", "content": "text"}`` (user, system, developer; an assistant one not right after
  an assistant text); an assistant ``{"role", "content", "tool_calls"}`` (not right after an
  assistant text), each call read by :func:`chat_read.read_call
  <toolwire._plain.chat_read.read_call>` and written by :func:`gemini_write.function_call
  <toolwire._plain.gemini_write.function_call>`, followed by one result per call in the calls'
  order (:func:`chat_read.read_result <toolwire._plain.chat_read.read_result>`).

The writer's rules, in the loop: system texts into ``systemInstruction`` (one after the
conversation started noted), contents of one role in a row merged (a user text after results
added to their content), a turn's results one ``user`` content, each wrapped as
``response.output`` (noted), the first content not a call turn. The bytes API's contents are the
writer's Structs (:mod:`~toolwire._plain._request_out`), a content of one part holding it in a
tuple.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolwire._plain._request_out import GeminiContentOut, GeminiTextOut
from toolwire._plain.chat_read import fields, read_call, read_result
from toolwire._plain.gemini_write import finish, first_ok, function_call, response

__all__ = ["translate"]


def _turn(
    calls: list[Any], rest: Iterator[Any], called: set[Any], wire: bool
) -> tuple[list[Any], list[Any]] | None:
    """The call parts of a call turn's ``calls`` (a non-empty list; their ids added to
    ``called``) and the parts of its results, the next messages of ``rest`` in the calls'
    order; ``None`` when not plain."""
    parts: list[Any] = []
    named: list[Any] = []
    for entry in calls:
        call = read_call(entry, called)
        if call is None:
            return None
        part = function_call(call[0], call[1], call[2], called, wire)
        if part is None:
            return None
        parts.append(part)
        named.append(call)
    answers: list[Any] = []
    for call in named:  # its results: the next messages, in the calls' order
        call_id = call[0]
        result = read_result(next(rest, None), call_id)
        if result is None:
            return None
        answers.append(response(call_id, call[1], result[1], wire))
    return parts, answers


def _wire(items: list[Any], system: list[dict[str, str]]) -> tuple[list[Any], set[Any], bool] | None:
    """The contents of ``items`` as Structs, their call ids and whether the writer notes one (a
    result wrapped, a system text after the conversation started), its system parts added to
    ``system``; ``None`` when a message is not of the module's shape. Raises ``KeyError`` for a
    message without a field its size requires. ``after``: the last message an assistant text
    (the reader takes no assistant message right after one)."""
    contents: list[Any] = []
    append = contents.append
    called: set[Any] = set()  # every call id so far (the reader's, and the writer's)
    noted = False
    role: Any = None  # the role of the last content
    current: Any = None  # the last content
    after = False
    rest = iter(items)
    for item in rest:
        if type(item) is not dict:
            return None
        size = len(item)
        if size == 2:  # {"role", "content"}: the content a non-empty string
            kind, text = item["role"], item["content"]
            if type(text) is not str or not text:
                return None
            if kind == "user":
                after = False
                if role == "user":
                    current.parts += (GeminiTextOut(text),)
                else:
                    role = "user"
                    current = GeminiContentOut("user", (GeminiTextOut(text),))
                    append(current)
            elif kind == "assistant":
                if after:
                    return None
                after = True
                if role == "model":
                    current.parts += (GeminiTextOut(text),)
                else:
                    role = "model"
                    current = GeminiContentOut("model", (GeminiTextOut(text),))
                    append(current)
            elif kind == "system" or kind == "developer":
                after = False
                if contents:
                    noted = True  # moved to systemInstruction
                system.append({"text": text})
            else:
                return None
            continue
        if size != 3 or after:
            return None
        kind, content, calls = item["role"], item["content"], item["tool_calls"]
        if kind != "assistant" or type(calls) is not list or not calls:
            return None
        if content is not None and (type(content) is not str or not content):
            return None
        noted = True  # the text results are wrapped as response.output (an info note)
        if len(calls) != 1:
            turn = _turn(calls, rest, called, True)
            if turn is None:
                return None
            parts, answers = turn
            if content is not None:
                parts.insert(0, GeminiTextOut(content))
            if role == "model":
                current.parts += tuple(parts)
            else:
                append(GeminiContentOut("model", parts))
            role = "user"
            current = GeminiContentOut("user", answers)
            append(current)
            continue
        call = read_call(calls[0], called)  # the common turn: one call, then its result
        if call is None:
            return None
        call_id, name = call[0], call[1]
        part = function_call(call_id, name, call[2], called, True)
        result = read_result(next(rest, None), call_id)
        if part is None or result is None:
            return None
        if role == "model":
            current.parts += (part,) if content is None else (GeminiTextOut(content), part)
        else:
            append(GeminiContentOut("model", (part,) if content is None else (GeminiTextOut(content), part)))
        role = "user"
        current = GeminiContentOut("user", (response(call_id, name, result[1], True),))
        append(current)
    if not first_ok(contents):
        return None
    return contents, called, noted


def _dicts(items: list[Any], system: list[dict[str, str]]) -> tuple[list[Any], set[Any], bool] | None:
    """:func:`_wire` writing dicts (the dict API's), each branch its dicts straight (no check
    per message of which to build); ``last`` is the last content's parts."""
    contents: list[Any] = []
    append = contents.append
    called: set[Any] = set()  # every call id so far (the reader's, and the writer's)
    noted = False
    role: Any = None  # the role of the last content
    last: Any = None  # the last content's parts
    after = False
    rest = iter(items)
    for item in rest:
        if type(item) is not dict:
            return None
        size = len(item)
        if size == 2:  # {"role", "content"}: the content a non-empty string
            kind, text = item["role"], item["content"]
            if type(text) is not str or not text:
                return None
            if kind == "user":
                after = False
                if role == "user":
                    last.append({"text": text})
                else:
                    role = "user"
                    last = [{"text": text}]
                    append({"role": "user", "parts": last})
            elif kind == "assistant":
                if after:
                    return None
                after = True
                if role == "model":
                    last.append({"text": text})
                else:
                    role = "model"
                    last = [{"text": text}]
                    append({"role": "model", "parts": last})
            elif kind == "system" or kind == "developer":
                after = False
                if contents:
                    noted = True  # moved to systemInstruction
                system.append({"text": text})
            else:
                return None
            continue
        if size != 3 or after:
            return None
        kind, content, calls = item["role"], item["content"], item["tool_calls"]
        if kind != "assistant" or type(calls) is not list or not calls:
            return None
        if content is not None and (type(content) is not str or not content):
            return None
        noted = True  # the text results are wrapped as response.output (an info note)
        if len(calls) != 1:
            turn = _turn(calls, rest, called, False)
            if turn is None:
                return None
            parts, answers = turn
            if content is not None:
                parts.insert(0, {"text": content})
            if role == "model":
                last.extend(parts)
            else:
                append({"role": "model", "parts": parts})
            role = "user"
            last = answers
            append({"role": "user", "parts": last})
            continue
        call = read_call(calls[0], called)  # the common turn: one call, then its result
        if call is None:
            return None
        call_id, name = call[0], call[1]
        part = function_call(call_id, name, call[2], called, False)
        result = read_result(next(rest, None), call_id)
        if part is None or result is None:
            return None
        if role == "model":
            if content is not None:
                last.append({"text": content})
            last.append(part)
        else:
            append({"role": "model", "parts": [part] if content is None else [{"text": content}, part]})
        role = "user"
        last = [{"functionResponse": {"name": name, "id": call_id, "response": {"output": result[1]}}}]
        append({"role": "user", "parts": last})
    if not first_ok(contents):
        return None
    return contents, called, noted


def translate(p: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    """The Gemini body the Chat request ``p`` translates to and whether the lane notes something
    for it (see the module docstring), or ``None``: not of that shape (the pair's lane then
    reads and writes it). ``wire``: the contents as Structs (the bytes API's)."""
    plain = fields(p, None)
    if plain is None or plain.model is None:
        return None
    system: list[dict[str, str]] = []
    try:
        found = _wire(p["messages"], system) if wire else _dicts(p["messages"], system)
    except KeyError:
        return None
    if found is None:
        return None
    contents, called, noted = found
    out = finish(plain, contents, system or None, bool(called), noted)
    return None if out is None else (out, plain.noted)
