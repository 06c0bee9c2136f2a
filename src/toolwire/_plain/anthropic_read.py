"""The Anthropic Messages reader of the pair lanes (see :mod:`toolwire._plain._form`).

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
* tools ``{"name", "description"?, "input_schema", "strict"?}`` of distinct non-empty names."""

from __future__ import annotations

from typing import Any

from toolwire._plain._form import (
    ASSISTANT,
    CALL,
    RESULT,
    RESULTS,
    SYSTEM,
    USER,
    Call,
    Plain,
    Result,
    Tool,
    call_of,
    read_numbers,
)

__all__ = ["read", "use_of"]

_TOP = frozenset(
    {
        *("model", "system", "messages", "max_tokens", "temperature", "top_p", "stream", "metadata"),
        *("tools", "tool_choice"),
    }
)
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


def use_of(block: dict[str, Any], called: set[str]) -> Call | None:
    """The call of a ``tool_use`` block of four keys (an id not in ``called`` and without
    ``--``, a name, an object input), its id added to ``called``; ``None`` for another;
    ``KeyError`` for one missing a field (not plain). The one check of a call for the reader's
    hot loop, its methods and the one-pass lane."""
    return call_of(block["id"], block["name"], block["input"], called)


class _Reader:
    """The turns of a ``messages`` list, read message by message (see the module docstring)."""

    __slots__ = ("called", "out", "pending", "role")

    def __init__(self, out: list[tuple[Any, ...]], called: set[str]) -> None:
        self.out = out
        self.called = called  # every call id so far
        self.pending: Any = None  # the calls of the last message, to answer next: a list, or a CALL turn
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
        results = self.results(content, [pending[1:]] if type(pending) is tuple else pending)
        if results is None:
            return False
        self.out.append((RESULT, *results[0]) if len(results) == 1 else (RESULTS, results))
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
            if type(call_id) is not str or call_id not in waiting or output is None:
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
        if text is None and len(calls) == 1:  # a turn of one call: flat
            self.pending = turn = (CALL, *calls[0])
            self.out.append(turn)
            return True
        if calls:
            self.pending = calls
        self.out.append((ASSISTANT, text, calls))
        return True

    def call(self, block: Any) -> Call | None:
        if type(block) is not dict or len(block) != 4 or block.get("type") != "tool_use":
            return None
        return use_of(block, self.called)


def _read_messages(messages: list[Any], turns: list[tuple[Any, ...]]) -> bool:
    """Whether every message is of the lane's shape (then ``turns`` holds them); raises
    ``KeyError`` for a block missing a field its size requires (not plain). The hot loop of the
    lane: a message of one block, a text, a call or the one result of a turn of one call, and an
    assistant message of a text and one call, is read inline (what :class:`_Reader`'s methods make
    of it), the last role and the calls to answer kept in locals (the reader's attributes are set
    from them before a method runs; the reader made for the first); any other message by the
    methods. A message or a block is read by subscript once its size says which fields it has
    (one missing: another key in its place, not plain; a block without ``type`` is never plain)."""
    append = turns.append
    called: set[str] = set()  # every call id so far
    reader: _Reader | None = None  # the methods' reader, made when first needed
    last: Any = None  # the role of the last message
    pending: Any = None  # the calls of the last message, to answer next: a list, or a CALL turn
    for message in messages:
        if type(message) is not dict or len(message) != 2:
            return False
        role, content = message["role"], message["content"]
        if type(content) is list and len(content) == 1 and type(block := content[0]) is dict:
            size, kind = len(block), block["type"]
            if size == 2 and kind == "text" and pending is None:  # a text: user or assistant
                text = block["text"]
                if type(text) is not str or not text:
                    return False
                if role == "user":
                    append((USER, text))
                elif role == "assistant" and last != "assistant":
                    append((ASSISTANT, text, []))
                else:
                    return False
                last = role
                continue
            if size == 4 and kind == "tool_use" and role == "assistant" and pending is None:
                if last == "assistant":
                    return False
                call = use_of(block, called)
                if call is None:
                    return False
                pending = (CALL, *call)  # not unpacked: compiled, a str-typed call_id local
                append(pending)
                last = role
                continue
            if (
                size == 3
                and kind == "tool_result"
                and role == "user"
                and (type(pending) is tuple or (pending is not None and len(pending) == 1))
            ):  # the one result of a turn of one call
                call_id, output = block["tool_use_id"], block["content"]
                if type(output) is not str:
                    output = _one_text(output)
                wanted = pending[1] if type(pending) is tuple else pending[0][0]
                if type(call_id) is not str or call_id != wanted or not output:
                    return False
                pending = None
                append((RESULT, call_id, output))
                last = role
                continue
        if (
            type(content) is list
            and len(content) == 2
            and role == "assistant"
            and pending is None
            and type(block := content[0]) is dict
            and len(block) == 2
            and block.get("type") == "text"
        ):  # a text and one call (assistant() refuses what this does)
            if last == "assistant":
                return False
            text, use = block.get("text"), content[1]
            if type(text) is not str or not text or type(use) is not dict or len(use) != 4:
                return False
            if use.get("type") != "tool_use":
                return False
            call = use_of(use, called)
            if call is None:
                return False
            pending = [call]
            append((ASSISTANT, text, pending))
            last = role
            continue
        if reader is None:
            reader = _Reader(turns, called)
        reader.pending, reader.role = pending, last
        if role == "user":
            done = reader.user(content)
        elif role == "assistant" and pending is None:
            done = reader.assistant(content)
        else:
            return False
        if not done:
            return False
        pending = reader.pending
        last = role
    return pending is None


def _tools(wire: Any) -> list[Tool] | None:
    """The tools of ``tools``, when each is plain and their names distinct."""
    if type(wire) is not list or not wire:
        return None
    out: list[Tool] = []
    names: set[str] = set()
    for item in wire:
        if type(item) is not dict:
            return None
        if len(item) == 4:  # the common tool, every field (four keys, one missing: an unknown key)
            try:
                name, description = item["name"], item["description"]
                schema, strict = item["input_schema"], item["strict"]
            except KeyError:
                return None
            if type(description) is not str or type(strict) is not bool:
                return None
        elif len(item) == 3 and "name" in item and "description" in item and "input_schema" in item:
            name, description = item["name"], item["description"]  # the common tool without strict
            schema, strict = item["input_schema"], None
            if type(description) is not str:
                return None
        else:
            if not _TOOL_KEYS.issuperset(item):
                return None
            name, description = item.get("name"), item.get("description")
            schema, strict = item.get("input_schema"), item.get("strict")
            if (description is not None or "description" in item) and type(description) is not str:
                return None
            if (strict is not None or "strict" in item) and type(strict) is not bool:
                return None
        if type(name) is not str or not name or name in names or type(schema) is not dict:
            return None
        names.add(name)
        out.append((name, description, schema, strict))
    return out


def _choice(value: Any, tools: list[Tool], plain: Plain) -> bool:
    """``tool_choice`` read into ``plain``, when plain (a named one naming one of ``tools``)."""
    if type(value) is not dict:
        return False
    kind = value.get("type")
    if kind == "tool":
        name = value.get("name")
        if not _NAMED_KEYS.issuperset(value) or type(name) is not str:
            return False
        if all(tool[0] != name for tool in tools):
            return False
        plain.choice = ("tool", name)
    else:
        mode = _MODES.get(kind) if type(kind) is str else None
        if mode is None or not _CHOICE_KEYS.issuperset(value):
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
    if "tool_choice" not in p:
        return True
    value = p["tool_choice"]
    if type(value) is dict and len(value) == 1:  # {"type": mode}, the common choice, read here (no call)
        kind = value.get("type")
        if type(kind) is str and kind in _MODES:
            plain.choice = _MODES[kind]
            return True
    return _choice(value, tools, plain)


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
    if type(p) is not dict or not _TOP.issuperset(p):
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
    try:
        if not _read_messages(messages, turns):
            return None
    except KeyError:
        return None
    plain = Plain(name, turns)
    if _tool_fields(p, plain) and read_numbers(p, plain, "max_tokens", 16, 1) and _rest(p, plain):
        return plain
    return None
