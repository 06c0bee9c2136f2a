"""The Bedrock Converse writer of the response lanes (see :mod:`toolwire._plain._response_form`).

:func:`write_response` writes what ``formats.bedrock_converse.response.encode_response`` writes
for a response of another format: ``output.message`` (role ``assistant``; the text block, then
a ``toolUse`` block a call, its ``input`` the arguments parsed as the encoder parses them, an
object source's through the compact text its decoder makes), the ``stopReason`` of the stop,
the usage as ``TokenUsage`` (the cached counts taken out of ``inputTokens``; zeros when there
is none) and ``metrics.latencyMs`` 0. The lane runs under ``drop``: the general path makes the
notes (the source's id, model and time dropped, the latency made up).

It returns ``None`` (the general path runs) for what the encoder would change or refuse: a call
id outside Bedrock's ``ToolUseId`` pattern (the encoder renames it), arguments that are not JSON
text of an object (sent as ``{}``), cached counts over the input count (sent as 0), a stop it
has no value for. A Bedrock response has no id or model, so there is no Bedrock reader: another
format's writer would have to make them up as the general path does.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._json import loads
from toolwire._plain._response_form import PlainResponse, arguments_json
from toolwire.errors import ToolwireError
from toolwire.formats.bedrock_converse._keys import TOOL_USE_ID, WIRE_STOP
from toolwire.ir.response import Usage

__all__ = ["write_response", "write_response_objects"]

_STOP: Final = WIRE_STOP  # compiled, a static: not a look-up in the module's globals each call
_CALL_ID: Final = TOOL_USE_ID.fullmatch
_LOADS: Final = loads


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
