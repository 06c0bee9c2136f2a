"""The Chat Completions reader of the pair lanes: a Chat request as a :class:`Plain` (issue 18).

:func:`read` returns the :class:`Plain` of a Chat request of the shape below, what the Chat
decoder (``formats/openai_chat``, its fast lane ``_decode_fast``) makes of it with no note, or
``None`` for any other request (the general path then translates it):

* top-level fields: ``model`` (a non-empty string; else the caller's), ``messages`` (a non-empty
  list of the messages below), ``tools`` (a non-empty list of function tools),
  ``tool_choice`` (a mode, or a named function tool of ``tools``), ``parallel_tool_calls`` (a
  boolean, with tools), ``max_completion_tokens`` or ``max_tokens`` (an integer; not both),
  ``temperature`` and ``top_p`` (numbers), ``stream``, ``user``, ``metadata`` (a boolean, a
  string, an object); no ``null``;
* ``{"role", "content": "text"}`` of a system, developer, user or assistant message, the text
  not empty (system and developer messages anywhere);
* an assistant ``{"role", "content", "tool_calls"}``, the content ``null`` or a non-empty string,
  the calls a non-empty list of ``{"id", "type": "function", "function": {"name", "arguments"}}``
  with string values, the ids not empty and each used once, the names not empty; never right
  after another assistant message (the general path merges those);
* right after a call turn, one ``{"role": "tool", "tool_call_id", "content": "text"}`` per call,
  in the order of the calls (a Gemini target reorders others), the text not empty;
* function tools ``{"type": "function", "function": {"name", "description"?, "parameters"?,
  "strict"?}}`` of distinct non-empty names, a string description, a non-empty object of
  parameters, a boolean ``strict``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Call, Plain, Result, Tool

__all__ = ["fields", "read", "read_call", "read_result"]

_TOP = frozenset(
    {
        *("model", "messages", "tools", "tool_choice", "parallel_tool_calls"),
        *("max_tokens", "max_completion_tokens", "temperature", "top_p", "stream", "user", "metadata"),
    }
)
_MODES = frozenset({"auto", "none", "required"})
_FUNCTION_KEYS = frozenset({"name", "description", "parameters", "strict"})


def _call_turn(content: Any, wire: Any, called: set[str]) -> tuple[Any, ...] | None:
    """The turn of ``{"role": "assistant", "content", "tool_calls"}`` (its call ids added to
    ``called``, the ids so far), else ``None``: each call ``{"id", "type": "function",
    "function": {"name", "arguments"}}``, strings, a new non-empty id, a non-empty name."""
    if (content is not None and (type(content) is not str or not content)) or type(wire) is not list:
        return None
    if not wire:
        return None
    calls: list[Call] = []
    for item in wire:
        call = read_call(item, called)
        if call is None:
            return None
        called.add(call[0])
        calls.append(call)
    return ASSISTANT, content, tuple(calls)


def read_call(item: Any, called: set[str]) -> Call | None:
    """The call of a ``tool_calls`` entry: ``{"type": "function", "id", "function": {"name",
    "arguments"}}``, strings, an id not in ``called``, a non-empty name; else ``None``. Its
    fields are read by subscript: raises ``KeyError`` for one missing (another key in its place)."""
    if type(item) is not dict or len(item) != 3 or item["type"] != "function":
        return None
    inner, call_id = item["function"], item["id"]
    if type(inner) is not dict or len(inner) != 2 or type(call_id) is not str or not call_id:
        return None
    name, arguments = inner["name"], inner["arguments"]
    if type(name) is not str or not name or type(arguments) is not str or call_id in called:
        return None
    return call_id, name, arguments


def read_result(item: Any, call_id: str) -> Result | None:
    """``{"role": "tool", "tool_call_id": call_id, "content": "text"}`` as a :data:`Result`
    (raises ``KeyError`` for a field missing, as :func:`read_call`)."""
    if type(item) is not dict or len(item) != 3 or item["tool_call_id"] != call_id:
        return None
    content = item["content"]
    if item["role"] != "tool" or type(content) is not str or not content:
        return None
    return call_id, content


def _results(turn: tuple[Any, ...], messages: Iterator[Any]) -> tuple[Any, ...] | None:
    """The results turn of the call turn ``turn``: the next messages, one result per call in the
    calls' order, taken from ``messages``; else ``None``."""
    results = []
    for call in turn[2]:
        result = read_result(next(messages, None), call[0])
        if result is None:
            return None
        results.append(result)
    return RESULTS, tuple(results)


def _turns(messages: list[Any]) -> list[tuple[Any, ...]] | None:
    """The turns of a ``messages`` list when every message is of the reader's shape (see
    :func:`_read_turns`, which raises ``KeyError`` for a message missing a field its size
    requires)."""
    try:
        return _read_turns(messages)
    except KeyError:
        return None


def _read_turns(messages: list[Any]) -> list[tuple[Any, ...]] | None:
    """:func:`_turns`: one loop over the messages (the hot loop of the lane: a branch per shape);
    a call turn takes its results, the messages right after it, from the same iterator. A
    message's size says which fields it has (two: ``role`` and ``content``; three: an assistant
    message with ``tool_calls``), so they are read by subscript (one missing: another key in its
    place, not plain: ``KeyError``); the turn of one call and its one result, the common one, is
    read inline (flat: a CALL turn when there is no text, a RESULT)."""
    turns: list[tuple[Any, ...]] = []
    append = turns.append
    called: set[str] = set()  # every call id so far
    previous = -1  # the kind of the last turn
    items = iter(messages)
    for item in items:
        if type(item) is not dict:
            return None
        size = len(item)
        if size == 2:
            role, content = item["role"], item["content"]
            if type(content) is not str or not content:
                return None
            if role == "user":
                previous = USER
                append((USER, content))
            elif role == "assistant" and previous != ASSISTANT:
                previous = ASSISTANT
                append((ASSISTANT, content, ()))
            elif role == "system" or role == "developer":
                previous = SYSTEM
                append((SYSTEM, role, content))
            else:
                return None
            continue
        if size != 3 or previous == ASSISTANT:
            return None
        role, content, wire = item["role"], item["content"], item["tool_calls"]
        if role != "assistant" or (content is not None and (type(content) is not str or not content)):
            return None
        if type(wire) is list and len(wire) == 1:  # the common turn: one call, then its result
            call = wire[0]
            if type(call) is not dict or len(call) != 3 or call["type"] != "function":
                return None
            inner, call_id = call["function"], call["id"]
            if type(inner) is not dict or len(inner) != 2 or type(call_id) is not str or not call_id:
                return None
            name, arguments = inner["name"], inner["arguments"]
            if type(name) is not str or not name or type(arguments) is not str or call_id in called:
                return None
            result = next(items, None)
            if type(result) is not dict or len(result) != 3 or result["tool_call_id"] != call_id:
                return None
            output = result["content"]
            if result["role"] != "tool" or type(output) is not str or not output:
                return None
            called.add(call_id)
            append(
                (CALL, call_id, name, arguments)
                if content is None
                else (ASSISTANT, content, ((call_id, name, arguments),))
            )
            append((RESULT, call_id, output))
            previous = RESULTS
            continue
        turn = _call_turn(content, wire, called)
        if turn is None:
            return None
        results = _results(turn, items)
        if results is None:
            return None
        append(turn)
        append(results)
        previous = RESULTS
    return turns


def _tools(wire: Any) -> list[Tool] | None:
    """The plain function tools of ``tools`` (distinct names), else ``None``. A tool of every
    field (``function`` of four keys), the common one, is read by subscript (four keys, one
    missing: an unknown key, not plain: ``KeyError``); any other key by key."""
    if type(wire) is not list or not wire:
        return None
    out: list[Tool] = []
    names: set[str] = set()
    try:
        for item in wire:
            if type(item) is not dict or len(item) != 2 or item["type"] != "function":
                return None
            inner = item["function"]
            if type(inner) is not dict:
                return None
            if len(inner) == 4:
                name, description = inner["name"], inner["description"]
                parameters, strict = inner["parameters"], inner["strict"]
                if type(description) is not str or type(parameters) is not dict or not parameters:
                    return None
                if type(strict) is not bool:
                    return None
            elif len(inner) == 3 and "name" in inner and "description" in inner and "parameters" in inner:
                name, description = inner["name"], inner["description"]  # the common tool without strict
                parameters, strict = inner["parameters"], None
                if type(description) is not str or type(parameters) is not dict or not parameters:
                    return None
            else:
                if not _FUNCTION_KEYS.issuperset(inner):
                    return None
                name, description = inner.get("name"), inner.get("description")
                parameters, strict = inner.get("parameters"), inner.get("strict")
                if (description is not None or "description" in inner) and type(description) is not str:
                    return None
                if (parameters is not None or "parameters" in inner) and (
                    type(parameters) is not dict or not parameters
                ):
                    return None
                if (strict is not None or "strict" in inner) and type(strict) is not bool:
                    return None
            if type(name) is not str or not name or name in names:
                return None
            names.add(name)
            out.append((name, description, parameters, strict))
    except KeyError:
        return None
    return out


def _choice(value: Any, tools: list[Tool]) -> str | tuple[str, str] | None:
    """A mode, or ``("tool", name)`` of a named function tool of ``tools``, else ``None``."""
    if type(value) is str:
        return value if value in _MODES else None
    if type(value) is not dict or len(value) != 2 or value.get("type") != "function":
        return None
    inner = value.get("function")
    if type(inner) is not dict or len(inner) != 1:
        return None
    name = inner.get("name")
    if type(name) is not str or not any(tool[0] == name for tool in tools):
        return None
    return "tool", name


def _tool_fields(p: dict[str, Any], plain: Plain) -> bool:
    """``tools``, ``tool_choice`` and ``parallel_tool_calls`` read into ``plain``, when plain."""
    if "tools" not in p:
        return "tool_choice" not in p and "parallel_tool_calls" not in p
    tools = _tools(p["tools"])
    if tools is None:
        return False
    plain.tools = tools
    if "tool_choice" in p:
        choice = _choice(p["tool_choice"], tools)
        if choice is None:
            return False
        plain.choice = choice
    if "parallel_tool_calls" in p:
        parallel = p["parallel_tool_calls"]
        if type(parallel) is not bool:
            return False
        plain.parallel = parallel
    return True


def _numbers(p: dict[str, Any], plain: Plain) -> bool:
    """The output limit (one field of the two) and the sampling numbers read into ``plain``."""
    if "max_completion_tokens" in p:
        if "max_tokens" in p:
            return False  # both: the legacy one is kept as an extra field
        limit = p["max_completion_tokens"]
    else:
        limit = p.get("max_tokens")
    if limit is not None:
        if type(limit) is not int:
            return False
        plain.max_tokens = limit
    value = p.get("temperature")  # each straight (a loop of setattr costs more)
    if value is not None:
        if type(value) is not int and type(value) is not float:
            return False
        plain.temperature = value
    value = p.get("top_p")
    if value is not None:
        if type(value) is not int and type(value) is not float:
            return False
        plain.top_p = value
    return True


def fields(payload: Any, model: str | None) -> Plain | None:
    """The :class:`Plain` of a Chat request ``payload`` of the module docstring's shape but its
    messages (checked a non-empty list, not read: no turns), else ``None``: what the one passes
    (:mod:`~toolwire._plain.chat_anthropic`, :mod:`~toolwire._plain.chat_gemini`) take of the
    reader."""
    if type(payload) is not dict or not _TOP.issuperset(payload) or None in payload.values():
        return None
    messages = payload.get("messages")
    if type(messages) is not list or not messages:
        return None
    if "model" in payload:
        given = payload["model"]  # untyped: compiled, a str local would refuse another type itself
        if type(given) is not str or not given:
            return None
        model = given
    plain = Plain(model, [])
    if not _tool_fields(payload, plain) or not _numbers(payload, plain):
        return None
    if "stream" in payload:  # the fields read as they are, each straight
        stream = payload["stream"]
        if type(stream) is not bool:
            return None
        plain.stream = stream
    if "user" in payload:
        user = payload["user"]
        if type(user) is not str:
            return None
        plain.user = user
    if "metadata" in payload:
        metadata = payload["metadata"]
        if type(metadata) is not dict:
            return None
        plain.metadata = metadata
    return plain


def read(payload: Any, model: str | None) -> Plain | None:
    """The :class:`Plain` of the Chat request ``payload`` (``model``: the caller's, used when the
    body has none), or ``None`` when it is not of the reader's shape (see the module docstring)."""
    plain = fields(payload, model)
    if plain is None:
        return None
    turns = _turns(payload["messages"])
    if turns is None:
        return None
    plain.turns = turns
    return plain
