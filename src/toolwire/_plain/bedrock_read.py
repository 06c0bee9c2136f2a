"""The Bedrock Converse reader of the pair lanes (see :mod:`toolwire._plain._form`).

:func:`read` takes this shape of ``Converse`` body (anything else returns ``None``, and the
general path runs); the model is the caller's (the URL's: a body naming its ``modelId`` is left
to the general path):

* top-level fields: ``messages`` (a non-empty list of the messages below), ``system`` (one text
  block), ``inferenceConfig`` of ``maxTokens`` (an integer from 16), ``temperature`` and
  ``topP`` (from 0 to 1): the numbers every target takes as they are; ``toolConfig`` of
  ``tools`` (a non-empty list of the tools below) and ``toolChoice`` (``{"auto": {}}``,
  ``{"any": {}}`` or ``{"tool": {"name"}}`` naming one of them); ``requestMetadata`` (an object);
* messages ``{"role", "content"}``: a ``user`` message of one text block; an ``assistant``
  message of an optional text block then ``toolUse`` blocks ``{"toolUseId", "name", "input"}``
  (a non-empty id used once and without ``--``, the mark of an id the general path escaped; a
  non-empty name; an object input); the message after a call turn a ``user`` message of only
  ``toolResult`` blocks ``{"toolUseId", "content"}`` answering each call once, the content one
  text block (a results message holding text too is one IR message the other formats split: the
  general path's); no two ``assistant`` messages in a row; every call answered;
* every text block ``{"text"}`` of a non-empty string;
* tools ``{"toolSpec": {"name", "description"?, "inputSchema": {"json"}, "strict"?}}`` of
  distinct non-empty names, a string description, an object schema, a boolean ``strict``.
"""

from __future__ import annotations

from typing import Any, Final

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

__all__ = ["read"]

_TOP: Final = frozenset({"messages", "system", "inferenceConfig", "toolConfig", "requestMetadata"})
_SPEC_KEYS: Final = frozenset({"name", "description", "inputSchema", "strict"})
_INFERENCE_KEYS: Final = frozenset({"maxTokens", "temperature", "topP"})
_CONFIG_KEYS: Final = frozenset({"tools", "toolChoice"})
_MODES: Final = {"auto": "auto", "any": "required"}
"""Bedrock ``toolChoice`` key -> :class:`Plain` choice (``tool``: a named one)."""


def _text(block: Any) -> str | None:
    """The text of a block ``{"text"}`` of a non-empty string, else ``None``."""
    if type(block) is not dict or len(block) != 1:
        return None
    text = block.get("text")
    return text if type(text) is str and text else None


def _use(block: Any, called: set[str]) -> Call | None:
    """The call of a ``toolUse`` block of the module docstring's shape, its id added to
    ``called``; else ``None``."""
    if type(block) is not dict or len(block) != 1:
        return None
    use = block.get("toolUse")
    if type(use) is not dict or len(use) != 3:
        return None
    return call_of(use.get("toolUseId"), use.get("name"), use.get("input"), called)


def _result(block: Any) -> Result | None:
    """The result of a ``toolResult`` block of one text and no status, else ``None``."""
    if type(block) is not dict or len(block) != 1:
        return None
    result = block.get("toolResult")
    if type(result) is not dict or len(result) != 2:
        return None
    call_id, content = result.get("toolUseId"), result.get("content")
    if type(call_id) is not str or type(content) is not list or len(content) != 1:
        return None
    output = _text(content[0])
    return None if output is None else (call_id, output)


def _results(content: list[Any], pending: list[str]) -> list[Result] | None:
    """The results of a user message answering each of the ``pending`` call ids once."""
    if len(content) != len(pending):
        return None
    waiting = set(pending)
    out: list[Result] = []
    for block in content:
        result = _result(block)
        if result is None or result[0] not in waiting:
            return None
        waiting.discard(result[0])
        out.append(result)
    return out


def _assistant(content: list[Any], called: set[str]) -> tuple[Any, ...] | None:
    """The turn of an assistant message: a text, then calls (one call alone: flat)."""
    text = _text(content[0])
    calls: list[Call] = []
    for block in content if text is None else content[1:]:
        call = _use(block, called)
        if call is None:
            return None
        calls.append(call)
    if text is None and len(calls) == 1:
        return (CALL, *calls[0])
    return (ASSISTANT, text, calls)


def _read_messages(messages: list[Any], turns: list[tuple[Any, ...]]) -> bool:
    """Whether every message is of the lane's shape (then ``turns`` holds them)."""
    append = turns.append
    called: set[str] = set()  # every call id so far
    pending: list[str] | None = None  # the call ids of the last message, to answer next
    last: Any = None  # the role of the last message
    for message in messages:
        if type(message) is not dict or len(message) != 2:
            return False
        role, content = message.get("role"), message.get("content")
        if type(content) is not list or not content:
            return False
        if role == "user":
            if pending is None:
                text = _text(content[0]) if len(content) == 1 else None
                if text is None:
                    return False
                append((USER, text))
            else:
                results = _results(content, pending)
                if results is None:
                    return False
                append((RESULT, *results[0]) if len(results) == 1 else (RESULTS, results))
                pending = None
        elif role == "assistant" and last != "assistant":
            turn = _assistant(content, called)
            if turn is None:
                return False
            append(turn)
            if turn[0] == CALL:
                pending = [turn[1]]
            elif turn[2]:
                pending = [call[0] for call in turn[2]]
        else:
            return False
        last = role
    return pending is None


def _numbers(config: Any, plain: Plain) -> bool:
    """``inferenceConfig`` read into ``plain``, when its numbers are plain."""
    if type(config) is not dict or not _INFERENCE_KEYS.issuperset(config):
        return False
    return read_numbers(config, plain, "maxTokens", 16, 1, "topP")


def _tool(item: Any, names: set[str]) -> Tool | None:
    """The tool of a ``toolSpec`` item of a name not in ``names`` (added), else ``None``."""
    if type(item) is not dict or len(item) != 1:
        return None
    spec = item.get("toolSpec")
    if type(spec) is not dict or not _SPEC_KEYS.issuperset(spec):
        return None
    name, box = spec.get("name"), spec.get("inputSchema")
    if type(name) is not str or not name or name in names or type(box) is not dict or len(box) != 1:
        return None
    schema = box.get("json")
    description, strict = spec.get("description"), spec.get("strict")
    if type(schema) is not dict:
        return None
    if "description" in spec and type(description) is not str:
        return None
    if "strict" in spec and type(strict) is not bool:
        return None
    names.add(name)
    return (name, description, schema, strict)


def _tool_config(config: Any, plain: Plain) -> bool:
    """``toolConfig`` read into ``plain``, when plain."""
    if type(config) is not dict or not _CONFIG_KEYS.issuperset(config):
        return False
    wire = config.get("tools")
    if type(wire) is not list or not wire:
        return False
    names: set[str] = set()
    tools: list[Tool] = []
    for item in wire:
        tool = _tool(item, names)
        if tool is None:
            return False
        tools.append(tool)
    plain.tools = tools
    if "toolChoice" not in config:
        return True
    choice = config["toolChoice"]
    if type(choice) is not dict or len(choice) != 1:
        return False
    ((kind, inner),) = choice.items()
    if kind == "tool":
        if type(inner) is not dict or len(inner) != 1 or inner.get("name") not in names:
            return False
        plain.choice = ("tool", inner["name"])
        return True
    mode = _MODES.get(kind)
    if mode is None or inner != {}:
        return False
    plain.choice = mode
    return True


def read(p: Any, model: str | None) -> Plain | None:
    """The :class:`Plain` of a ``Converse`` body ``p`` of the module docstring's shape, its
    model ``model`` (the URL's); ``None`` for any other body."""
    if type(p) is not dict or not _TOP.issuperset(p):
        return None
    messages = p.get("messages")
    if type(messages) is not list or not messages:
        return None
    turns: list[tuple[Any, ...]] = []
    if "system" in p:
        system = p["system"]
        text = _text(system[0]) if type(system) is list and len(system) == 1 else None
        if text is None:
            return None
        turns.append((SYSTEM, "system", text))
    if not _read_messages(messages, turns):
        return None
    plain = Plain(model, turns)
    if "inferenceConfig" in p and not _numbers(p["inferenceConfig"], plain):
        return None
    if "toolConfig" in p and not _tool_config(p["toolConfig"], plain):
        return None
    if "requestMetadata" in p:
        metadata = p["requestMetadata"]
        if type(metadata) is not dict:
            return None
        plain.metadata = metadata
    return plain
