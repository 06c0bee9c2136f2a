"""The Responses -> Chat pair in one pass: a plain Responses request straight to Chat (issue 18).

The pair of the OpenAI Agents SDK's converter (``items_to_messages``), so the one a gateway in
front of a Chat upstream runs most: its lane reads each ``input`` item and writes its Chat
message in the same loop, with no :class:`~toolwire._plain._form.Plain` and no turns between
(the reader and the writer each walk the conversation once, and the turns are a container per
message to build and free). :func:`translate` writes exactly what :func:`responses_read.read
<toolwire._plain.responses_read.read>` then :func:`chat_write.write
<toolwire._plain.chat_write.write>` write, or returns ``None`` when it is not sure of that:
anything it does not take goes to that lane (:func:`toolwire._plain.plain_lane`), which takes or
refuses it. It takes:

* the top-level fields ``model``, ``instructions``, ``input`` (a non-empty list),
  ``tools`` (function tools of five fields), ``tool_choice`` (a mode), ``max_output_tokens``
  and ``temperature``, each of the reader's shape and in the writer's ranges;
* untyped messages ``{"role", "content": "text"}`` (user, system, developer; assistant first in
  its turn); ``function_call`` items of a name Chat takes as it is, each call turn answered by
  its ``function_call_output`` items right after it (in any order, each call once).

The Chat messages are the writer's: an assistant message's ``content`` its text or ``null``,
its ``tool_calls`` in order, a call's empty arguments ``"{}"``; a result a ``tool`` message.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._plain._names import NameCheck

__all__ = ["translate"]

_TOP = frozenset(
    {"model", "instructions", "input", "tools", "tool_choice", "max_output_tokens", "temperature"}
)
_MODES = frozenset({"auto", "none", "required"})
_name_ok: Final = NameCheck("openai-chat")
_VALID: Final = _name_ok.valid


def _messages(items: list[Any], out: list[dict[str, Any]]) -> bool:
    """The Chat messages of ``items`` appended to ``out``, when each item is of the module's
    shape; raises ``KeyError`` for an item without a field its size requires.

    ``calls`` is the open assistant message's ``tool_calls`` (``None``: no assistant message
    open; a text message has none until its first call); ``owed`` the ids of its calls not yet
    answered, once its first result came."""
    append = out.append
    called: set[str] = set()  # every call id so far
    calls: Any = None
    turn: Any = None  # the open assistant message
    owed: Any = None
    for item in items:
        if type(item) is not dict:
            return False
        size = len(item)
        if size == 2:  # {"role", "content"}: the content a non-empty string
            text, role = item["content"], item["role"]
            if type(text) is not str or not text or owed or calls:
                return False
            if role == "assistant":
                if turn is not None:  # two texts in one turn
                    return False
                turn = {"role": "assistant", "content": text}
                append(turn)
            elif role == "user" or role == "system" or role == "developer":
                turn = None
                append({"role": role, "content": text})
            else:
                return False
        elif size == 4:  # {"type": "function_call", "call_id", "name", "arguments"}
            call_id, name, arguments = item["call_id"], item["name"], item["arguments"]
            if item["type"] != "function_call" or type(call_id) is not str or not call_id:
                return False
            if type(arguments) is not str or owed or call_id in called or type(name) is not str:
                return False
            if not name or (name not in _VALID and not _name_ok(name)):
                return False
            called.add(call_id)
            call = {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": arguments or "{}"},
            }
            if calls is None:
                calls = [call]
                if turn is None:  # a turn of calls only
                    turn = {"role": "assistant", "content": None, "tool_calls": calls}
                    append(turn)
                else:
                    turn["tool_calls"] = calls
            else:
                calls.append(call)
        elif size == 3 and item["type"] == "function_call_output":
            call_id, output = item["call_id"], item["output"]
            if type(output) is not str or type(call_id) is not str:
                return False
            if calls is not None:  # the call turn ends: its calls are answered next
                owed = {call["id"] for call in calls} if len(calls) > 1 else calls[0]["id"]
                calls = turn = None
            if type(owed) is str:
                if call_id != owed:
                    return False
                owed = None
            elif not owed or call_id not in owed:
                return False
            else:
                owed.discard(call_id)
            append({"role": "tool", "tool_call_id": call_id, "content": output})
        else:
            return False
    return not owed and not calls


def _tools(wire: Any, out: dict[str, Any]) -> bool:
    """The function tools of five fields written into ``out`` as Chat tools, when their names
    are distinct and Chat takes each as it is."""
    if type(wire) is not list or not wire:
        return False
    tools: list[dict[str, Any]] = []
    names: set[str] = set()
    for item in wire:
        if type(item) is not dict or len(item) != 5:
            return False
        kind, name, description = item["type"], item["name"], item["description"]
        parameters, strict = item["parameters"], item["strict"]
        if kind != "function" or type(description) is not str or type(parameters) is not dict:
            return False
        if type(strict) is not bool or type(name) is not str or not name or name in names:
            return False
        if name not in _VALID and not _name_ok(name):
            return False
        names.add(name)
        inner = {"name": name, "description": description, "parameters": parameters, "strict": strict}
        tools.append({"type": "function", "function": inner})
    out["tools"] = tools
    return True


def _rest(p: dict[str, Any], out: dict[str, Any]) -> bool:
    """``tools``, ``tool_choice``, ``max_output_tokens`` and ``temperature`` written into ``out``
    in the Chat writer's order, when each is of the module's shape."""
    if "tools" in p:
        try:
            if not _tools(p["tools"], out):
                return False
        except KeyError:
            return False
        if "tool_choice" in p:
            choice = p["tool_choice"]
            if type(choice) is not str or choice not in _MODES:
                return False
            out["tool_choice"] = choice
    elif "tool_choice" in p:
        return False
    if "max_output_tokens" in p:
        value = p["max_output_tokens"]
        if type(value) is not int or not value >= 1:
            return False
        out["max_completion_tokens"] = value
    if "temperature" in p:
        value = p["temperature"]
        if (type(value) is not int and type(value) is not float) or not 0 <= value <= 2:
            return False
        out["temperature"] = value
    return True


def translate(p: Any) -> dict[str, Any] | None:
    """The Chat request the Responses request ``p`` translates to (see the module docstring),
    or ``None``: not of that shape (the pair's lane then reads and writes it)."""
    if type(p) is not dict or not _TOP.issuperset(p):
        return None
    model, items = p.get("model"), p.get("input")
    if type(model) is not str or not model or type(items) is not list or not items:
        return None
    messages: list[dict[str, Any]] = []
    if "instructions" in p:
        instructions = p["instructions"]
        if type(instructions) is not str or not instructions:
            return None
        messages.append({"role": "system", "content": instructions})
    try:
        if not _messages(items, messages):
            return None
    except KeyError:
        return None
    out: dict[str, Any] = {"model": model, "messages": messages}
    return out if _rest(p, out) else None
