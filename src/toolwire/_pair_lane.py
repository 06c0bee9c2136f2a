"""A direct lane for one format pair: Responses requests to Chat Completions (issue 18).

A gateway in front of a Chat backend for a Responses client (Codex CLI) translates each request
from OpenAI Responses to OpenAI Chat. For a plain request the general path (decode to the IR,
survey, history checks, renaming, encode, sendable checks) writes the Chat payload below and
notes nothing; :func:`responses_to_chat` writes the same payload straight from the Responses
dicts, and returns ``None`` for any other request, which then takes the general path (that also
raises the errors and writes the notes). The lane's shape:

* top-level fields: ``model`` (a non-empty string), ``instructions`` (a non-empty string),
  ``input`` (a non-empty string, or a non-empty list of the items below), ``tools`` (a non-empty
  list of function tools), ``tool_choice`` (a mode, or a named function tool of ``tools``),
  ``parallel_tool_calls`` (a boolean, with tools), ``max_output_tokens`` (an integer from 1),
  ``temperature`` (from 0 to 2) and ``top_p`` (from 0 to 1), numbers Chat takes as they are,
  ``stream``, ``user``, ``metadata`` (a boolean, a string, an object), ``include: []``;
* user, system and developer messages: ``{"role", "content": "text"}``, or a ``message`` item
  with one ``input_text`` / ``output_text`` part (``{"type", "text"}``), non-empty text;
* assistant messages of the same two shapes, each the first item of its turn (Chat holds one
  content, then the calls);
* ``function_call`` items ``{"type", "call_id", "name", "arguments"}`` (strings; a call id used
  once), and after a turn's calls, ``function_call_output`` items ``{"type", "call_id",
  "output"}`` (strings) answering each of them once, before anything else;
* function tools ``{"type", "name", "description"?, "parameters"?, "strict"?}`` of distinct names;
* every tool name valid for Chat (nothing renamed).

``tests/translate/test_pair_lane.py`` runs every Responses request of the corpora through both
paths and asserts the same payload, notes and errors.
"""

from __future__ import annotations

from typing import Any

from toolwire.names import NAME_RULES

__all__ = ["responses_to_chat"]

_TOP = frozenset(
    {
        *("model", "instructions", "input", "tools", "tool_choice", "parallel_tool_calls", "include"),
        *("max_output_tokens", "temperature", "top_p", "stream", "user", "metadata"),
    }
)
_SAMPLING: tuple[tuple[str, str, int, int | None], ...] = (
    ("max_output_tokens", "max_completion_tokens", 1, None),
    ("temperature", "temperature", 0, 2),
    ("top_p", "top_p", 0, 1),
)
"""Responses field, Chat field, and the range Chat takes (``None``: no upper bound)."""
_AFTER = (("stream", bool), ("user", str), ("metadata", dict))
"""The fields written as they are after the sampling ones, with their type."""
_TOOL_KEYS = frozenset({"type", "name", "description", "parameters", "strict"})
_TOOL_TYPES = (("description", str), ("parameters", dict), ("strict", bool))
"""The optional fields of a function tool, in Chat's order, with their type."""
_MODES = frozenset({"auto", "none", "required"})
_NAMED_CHOICE = frozenset({"type", "name"})
_valid_name = NAME_RULES["openai-chat"].pattern.fullmatch
_VALID: set[str] = set()
"""Tool names found valid (a set hit instead of a regex match: the same few names every request)."""


def _name_ok(name: Any) -> bool:
    if type(name) is not str:
        return False
    if name in _VALID:
        return True
    if _valid_name(name) is None:
        return False
    if len(_VALID) < 4096:
        _VALID.add(name)
    return True


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


class _History:
    """The Chat messages of an ``input`` list, built item by item (see the module docstring)."""

    __slots__ = ("called", "out", "pending", "turn")

    def __init__(self, out: list[dict[str, Any]]) -> None:
        self.out = out
        self.called: set[str] = set()  # every call id so far
        self.pending: set[str] = set()  # the calls of the last call turn not answered yet
        self.turn: dict[str, Any] | None = None  # the assistant message being built

    def message(self, item: dict[str, Any], role: Any) -> bool:
        content = item.get("content")
        text = content if len(item) == 2 and type(content) is str else _typed_text(item, content)
        if not text or self.pending:
            return False
        turn = self.turn  # open: an assistant text starts no new turn, a call turn wants results
        if turn is not None and (role == "assistant" or "tool_calls" in turn):
            return False
        if role == "assistant":
            turn = self.turn = {"role": "assistant", "content": text}
            self.out.append(turn)
            return True
        if role != "user" and role != "system" and role != "developer":
            return False
        self.turn = None
        self.out.append({"role": role, "content": text})
        return True

    def call(self, item: dict[str, Any]) -> bool:
        call_id, name, arguments = item.get("call_id"), item.get("name"), item.get("arguments")
        if len(item) != 4 or type(call_id) is not str or not call_id or type(arguments) is not str:
            return False
        if call_id in self.called or self.pending or not _name_ok(name):
            return False
        turn = self.turn
        if turn is None:
            turn = self.turn = {"role": "assistant", "content": None}
            self.out.append(turn)
        calls = turn.get("tool_calls")
        if calls is None:
            calls = turn["tool_calls"] = []
        self.called.add(call_id)
        function = {"name": name, "arguments": arguments or "{}"}
        calls.append({"id": call_id, "type": "function", "function": function})
        return True

    def result(self, item: dict[str, Any]) -> bool:
        turn = self.turn
        if turn is not None:  # the call turn ends: its calls are answered next
            self.turn = None
            calls = turn.get("tool_calls")
            if calls is None:
                return False
            self.pending = {call["id"] for call in calls}
        call_id, output = item.get("call_id"), item.get("output")
        if (
            len(item) != 3
            or type(output) is not str
            or type(call_id) is not str
            or call_id not in self.pending
        ):
            return False
        self.pending.discard(call_id)
        self.out.append({"role": "tool", "tool_call_id": call_id, "content": output})
        return True

    def run(self, items: list[Any]) -> bool:
        """Whether every item is of the lane's shape (then ``out`` holds the messages)."""
        for item in items:
            if type(item) is not dict:
                return False
            kind = item.get("type")
            if kind == "function_call":
                done = self.call(item)
            elif kind == "function_call_output":
                done = self.result(item)
            elif kind is None or kind == "message":
                done = self.message(item, item.get("role"))
            else:
                return False
            if not done:
                return False
        turn = self.turn
        return not self.pending and (turn is None or "tool_calls" not in turn)


def _tools(wire: Any) -> tuple[list[dict[str, Any]], set[str]] | None:
    """The Chat tools and their names, when every tool is a plain function tool."""
    if type(wire) is not list or not wire:
        return None
    out: list[dict[str, Any]] = []
    names: set[str] = set()
    for item in wire:
        if type(item) is not dict or item.get("type") != "function":
            return None
        name = item.get("name")
        if type(name) is not str or (name not in _VALID and not _name_ok(name)):
            return None
        names.add(name)
        if len(item) == 5 and item.keys() <= _TOOL_KEYS:  # every field: the common tool
            description, parameters, strict = item["description"], item["parameters"], item["strict"]
            if type(description) is not str or type(parameters) is not dict or type(strict) is not bool:
                return None
            inner = {"name": name, "description": description, "parameters": parameters, "strict": strict}
        else:
            found = _some_fields(item, name)
            if found is None:
                return None
            inner = found
        out.append({"type": "function", "function": inner})
    return (out, names) if len(names) == len(out) else None  # else two tools of one name


def _some_fields(item: dict[str, Any], name: str) -> dict[str, Any] | None:
    """The Chat ``function`` of a function tool without some of its optional fields."""
    if not item.keys() <= _TOOL_KEYS:
        return None
    inner: dict[str, Any] = {"name": name}
    return inner if _copy_typed(item, _TOOL_TYPES, inner) else None


def _copy_typed(src: dict[str, Any], fields: tuple[tuple[str, type], ...], out: dict[str, Any]) -> bool:
    """Each of ``fields`` (key, type) that ``src`` has, copied into ``out`` in their order;
    ``False`` when one has another type."""
    for key, wanted in fields:
        if key in src:
            value = src[key]
            if type(value) is not wanted:
                return False
            out[key] = value
    return True


def _choice(value: Any, names: set[str]) -> Any:
    """The Chat ``tool_choice`` of a mode or a named function tool of ``names``, else ``None``."""
    if type(value) is str:
        return value if value in _MODES else None
    if type(value) is dict and value.keys() == _NAMED_CHOICE and value["type"] == "function":
        name = value["name"]
        if type(name) is str and name in names:
            return {"type": "function", "function": {"name": name}}
    return None


def _tool_fields(p: dict[str, Any], out: dict[str, Any]) -> bool:
    """``tools``, ``tool_choice`` and ``parallel_tool_calls`` written into ``out``, when plain."""
    wire = p.get("tools")
    if wire is None:
        return "tools" not in p and "tool_choice" not in p and "parallel_tool_calls" not in p
    found = _tools(wire)
    if found is None:
        return False
    out["tools"] = found[0]
    if "tool_choice" in p:
        choice = _choice(p["tool_choice"], found[1])
        if choice is None:
            return False
        out["tool_choice"] = choice
    if "parallel_tool_calls" in p:
        parallel = p["parallel_tool_calls"]
        if type(parallel) is not bool:
            return False
        out["parallel_tool_calls"] = parallel
    return True


def _messages(p: dict[str, Any]) -> list[dict[str, Any]] | None:
    messages: list[dict[str, Any]] = []
    if "instructions" in p:
        instructions = p["instructions"]
        if type(instructions) is not str or not instructions:
            return None
        messages.append({"role": "system", "content": instructions})
    value = p.get("input")
    if type(value) is str and value:
        messages.append({"role": "user", "content": value})
    elif type(value) is not list or not value or not _History(messages).run(value):
        return None
    return messages


def responses_to_chat(p: Any) -> dict[str, Any] | None:
    """The Chat request of a plain Responses request ``p`` (see the module docstring), exactly
    what the general path writes for it, with no note; ``None`` for any other request."""
    if type(p) is not dict or not p.keys() <= _TOP:
        return None
    model = p.get("model")
    if type(model) is not str or not model or ("include" in p and p["include"] != []):
        return None
    messages = _messages(p)
    if messages is None:
        return None
    out: dict[str, Any] = {"model": model, "messages": messages}
    if not _tool_fields(p, out):
        return None
    return out if _numbers(p, out) and _copy_typed(p, _AFTER, out) else None


def _numbers(p: dict[str, Any], out: dict[str, Any]) -> bool:
    """``max_output_tokens``, ``temperature`` and ``top_p`` written into ``out``, when Chat takes
    each as it is (an integer token count; a number in range, else the general path moves it)."""
    for key, chat_key, low, high in _SAMPLING:
        if key in p:
            value = p[key]
            kind = type(value)
            if (kind is not int and (kind is not float or key == "max_output_tokens")) or not low <= value:
                return False
            if high is not None and not value <= high:
                return False
            out[chat_key] = value
    return True
