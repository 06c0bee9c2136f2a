"""The Bedrock Converse reader and writer of the response lanes (see
:mod:`toolwire._plain._response_form`).

Reading: the shape :func:`read_response` reads (anything else returns ``None``, and the general
path runs): ``{"output": {"message": {"role": "assistant", "content"}}, "stopReason", "usage"?,
"metrics"?}`` (no other field), the content an optional ``{"text"}`` block (a non-empty string)
then ``{"toolUse": {"toolUseId", "name", "input"}}`` blocks (non-empty strings, an object input,
an id used once), at least one block; a string ``stopReason`` of a call turn (``tool_use``)
exactly when there are calls; the usage as the Bedrock decoder reads it. A Bedrock body has no
id, model or creation time: the id is the one the decoder derives from the body (``bedrock_``
and a hash of it), the model ``""`` (each writer writes what its encoder writes for none), the
time unknown. A call's arguments are the compact JSON text the decoder makes of its input.

Writing: :func:`write_response` writes what ``formats.bedrock_converse.response.encode_response``
writes for a response of another format: ``output.message`` (role ``assistant``; the text block,
then a ``toolUse`` block a call, its ``input`` the arguments parsed as the encoder parses them,
an object source's through the compact text its decoder makes), the ``stopReason`` of the stop,
the usage as ``TokenUsage`` (the cached counts taken out of ``inputTokens``; zeros when there
is none) and ``metrics.latencyMs`` 0. The lane runs under ``drop``: the general path makes the
notes (the source's id, model and time dropped, the latency made up).

It returns ``None`` (the general path runs) for what the encoder would change or refuse: a call
id outside Bedrock's ``ToolUseId`` pattern (the encoder renames it), arguments that are not JSON
text of an object (sent as ``{}``), cached counts over the input count (sent as 0), a stop it
has no value for.

The bytes API decodes a JSON body straight into ``_response_wire.BedrockResponse`` (msgspec's
checks, in C) and :func:`read_typed` reads what the dict reader reads of the same body; the id
is a hash of the body's JSON with sorted keys, which the Structs encode to as the dict does.
"""

from __future__ import annotations

from typing import Any, Final

from msgspec import UNSET

from toolwire._json import loads
from toolwire._plain._form import Call
from toolwire._plain._response_form import PlainResponse, arguments_json, distinct, typed_parts
from toolwire.errors import ToolwireError
from toolwire.formats.bedrock_converse._keys import (
    STOP_REASONS,
    TOOL_USE_ID,
    WIRE_STOP,
    decode_usage,
    usage_of_counts,
)
from toolwire.formats.bedrock_converse.response import body_id
from toolwire.ir.response import Usage

__all__ = ["read_response", "read_typed", "read_typed_objects", "write_response", "write_response_objects"]

_KEYS: Final = frozenset({"output", "stopReason", "usage", "metrics"})
_STOPS: Final = STOP_REASONS  # compiled, a static: not a look-up in the module's globals each call
_STOP: Final = WIRE_STOP
_CALL_ID: Final = TOOL_USE_ID.fullmatch
_LOADS: Final = loads


def _call(use: Any) -> Call | None:
    """The call of a ``toolUse`` block's body, when plain: its arguments the decoder's text of
    the input."""
    if type(use) is not dict or len(use) != 3:
        return None
    try:  # these three, as many as the fields: the fields are these
        call_id, name, value = use["toolUseId"], use["name"], use["input"]
    except KeyError:
        return None
    if type(call_id) is not str or not call_id or type(name) is not str or not name:
        return None
    if type(value) is not dict:
        return None
    arguments = arguments_json(value)
    return None if arguments is None else (call_id, name, arguments)


def _blocks(content: Any, plain: PlainResponse) -> bool:
    """The text and calls of the message's ``content`` read into ``plain``, when plain."""
    if type(content) is not list or not content:
        return False
    for index, block in enumerate(content):
        if type(block) is not dict or len(block) != 1:
            return False
        if index == 0 and "text" in block:
            text = block["text"]
            if type(text) is not str or not text:
                return False
            plain.text = text
        elif "toolUse" in block:
            call = _call(block["toolUse"])
            if call is None:
                return False
            plain.calls.append(call)
        else:
            return False
    return len(plain.calls) < 2 or distinct(plain.calls)


def read_response(p: Any) -> PlainResponse | None:
    """The :class:`PlainResponse` of a ``Converse`` response ``p`` of the module docstring's
    shape, else ``None``."""
    if type(p) is not dict or not p.keys() <= _KEYS:
        return None
    output, raw = p.get("output"), p.get("stopReason")
    if type(output) is not dict or len(output) != 1 or type(raw) is not str:
        return None
    message = output.get("message")
    if type(message) is not dict or len(message) != 2 or message.get("role") != "assistant":
        return None
    stop = _STOPS.get(raw, "other")
    plain = PlainResponse("", "", stop, raw)
    if not _blocks(message.get("content"), plain) or (stop == "tool_calls") != bool(plain.calls):
        return None
    usage = p.get("usage")
    try:  # not an object, a count not an integer: the decoder says so
        if usage is not None:
            plain.usage = decode_usage(usage)
        plain.id = body_id(p)  # the decoder's
    except ToolwireError:
        return None
    return plain


def read_typed(r: Any, objects: bool = False) -> PlainResponse | None:
    """:func:`read_response` of a body decoded by ``_response_wire.BedrockResponse`` (the bytes
    API's), the same :class:`PlainResponse` as of its dict, or ``None``. ``r`` untyped: the
    Structs are not compiled classes. ``objects``: see :func:`read_typed_objects`."""
    raw = r.stop_reason
    stop = _STOPS.get(raw, "other")
    plain = PlainResponse("", "", stop, raw)
    if not typed_parts(r.output.message.content, plain, objects):
        return None
    if (stop == "tool_calls") != bool(plain.calls):
        return None
    u = r.usage
    if u is not None and u is not UNSET:  # counts msgspec checked: decode_usage's of them
        read, write = u.cache_read_input_tokens, u.cache_write_input_tokens
        plain.usage = usage_of_counts(u.input_tokens, u.output_tokens, u.total_tokens, read, write)
    plain.id = body_id(r)  # the decoder's: the Structs encode as the dict
    return plain


def read_typed_objects(r: Any) -> PlainResponse | None:
    """:func:`read_typed` for a target of object arguments (Anthropic), the bytes API's only: a
    call's arguments the decoded ``input`` object itself, not its text, which the writer would
    parse back to an equal object (``_response_form.typed_parts``)."""
    return read_typed(r, True)


def _input(arguments: Any) -> dict[str, Any] | None:
    """The ``toolUse.input`` of a call's arguments as the encoder parses them (``{}`` for empty
    text), ``None`` when they are not JSON text of an object (or too deep: the encoder's error)."""
    text = arguments_json(arguments)  # an object source's: the text its decoder makes
    if text is None:
        return None
    if not text:
        return {}
    try:
        value = _LOADS(text)
    except ToolwireError:
        return None
    return value if type(value) is dict else None


def _content(plain: PlainResponse, objects: bool) -> list[dict[str, Any]] | None:
    """The message's content blocks: the text (an empty one the encoder leaves out), then the
    calls (``objects``: see :func:`write_response_objects`)."""
    content: list[dict[str, Any]] = []
    if plain.text:
        content.append({"text": plain.text})
    for call_id, name, arguments in plain.calls:
        if _CALL_ID(call_id) is None:
            return None
        value = arguments if objects and type(arguments) is dict else _input(arguments)
        if value is None:
            return None
        content.append({"toolUse": {"toolUseId": call_id, "name": name, "input": value}})
    return content


def _usage(usage: Usage | None) -> dict[str, Any] | None:
    """``encode_usage`` of another format's usage, without its notes: the three counts (a
    missing one 0, the total the sum when unknown), then the cache counts given; ``None`` for
    cached counts over the input count."""
    if usage is None:
        return {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}
    inp, output, total = usage.input_tokens, usage.output_tokens, usage.total_tokens
    cached, write = usage.cached_tokens, usage.cache_creation_tokens
    uncached = 0
    if inp is not None:
        uncached = inp - (cached or 0) - (write or 0)
        if uncached < 0:
            return None
    out: dict[str, Any] = {
        "inputTokens": uncached,
        "outputTokens": 0 if output is None else output,
        "totalTokens": (inp or 0) + (output or 0) if total is None else total,
    }
    if cached is not None:
        out["cacheReadInputTokens"] = cached
    if write is not None:
        out["cacheWriteInputTokens"] = write
    return out


def write_response(plain: PlainResponse) -> dict[str, Any] | None:
    """The Bedrock ``Converse`` response the general path writes for ``plain`` (see the module
    docstring), or ``None``."""
    return _response(plain, False)


def write_response_objects(plain: PlainResponse) -> dict[str, Any] | None:
    """:func:`write_response` of what a reader of object arguments made its own copy of
    (``gemini_response.read_response_objects``): a call's arguments object is the ``input`` as
    it is, not written as text and parsed back. Only for such readers: an object another reader
    hands over (Anthropic's ``input``) belongs to the caller's payload."""
    return _response(plain, True)


def _response(plain: PlainResponse, objects: bool) -> dict[str, Any] | None:
    stop = _STOP.get(plain.stop)
    if stop is None:
        return None
    content = _content(plain, objects)
    if content is None:
        return None
    usage = _usage(plain.usage)
    if usage is None:
        return None
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": usage,
        "metrics": {"latencyMs": 0},
    }
