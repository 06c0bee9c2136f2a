"""The Anthropic Messages reader and writer of the pair lanes (see :mod:`toolwire._plain._form`).

:func:`read` takes this shape of request (anything else returns ``None``, and the general path
runs):

* top-level fields: ``model`` (a non-empty string), ``system`` (a non-empty string, or one
  ``text`` block ``{"type", "text"}``), ``messages`` (a non-empty list of the messages below),
  ``max_tokens`` (an integer from 16), ``temperature`` and ``top_p`` (from 0 to 1), ``stream`` (a
  boolean), ``metadata`` (an object; a ``user_id`` in it a string), ``tools`` (a non-empty list
  of the tools below) and ``tool_choice`` (with tools: ``{"type": "auto" | "any" | "none"}`` or
  ``{"type": "tool", "name"}`` naming one of them, with ``disable_parallel_tool_use`` a boolean
  unless ``none``): the numbers every target takes as they are;
* messages ``{"role", "content"}``: a ``user`` message of a non-empty string or one ``text``
  block; an ``assistant`` message of a non-empty string, or of an optional ``text`` block then
  ``tool_use`` blocks ``{"type", "id", "name", "input"}`` (non-empty string id and name, an object
  input; an id used once and without ``--``, the mark of an id the general path escaped); the
  message after a call turn a ``user`` message of ``tool_result`` blocks ``{"type",
  "tool_use_id", "content"}`` answering each call once (content a non-empty string or one
  ``text`` block), then at most one ``text`` block; no two ``assistant`` messages in a row;
* every ``text`` block ``{"type", "text"}`` of a non-empty string;
* tools ``{"name", "description"?, "input_schema", "strict"?}`` of distinct non-empty names.

:func:`write` writes what the general path writes for a :class:`Plain` from another format:
system turns hoisted to ``system`` (a string for one, text blocks for more; a system turn after
the conversation started is noted), consecutive turns of one role merged into one message of
blocks, results first in their user turn, arguments as ``input`` objects, ``max_tokens`` 4096
(noted) when not given, ``metadata`` of ``user_id`` only (other fields noted as dropped),
``disable_parallel_tool_use`` in ``tool_choice`` (an ``auto`` one, noted, for parallel calls
turned off without a choice). It returns ``None`` for what the general path would rewrite or
refuse: a tool or call name outside Anthropic's rules, a call id it would escape, arguments that
are no JSON object, an empty result output, numbers outside Anthropic's ranges, a tool choice
without tools or naming no tool, a prefill ending in whitespace, no turn left but system text.
"""

from __future__ import annotations

from typing import Any

from toolwire._callids import sanitize_call_id
from toolwire._plain._form import ASSISTANT, RESULTS, SYSTEM, USER, Call, Plain, Result, Tool
from toolwire.formats._ranges import RANGES
from toolwire.formats.anthropic._generation import DEFAULT_MAX_TOKENS
from toolwire.formats.anthropic._util import parse_object
from toolwire.names import NAME_RULES

__all__ = ["read", "write"]

# ---------------------------------------------------------------- read

_TOP = frozenset(
    {
        *("model", "system", "messages", "max_tokens", "temperature", "top_p", "stream", "metadata"),
        *("tools", "tool_choice"),
    }
)
_NUMBERS: tuple[tuple[str, int, int | None], ...] = (
    ("max_tokens", 16, None),
    ("temperature", 0, 1),
    ("top_p", 0, 1),
)
"""The numbers read, with the range the lane takes (every target's; ``None``: no bound)."""
_TOOL_KEYS = frozenset({"name", "description", "input_schema", "strict"})
_MODES = {"auto": "auto", "any": "required", "none": "none"}
"""Anthropic ``tool_choice.type`` -> :class:`Plain` choice (``tool``: a named one)."""
_CHOICE_KEYS = frozenset({"type", "disable_parallel_tool_use"})
_NAMED_KEYS = frozenset({"type", "name", "disable_parallel_tool_use"})


def _text(block: Any) -> str | None:
    """The text of a ``text`` block ``{"type", "text"}`` of a non-empty string, else ``None``."""
    if type(block) is not dict or len(block) != 2 or block.get("type") != "text":
        return None
    text = block.get("text")
    return text if type(text) is str and text else None


def _one_text(content: Any) -> str | None:
    """The text of a non-empty string or of a list of one ``text`` block, else ``None``."""
    if type(content) is str:
        return content or None
    if type(content) is list and len(content) == 1:
        return _text(content[0])
    return None


class _Reader:
    """The turns of a ``messages`` list, read message by message (see the module docstring)."""

    __slots__ = ("called", "out", "pending", "role")

    def __init__(self, out: list[tuple[Any, ...]]) -> None:
        self.out = out
        self.called: set[str] = set()  # every call id so far
        self.pending: list[Call] | None = None  # the calls of the last message, to answer next
        self.role: Any = None  # the role of the last message

    def user(self, content: Any) -> bool:
        pending = self.pending
        if pending is None:
            text = _one_text(content)
            if text is None:
                return False
            self.out.append((USER, text))
            return True
        self.pending = None
        if type(content) is not list:
            return False
        results = self.results(content, pending)
        if results is None:
            return False
        self.out.append((RESULTS, results))
        rest = len(content) - len(results)
        if rest == 0:
            return True
        text = _text(content[-1]) if rest == 1 else None
        if text is None:
            return False
        self.out.append((USER, text))
        return True

    def results(self, content: list[Any], calls: list[Call]) -> list[Result] | None:
        """The leading ``tool_result`` blocks of ``content``, when they answer each of ``calls``."""
        waiting = {call[0] for call in calls}
        out: list[Result] = []
        for block in content[: len(calls)]:
            if type(block) is not dict or len(block) != 3 or block.get("type") != "tool_result":
                return None
            call_id = block.get("tool_use_id")
            output = _one_text(block.get("content"))
            if call_id not in waiting or output is None:
                return None
            waiting.discard(call_id)
            out.append((call_id, output))
        return None if waiting else out

    def assistant(self, content: Any) -> bool:
        if self.role == "assistant":
            return False
        if type(content) is str:
            if not content:
                return False
            self.out.append((ASSISTANT, content, []))
            return True
        if type(content) is not list or not content:
            return False
        text = _text(content[0])
        calls: list[Call] = []
        for block in content if text is None else content[1:]:
            call = self.call(block)
            if call is None:
                return False
            calls.append(call)
        if calls:
            self.pending = calls
        self.out.append((ASSISTANT, text, calls))
        return True

    def call(self, block: Any) -> Call | None:
        if type(block) is not dict or len(block) != 4 or block.get("type") != "tool_use":
            return None
        call_id, name, arguments = block.get("id"), block.get("name"), block.get("input")
        if type(call_id) is not str or not call_id or "--" in call_id or call_id in self.called:
            return None
        if type(name) is not str or not name or type(arguments) is not dict:
            return None
        self.called.add(call_id)
        return (call_id, name, arguments)

    def run(self, messages: list[Any]) -> bool:
        """Whether every message is of the lane's shape (then ``out`` holds the turns)."""
        for message in messages:
            if type(message) is not dict or len(message) != 2:
                return False
            role, content = message.get("role"), message.get("content")
            if role == "user":
                done = self.user(content)
            elif role == "assistant" and self.pending is None:
                done = self.assistant(content)
            else:
                return False
            if not done:
                return False
            self.role = role
        return self.pending is None


def _tools(wire: Any) -> list[Tool] | None:
    """The tools of ``tools``, when each is plain and their names distinct."""
    if type(wire) is not list or not wire:
        return None
    out: list[Tool] = []
    names: set[str] = set()
    for item in wire:
        if type(item) is not dict or not item.keys() <= _TOOL_KEYS:
            return None
        name, description = item.get("name"), item.get("description")
        schema, strict = item.get("input_schema"), item.get("strict")
        if type(name) is not str or not name or name in names or type(schema) is not dict:
            return None
        if (description is not None or "description" in item) and type(description) is not str:
            return None
        if (strict is not None or "strict" in item) and type(strict) is not bool:
            return None
        names.add(name)
        out.append((name, description, schema, strict))
    return out


def _choice(value: Any, names: set[str], plain: Plain) -> bool:
    """``tool_choice`` read into ``plain``, when plain."""
    if type(value) is not dict:
        return False
    kind = value.get("type")
    if kind == "tool":
        name = value.get("name")
        if not value.keys() <= _NAMED_KEYS or type(name) is not str or name not in names:
            return False
        plain.choice = ("tool", name)
    else:
        mode = _MODES.get(kind) if type(kind) is str else None
        if mode is None or not value.keys() <= _CHOICE_KEYS:
            return False
        plain.choice = mode
    if "disable_parallel_tool_use" in value:
        disable = value["disable_parallel_tool_use"]
        if type(disable) is not bool or kind == "none":
            return False
        plain.parallel = not disable
    return True


def _tool_fields(p: dict[str, Any], plain: Plain) -> bool:
    """``tools`` and ``tool_choice`` read into ``plain``, when plain."""
    if "tools" not in p:
        return "tool_choice" not in p
    tools = plain.tools = _tools(p["tools"])
    if tools is None:
        return False
    return "tool_choice" not in p or _choice(p["tool_choice"], {tool[0] for tool in tools}, plain)


def _numbers(p: dict[str, Any], plain: Plain) -> bool:
    """``max_tokens``, ``temperature`` and ``top_p`` read into ``plain``, when in range."""
    for key, low, high in _NUMBERS:
        if key in p:
            value = p[key]
            kind = type(value)
            if (kind is not int and (kind is not float or key == "max_tokens")) or not low <= value:
                return False
            if high is not None and not value <= high:
                return False
            setattr(plain, key, value)
    return True


def _rest(p: dict[str, Any], plain: Plain) -> bool:
    """``stream`` and ``metadata`` read into ``plain`` (``metadata.user_id`` as ``user``)."""
    if "stream" in p:
        stream = p["stream"]
        if type(stream) is not bool:
            return False
        plain.stream = stream
    if "metadata" in p:
        metadata = p["metadata"]
        if type(metadata) is not dict:
            return False
        if "user_id" not in metadata:
            plain.metadata = metadata
            return True
        user = metadata["user_id"]
        if type(user) is not str:
            return False
        plain.user = user
        plain.metadata = {k: v for k, v in metadata.items() if k != "user_id"} or None
    return True


def read(p: Any, model: str | None) -> Plain | None:
    """The :class:`Plain` of an Anthropic request ``p`` of the module docstring's shape, else
    ``None`` (``model``: the caller's model name, unused: the lane takes requests naming theirs)."""
    if type(p) is not dict or not p.keys() <= _TOP:
        return None
    name, messages = p.get("model"), p.get("messages")
    if type(name) is not str or not name or type(messages) is not list or not messages:
        return None
    turns: list[tuple[Any, ...]] = []
    if "system" in p:
        system = _one_text(p["system"])
        if system is None:
            return None
        turns.append((SYSTEM, "system", system))
    if not _Reader(turns).run(messages):
        return None
    plain = Plain(name, turns)
    if _tool_fields(p, plain) and _numbers(p, plain) and _rest(p, plain):
        return plain
    return None


# ---------------------------------------------------------------- write

_valid_name = NAME_RULES["anthropic"].pattern.fullmatch
_CHOICES: dict[str, str] = {"auto": "auto", "required": "any", "none": "none"}
""":class:`Plain` choice mode -> Anthropic ``tool_choice.type``."""
_RANGES = RANGES["anthropic"]


def _name_ok(name: Any) -> bool:
    return type(name) is str and _valid_name(name) is not None


def _call_block(call: Call) -> dict[str, Any] | None:
    """The ``tool_use`` block of a call, or ``None`` (an id or name rewritten, no JSON object)."""
    call_id, name, arguments = call
    if sanitize_call_id(call_id) != call_id or not _name_ok(name):
        return None
    if type(arguments) is str:
        arguments = parse_object(arguments)
    if type(arguments) is not dict:
        return None
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def _result_block(result: Result) -> dict[str, Any] | None:
    call_id, output = result
    if not output or sanitize_call_id(call_id) != call_id:  # "": no content (Chat) or one (Anthropic)
        return None
    return {"type": "tool_result", "tool_use_id": call_id, "content": output}


def _blocks(turn: tuple[Any, ...]) -> tuple[str, list[dict[str, Any]]] | None:
    """The role and blocks of a user, assistant or results turn, or ``None``."""
    kind = turn[0]
    if kind == USER:
        return ("user", [{"type": "text", "text": turn[1]}]) if turn[1] else None
    blocks: list[dict[str, Any]] = []
    if kind == ASSISTANT:
        if turn[1] == "":
            return None
        if turn[1] is not None:
            blocks.append({"type": "text", "text": turn[1]})
        for call in turn[2]:
            block = _call_block(call)
            if block is None:
                return None
            blocks.append(block)
        return ("assistant", blocks) if blocks else None
    for result in turn[1]:
        block = _result_block(result)
        if block is None:
            return None
        blocks.append(block)
    return ("user", blocks) if blocks else None


def _messages(plain: Plain) -> tuple[list[str], list[dict[str, Any]]] | None:
    """The system texts and the merged turns of ``plain``, or ``None``."""
    system: list[str] = []
    out: list[dict[str, Any]] = []
    last: dict[str, Any] | None = None
    for turn in plain.turns:
        if turn[0] == SYSTEM:
            if not turn[2]:
                return None  # the encoder leaves an empty text out
            if out:
                plain.noted = True  # a mid-conversation system message moved to the top
            system.append(turn[2])
            continue
        if turn[0] == RESULTS and (last is None or last["role"] != "assistant"):
            return None  # results answer the assistant turn right before them
        found = _blocks(turn)
        if found is None:
            return None
        role, blocks = found
        if last is not None and last["role"] == role:
            last["content"].extend(blocks)
        else:
            last = {"role": role, "content": blocks}
            out.append(last)
    return system, out


def _prefill_ok(messages: list[dict[str, Any]]) -> bool:
    """Whether the general path keeps the last message as is (a prefill, an assistant last
    message, ending in whitespace is trimmed, noted)."""
    last = messages[-1]
    if last["role"] != "assistant":
        return True
    block = last["content"][-1]
    return block["type"] != "text" or block["text"] == block["text"].rstrip()


def _numbers_out(plain: Plain, out: dict[str, Any]) -> bool:
    """``max_tokens``, ``temperature`` and ``top_p`` written into ``out``, when in range."""
    max_tokens = plain.max_tokens
    if max_tokens is None:
        plain.noted = True  # required: the general path sends DEFAULT_MAX_TOKENS
        max_tokens = DEFAULT_MAX_TOKENS
    elif not _RANGES["max_tokens"][0] <= max_tokens:
        return False
    out["max_tokens"] = max_tokens
    for key in ("temperature", "top_p"):
        value = getattr(plain, key)
        if value is not None:
            low, high = _RANGES[key]
            if not low <= value or (high is not None and not value <= high):
                return False
            out[key] = value
    return True


def _tools_out(tools: list[Tool]) -> tuple[list[dict[str, Any]], set[str]] | None:
    out: list[dict[str, Any]] = []
    names: set[str] = set()
    for name, description, parameters, strict in tools:
        if not _name_ok(name) or name in names:
            return None
        names.add(name)
        tool: dict[str, Any] = {"name": name}
        if description is not None:
            tool["description"] = description
        tool["input_schema"] = parameters if parameters is not None else {"type": "object", "properties": {}}
        if strict is not None:
            tool["strict"] = strict
        out.append(tool)
    return out, names


def _choice_out(plain: Plain, names: set[str]) -> dict[str, Any] | None | bool:
    """The ``tool_choice`` of ``plain`` (``None``: none; ``False``: a choice naming no tool)."""
    choice, parallel = plain.choice, plain.parallel
    if choice is None:
        if parallel is False:
            plain.noted = True  # parallel_tool_calls=false sent as tool_choice auto
            return {"type": "auto", "disable_parallel_tool_use": True}
        return None
    if type(choice) is tuple:
        if choice[1] not in names:
            return False
        out: dict[str, Any] = {"type": "tool", "name": choice[1]}
    else:
        out = {"type": _CHOICES[choice]}  # type: ignore[index]
    if parallel is not None and choice != "none":
        out["disable_parallel_tool_use"] = not parallel
    return out


def _tool_fields_out(plain: Plain, out: dict[str, Any]) -> bool:
    """``tools`` and ``tool_choice`` written into ``out``, when the general path writes them so."""
    tools = plain.tools
    if not tools:
        return tools is None and plain.choice is None and plain.parallel is None
    found = _tools_out(tools)
    if found is None:
        return False
    out["tools"] = found[0]
    choice = _choice_out(plain, found[1])
    if choice is False:
        return False
    if choice is not None:
        out["tool_choice"] = choice
    return True


def write(plain: Plain) -> dict[str, Any] | None:
    """The Anthropic request the general path writes for ``plain`` (from another format), or
    ``None`` (see the module docstring); sets ``plain.noted`` when the general path notes."""
    found = _messages(plain)
    if found is None or not found[1] or not _prefill_ok(found[1]):
        return None
    system, messages = found
    out: dict[str, Any] = {}
    if plain.model is not None:
        out["model"] = plain.model
    if system:
        out["system"] = system[0] if len(system) == 1 else [{"type": "text", "text": s} for s in system]
    out["messages"] = messages
    if not _numbers_out(plain, out):
        return None
    if plain.stream is not None:
        out["stream"] = plain.stream
    if plain.metadata:
        plain.noted = True  # Anthropic metadata only has user_id: the other fields are dropped
    if plain.user is not None:
        out["metadata"] = {"user_id": plain.user}
    return out if _tool_fields_out(plain, out) else None
