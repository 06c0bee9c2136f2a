"""The Anthropic -> Chat and Anthropic -> Responses pairs in one pass (issue 18).

The pairs of a gateway that serves Anthropic clients from an OpenAI upstream: their lane reads
each message and writes its target message in the same loop, with no
:class:`~toolwire._plain._form.Plain` and no turns between. :func:`to_chat` writes exactly what
:func:`anthropic_read.read <toolwire._plain.anthropic_read.read>` then :func:`chat_write.write
<toolwire._plain.chat_write.write>` write, :func:`to_responses` what it then
:func:`responses_write.write <toolwire._plain.responses_write.write>` writes (and whether that
notes something), or ``None`` when it is not sure of that: anything it does not take goes to
the pair's lane (:func:`toolwire._plain.plain_lane`), which takes or refuses it. It takes:

* the top-level fields ``model``, ``system`` (a non-empty string), ``messages`` (a non-empty
  list), ``max_tokens`` (an integer from 16), ``temperature`` and ``top_p`` (from 0 to 1),
  ``stream`` (a boolean), ``tools`` (of ``name``, ``description``, ``input_schema`` and
  optionally ``strict``) and ``tool_choice`` (``{"type": "auto" | "any" | "none"}``);
* messages ``{"role", "content"}`` of a non-empty string or of one block: a ``text`` block, a
  ``tool_use`` block (an assistant turn of one call), the ``tool_result`` block answering it (its
  content a non-empty string); an assistant message of a ``text`` block and a ``tool_use`` block;
  no two assistant messages in a row.

A call's arguments are the compact JSON text of its ``input``; the rest is each writer's (Chat:
a call an assistant message's ``tool_calls``, a result a ``tool`` message; Responses: the system
text ``instructions``, a call a ``function_call`` item after its turn's text, a result a
``function_call_output`` item, a tool without ``strict`` sent ``strict: false``, noted).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._plain._form import arguments_text
from toolwire._plain._names import NameCheck
from toolwire._plain.anthropic_read import use_of

__all__ = ["to_chat", "to_responses"]

_TOP = frozenset(
    {
        *("model", "system", "messages", "max_tokens", "temperature", "top_p", "stream"),
        *("tools", "tool_choice"),
    }
)
_MODES = {"auto": "auto", "any": "required", "none": "none"}
_CHAT: Final = NameCheck("openai-chat")
_RESPONSES: Final = NameCheck("openai-responses")


def _call(block: Any, called: set[str], names: NameCheck) -> tuple[str, str, str] | None:
    """The call id, name and arguments text of a ``tool_use`` block (its id added to
    ``called``; ``names``: the target's), else ``None``; raises ``KeyError`` for a block of four
    keys without one of its fields."""
    if type(block) is not dict or len(block) != 4 or block["type"] != "tool_use":
        return None
    call = use_of(block, called)  # the reader's check (None: the pass declines, `called` unused)
    if call is None:
        return None
    call_id, name, arguments = call
    if name not in names.valid and not names(name):
        return None
    text = arguments_text(arguments)
    if text is None:
        return None
    return call_id, name, text


def _tool_calls(call: tuple[str, str, str]) -> list[dict[str, Any]]:
    """The Chat ``tool_calls`` of one call."""
    return [{"id": call[0], "type": "function", "function": {"name": call[1], "arguments": call[2]}}]


def _call_item(call: tuple[str, str, str]) -> dict[str, Any]:
    """The Responses ``function_call`` item of one call."""
    return {"type": "function_call", "call_id": call[0], "name": call[1], "arguments": call[2]}


def _messages(messages: list[Any], out: list[dict[str, Any]], chat: bool) -> bool:
    """The Chat messages (``chat``), else the Responses items, of ``messages`` appended to
    ``out``, when each is of the module's shape; raises ``KeyError`` for a message or a block
    without a field its size requires. ``pending`` is the id of the call the next message must
    answer."""
    names = _CHAT if chat else _RESPONSES
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
                call = _call(block, called, names)
                if call is None:
                    return False
                pending = call[0]
                if chat:
                    append({"role": "assistant", "content": None, "tool_calls": _tool_calls(call)})
                else:
                    append(_call_item(call))
                continue
            if len(block) != 2 or block["type"] != "text":
                return False
            text = block["text"]
            if type(text) is not str or not text:
                return False
            if len(content) == 1:
                append({"role": "assistant", "content": text})
                continue
            call = _call(content[1], called, names)
            if call is None:
                return False
            pending = call[0]
            if chat:
                append({"role": "assistant", "content": text, "tool_calls": _tool_calls(call)})
            else:
                append({"role": "assistant", "content": text})
                append(_call_item(call))
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
        if chat:
            append({"role": "tool", "tool_call_id": call_id, "content": output})
        else:
            append({"type": "function_call_output", "call_id": call_id, "output": output})
        pending = None
    return pending is None


def _tools(wire: Any, chat: bool) -> tuple[list[dict[str, Any]], bool] | None:
    """The tools of ``name``, ``description``, ``input_schema`` and optionally ``strict`` as
    Chat (``chat``) or Responses tools, and whether the writer notes one (Responses: a tool
    without ``strict``), when their names are distinct and the target takes each; raises
    ``KeyError`` for a tool without a field its size requires."""
    if type(wire) is not list or not wire:
        return None
    names = _CHAT if chat else _RESPONSES
    tools: list[dict[str, Any]] = []
    seen: set[str] = set()
    noted = False
    for item in wire:
        if type(item) is not dict:
            return None
        size = len(item)
        name, description, schema = item["name"], item["description"], item["input_schema"]
        if size == 4:
            strict = item["strict"]
            if type(strict) is not bool:
                return None
        elif size != 3:
            return None
        else:
            strict = None
        if type(description) is not str or type(name) is not str or not name or type(schema) is not dict:
            return None
        if name in seen or (name not in names.valid and not names(name)):
            return None
        seen.add(name)
        if not chat:  # Responses: strict false when not given, noted
            if strict is None:
                strict, noted = False, True
            tool = {"type": "function", "name": name, "description": description, "parameters": schema}
            tool["strict"] = strict
            tools.append(tool)
        elif strict is None:
            tools.append(
                {
                    "type": "function",
                    "function": {"name": name, "description": description, "parameters": schema},
                }
            )
        else:
            inner = {"name": name, "description": description, "parameters": schema, "strict": strict}
            tools.append({"type": "function", "function": inner})
    return tools, noted


def _rest(p: dict[str, Any], out: dict[str, Any], chat: bool) -> bool | None:
    """The tools, the choice, the numbers and ``stream`` written into ``out`` in the target
    writer's order, and whether the writer notes something, when each is of the module's shape;
    else ``None``."""
    noted = False
    if "tools" in p:
        try:
            found = _tools(p["tools"], chat)
        except KeyError:
            return None
        if found is None:
            return None
        out["tools"], noted = found
        if "tool_choice" in p:
            choice = p["tool_choice"]
            if type(choice) is not dict or len(choice) != 1:
                return None
            kind = choice.get("type")
            if type(kind) is not str or kind not in _MODES:
                return None
            out["tool_choice"] = _MODES[kind]
    elif "tool_choice" in p:
        return None
    if "max_tokens" in p:
        value = p["max_tokens"]
        if type(value) is not int or not value >= 16:
            return None
        out["max_completion_tokens" if chat else "max_output_tokens"] = value
    for key in ("temperature", "top_p"):
        if key in p:
            value = p[key]
            if (type(value) is not int and type(value) is not float) or not 0 <= value <= 1:
                return None
            out[key] = value
    if "stream" in p:
        stream = p["stream"]
        if type(stream) is not bool:
            return None
        out["stream"] = stream
    return noted


def _start(p: Any) -> tuple[str, list[Any], str | None] | None:
    """The model, the messages and the system text of a request of the module's shape so far."""
    if type(p) is not dict or not _TOP.issuperset(p):
        return None
    model, messages = p.get("model"), p.get("messages")
    if type(model) is not str or not model or type(messages) is not list or not messages:
        return None
    system = None
    if "system" in p:
        system = p["system"]
        if type(system) is not str or not system:
            return None
    return model, messages, system


def to_chat(p: Any) -> dict[str, Any] | None:
    """The Chat request the Anthropic request ``p`` translates to (see the module docstring),
    or ``None``: not of that shape (the pair's lane then reads and writes it)."""
    start = _start(p)
    if start is None:
        return None
    model, messages, system = start
    out: list[dict[str, Any]] = [] if system is None else [{"role": "system", "content": system}]
    try:
        if not _messages(messages, out, True):
            return None
    except KeyError:
        return None
    payload: dict[str, Any] = {"model": model, "messages": out}
    return payload if _rest(p, payload, True) is not None else None


def to_responses(p: Any) -> tuple[dict[str, Any], bool] | None:
    """The Responses request the Anthropic request ``p`` translates to and whether the writer
    notes something for it (see the module docstring), or ``None``: not of that shape (the
    pair's lane then reads and writes it)."""
    start = _start(p)
    if start is None:
        return None
    model, messages, system = start
    items: list[dict[str, Any]] = []
    try:
        if not _messages(messages, items, False):
            return None
    except KeyError:
        return None
    payload: dict[str, Any] = {"model": model}
    if system is not None:
        payload["instructions"] = system
    payload["input"] = items
    noted = _rest(p, payload, False)
    return None if noted is None else (payload, noted)
