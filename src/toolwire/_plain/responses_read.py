"""The OpenAI Responses reader of the pair lanes (see :mod:`toolwire._plain._form`).

The shape it reads (anything else returns ``None``, and the general path runs):

* top-level fields: ``model`` (a non-empty string), ``instructions`` (a non-empty string),
  ``input`` (a non-empty string, or a non-empty list of the items below), ``tools`` (a non-empty
  list of function tools), ``tool_choice`` (a mode, or a named function tool of ``tools``),
  ``parallel_tool_calls`` (a boolean, with tools), ``max_output_tokens`` (an integer from 1),
  ``temperature`` (from 0 to 2), ``top_p`` (from 0 to 1), ``stream``, ``user``, ``metadata`` (a
  boolean, a string, an object), ``include: []``;
* user, system and developer messages: ``{"role", "content": "text"}``, or a ``message`` item
  with one ``input_text`` / ``output_text`` part (``{"type", "text"}``), non-empty text;
* assistant messages of the same two shapes, each the first item of its turn (the IR holds a
  turn's text before its calls);
* ``function_call`` items ``{"type", "call_id", "name", "arguments"}`` (strings; a call id used
  once), and after a turn's calls, ``function_call_output`` items ``{"type", "call_id",
  "output"}`` (strings) answering each of them once, before anything else;
* function tools ``{"type", "name", "description"?, "parameters"?, "strict"?}`` of distinct names.
"""

from __future__ import annotations

from typing import Any

from toolwire._plain._form import (
    ASSISTANT,
    CALL,
    RESULT,
    RESULTS,
    SYSTEM,
    USER,
    Plain,
    Result,
    Tool,
    read_numbers,
)

__all__ = ["fields", "read"]

_TOP = frozenset(
    {
        *("model", "instructions", "input", "tools", "tool_choice", "parallel_tool_calls", "include"),
        *("max_output_tokens", "temperature", "top_p", "stream", "user", "metadata"),
    }
)
_TOOL_KEYS = frozenset({"type", "name", "description", "parameters", "strict"})
_TOOL_TYPES = (("description", str), ("parameters", dict), ("strict", bool))
_MODES = frozenset({"auto", "none", "required"})
_NAMED_CHOICE = frozenset({"type", "name"})


def _typed_text(item: dict[str, Any], content: Any) -> str | None:
    """The text of a ``message`` item of one text part, else ``None``."""
    if len(item) != 3 or item.get("type") != "message" or type(content) is not list or len(content) != 1:
        return None
    part = content[0]
    if type(part) is not dict or len(part) != 2:
        return None
    kind, text = part.get("type"), part.get("text")
    if kind != "input_text" and kind != "output_text":
        return None
    return text if type(text) is str else None


def _items(items: list[Any], turns: list[tuple[Any, ...]]) -> bool:
    """Whether every item of an ``input`` list is of the reader's shape (then its turns are
    appended to ``turns``). One loop over the items, the hot loop of the lane: a branch per kind,
    the untyped message (``{"role", "content"}``) first, no call and no set for a turn of one call;
    an item's fields are read by subscript once its size says which it must have (a missing one
    raises ``KeyError``: not plain).

    ``calls`` is the open assistant turn's calls (``None``: none open; ``()`` for a text turn
    until its first call, the turn itself for a flat CALL turn until its second, else a list of
    them); ``results`` the results of the last turn of more calls, of which ``owed`` are still to
    come, their ids ``ids`` (a turn of one call has its one result, a flat RESULT, written at
    once)."""
    try:
        return _read_items(items, turns)
    except KeyError:
        return False


def _read_items(items: list[Any], turns: list[tuple[Any, ...]]) -> bool:
    """:func:`_items`, raising ``KeyError`` for an item without a field its size requires. An
    item's size says what it can be (two keys: an untyped message; three: a typed message or a
    result; four: a call), so the untyped message, the most common item, is read without a look
    at ``type``."""
    append = turns.append
    called: set[str] = set()  # every call id so far
    calls: Any = None  # see _items
    results: list[Result] = []
    owed = 0
    ids: set[str] = called  # the ids still owed (read only while some are)
    for item in items:
        if type(item) is not dict:
            return False
        size = len(item)
        if size == 2:  # {"role", "content"}: the content a non-empty string
            text, role = item["content"], item["role"]
        elif size == 4:  # {"type": "function_call", "call_id", "name", "arguments"}
            call_id, name, arguments = item["call_id"], item["name"], item["arguments"]
            if item["type"] != "function_call" or type(call_id) is not str or not call_id:
                return False
            if type(arguments) is not str or owed or call_id in called or type(name) is not str or not name:
                return False
            called.add(call_id)
            if calls is None:  # a turn of calls only: its first call, a flat CALL turn (its calls)
                calls = (CALL, call_id, name, arguments)
                append(calls)
            elif type(calls) is tuple:  # the first call of a text turn, or the second call of a turn
                text = turns[-1][1] if calls == () else None
                calls = [calls[1:]] if calls else []
                calls.append((call_id, name, arguments))
                turns[-1] = (ASSISTANT, text, calls)
            else:
                calls.append((call_id, name, arguments))
            continue
        elif size != 3:
            return False
        elif item["type"] == "function_call_output":
            call_id, output = item["call_id"], item["output"]
            if type(output) is not str or type(call_id) is not str:
                return False
            if calls is not None:  # the call turn ends: its calls are answered next
                if type(calls) is tuple and calls:  # a flat CALL turn: its one result, at once
                    if call_id != calls[1]:
                        return False
                    calls = None
                    append((RESULT, call_id, output))
                    continue
                if len(calls) == 1:  # a text turn of one call: its one result, at once
                    if call_id != calls[0][0]:
                        return False
                    calls = None
                    append((RESULT, call_id, output))
                    continue
                owed, ids = len(calls), {call[0] for call in calls}  # none for a text turn: refused below
                calls = None
                results = []
                append((RESULTS, results))
            if not owed or call_id not in ids:
                return False
            ids.discard(call_id)
            owed -= 1
            results.append((call_id, output))
            continue
        else:  # a typed message, else not plain (_typed_text checks the type)
            text, role = _typed_text(item, item["content"]), item["role"]
        if type(text) is not str or not text or owed or calls:
            return False
        if role == "user":
            calls = None
            append((USER, text))
        elif role == "assistant":
            if calls is not None:  # two texts in one turn
                return False
            calls = ()
            append((ASSISTANT, text, calls))
        elif role == "system" or role == "developer":
            calls = None
            append((SYSTEM, role, text))
        else:
            return False
    return not owed and not calls


def _turns(p: dict[str, Any]) -> list[tuple[Any, ...]] | None:
    turns: list[tuple[Any, ...]] = []
    if "instructions" in p:
        instructions = p["instructions"]
        if type(instructions) is not str or not instructions:
            return None
        turns.append((SYSTEM, "system", instructions))
    value = p.get("input")
    if type(value) is str and value:
        turns.append((USER, value))
    elif type(value) is not list or not value or not _items(value, turns):
        return None
    return turns


def _tools(wire: Any) -> list[Tool] | None:
    """The function tools of ``tools``, when each is plain and their names distinct. The common
    tool has five keys, every field: read by subscript (five keys but one missing: an unknown key,
    not plain), each field's type checked; any other size is checked key by key."""
    if type(wire) is not list or not wire:
        return None
    out: list[Tool] = []
    names: set[str] = set()
    for item in wire:
        if type(item) is not dict:
            return None
        if len(item) == 5:
            try:
                kind, name, description = item["type"], item["name"], item["description"]
                parameters, strict = item["parameters"], item["strict"]
            except KeyError:
                return None
            if kind != "function" or type(description) is not str or type(parameters) is not dict:
                return None
            if type(strict) is not bool or type(name) is not str or not name or name in names:
                return None
        else:
            if item.get("type") != "function" or not _TOOL_KEYS.issuperset(item):
                return None
            name = item.get("name")
            if type(name) is not str or not name or name in names:
                return None
            for key, wanted in _TOOL_TYPES:
                if key in item and type(item[key]) is not wanted:
                    return None
            description, parameters = item.get("description"), item.get("parameters")
            strict = item.get("strict")
        names.add(name)
        out.append((name, description, parameters, strict))
    return out


def _choice(value: Any, tools: list[Tool]) -> str | tuple[str, str] | None:
    """The :class:`Plain` choice of a mode or a named function tool of ``tools``, else ``None``."""
    if type(value) is str:
        return value if value in _MODES else None
    if type(value) is dict and value.keys() == _NAMED_CHOICE and value["type"] == "function":
        name = value["name"]
        if type(name) is str and any(tool[0] == name for tool in tools):
            return ("tool", name)
    return None


def _tool_fields(p: dict[str, Any], plain: Plain) -> bool:
    """``tools``, ``tool_choice`` and ``parallel_tool_calls`` read into ``plain``, when plain."""
    wire = p.get("tools")
    if wire is None:
        return "tools" not in p and "tool_choice" not in p and "parallel_tool_calls" not in p
    tools = plain.tools = _tools(wire)
    if tools is None:
        return False
    if "tool_choice" in p:
        plain.choice = _choice(p["tool_choice"], tools)
        if plain.choice is None:
            return False
    if "parallel_tool_calls" in p:
        parallel = p["parallel_tool_calls"]
        if type(parallel) is not bool:
            return False
        plain.parallel = parallel
    return True


def _after(p: dict[str, Any], plain: Plain) -> bool:
    """``stream``, ``user`` and ``metadata`` read into ``plain`` as they are, each straight."""
    if "stream" in p:
        stream = p["stream"]
        if type(stream) is not bool:
            return False
        plain.stream = stream
    if "user" in p:
        user = p["user"]
        if type(user) is not str:
            return False
        plain.user = user
    if "metadata" in p:
        metadata = p["metadata"]
        if type(metadata) is not dict:
            return False
        plain.metadata = metadata
    return True


def fields(p: Any) -> Plain | None:
    """The :class:`Plain` of a Responses request ``p`` of the module docstring's shape but its
    conversation (``instructions`` and ``input`` not read: no turns), else ``None``: what the
    one passes (:mod:`~toolwire._plain.responses_anthropic`, ...) take of the reader."""
    if type(p) is not dict or not _TOP.issuperset(p):
        return None
    name = p.get("model")
    if type(name) is not str or not name or ("include" in p and p["include"] != []):
        return None
    plain = Plain(name, [])
    if _tool_fields(p, plain) and read_numbers(p, plain, "max_output_tokens", 1, 2) and _after(p, plain):
        return plain
    return None


def read(p: Any, model: str | None) -> Plain | None:
    """The :class:`Plain` of a Responses request ``p`` of the module docstring's shape, else
    ``None`` (``model``: the caller's model name, unused: a Responses request names its own)."""
    plain = fields(p)
    if plain is None:
        return None
    turns = _turns(p)
    if turns is None:
        return None
    plain.turns = turns
    return plain
