"""The Anthropic Messages reader and writer of the response lanes (see
:mod:`toolwire._plain._response_form`).

The shape :func:`read_response` reads (anything else returns ``None``, and the general path
runs): a ``message`` object ``{"id", "type": "message", "role": "assistant", "model",
"content", "stop_reason", "stop_sequence": null, "usage"}`` (every field there; a non-empty id
and model, a stop reason Anthropic defines) whose content is an optional ``{"type": "text",
"text"}`` block (non-empty text) then ``{"type": "tool_use", "id", "name", "input"}`` blocks
(non-empty strings, an object input, an id used once), at least one block; the usage is what the
Anthropic usage decoder reads.

:func:`write_response` writes what the Anthropic encoder writes for a response of another format:
the text block, the ``tool_use`` blocks (text arguments parsed to their object), the stop reason
(``tool_use`` for a turn that calls tools), ``stop_sequence: null`` and the usage (uncached
input tokens; zeros when there is none); ``None`` for arguments that are not a JSON object
or a call id it would rewrite.

``read_typed`` reads the same shape from what the format's typed schema decoded from a JSON body
(:mod:`toolwire._plain._response_wire`; ``translate_response_bytes``): the schema checked the
keys and types, it checks the values left, and makes the same :class:`PlainResponse`.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._callids import sanitize_call_id
from toolwire._plain._form import Call
from toolwire._plain._response_form import PlainResponse, distinct
from toolwire._plain._response_out import AnthropicOut, AnthropicTextOut, AnthropicToolUseOut
from toolwire._plain._response_wire import AnthropicText
from toolwire.errors import ToolwireError
from toolwire.formats.anthropic._usage import decode_usage, foreign_usage
from toolwire.formats.anthropic._util import parse_object
from toolwire.formats.anthropic.response import STOP_REASONS, stop_of
from toolwire.ir.response import Usage

# The imported names the hot paths read, as Finals: compiled, a static each, not a look-up in
# the module's globals each time one is read.
_STOP_REASONS: Final = STOP_REASONS
_TEXT_IN: Final = AnthropicText
_USAGE: Final = Usage
_OUT_TEXT: Final = AnthropicTextOut
_OUT_TOOL_USE: Final = AnthropicToolUseOut
_OUT_MESSAGE: Final = AnthropicOut

__all__ = ["read_response", "write_response", "write_wire"]

_KEYS = frozenset({"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"})
_SIZE = len(_KEYS)


def _content(blocks: Any, plain: PlainResponse) -> bool:
    """The text and calls of ``content`` read into ``plain``, when plain."""
    if type(blocks) is not list or not blocks:
        return False
    calls: list[Call] = []
    for index, block in enumerate(blocks):
        if type(block) is not dict:
            return False
        kind = block.get("type")
        if index == 0 and kind == "text":
            text = block.get("text")
            if len(block) != 2 or type(text) is not str or not text:  # "type" and "text" only
                return False
            plain.text = text
            continue
        if kind != "tool_use" or len(block) != 4:
            return False
        try:  # "type" and these three only: as many as the fields
            call_id, name, arguments = block["id"], block["name"], block["input"]
        except KeyError:
            return False
        if type(call_id) is not str or not call_id or type(arguments) is not dict:
            return False
        if type(name) is not str or not name:
            return False
        calls.append((call_id, name, arguments))
    if len(calls) > 1 and not distinct(calls):
        return False
    plain.calls = calls
    return True


def read_typed(m: Any) -> PlainResponse | None:
    """:func:`read_response` of a response its schema decoded (an :class:`AnthropicMessage`): the
    checks left are of values, the reader's own; the usage is ``decode_usage``'s of counts.
    ``m`` untyped: a count its schema types ``int`` may be ``None`` (compiled, a typed local
    would refuse it)."""
    reason = _STOP_REASONS.get(m.stop_reason)
    if reason is None or not m.id or not m.model or not m.content:
        return None
    plain = PlainResponse(m.id, m.model, reason, m.stop_reason)
    calls: list[Call] = []
    for index, block in enumerate(m.content):
        if type(block) is _TEXT_IN:
            if index or not block.text:
                return None
            plain.text = block.text
            continue
        call_id, name = block.id, block.name
        if not call_id or not name:
            return None
        calls.append((call_id, name, block.input))
    if len(calls) > 1 and not distinct(calls):
        return None
    plain.calls = calls
    u = m.usage
    uncached, read, write = u.input_tokens, u.cache_read_input_tokens, u.cache_creation_input_tokens
    plain.usage = _USAGE(
        input_tokens=None if uncached is None else uncached + (read or 0) + (write or 0),
        output_tokens=u.output_tokens,
        cached_tokens=read,
        cache_creation_tokens=write,
    )
    return plain


def read_response(p: Any) -> PlainResponse | None:
    """The :class:`PlainResponse` of a response ``p`` of the module docstring's shape, else
    ``None``."""
    if type(p) is not dict or len(p) != _SIZE:
        return None
    try:  # each of _KEYS, which are as many as the fields: the fields are _KEYS
        kind, role, response_id, model = p["type"], p["role"], p["id"], p["model"]
        stop, sequence, usage, content = p["stop_reason"], p["stop_sequence"], p["usage"], p["content"]
    except KeyError:
        return None
    if kind != "message" or role != "assistant":
        return None
    if type(response_id) is not str or not response_id or type(model) is not str or not model:
        return None
    reason = _STOP_REASONS.get(stop) if type(stop) is str else None
    if reason is None or sequence is not None or type(usage) is not dict:
        return None
    plain = PlainResponse(response_id, model, reason, stop)
    if not _content(content, plain):
        return None
    try:
        plain.usage = decode_usage(usage)
    except ToolwireError:
        return None
    return plain


def _input(call: Call) -> dict[str, Any] | None:
    """The ``input`` object of ``call``'s ``tool_use`` block, or ``None`` (an id rewritten,
    arguments not an object)."""
    call_id, _, arguments = call
    if sanitize_call_id(call_id) != call_id:
        return None
    if type(arguments) is str:
        arguments = parse_object(arguments)
    return arguments if type(arguments) is dict else None


def write_response(plain: PlainResponse) -> dict[str, Any] | None:
    """The Anthropic ``message`` the general path writes for ``plain`` (see the module
    docstring), or ``None``."""
    content: list[dict[str, Any]] = []
    if plain.text is not None:
        content.append({"type": "text", "text": plain.text})
    for call in plain.calls:
        arguments = _input(call)
        if arguments is None:
            return None
        content.append({"type": "tool_use", "id": call[0], "name": call[1], "input": arguments})
    stop = stop_of(plain.stop, bool(plain.calls))  # drop: the general path makes the notes
    return {
        "id": plain.id,
        "type": "message",
        "role": "assistant",
        "model": plain.model,
        "content": content,
        "stop_reason": stop,
        "stop_sequence": None,
        "usage": foreign_usage(plain.usage),
    }


def write_wire(plain: PlainResponse) -> Any:
    """:func:`write_response` as Structs that encode to the same JSON (the bytes API's writer,
    :mod:`toolwire._plain._response_out`), or ``None``."""
    content: list[Any] = []
    if plain.text is not None:
        content.append(_OUT_TEXT("text", plain.text))
    for call in plain.calls:
        arguments = _input(call)
        if arguments is None:
            return None
        content.append(_OUT_TOOL_USE("tool_use", call[0], call[1], arguments))
    stop = stop_of(plain.stop, bool(plain.calls))
    usage = foreign_usage(plain.usage)
    return _OUT_MESSAGE(plain.id, "message", "assistant", plain.model, content, stop, None, usage)
