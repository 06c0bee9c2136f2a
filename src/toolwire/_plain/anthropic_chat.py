"""The Anthropic -> Chat pair in one pass: a plain Anthropic request straight to Chat (issue 18).

The pair of a gateway that serves Anthropic clients from a Chat upstream: its lane reads each
message and writes its Chat message in the same loop, with no
:class:`~toolwire._plain._form.Plain` and no turns between. :func:`translate` writes exactly what
:func:`anthropic_read.read <toolwire._plain.anthropic_read.read>` then :func:`chat_write.write
<toolwire._plain.chat_write.write>` write, or returns ``None`` when it is not sure of that:
anything it does not take goes to that lane (:func:`toolwire._plain.plain_lane`), which takes or
refuses it. It takes:

* the top-level fields ``model``, ``system`` (a non-empty string), ``messages`` (a non-empty
  list), ``max_tokens`` (an integer from 16), ``temperature`` and ``top_p`` (from 0 to 1),
  ``stream`` (a boolean), ``tools`` (of ``name``, ``description``, ``input_schema`` and
  optionally ``strict``) and ``tool_choice`` (``{"type": "auto" | "any" | "none"}``);
* messages ``{"role", "content"}`` of a non-empty string or of one block: a ``text`` block, a
  ``tool_use`` block (an assistant turn of one call), the ``tool_result`` block answering it (its
  content a non-empty string); an assistant message of a ``text`` block and a ``tool_use`` block;
  no two assistant messages in a row.

The Chat messages are the writer's: a call's arguments the compact JSON text of its ``input``.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._plain._form import arguments_text
from toolwire._plain._names import NameCheck

__all__ = ["translate"]

_TOP = frozenset(
    {
        *("model", "system", "messages", "max_tokens", "temperature", "top_p", "stream"),
        *("tools", "tool_choice"),
    }
)
_MODES = {"auto": "auto", "any": "required", "none": "none"}
_name_ok: Final = NameCheck("openai-chat")
_VALID: Final = _name_ok.valid


def _call(block: Any, called: set[str]) -> list[dict[str, Any]] | None:
    """The ``tool_calls`` of a ``tool_use`` block (its id added to ``called``), else ``None``;
    raises ``KeyError`` for a block of four keys without one of its fields."""
    if type(block) is not dict or len(block) != 4 or block["type"] != "tool_use":
        return None
    call_id, name, arguments = block["id"], block["name"], block["input"]
    if type(call_id) is not str or not call_id or "--" in call_id or call_id in called:
        return None
    if type(name) is not str or not name or type(arguments) is not dict:
        return None
    if name not in _VALID and not _name_ok(name):
        return None
    text = arguments_text(arguments)
    if text is None:
        return None
    called.add(call_id)
    return [{"id": call_id, "type": "function", "function": {"name": name, "arguments": text}}]


def _messages(messages: list[Any], out: list[dict[str, Any]]) -> bool:
    """The Chat messages of ``messages`` appended to ``out``, when each is of the module's shape;
    raises ``KeyError`` for a message or a block without a field its size requires. ``pending``
    is the id of the call the next message must answer."""
    append = out.append
    called: set[str] = set()  # every call id so far
    last: Any = None  # the role of the last message
    pending: Any = None
    for message in messages:
        if type(message) is not dict or len(message) != 2:
            return False
        role, content = message["role"], message["content"]
        if role == "assistant":
            if last == "assistant" or pending is not None:
                return False
            last = role
            if type(content) is str:
                if not content:
                    return False
                append({"role": "assistant", "content": content})
                continue
            if type(content) is not list or not content or len(content) > 2:
                return False
            block = content[0]
            if type(block) is not dict:
                return False
            if len(content) == 1 and len(block) == 4:  # a turn of one call
                calls = _call(block, called)
                if calls is None:
                    return False
                append({"role": "assistant", "content": None, "tool_calls": calls})
                pending = calls[0]["id"]
                continue
            if len(block) != 2 or block["type"] != "text":
                return False
            text = block["text"]
            if type(text) is not str or not text:
                return False
            if len(content) == 1:
                append({"role": "assistant", "content": text})
                continue
            calls = _call(content[1], called)
            if calls is None:
                return False
            append({"role": "assistant", "content": text, "tool_calls": calls})
            pending = calls[0]["id"]
            continue
        if role != "user":
            return False
        last = role
        if type(content) is str:
            if not content or pending is not None:
                return False
            append({"role": "user", "content": content})
            continue
        if type(content) is not list or len(content) != 1 or type(block := content[0]) is not dict:
            return False
        size = len(block)
        if pending is None:  # a text block
            if size != 2 or block["type"] != "text":
                return False
            text = block["text"]
            if type(text) is not str or not text:
                return False
            append({"role": "user", "content": text})
            continue
        if size != 3 or block["type"] != "tool_result":  # the one result of the call
            return False
        call_id, output = block["tool_use_id"], block["content"]
        if call_id != pending or type(output) is not str or not output:
            return False
        append({"role": "tool", "tool_call_id": call_id, "content": output})
        pending = None
    return pending is None


def _tools(wire: Any, out: dict[str, Any]) -> bool:
    """The tools of ``name``, ``description``, ``input_schema`` and optionally ``strict``
    written into ``out`` as Chat tools, when their names are distinct and Chat takes each."""
    if type(wire) is not list or not wire:
        return False
    tools: list[dict[str, Any]] = []
    names: set[str] = set()
    for item in wire:
        if type(item) is not dict:
            return False
        size = len(item)
        if size == 4:
            name, description, schema, strict = (
                item["name"],
                item["description"],
                item["input_schema"],
                item["strict"],
            )
            if type(strict) is not bool:
                return False
            inner = {"name": name, "description": description, "parameters": schema, "strict": strict}
        elif size == 3:
            name, description, schema = item["name"], item["description"], item["input_schema"]
            inner = {"name": name, "description": description, "parameters": schema}
        else:
            return False
        if type(description) is not str or type(name) is not str or not name or type(schema) is not dict:
            return False
        if name in names or (name not in _VALID and not _name_ok(name)):
            return False
        names.add(name)
        tools.append({"type": "function", "function": inner})
    out["tools"] = tools
    return True


def _rest(p: dict[str, Any], out: dict[str, Any]) -> bool:
    """The tools, the choice, the numbers and ``stream`` written into ``out`` in the Chat
    writer's order, when each is of the module's shape."""
    if "tools" in p:
        try:
            if not _tools(p["tools"], out):
                return False
        except KeyError:
            return False
        if "tool_choice" in p:
            choice = p["tool_choice"]
            if type(choice) is not dict or len(choice) != 1:
                return False
            kind = choice.get("type")
            if type(kind) is not str or kind not in _MODES:
                return False
            out["tool_choice"] = _MODES[kind]
    elif "tool_choice" in p:
        return False
    if "max_tokens" in p:
        value = p["max_tokens"]
        if type(value) is not int or not value >= 16:
            return False
        out["max_completion_tokens"] = value
    for key in ("temperature", "top_p"):
        if key in p:
            value = p[key]
            if (type(value) is not int and type(value) is not float) or not 0 <= value <= 1:
                return False
            out[key] = value
    if "stream" in p:
        stream = p["stream"]
        if type(stream) is not bool:
            return False
        out["stream"] = stream
    return True


def translate(p: Any) -> dict[str, Any] | None:
    """The Chat request the Anthropic request ``p`` translates to (see the module docstring),
    or ``None``: not of that shape (the pair's lane then reads and writes it)."""
    if type(p) is not dict or not _TOP.issuperset(p):
        return None
    model, messages = p.get("model"), p.get("messages")
    if type(model) is not str or not model or type(messages) is not list or not messages:
        return None
    out: list[dict[str, Any]] = []
    if "system" in p:
        system = p["system"]
        if type(system) is not str or not system:
            return None
        out.append({"role": "system", "content": system})
    try:
        if not _messages(messages, out):
            return None
    except KeyError:
        return None
    payload: dict[str, Any] = {"model": model, "messages": out}
    return payload if _rest(p, payload) else None
