"""The Responses -> Gemini pair in one pass: a plain Responses request straight to Gemini.

Issue 18: as :mod:`~toolwire._plain.responses_anthropic` for Anthropic, the pair's lane
(:func:`responses_read.read <toolwire._plain.responses_read.read>` then :func:`gemini_write.write
<toolwire._plain.gemini_write.write>`) read the items into turns, a tuple per item, then wrote
them; its one pass reads each ``input`` item and writes its Gemini part in the same loop.
:func:`translate` writes exactly what that lane writes (and notes what it notes), or returns
``None`` when it is not sure of that: anything it does not take goes to the lane
(:func:`toolwire._plain.plain_lane`), which takes or refuses it. The request's other fields are
the lane's own: read by :func:`responses_read.fields <toolwire._plain.responses_read.fields>`,
written by :func:`gemini_write.finish <toolwire._plain.gemini_write.finish>`. It takes:

* ``instructions`` (a non-empty string) and ``input``, a non-empty list of: untyped messages
  ``{"role", "content": "text"}`` (user, system, developer; assistant first in its turn);
  ``function_call`` items of a name Gemini takes as it is and arguments a JSON object (or
  ``""``: no ``args``); after a turn's calls, its ``function_call_output`` items, each call
  answered once, in any order.

The writer's rules, in the loop: system texts into ``systemInstruction`` (one after the
conversation started noted), contents of one role in a row merged, a turn's results one
``user`` content in the order of its calls, each wrapped as ``response.output`` (noted), the
first content not a call turn. The bytes API's contents are the writer's Structs
(:mod:`~toolwire._plain._request_out`), a content of one part holding it in a tuple.
"""

from __future__ import annotations

from typing import Any

from toolwire._plain._request_out import (
    GeminiContentOut,
    GeminiOutputOut,
    GeminiResponseOut,
    GeminiResponsePartOut,
    GeminiTextOut,
)
from toolwire._plain.gemini_write import finish, first_ok, function_call, response
from toolwire._plain.responses_read import fields

__all__ = ["translate"]


def _wire(items: list[Any], system: list[dict[str, str]]) -> tuple[list[Any], set[Any], bool] | None:
    """The contents of ``items`` as Structs, their call ids and whether the writer notes one (a
    result wrapped, a system text after the conversation started), its system parts added to
    ``system``; ``None`` when an item is not of the module's shape. Raises ``KeyError`` for an
    item without a field its size requires.

    ``calls`` is the reader's: ``None`` (no turn open), ``()`` (an assistant text, the first
    item of its turn), the open call turn's call id (one call, its name ``named``) or its calls
    (more, ``(call_id, name)`` each); ``owed`` the ids of a turn of more calls still to be
    answered once its first result came, ``outputs`` their outputs so far, ``turn`` its calls."""
    contents: list[Any] = []
    append = contents.append
    called: set[Any] = set()  # every call id so far
    noted = False
    role: Any = None  # the role of the last content
    current: Any = None  # the last content
    calls: Any = None
    named: Any = None
    owed: Any = None
    outputs: dict[Any, Any] = {}
    turn: Any = ()
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
                    current.parts += (GeminiTextOut(text),)
                else:
                    role = "user"
                    current = GeminiContentOut("user", (GeminiTextOut(text),))
                    append(current)
            elif kind == "assistant":
                if calls is not None:
                    return None
                calls = ()
                if role == "model":
                    current.parts += (GeminiTextOut(text),)
                else:
                    role = "model"
                    current = GeminiContentOut("model", (GeminiTextOut(text),))
                    append(current)
            elif kind == "system" or kind == "developer":
                calls = None
                if contents:
                    noted = True  # moved to systemInstruction
                system.append({"text": text})
            else:
                return None
        elif size == 4:  # {"type": "function_call", "call_id", "name", "arguments"}
            call_id, name, arguments = item["call_id"], item["name"], item["arguments"]
            if item["type"] != "function_call" or type(call_id) is not str or not call_id:
                return None
            if type(arguments) is not str or owed or call_id in called or type(name) is not str or not name:
                return None
            part = function_call(call_id, name, arguments, called, True)
            if part is None:
                return None
            if role == "model":  # the turn's text, or a model content before a system text
                current.parts += (part,)
            else:
                role = "model"
                current = GeminiContentOut("model", (part,))
                append(current)
            if not calls:  # the turn's first call
                calls, named = call_id, name
            elif type(calls) is str:
                calls = [(calls, named), (call_id, name)]
            else:
                calls.append((call_id, name))
        elif size == 3 and item["type"] == "function_call_output":
            call_id, output = item["call_id"], item["output"]
            if type(output) is not str or type(call_id) is not str:
                return None
            noted = True  # the text result is wrapped as response.output (an info note)
            if calls:  # the call turn ends: its calls are answered next
                if type(calls) is str:  # one call: its one result
                    if call_id != calls:
                        return None
                    calls = None
                    role = "user"  # after a model content: a new one
                    answer = GeminiResponseOut(named, call_id, GeminiOutputOut(output))
                    current = GeminiContentOut("user", (GeminiResponsePartOut(answer),))
                    append(current)
                    continue
                turn, calls = calls, None
                owed = {call[0] for call in turn}
                outputs = {}
            if not owed or call_id not in owed:
                return None
            owed.discard(call_id)
            outputs[call_id] = output
            if not owed:  # the turn's results, in the order of its calls
                role = "user"
                parts = [response(wanted, label, outputs[wanted], True) for wanted, label in turn]
                current = GeminiContentOut("user", parts)
                append(current)
        else:
            return None
    if owed or calls or not first_ok(contents):
        return None
    return contents, called, noted


def _dicts(items: list[Any], system: list[dict[str, str]]) -> tuple[list[Any], set[Any], bool] | None:
    """:func:`_wire` writing dicts (the dict API's), each branch its dicts straight (no check
    per item of which to build); ``last`` is the last content's parts."""
    contents: list[Any] = []
    append = contents.append
    called: set[Any] = set()  # every call id so far
    noted = False
    role: Any = None  # the role of the last content
    last: Any = None  # the last content's parts
    calls: Any = None
    named: Any = None
    owed: Any = None
    outputs: dict[Any, Any] = {}
    turn: Any = ()
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
                    last.append({"text": text})
                else:
                    role = "user"
                    last = [{"text": text}]
                    append({"role": "user", "parts": last})
            elif kind == "assistant":
                if calls is not None:
                    return None
                calls = ()
                if role == "model":
                    last.append({"text": text})
                else:
                    role = "model"
                    last = [{"text": text}]
                    append({"role": "model", "parts": last})
            elif kind == "system" or kind == "developer":
                calls = None
                if contents:
                    noted = True  # moved to systemInstruction
                system.append({"text": text})
            else:
                return None
        elif size == 4:  # {"type": "function_call", "call_id", "name", "arguments"}
            call_id, name, arguments = item["call_id"], item["name"], item["arguments"]
            if item["type"] != "function_call" or type(call_id) is not str or not call_id:
                return None
            if type(arguments) is not str or owed or call_id in called or type(name) is not str or not name:
                return None
            part = function_call(call_id, name, arguments, called, False)
            if part is None:
                return None
            if role == "model":  # the turn's text, or a model content before a system text
                last.append(part)
            else:
                role = "model"
                last = [part]
                append({"role": "model", "parts": last})
            if not calls:  # the turn's first call
                calls, named = call_id, name
            elif type(calls) is str:
                calls = [(calls, named), (call_id, name)]
            else:
                calls.append((call_id, name))
        elif size == 3 and item["type"] == "function_call_output":
            call_id, output = item["call_id"], item["output"]
            if type(output) is not str or type(call_id) is not str:
                return None
            noted = True  # the text result is wrapped as response.output (an info note)
            if calls:  # the call turn ends: its calls are answered next
                if type(calls) is str:  # one call: its one result
                    if call_id != calls:
                        return None
                    calls = None
                    role = "user"  # after a model content: a new one
                    answer = {"name": named, "id": call_id, "response": {"output": output}}
                    last = [{"functionResponse": answer}]
                    append({"role": "user", "parts": last})
                    continue
                turn, calls = calls, None
                owed = {call[0] for call in turn}
                outputs = {}
            if not owed or call_id not in owed:
                return None
            owed.discard(call_id)
            outputs[call_id] = output
            if not owed:  # the turn's results, in the order of its calls
                role = "user"
                last = [response(wanted, label, outputs[wanted], False) for wanted, label in turn]
                append({"role": "user", "parts": last})
        else:
            return None
    if owed or calls or not first_ok(contents):
        return None
    return contents, called, noted


def translate(p: Any, wire: bool) -> tuple[dict[str, Any], bool] | None:
    """The Gemini body the Responses request ``p`` translates to and whether the lane notes
    something for it (see the module docstring), or ``None``: not of that shape (the pair's
    lane then reads and writes it). ``wire``: the contents as Structs (the bytes API's)."""
    plain = fields(p)
    if plain is None:
        return None
    items = p.get("input")
    if type(items) is not list or not items:
        return None
    system: list[dict[str, str]] = []
    if "instructions" in p:
        instructions = p["instructions"]
        if type(instructions) is not str or not instructions:
            return None
        system.append({"text": instructions})
    try:
        found = _wire(items, system) if wire else _dicts(items, system)
    except KeyError:
        return None
    if found is None:
        return None
    contents, called, noted = found
    out = finish(plain, contents, system or None, bool(called), noted)
    return None if out is None else (out, plain.noted)
