"""The OpenAI Chat reader and writer of the response lanes (see :mod:`toolwire._plain._response_form`).

The shape it reads (anything else returns ``None``, and the general path runs): a
``chat.completion`` object ``{"id", "object", "created", "model", "choices", "usage"?}`` (a
non-empty id and model, an integer creation time) with one choice ``{"index": 0, "message",
"finish_reason", "logprobs": null?}`` whose finish reason Chat defines, and whose message is
``{"role": "assistant", "content", "tool_calls"?, "refusal": null?}``: a non-empty text or
``null`` with calls, then function calls ``{"id", "type": "function", "function": {"name",
"arguments"}}`` (non-empty strings, an id used once); usage of the fields the Chat decoder knows.

``read_typed`` reads the same shape from what the format's typed schema decoded from a JSON body
(:mod:`toolwire._plain._response_wire`; ``translate_response_bytes``): the schema checked the
keys and types, it checks the values left, and makes the same :class:`PlainResponse`.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._plain._form import Call
from toolwire._plain._response_form import PlainResponse, arguments_json, distinct, typed_usage
from toolwire._plain._response_out import (
    ChatCallOut,
    ChatChoiceOut,
    ChatFunctionOut,
    ChatMessageOut,
    ChatOut,
    ChatOutBare,
    ChatTextOut,
)
from toolwire.errors import ToolwireError
from toolwire.formats._openai_usage import counts_only
from toolwire.formats.openai_chat.response import (
    _NAMES,
    FINISH_REASONS,
    decode_usage,
    finish_of,
    foreign_usage,
)
from toolwire.ir.response import Usage

# The imported names the hot paths read, as Finals: compiled, a static each, not a look-up in
# the module's globals each time one is read.
_FINISH_REASONS: Final = FINISH_REASONS
_USAGE_NAMES: Final = _NAMES
_USAGE: Final = Usage
_OUT_CALL: Final = ChatCallOut
_OUT_CHOICE: Final = ChatChoiceOut
_OUT_FUNCTION: Final = ChatFunctionOut
_OUT_MESSAGE: Final = ChatMessageOut
_OUT_RESPONSE: Final = ChatOut
_OUT_BARE: Final = ChatOutBare
_OUT_TEXT: Final = ChatTextOut

__all__ = ["read_response", "write_response", "write_wire"]


def _calls(wire: Any) -> list[Call] | None:
    """The function calls of ``tool_calls``, when each is plain and their ids distinct."""
    if type(wire) is not list or not wire:
        return None
    out: list[Call] = []
    for call in wire:
        if type(call) is not dict or len(call) != 3:
            return None
        try:  # "id", "type" and "function", as many as the fields: the fields are these
            kind, call_id, function = call["type"], call["id"], call["function"]
        except KeyError:
            return None
        if kind != "function" or type(call_id) is not str or not call_id:
            return None
        if type(function) is not dict or len(function) != 2:
            return None
        try:  # "name" and "arguments" only
            name, arguments = function["name"], function["arguments"]
        except KeyError:
            return None
        if type(name) is not str or not name or type(arguments) is not str or not arguments:
            return None
        out.append((call_id, name, arguments))
    return out if len(out) < 2 or distinct(out) else None


def _turn(message: Any, plain: PlainResponse) -> bool:
    """The assistant turn of ``message`` read into ``plain``, when plain."""
    if type(message) is not dict or message.get("role") != "assistant" or "content" not in message:
        return False
    if message.get("refusal", None) is not None:
        return False
    if len(message) != 2 + ("tool_calls" in message) + ("refusal" in message):
        return False  # another field: role and content are there, tool_calls and refusal counted
    text = message["content"]
    if "tool_calls" in message:
        calls = _calls(message["tool_calls"])
        if calls is None:
            return False
        plain.calls = calls
    elif text is None:
        return False
    if text is not None and (type(text) is not str or not text):
        return False
    plain.text = text
    return True


def _usage(wire: Any) -> Usage | None:
    """The IR usage of ``wire`` by the Chat decoder, when it keeps nothing but its own hints (the
    decoder's own shortcut first: integer counts, which keep hints only)."""
    if type(wire) is not dict:
        return None
    fast = counts_only(wire, _USAGE_NAMES)
    if fast is not None:
        return fast
    try:
        usage = decode_usage(wire)
    except ToolwireError:
        return None
    for key in usage.extra:  # a loop: faster than all() of a generator
        if key[0] != "~":
            return None
    return usage


def _typed_calls(wire: Any) -> list[Call] | None:
    """:func:`_calls` of the calls of a response its schema took."""
    if not wire:
        return None
    out: list[Call] = []
    for call in wire:
        call_id, function = call.id, call.function
        name, arguments = function.name, function.arguments
        if not call_id or not name or not arguments:
            return None
        out.append((call_id, name, arguments))
    return out if len(out) < 2 or distinct(out) else None


def read_typed(r: Any) -> PlainResponse | None:
    """:func:`read_response` of a response its schema decoded (``r``, a :class:`ChatCompletion`):
    the checks left are of values, the reader's own; ``None`` too for a usage of an empty details
    object (which only the decoder's general code reads: the caller reads the response again).
    ``r`` untyped: a field its schema types ``int`` or ``str`` may be ``None`` (compiled, a typed
    local would refuse it)."""
    if not r.id or not r.model or len(r.choices) != 1:
        return None
    choice = r.choices[0]
    finish = choice.finish_reason
    stop = _FINISH_REASONS.get(finish)
    if stop is None:
        return None
    plain = PlainResponse(r.id, r.model, stop, finish)
    plain.created = r.created
    message = choice.message
    text = message.content
    if message.tool_calls is not None:
        calls = _typed_calls(message.tool_calls)
        if calls is None:
            return None
        plain.calls = calls
    elif text is None:
        return None
    if text is not None and not text:
        return None
    plain.text = text
    if r.usage is not None:
        u = r.usage
        plain.usage = typed_usage(
            u.prompt_tokens,
            u.completion_tokens,
            u.total_tokens,
            u.prompt_tokens_details,
            u.completion_tokens_details,
            _USAGE_NAMES,
        )
        if plain.usage is None:
            return None
    return plain


def read_response(p: Any) -> PlainResponse | None:
    """The :class:`PlainResponse` of a response ``p`` of the module docstring's shape, else
    ``None``."""
    if type(p) is not dict or p.get("object") != "chat.completion":
        return None
    choices, response_id, model, created = p.get("choices"), p.get("id"), p.get("model"), p.get("created")
    if type(response_id) is not str or not response_id or type(model) is not str or not model:
        return None
    if type(created) is not int or type(choices) is not list or len(choices) != 1:
        return None
    if len(p) != 5 + ("usage" in p):  # another field: the five read are there, usage counted
        return None
    choice = choices[0]
    if type(choice) is not dict or choice.get("index") != 0:
        return None
    finish = choice.get("finish_reason")
    if type(finish) is not str or choice.get("logprobs", None) is not None:
        return None
    if len(choice) != 3 + ("logprobs" in choice):  # another field (logprobs counted, message read next)
        return None
    stop = _FINISH_REASONS.get(finish)
    if stop is None:
        return None
    plain = PlainResponse(response_id, model, stop, finish)
    plain.created = created
    if not _turn(choice.get("message"), plain):
        return None
    if "usage" in p:
        plain.usage = _usage(p["usage"])
        if plain.usage is None:
            return None
    return plain


def write_response(plain: PlainResponse) -> dict[str, Any] | None:
    """The ``chat.completion`` the general path writes for ``plain`` (a response of another
    format): one choice of the text and the calls (object arguments as compact JSON text), the
    finish reason of the stop reason, ``created`` ``0`` when unknown, the model (``unknown`` for
    none), the usage; or ``None``."""
    message: dict[str, Any] = {"role": "assistant", "content": plain.text}
    if plain.calls:
        calls = []
        for call_id, name, arguments in plain.calls:
            text = arguments_json(arguments)
            if text is None:
                return None
            calls.append({"id": call_id, "type": "function", "function": {"name": name, "arguments": text}})
        message["tool_calls"] = calls
    message["refusal"] = None
    finish = finish_of(plain.stop, bool(plain.calls))  # drop: the general path makes the notes
    out: dict[str, Any] = {
        "id": plain.id,
        "object": "chat.completion",
        "created": 0 if plain.created is None else plain.created,
        "model": plain.model or "unknown",  # none named (Bedrock): the encoder's
        "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
    }
    if plain.usage is not None:
        out["usage"] = foreign_usage(plain.usage)
    return out


def write_wire(plain: PlainResponse) -> Any:
    """:func:`write_response` as Structs that encode to the same JSON (the bytes API's writer,
    :mod:`toolwire._plain._response_out`), or ``None``."""
    if plain.calls:
        calls = []
        for call_id, name, arguments in plain.calls:
            text = arguments_json(arguments)
            if text is None:
                return None
            calls.append(_OUT_CALL(call_id, "function", _OUT_FUNCTION(name, text)))
        message: Any = _OUT_MESSAGE("assistant", plain.text, calls)
    else:
        message = _OUT_TEXT("assistant", plain.text)
    choices = [_OUT_CHOICE(0, message, finish_of(plain.stop, bool(plain.calls)))]
    created = 0 if plain.created is None else plain.created
    model = plain.model or "unknown"  # none named (Bedrock): the encoder's
    if plain.usage is None:
        return _OUT_BARE(plain.id, "chat.completion", created, model, choices)
    return _OUT_RESPONSE(plain.id, "chat.completion", created, model, choices, foreign_usage(plain.usage))
