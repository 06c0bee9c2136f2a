"""The OpenAI Responses writer of the pair lanes: a :class:`Plain` as a Responses request (issue 18).

:func:`write` returns exactly what the general path (``encode_request`` of
:mod:`toolwire.formats.openai_responses` after the IR passes) writes for a request of another
format that reads to the :class:`Plain`, key order included, or ``None`` when it cannot be sure
(then the general path runs). What it writes, in the encoder's key order:

* ``model`` (a ``None`` model is left out, noted: Responses requires one; an empty name: ``None``);
* ``instructions``: the text of the first turn when it is a ``system`` message (a ``developer``
  message, or a system message later on, stays an ``input`` message: Responses takes them
  anywhere, so no order is lost);
* ``input``: the other turns as items: ``{"role", "content": "text"}`` for system, developer,
  user and assistant text, then an assistant turn's calls as ``function_call`` items
  ``{"type", "call_id", "name", "arguments"}`` (JSON text as it came; an object of an Anthropic
  or Gemini source as compact JSON text) and results as ``function_call_output`` items
  ``{"type", "call_id", "output"}``; an empty text (no part in the IR) or an assistant turn of
  neither text nor calls: ``None``;
* ``tools``: function tools ``{"type", "name", "description"?, "parameters", "strict"}``; a
  missing ``parameters`` is an empty object schema and a missing ``strict`` is ``false``
  (Responses defaults to strict), both noted; two tools of one name: ``None`` (refused);
* ``tool_choice``: a mode as it is, a named tool as ``{"type": "function", "name"}`` (a name that
  is not a tool's: ``None``, refused), and ``parallel_tool_calls``; without tools, both are left
  out, noted;
* ``max_output_tokens``, ``temperature``, ``top_p``: outside Responses' ranges (at least 16
  tokens; 0-2; 0-1) moved to the nearest bound by :func:`toolwire.formats._ranges.fit`, noted;
* ``stream``, ``user``, ``metadata`` as they are.

Every tool name, and the name of every call, must be valid for Responses (the renaming pass
would rewrite it otherwise): ``None``. Call ids are sent as they are (Responses has no id rule).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._json import _encoder
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain, write_passed
from toolwire._plain._names import NameCheck
from toolwire.formats._ranges import RANGES, fit
from toolwire.ir.notes import Notes

__all__ = ["call_item", "finish", "write"]

FORMAT: Final = "openai-responses"
_name_ok = NameCheck(FORMAT)
"""Whether a tool name is one Responses takes as it is (nothing renamed)."""
_VALID = _name_ok.valid
_MODES = frozenset({"auto", "none", "required"})
_NUMBERS = (("max_tokens", "max_output_tokens"), ("temperature", "temperature"), ("top_p", "top_p"))
"""Plain field (the IR's) -> Responses field, in the encoder's order."""
_RANGES = RANGES[FORMAT]
_encode: Final = _encoder.encode


def _items(turns: list[tuple[Any, ...]], start: int) -> list[dict[str, Any]] | None:
    """The ``input`` items of ``turns`` from ``start``, or ``None`` (a turn the lane does not write)."""
    items: list[dict[str, Any]] = []
    append = items.append
    for index in range(start, len(turns)):
        turn = turns[index]
        kind: int = turn[0]  # a turn kind: the readers make ints (typed: compiled, a C compare)
        if kind == USER:
            text = turn[1]
            if not text:  # an empty text is no part in the IR: the general path writes [] or nothing
                return None
            append({"role": "user", "content": text})
        elif kind == ASSISTANT:
            text, calls = turn[1], turn[2]
            if text:
                append({"role": "assistant", "content": text})
            elif text is not None or not calls:
                return None
            for call_id, name, arguments in calls:
                item = call_item(call_id, name, arguments)
                if item is None:
                    return None
                append(item)
        elif kind == RESULT:
            append({"type": "function_call_output", "call_id": turn[1], "output": turn[2]})
        elif kind == CALL:  # a turn of one call, flat
            item = call_item(turn[1], turn[2], turn[3])
            if item is None:
                return None
            append(item)
        elif kind == RESULTS:
            for call_id, output in turn[1]:
                append({"type": "function_call_output", "call_id": call_id, "output": output})
        elif kind == SYSTEM:
            text = turn[2]
            if not text:
                return None
            append({"role": turn[1], "content": text})
        else:
            return None
    return items


def call_item(call_id: Any, name: Any, arguments: Any) -> dict[str, Any] | None:
    """A ``function_call`` input item (the arguments as text), or ``None`` for a name the general
    path renames or arguments it writes otherwise: one call of an assistant turn, nested or flat."""
    if name not in _VALID and not _name_ok(name):
        return None
    if type(arguments) is dict:
        try:  # an object (Anthropic) as compact JSON text: arguments_text inline
            arguments = _encode(arguments).decode()
        except Exception:
            return None  # too deep: the general path says so
    elif type(arguments) is not str:
        return None
    return {"type": "function_call", "call_id": call_id, "name": name, "arguments": arguments}


def _tool(tool: Any, plain: Plain) -> dict[str, Any] | None:
    """A function tool as Responses writes it (the required fields it lacks synthesized, noted)."""
    name, description, parameters, strict = tool
    if not _name_ok(name):
        return None
    out: dict[str, Any] = {"type": "function", "name": name}
    if description is not None:
        out["description"] = description
    if parameters is None:
        parameters = {"type": "object", "properties": {}}
        plain.noted = True
    out["parameters"] = parameters
    if strict is None:
        strict = False
        plain.noted = True
    out["strict"] = strict
    return out


def _choice(choice: Any, names: set[str]) -> Any:
    """The ``tool_choice`` of a mode or of a named tool of ``names``, else ``None``."""
    if type(choice) is str:
        return choice if choice in _MODES else None
    if type(choice) is tuple and len(choice) == 2 and choice[0] == "tool" and choice[1] in names:
        return {"type": "function", "name": choice[1]}
    return None


def _tool_fields(plain: Plain, out: dict[str, Any]) -> bool:
    """``tools``, ``tool_choice`` and ``parallel_tool_calls`` written into ``out``, when sure."""
    tools = plain.tools
    if not tools:  # a choice or a parallel switch without tools is left out, noted
        if plain.choice is not None or plain.parallel is not None:
            plain.noted = True
        return True
    wire: list[dict[str, Any]] = []
    names: set[str] = set()
    for tool in tools:
        written = _tool(tool, plain)
        if written is None:
            return False
        wire.append(written)
        names.add(written["name"])
    if len(names) != len(wire):  # two tools of one name: refused
        return False
    out["tools"] = wire
    if plain.choice is not None:
        choice = _choice(plain.choice, names)
        if choice is None:
            return False
        out["tool_choice"] = choice
    if plain.parallel is not None:
        out["parallel_tool_calls"] = plain.parallel
    return True


def _numbers(plain: Plain, out: dict[str, Any]) -> None:
    """The output limit and the sampling numbers, each moved into Responses' range (noted)."""
    for field, key in _NUMBERS:
        value = getattr(plain, field)
        if value is None:
            continue
        low, high = _RANGES[field]
        if not (low <= value and (high is None or value <= high)):
            value = fit(value, FORMAT, field, f"$.{field}", Notes("drop"))
            plain.noted = True
        out[key] = value


def write(plain: Plain) -> dict[str, Any] | None:
    """The Responses request of ``plain`` (see the module docstring), exactly what the general
    path writes for it; ``None`` when the lane cannot be sure of that."""
    out: dict[str, Any] = {}
    model = plain.model
    if model is None:
        plain.noted = True  # 'model' (required) left out, noted
    elif not model:
        return None
    else:
        out["model"] = model
    turns = plain.turns
    start = 0
    if turns:
        first = turns[0]
        if first[0] == SYSTEM and first[1] == "system" and first[2]:
            out["instructions"] = first[2]
            start = 1
    items = _items(turns, start)
    if items is None:
        return None
    out["input"] = items
    return out if finish(plain, out) else None


def finish(plain: Plain, out: dict[str, Any]) -> bool:
    """The fields after ``input`` (tools, numbers and the fields written as they are) written
    into ``out``, the request so far; ``False`` when the lane cannot be sure of them."""
    if not _tool_fields(plain, out):
        return False
    _numbers(plain, out)
    write_passed(plain, out)
    return True
