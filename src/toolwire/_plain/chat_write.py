"""The Chat Completions writer of the pair lanes: a :class:`Plain` as a Chat request (issue 18).

:func:`write` returns what the general path writes to ``openai-chat`` from another format for
the request a :class:`Plain` holds, key for key and in the same order, or ``None`` when it is not
sure of that (the general path then writes it, and makes the notes or raises the errors). It
writes nothing the general path would note, so it never sets ``noted``. The shape it takes:

* turns: system and developer messages anywhere, user messages, assistant messages (a text
  and / or function calls, never two in a row: the general path merges those), each call turn
  followed right away by the results of all its calls, each once; at least one turn;
* texts not empty (a result's output may be); call ids not empty, each used once; every tool
  and call name valid for Chat (the renaming pass would rewrite it);
* arguments as the source's JSON text (``""`` is sent as ``"{}"``) or an object, sent as compact
  JSON text;
* tools of distinct names; a tool choice and ``parallel_tool_calls`` only with tools, a named
  choice naming one of them;
* ``max_tokens`` an integer from 1, ``temperature`` from 0 to 2 and ``top_p`` from 0 to 1 (a value
  outside is moved and noted by the general path).

The payload: ``model``, ``messages``, ``tools``, ``tool_choice``, ``parallel_tool_calls``,
``max_completion_tokens``, ``temperature``, ``top_p``, ``stream``, ``user``, ``metadata``, each
when set.
:func:`write_wire` is the bytes API's: the same request with its messages as msgspec Structs
(:mod:`toolwire._plain._request_out`) that encode to the same bytes, built by a loop written
like the dict one (:func:`_wire_messages`).
"""

from __future__ import annotations

from typing import Any

from toolwire._json import _encoder
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain, write_passed
from toolwire._plain._names import NameCheck
from toolwire._plain._request_out import (
    ChatCallMessageOut,
    ChatFunctionOut,
    ChatMessageOut,
    ChatToolCallOut,
    ChatToolMessageOut,
)

__all__ = ["write", "write_wire"]

name_ok = NameCheck("openai-chat")
"""Whether a tool name is one Chat takes as it is (the renaming pass leaves it)."""
_MODES = frozenset({"auto", "none", "required"})
_encode = _encoder.encode


def _answers(results: Any, calls: Any) -> bool:
    """Whether ``results`` answer each of ``calls`` once (in any order)."""
    return len(results) == len(calls) and {result[0] for result in results} == {call[0] for call in calls}


def _calls(calls: Any, called: set[str], wire: bool = False) -> list[Any] | None:
    """The ``tool_calls`` of a turn's calls (their ids added to ``called``, the ids so far), as
    Structs under ``wire`` (the bytes API's)."""
    out: list[Any] = []
    valid = name_ok.valid
    for call_id, name, arguments in calls:
        if type(call_id) is not str or not call_id or call_id in called:
            return None
        if type(name) is not str or (name not in valid and not name_ok(name)):
            return None
        if type(arguments) is str:
            text = arguments or "{}"
        elif type(arguments) is dict:
            try:  # an object (Anthropic, Gemini) as compact JSON text: arguments_text inline
                text = _encode(arguments).decode()
            except Exception:
                return None  # too deep: the general path says so
        else:
            return None
        called.add(call_id)
        if wire:
            out.append(ChatToolCallOut(call_id, "function", ChatFunctionOut(name, text)))
        else:
            out.append({"id": call_id, "type": "function", "function": {"name": name, "arguments": text}})
    return out


def _messages(turns: list[tuple[Any, ...]]) -> list[dict[str, Any]] | None:
    """The Chat ``messages`` of a :class:`Plain`'s turns, when each is of the writer's shape.

    One loop over the turns (the hot loop of the lane: a branch per turn kind); a call turn's
    calls are ``pending`` until the next turn, which must answer them."""
    out: list[dict[str, Any]] = []
    append = out.append
    called: set[str] = set()  # every call id so far
    valid = name_ok.valid
    pending: Any = None  # the last turn's calls
    previous = -1  # the kind of the last turn
    for turn in turns:
        kind: int = turn[0]  # a turn kind: the readers make ints (typed: compiled, a C compare)
        if pending is not None:  # a call turn: its results come next
            if kind == RESULT:  # the one result, flat
                if type(pending[0]) is int:  # a flat CALL turn: its call id (no tuple made)
                    wanted = pending[1]
                elif len(pending) == 1:
                    wanted = pending[0][0]
                else:
                    return None
                if turn[1] != wanted or type(turn[2]) is not str:
                    return None
                append({"role": "tool", "tool_call_id": turn[1], "content": turn[2]})
                pending, previous = None, kind
                continue
            if type(pending[0]) is int:  # a flat CALL turn: its call
                pending = (pending[1:],)
            results = turn[1]
            if kind != RESULTS:
                return None
            if len(results) == 1 and len(pending) == 1:  # the common turn of one call, inline
                call_id, output = results[0]
                if call_id != pending[0][0] or type(output) is not str:
                    return None
                append({"role": "tool", "tool_call_id": call_id, "content": output})
            else:
                if not _answers(results, pending):
                    return None
                for call_id, output in results:
                    if type(output) is not str:
                        return None
                    append({"role": "tool", "tool_call_id": call_id, "content": output})
            pending = None
        elif kind == USER:
            text = turn[1]
            if type(text) is not str or not text:
                return None
            append({"role": "user", "content": text})
        elif kind == CALL:  # a turn of one call, flat (inline: the common turn below)
            _, call_id, name, arguments = turn
            if previous == ASSISTANT:
                return None  # two assistant turns in a row: the general path merges them
            new_id = type(call_id) is str and call_id and call_id not in called
            if new_id and type(name) is str and name in valid and type(arguments) is dict:
                try:  # an object (Anthropic, Gemini) as compact JSON text: arguments_text inline
                    arguments = _encode(arguments).decode()
                except Exception:
                    return None  # too deep: the general path says so
            if new_id and type(name) is str and name in valid and type(arguments) is str:
                called.add(call_id)
                function = {"name": name, "arguments": arguments or "{}"}
                wire = [{"id": call_id, "type": "function", "function": function}]
            else:
                found = _calls((turn[1:],), called)
                if found is None:
                    return None
                wire = found
            append({"role": "assistant", "content": None, "tool_calls": wire})
            pending = turn
        elif kind == ASSISTANT:
            _, text, calls = turn
            if previous == ASSISTANT or (text is not None and (type(text) is not str or not text)):
                return None  # two assistant turns in a row: the general path merges them
            if calls:
                call_id, name, arguments = calls[0]
                if (  # the common turn: one call of a name seen valid, arguments as text (inline)
                    len(calls) == 1
                    and type(call_id) is str
                    and call_id
                    and call_id not in called
                    and type(name) is str
                    and name in valid
                    and type(arguments) is str
                ):
                    called.add(call_id)
                    function = {"name": name, "arguments": arguments or "{}"}
                    wire = [{"id": call_id, "type": "function", "function": function}]
                else:  # any other turn, checked and written call by call
                    found = _calls(calls, called)
                    if found is None:
                        return None
                    wire = found
                append({"role": "assistant", "content": text, "tool_calls": wire})
                pending = calls
            elif text is None:
                return None
            else:
                append({"role": "assistant", "content": text})
        elif kind == SYSTEM:
            _, role, text = turn
            if (role != "system" and role != "developer") or type(text) is not str or not text:
                return None
            append({"role": role, "content": text})
        else:  # results after no call turn
            return None
        previous = kind
    return out if out and pending is None else None


def _wire_messages(turns: list[tuple[Any, ...]]) -> list[Any] | None:
    """:func:`_messages` with the messages as the Structs that encode as its dicts (the bytes
    API's: :mod:`toolwire._plain._request_out`), built at the same places."""
    out: list[Any] = []
    append = out.append
    called: set[str] = set()  # every call id so far
    valid = name_ok.valid
    pending: Any = None  # the last turn's calls
    previous = -1  # the kind of the last turn
    for turn in turns:
        kind: int = turn[0]  # a turn kind: the readers make ints (typed: compiled, a C compare)
        if pending is not None:  # a call turn: its results come next
            if kind == RESULT:  # the one result, flat
                if type(pending[0]) is int:  # a flat CALL turn: its call id (no tuple made)
                    wanted = pending[1]
                elif len(pending) == 1:
                    wanted = pending[0][0]
                else:
                    return None
                if turn[1] != wanted or type(turn[2]) is not str:
                    return None
                append(ChatToolMessageOut("tool", turn[1], turn[2]))
                pending, previous = None, kind
                continue
            if type(pending[0]) is int:  # a flat CALL turn: its call
                pending = (pending[1:],)
            results = turn[1]
            if kind != RESULTS:
                return None
            if len(results) == 1 and len(pending) == 1:  # the common turn of one call, inline
                call_id, output = results[0]
                if call_id != pending[0][0] or type(output) is not str:
                    return None
                append(ChatToolMessageOut("tool", call_id, output))
            else:
                if not _answers(results, pending):
                    return None
                for call_id, output in results:
                    if type(output) is not str:
                        return None
                    append(ChatToolMessageOut("tool", call_id, output))
            pending = None
        elif kind == USER:
            text = turn[1]
            if type(text) is not str or not text:
                return None
            append(ChatMessageOut("user", text))
        elif kind == CALL:  # a turn of one call, flat (inline: the common turn below)
            _, call_id, name, arguments = turn
            if previous == ASSISTANT:
                return None  # two assistant turns in a row: the general path merges them
            new_id = type(call_id) is str and call_id and call_id not in called
            if new_id and type(name) is str and name in valid and type(arguments) is dict:
                try:  # an object (Anthropic, Gemini) as compact JSON text: arguments_text inline
                    arguments = _encode(arguments).decode()
                except Exception:
                    return None  # too deep: the general path says so
            if new_id and type(name) is str and name in valid and type(arguments) is str:
                called.add(call_id)
                function = ChatFunctionOut(name, arguments or "{}")
                wire = [ChatToolCallOut(call_id, "function", function)]
            else:
                found = _calls((turn[1:],), called, True)
                if found is None:
                    return None
                wire = found
            append(ChatCallMessageOut("assistant", None, wire))
            pending = turn
        elif kind == ASSISTANT:
            _, text, calls = turn
            if previous == ASSISTANT or (text is not None and (type(text) is not str or not text)):
                return None  # two assistant turns in a row: the general path merges them
            if calls:
                call_id, name, arguments = calls[0]
                if (  # the common turn: one call of a name seen valid, arguments as text (inline)
                    len(calls) == 1
                    and type(call_id) is str
                    and call_id
                    and call_id not in called
                    and type(name) is str
                    and name in valid
                    and type(arguments) is str
                ):
                    called.add(call_id)
                    function = ChatFunctionOut(name, arguments or "{}")
                    wire = [ChatToolCallOut(call_id, "function", function)]
                else:  # any other turn, checked and written call by call
                    found = _calls(calls, called, True)
                    if found is None:
                        return None
                    wire = found
                append(ChatCallMessageOut("assistant", text, wire))
                pending = calls
            elif text is None:
                return None
            else:
                append(ChatMessageOut("assistant", text))
        elif kind == SYSTEM:
            _, role, text = turn
            if (role != "system" and role != "developer") or type(text) is not str or not text:
                return None
            append(ChatMessageOut(role, text))
        else:  # results after no call turn
            return None
        previous = kind
    return out if out and pending is None else None


def _tools(tools: Any) -> tuple[list[dict[str, Any]], set[str]] | None:
    """The Chat ``tools`` and their names (distinct and valid), else ``None``."""
    out: list[dict[str, Any]] = []
    names: set[str] = set()
    valid = name_ok.valid
    for name, description, parameters, strict in tools:
        if type(name) is not str or (name not in valid and not name_ok(name)) or name in names:
            return None
        names.add(name)
        if description is not None and parameters is not None and strict is not None:  # the common tool
            common = {"name": name, "description": description, "parameters": parameters, "strict": strict}
            out.append({"type": "function", "function": common})
            continue
        inner: dict[str, Any] = {"name": name}
        if description is not None:
            inner["description"] = description
        if parameters is not None:
            inner["parameters"] = parameters
        if strict is not None:
            inner["strict"] = strict
        out.append({"type": "function", "function": inner})
    return out, names


def _choice(choice: Any, names: set[str]) -> Any:
    """The Chat ``tool_choice`` of a mode or a named tool of ``names``, else ``None``."""
    if type(choice) is str:
        return choice if choice in _MODES else None
    if type(choice) is tuple and len(choice) == 2 and choice[0] == "tool" and choice[1] in names:
        return {"type": "function", "function": {"name": choice[1]}}
    return None


def _tool_fields(plain: Plain, out: dict[str, Any]) -> bool:
    """``tools``, ``tool_choice`` and ``parallel_tool_calls`` written into ``out``, when plain."""
    tools = plain.tools
    if not tools:  # none or [] (nothing to write; a choice would be dropped, noted)
        return tools is None and plain.choice is None and plain.parallel is None
    found = _tools(tools)
    if found is None:
        return False
    out["tools"] = found[0]
    if plain.choice is not None:
        choice = _choice(plain.choice, found[1])
        if choice is None:
            return False
        out["tool_choice"] = choice
    if plain.parallel is not None:
        out["parallel_tool_calls"] = plain.parallel
    return True


def _number(value: Any, low: int, high: int | None, integer: bool) -> bool:
    """Whether Chat takes a number field's ``value`` as it is: an integer (a float too unless
    ``integer``) from ``low`` to ``high`` (``None``: no upper bound); else the general path moves
    it, noted."""
    kind = type(value)
    if (kind is not int and (kind is not float or integer)) or not low <= value:
        return False
    return high is None or bool(value <= high)


def _numbers(plain: Plain, out: dict[str, Any]) -> bool:
    """``max_tokens``, ``temperature`` and ``top_p`` written into ``out`` when Chat takes each as
    it is (an integer token count; a number in range), each read straight (most are unset)."""
    value: Any = plain.max_tokens
    if value is not None:
        if not _number(value, 1, None, True):
            return False
        out["max_completion_tokens"] = value
    value = plain.temperature
    if value is not None:
        if not _number(value, 0, 2, False):
            return False
        out["temperature"] = value
    value = plain.top_p
    if value is not None:
        if not _number(value, 0, 1, False):
            return False
        out["top_p"] = value
    return True


def write(plain: Plain, wire: bool = False) -> dict[str, Any] | None:
    """The Chat request of ``plain`` (see the module docstring), exactly what the general path
    writes for it, or ``None``. ``wire``: the messages as Structs that encode to the same JSON
    (:func:`write_wire`)."""
    messages = _wire_messages(plain.turns) if wire else _messages(plain.turns)
    if messages is None:
        return None
    out: dict[str, Any] = {}
    if plain.model is not None:
        out["model"] = plain.model
    out["messages"] = messages
    if not _tool_fields(plain, out) or not _numbers(plain, out):
        return None
    write_passed(plain, out)
    return out


def write_wire(plain: Plain) -> dict[str, Any] | None:
    """:func:`write` with the messages as Structs that encode to the same JSON (the bytes API's
    writer: :mod:`toolwire._plain._request_out`)."""
    return write(plain, True)
