"""The Anthropic Messages writer of the pair lanes (see :mod:`toolwire._plain._form`).

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

:func:`write_wire` is the bytes API's: the same request with its messages and blocks as msgspec
Structs (:mod:`toolwire._plain._request_out`) that encode to the same bytes, built by the same
loop. A call is written by one helper whatever its turn (:func:`tool_use`), and the call ids
are checked together at the end (:func:`ids_ok`).
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._callids import _VALID as _CALL_ID
from toolwire._json import _decoder
from toolwire._plain._form import ASSISTANT, CALL, RESULT, SYSTEM, USER, Plain, ids_match
from toolwire._plain._names import NameCheck
from toolwire._plain._request_out import (
    AnthropicMessageOut,
    AnthropicTextOut,
    AnthropicToolResultOut,
    AnthropicToolUseOut,
)
from toolwire.formats._ranges import RANGES
from toolwire.formats.anthropic._generation import DEFAULT_MAX_TOKENS

__all__ = ["finish", "ids_ok", "tool_use", "write", "write_wire"]

_CHOICES: dict[str, str] = {"auto": "auto", "required": "any", "none": "none"}
""":class:`Plain` choice mode -> Anthropic ``tool_choice.type``."""
_RANGES = RANGES["anthropic"]
_valid_id: Final = _CALL_ID.fullmatch  # what sanitize_call_id sends as is
_decode: Final = _decoder.decode
_name_ok: Final = NameCheck("anthropic")
"""Whether a tool name is one Anthropic takes as it is (nothing renamed)."""
_VALID_NAMES: Final = _name_ok.valid
"""The names found valid so far (the check's own set, filled as it finds them)."""


def tool_use(call_id: Any, name: Any, arguments: Any, wire: bool) -> Any:
    """The ``tool_use`` block of one call (a Struct when ``wire``), or ``None`` for a name the
    general path renames or arguments that are no JSON object (text parsed as the decoders parse
    it, ``{}`` for ``""``). The call id is not checked here: :func:`ids_ok` checks them all."""
    if type(name) is not str or (name not in _VALID_NAMES and not _name_ok(name)):
        return None
    if type(arguments) is str:
        try:  # arguments_object inline (no call): the JSON object of the text, {} for ""
            parsed = _decode(arguments) if arguments else {}
        except Exception:
            return None
        if type(parsed) is not dict:
            return None
        arguments = parsed
    elif type(arguments) is not dict:
        return None
    if wire:
        return AnthropicToolUseOut("tool_use", call_id, name, arguments)
    return {"type": "tool_use", "id": call_id, "name": name, "input": arguments}


def _id_ok(call_id: Any) -> bool:
    """Whether ``call_id`` is one ``sanitize_call_id`` sends as it is."""
    return type(call_id) is str and _valid_id(call_id) is not None


def ids_ok(ids: set[Any]) -> bool:
    """Whether every call id of ``ids`` is one ``sanitize_call_id`` sends as it is: one match over
    them all (a match per id cost about as much as writing its turn; for two ids, about the same
    as joining them), an empty one found in the set (joined, it would vanish)."""
    return ids_match(ids, _valid_id)


def _results(results: Any, blocks: list[Any], ids: set[Any], wire: bool) -> bool:
    """The ``tool_result`` blocks of ``results`` added to ``blocks`` (Structs when ``wire``);
    ``False`` for a call id the
    general path escapes (one of ``ids`` is checked by :func:`ids_ok`) or an empty output (no
    content from Chat, an empty text from Anthropic)."""
    for call_id, output in results:
        if not output or (call_id not in ids and not _id_ok(call_id)):
            return False
        if wire:
            blocks.append(AnthropicToolResultOut("tool_result", call_id, output))
        else:
            blocks.append({"type": "tool_result", "tool_use_id": call_id, "content": output})
    return True


def _messages(plain: Plain) -> tuple[list[str], list[Any]] | None:
    """The system texts and the merged turns of ``plain`` as dicts, or ``None``: turns of one
    role in a row are one message, results answer the assistant turn with calls right before
    them.

    One loop over the turns, a complete branch per kind (most common first), each writing its
    dicts straight (the bytes API's Structs have their own loop, :func:`_wire_messages`: no
    check of which per turn); ``open_calls`` says the last message is an assistant one ending in
    a ``tool_use`` block (its turn had calls), which the next results answer. The call ids are
    gathered in ``ids`` and checked together at the end (any invalid one: ``None``, as when
    checked one by one)."""
    system: list[str] = []
    out: list[Any] = []
    append = out.append
    role: str | None = None  # the role of the last message
    blocks: list[Any] = []  # its content
    ids: set[Any] = set()  # the call ids written (checked at the end)
    add_id = ids.add
    open_calls = False
    for turn in plain.turns:
        kind: int = turn[0]  # a turn kind: the readers make ints (typed: compiled, a C compare)
        if kind == USER:
            text = turn[1]
            if not text:
                return None
            if role == "user":
                blocks.append({"type": "text", "text": text})
            else:
                role = "user"
                blocks = [{"type": "text", "text": text}]
                append({"role": "user", "content": blocks})
            open_calls = False
        elif kind == RESULT:  # the one result of the assistant turn with calls right before
            call_id = turn[1]
            output = turn[2]
            if not open_calls or not output or (call_id not in ids and not _id_ok(call_id)):
                return None
            open_calls = False
            role = "user"
            blocks = [{"type": "tool_result", "tool_use_id": call_id, "content": output}]
            append({"role": "user", "content": blocks})
        elif kind == CALL:  # a turn of one call (no text)
            if role == "assistant":
                return None
            call_id = turn[1]
            name = turn[2]
            arguments = turn[3]
            block = tool_use(call_id, name, arguments, False)
            if block is None:
                return None
            add_id(call_id)
            role = "assistant"
            blocks = [block]
            append({"role": "assistant", "content": blocks})
            open_calls = True
        elif kind == ASSISTANT:
            text = turn[1]
            calls = turn[2]
            if role == "assistant" or text == "" or (text is None and not calls):
                return None
            role = "assistant"
            blocks = [] if text is None else [{"type": "text", "text": text}]
            append({"role": "assistant", "content": blocks})
            if calls:
                open_calls = True
                for call_id, name, arguments in calls:
                    block = tool_use(call_id, name, arguments, False)
                    if block is None:
                        return None
                    add_id(call_id)
                    blocks.append(block)
            else:
                open_calls = False
        elif kind == SYSTEM:
            if not turn[2]:
                return None  # the encoder leaves an empty text out
            if out:
                plain.noted = True  # a mid-conversation system message moved to the top
            system.append(turn[2])
        else:  # results: of the assistant turn with calls right before
            results = turn[1]
            if not open_calls or not results:
                return None
            open_calls = False
            role, blocks = "user", []
            if not _results(results, blocks, ids, False):
                return None
            append({"role": role, "content": blocks})
    return (system, out) if ids_ok(ids) else None


def _wire_messages(plain: Plain) -> tuple[list[str], list[Any]] | None:
    """:func:`_messages` with the messages and blocks as the Structs that encode as its dicts
    (the bytes API's: :mod:`toolwire._plain._request_out`), built at the same places; a message
    of one block holds it in a tuple (encoded as the same array: one object less than a list,
    and no container for the collector to keep scanning), a user text after a user message is
    added to its tuple (a new one: ``+=``)."""
    system: list[str] = []
    out: list[Any] = []
    append = out.append
    role: str | None = None  # the role of the last message
    message = AnthropicMessageOut(None, ())  # the last message (a placeholder until the first)
    ids: set[Any] = set()  # the call ids written (checked at the end)
    add_id = ids.add
    open_calls = False
    for turn in plain.turns:
        kind: int = turn[0]  # a turn kind: the readers make ints (typed: compiled, a C compare)
        if kind == USER:
            text = turn[1]
            if not text:
                return None
            if role == "user":
                message.content += (AnthropicTextOut("text", text),)
            else:
                role = "user"
                message = AnthropicMessageOut("user", (AnthropicTextOut("text", text),))
                append(message)
            open_calls = False
        elif kind == RESULT:  # the one result of the assistant turn with calls right before
            call_id = turn[1]
            output = turn[2]
            if not open_calls or not output or (call_id not in ids and not _id_ok(call_id)):
                return None
            open_calls = False
            role = "user"
            message = AnthropicMessageOut("user", (AnthropicToolResultOut("tool_result", call_id, output),))
            append(message)
        elif kind == CALL:  # a turn of one call (no text)
            if role == "assistant":
                return None
            call_id = turn[1]
            name = turn[2]
            arguments = turn[3]
            block = tool_use(call_id, name, arguments, True)
            if block is None:
                return None
            add_id(call_id)
            role = "assistant"
            message = AnthropicMessageOut("assistant", (block,))
            append(message)
            open_calls = True
        elif kind == ASSISTANT:
            text = turn[1]
            calls = turn[2]
            if role == "assistant" or text == "" or (text is None and not calls):
                return None
            role = "assistant"
            blocks: list[Any] = [] if text is None else [AnthropicTextOut("text", text)]
            message = AnthropicMessageOut("assistant", blocks)
            append(message)
            if calls:
                open_calls = True
                for call_id, name, arguments in calls:
                    block = tool_use(call_id, name, arguments, True)
                    if block is None:
                        return None
                    add_id(call_id)
                    blocks.append(block)
            else:
                open_calls = False
        elif kind == SYSTEM:
            if not turn[2]:
                return None  # the encoder leaves an empty text out
            if out:
                plain.noted = True  # a mid-conversation system message moved to the top
            system.append(turn[2])
        else:  # results: of the assistant turn with calls right before
            results = turn[1]
            if not open_calls or not results:
                return None
            open_calls = False
            role, blocks = "user", []
            if not _results(results, blocks, ids, True):
                return None
            message = AnthropicMessageOut(role, blocks)
            append(message)
    return (system, out) if ids_ok(ids) else None


def _prefill_ok(turns: list[tuple[Any, ...]]) -> bool:
    """Whether the general path keeps the last message as is (a prefill, an assistant last
    message, ending in whitespace is trimmed, noted). Read from the turns: the last message is
    the last turn's but a system one (hoisted), and an assistant turn is never merged into the
    message before it, so it ends in a text block when that turn has no calls."""
    index = len(turns) - 1
    while index > 0 and turns[index][0] == SYSTEM:
        index -= 1
    turn = turns[index]
    if turn[0] != ASSISTANT or turn[2]:
        return True
    text = turn[1]  # not None: a turn of no text and no calls is refused
    return type(text) is str and text == text.rstrip()


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


def _tools_out(tools: Any) -> tuple[list[dict[str, Any]], set[str]] | None:
    out: list[dict[str, Any]] = []
    names: set[str] = set()
    valid = _name_ok.valid
    for name, description, parameters, strict in tools:
        if type(name) is not str or (name not in valid and not _name_ok(name)) or name in names:
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


def _choice_out(plain: Plain, names: set[str]) -> dict[str, Any] | bool | None:
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
        out = {"type": _CHOICES[choice]}
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


def write(plain: Plain, wire: bool = False) -> dict[str, Any] | None:
    """The Anthropic request the general path writes for ``plain`` (from another format), or
    ``None`` (see the module docstring); sets ``plain.noted`` when the general path notes.
    ``wire``: the conversation as Structs that encode to the same JSON (:func:`write_wire`)."""
    found = _wire_messages(plain) if wire else _messages(plain)
    if found is None or not found[1] or not _prefill_ok(plain.turns):
        return None
    return finish(plain, found[0], found[1])


def finish(plain: Plain, system: list[str], messages: list[Any]) -> dict[str, Any] | None:
    """The request of ``plain``'s fields around its written ``system`` texts and ``messages``
    (not empty, the prefill checked), or ``None`` (see the module docstring); sets
    ``plain.noted`` when the general path notes. :func:`write`'s, and the one passes' into
    Anthropic (:mod:`~toolwire._plain.responses_anthropic`)."""
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


def write_wire(plain: Plain) -> dict[str, Any] | None:
    """:func:`write` with the conversation as Structs that encode to the same JSON (the bytes
    API's writer: :mod:`toolwire._plain._request_out`)."""
    return write(plain, True)
