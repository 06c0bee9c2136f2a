"""The Bedrock Converse writer of the pair lanes (see :mod:`toolwire._plain._form`).

:func:`write` writes what the general path writes for a :class:`Plain` from another format
(``formats.bedrock_converse.request.encode_request``): system turns hoisted to ``system`` text
blocks (a system turn after the conversation started is noted), consecutive turns of one role
merged into one message (a results turn first in its user message), a call a ``toolUse`` block
with its arguments as the ``input`` object, a result a ``toolResult`` block of one text;
``inferenceConfig`` of ``maxTokens``, ``temperature`` and ``topP``; ``toolConfig`` of
``toolSpec`` tools and the tool choice (a placeholder tool per name the history calls when the
request has no tools, noted); ``requestMetadata``. No model and no ``stream`` (both belong in
the URL); the end-user id and the parallel switch are dropped, noted.

It returns ``None`` for what the general path would rewrite or refuse: a tool or call name
outside Bedrock's rules, two tools of one name, a call id outside ``ToolUseId`` (escaped),
arguments that are no JSON object, an empty text or result output, numbers outside Bedrock's
ranges, a tool choice ``none``, one without tools or naming no tool, the parallel switch
without tools, no turn left but system text, a call without its result (which the readers never
give: the general path refuses it).

:func:`write_wire` is the bytes API's: the same body with its messages and blocks as msgspec
Structs (:mod:`toolwire._plain._request_out`) that encode to the same bytes, built by the same
loop.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._plain._form import ASSISTANT, CALL, RESULT, SYSTEM, USER, Plain, arguments_object, ids_match
from toolwire._plain._names import NameCheck
from toolwire._plain._request_out import (
    BedrockMessageOut,
    BedrockTextOut,
    BedrockToolResultBlockOut,
    BedrockToolResultOut,
    BedrockToolUseBlockOut,
    BedrockToolUseOut,
)
from toolwire.formats._ranges import RANGES
from toolwire.formats.bedrock_converse._keys import TOOL_USE_ID_CHARS, TOOL_USE_ID_LENGTH
from toolwire.formats.bedrock_converse.request import placeholder_tools

__all__ = ["write", "write_wire"]

_CHOICES: Final[dict[str, str]] = {"auto": "auto", "required": "any"}
""":class:`Plain` choice mode -> the key of Bedrock's ``toolChoice`` (``none`` has none)."""
_RANGES: Final = RANGES["bedrock-converse"]
_id_chars: Final = TOOL_USE_ID_CHARS.fullmatch
_name_ok: Final = NameCheck("bedrock-converse")
"""Whether a tool name is one Bedrock takes as it is (nothing renamed)."""
_VALID_NAMES: Final = _name_ok.valid
"""The names found valid so far (the check's own set, filled as it finds them)."""
# The Structs the bytes API's writer builds, as Finals: compiled, a static each.
_MESSAGE_OUT: Final = BedrockMessageOut
_TEXT_OUT: Final = BedrockTextOut
_USE_OUT: Final = BedrockToolUseOut
_USE_BLOCK_OUT: Final = BedrockToolUseBlockOut
_RESULT_OUT: Final = BedrockToolResultOut
_RESULT_BLOCK_OUT: Final = BedrockToolResultBlockOut


def _tool_use(call_id: Any, name: Any, arguments: Any, called: dict[str, None], wire: bool) -> Any:
    """The ``toolUse`` block of one call, its name added to ``called``, or ``None`` for a name
    the general path renames or arguments that are no JSON object (text parsed as the decoders
    parse it, ``{}`` for ``""``). The call id is checked with the others (:func:`_ids_ok`)."""
    if type(name) is not str or (name not in _VALID_NAMES and not _name_ok(name)):
        return None
    if type(arguments) is str:
        arguments = arguments_object(arguments)
        if arguments is None:
            return None
    elif type(arguments) is not dict:
        return None
    called[name] = None
    if wire:
        return _USE_BLOCK_OUT(_USE_OUT(call_id, name, arguments))
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": arguments}}


def _ids_ok(ids: set[Any]) -> bool:
    """Whether every id of ``ids`` is one the encoder sends as it is (a ``ToolUseId`` of 1 to 64
    characters of its set: it escapes others, noted), checked together (``ids_match``)."""
    return ids_match(ids, _id_chars, TOOL_USE_ID_LENGTH)


def _result(call_id: Any, output: Any, wire: bool) -> Any:
    """The ``toolResult`` block of a result of one text (Structs when ``wire``)."""
    if wire:
        return _RESULT_BLOCK_OUT(_RESULT_OUT(call_id, (_TEXT_OUT(output),)))
    return {"toolResult": {"toolUseId": call_id, "content": [{"text": output}]}}


def _messages(
    plain: Plain, called: dict[str, None], wire: bool
) -> tuple[list[dict[str, str]], list[Any]] | None:
    """The system blocks and the merged messages of ``plain``, or ``None``; the names the calls
    use gathered in ``called`` (in order: the placeholder tools'). One loop over the turns, a
    branch per kind (most common first). ``pending`` holds the ids of the last turn's calls,
    which the next turn answers, each once (the id of a turn of one call, else a set): a call
    left unanswered, a result of another call or an id used twice is refused by the general
    path (the readers give none). The ids are checked against ``ToolUseId`` together at the end.
    ``wire``: the messages and blocks as the Structs that encode as these dicts (the bytes API's:
    :mod:`toolwire._plain._request_out`), built at the same places."""
    system: list[dict[str, str]] = []
    out: list[Any] = []
    append = out.append
    role: str | None = None  # the role of the last message
    blocks: list[Any] = []  # its content
    ids: set[Any] = set()  # every call id
    pending: Any = None  # the call ids to answer next: one id (a str), or a set
    for turn in plain.turns:
        kind: int = turn[0]
        if kind == USER:
            text = turn[1]
            if not text or pending is not None:
                return None
            block = _TEXT_OUT(text) if wire else {"text": text}
            if role == "user":
                blocks.append(block)
            else:
                role = "user"
                blocks = [block]
                append(_MESSAGE_OUT("user", blocks) if wire else {"role": "user", "content": blocks})
        elif kind == RESULT:
            call_id, output = turn[1], turn[2]
            if not output or type(output) is not str:
                return None
            if call_id != pending and (
                type(pending) is not set or len(pending) != 1 or call_id not in pending
            ):
                return None
            pending = None
            role = "user"
            blocks = [_result(call_id, output, wire)]
            append(_MESSAGE_OUT("user", blocks) if wire else {"role": "user", "content": blocks})
        elif kind == CALL:
            call_id = turn[1]
            if role == "assistant" or call_id in ids:
                return None
            block = _tool_use(call_id, turn[2], turn[3], called, wire)
            if block is None:
                return None
            ids.add(call_id)
            pending = call_id
            role = "assistant"
            blocks = [block]
            append(_MESSAGE_OUT("assistant", blocks) if wire else {"role": "assistant", "content": blocks})
        elif kind == ASSISTANT:
            text, calls = turn[1], turn[2]
            if role == "assistant" or text == "" or (text is None and not calls):
                return None
            role = "assistant"
            blocks = [] if text is None else [_TEXT_OUT(text) if wire else {"text": text}]
            append(_MESSAGE_OUT("assistant", blocks) if wire else {"role": "assistant", "content": blocks})
            for call_id, name, arguments in calls:
                block = _tool_use(call_id, name, arguments, called, wire)
                if block is None or call_id in ids:
                    return None
                ids.add(call_id)
                blocks.append(block)
            pending = {call[0] for call in calls} if calls else None
        elif kind == SYSTEM:
            if not turn[2]:
                return None  # the encoder leaves an empty text out
            if out:
                plain.noted = True  # a mid-conversation system message moved to the top
            system.append({"text": turn[2]})
        else:  # results: of the assistant turn with calls right before
            results = turn[1]
            wanted = {pending} if type(pending) is str else pending
            if not results or type(wanted) is not set or len(results) != len(wanted):
                return None
            role, blocks = "user", []
            for call_id, output in results:
                if not output or type(output) is not str or call_id not in wanted:
                    return None
                wanted.discard(call_id)
                blocks.append(_result(call_id, output, wire))
            pending = None
            append(_MESSAGE_OUT(role, blocks) if wire else {"role": role, "content": blocks})
    return (system, out) if pending is None and _ids_ok(ids) else None


def _inference(plain: Plain) -> dict[str, Any] | bool | None:
    """``inferenceConfig`` (``None``: none given; ``False``: a number outside Bedrock's range,
    which the general path fits, noted)."""
    out: dict[str, Any] = {}
    for wire, key in (("maxTokens", "max_tokens"), ("temperature", "temperature"), ("topP", "top_p")):
        value = getattr(plain, key)
        if value is not None:
            low, high = _RANGES[key]
            if not low <= value or (high is not None and not value <= high):
                return False
            out[wire] = value
    return out or None


def _tools(tools: Any, plain: Plain) -> tuple[list[dict[str, Any]], set[str]] | None:
    """The ``toolSpec`` tools and their names, or ``None`` (a name renamed or twice)."""
    out: list[dict[str, Any]] = []
    names: set[str] = set()
    for name, description, parameters, strict in tools:
        if type(name) is not str or (name not in _VALID_NAMES and not _name_ok(name)) or name in names:
            return None
        names.add(name)
        spec: dict[str, Any] = {"name": name}
        if description:
            spec["description"] = description
        elif description == "":
            plain.noted = True  # an empty description is left out (Bedrock refuses it)
        schema = parameters if parameters is not None else {"type": "object", "properties": {}}
        spec["inputSchema"] = {"json": schema}
        if strict is not None:
            spec["strict"] = strict
        out.append({"toolSpec": spec})
    return out, names


def _tool_config(plain: Plain, called: dict[str, None]) -> dict[str, Any] | bool | None:
    """``toolConfig`` (``None``: none; ``False``: what the general path fits or refuses)."""
    tools, choice = plain.tools, plain.choice
    if not tools:
        if choice is not None or plain.parallel is not None:
            return False
        if not called:
            return None
        plain.noted = True  # tool definitions synthesized for the history's calls
        return {"tools": placeholder_tools(called)}
    found = _tools(tools, plain)
    if found is None:
        return False
    out: dict[str, Any] = {"tools": found[0]}
    if plain.parallel is not None:
        plain.noted = True  # Bedrock has no switch for parallel tool calls
    if type(choice) is tuple:
        if choice[1] not in found[1]:
            return False
        out["toolChoice"] = {"tool": {"name": choice[1]}}
    elif choice is not None:
        key = _CHOICES.get(choice)
        if key is None:  # none: sent as a request without tools, or dropped
            return False
        out["toolChoice"] = {key: {}}
    return out


def write(plain: Plain, wire: bool = False) -> dict[str, Any] | None:
    """The Bedrock ``Converse`` body the general path writes for ``plain`` (from another
    format), or ``None`` (see the module docstring); sets ``plain.noted`` when the general path
    notes. ``wire``: the messages as Structs that encode to the same JSON (:func:`write_wire`)."""
    called: dict[str, None] = {}
    found = _messages(plain, called, wire)
    if found is None or not found[1]:
        return None
    system, messages = found
    out: dict[str, Any] = {"messages": messages}
    if system:
        out["system"] = system
    inference = _inference(plain)
    if inference is False:
        return None
    if inference is not None:
        out["inferenceConfig"] = inference
    config = _tool_config(plain, called)
    if config is False:
        return None
    if config is not None:
        out["toolConfig"] = config
    metadata = plain.metadata
    if metadata is not None:
        kept = {key: value for key, value in metadata.items() if type(value) is str}
        if len(kept) != len(metadata):
            plain.noted = True  # requestMetadata takes string values only
        if kept:
            out["requestMetadata"] = kept
    if plain.user is not None:
        plain.noted = True  # Bedrock has no end-user id
    return out


def write_wire(plain: Plain) -> dict[str, Any] | None:
    """:func:`write` with the messages and their blocks as Structs that encode to the same JSON
    (the bytes API's writer: :mod:`toolwire._plain._request_out`)."""
    return write(plain, True)
