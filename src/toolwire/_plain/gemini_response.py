"""The Gemini reader and writer of the response lanes (see :mod:`toolwire._plain._response_form`).

The shape the reader takes (anything else returns ``None``, and the general path runs): a
``generateContent`` response with a non-empty ``responseId`` and ``modelVersion``, one
candidate of a string ``finishReason`` whose content is ``{"role": "model", "parts"}``: at most
one ``{"text"}`` part (a non-empty string), then ``{"functionCall": {"name", "args", "id"}}``
parts (a non-empty name and id, an id used once, an object ``args``, read as the compact JSON
text the decoder makes of it); ``usageMetadata`` as the Gemini decoder reads it; ``createTime``
(Vertex) read as the decoder reads it. Other candidate and top-level fields are left out by
every other format's encoder (noted by the general path), so the reader lets them be.

The writer writes what ``formats.gemini.response.encode_response`` writes for a response of
another format: one candidate (the text part, then the calls, their arguments parsed back to
objects; object arguments, of an Anthropic source, through the compact text its decoder makes),
its ``finishReason``, the usage (zeros when there is none), ``modelVersion`` and ``responseId``.
It returns ``None`` for arguments that are not JSON text of an object.

``read_typed`` reads the same shape from what the format's typed schema decoded from a JSON body
(:mod:`toolwire._plain._response_wire`; ``translate_response_bytes``): the schema checked the
keys and types, it checks the values left, and makes the same :class:`PlainResponse`.
"""

from __future__ import annotations

from typing import Any, Final

from toolwire._plain._form import Call
from toolwire._plain._response_form import PlainResponse, arguments_json, distinct, typed_parts
from toolwire._plain._response_out import (
    GeminiBareCallOut,
    GeminiCallOut,
    GeminiCandidateOut,
    GeminiContentOut,
    GeminiOut,
    GeminiOutBare,
    GeminiPartOut,
    GeminiTextOut,
)
from toolwire.errors import ToolwireError
from toolwire.formats.gemini._keys import args_object
from toolwire.formats.gemini._usage import decode_usage, foreign_usage
from toolwire.formats.gemini.response import _WIRE_REASONS, FINISH_REASONS, _created
from toolwire.ir.response import Usage

# The imported names the hot paths read, as Finals: compiled, a static each, not a look-up in
# the module's globals each time one is read.
_FINISH_REASONS: Final = FINISH_REASONS
_TO_WIRE: Final = _WIRE_REASONS
_USAGE: Final = Usage
_OUT_BARE_CALL: Final = GeminiBareCallOut
_OUT_CALL: Final = GeminiCallOut
_OUT_CANDIDATE: Final = GeminiCandidateOut
_OUT_CONTENT: Final = GeminiContentOut
_OUT_RESPONSE: Final = GeminiOut
_OUT_BARE: Final = GeminiOutBare
_OUT_PART: Final = GeminiPartOut
_OUT_TEXT: Final = GeminiTextOut

__all__ = ["read_response", "read_response_objects", "write_response", "write_wire"]

_ARGS_AT = "$.candidates[0].content.parts"


def _scalars(args: dict[Any, Any]) -> bool:
    """Whether every key of ``args`` is a string and every value a string, an integer, a boolean
    or ``None``: an object its compact JSON text parses back to an equal copy of."""
    for key, value in args.items():
        if type(key) is not str:
            return False
        if (
            type(value) is not str
            and type(value) is not int
            and type(value) is not bool
            and value is not None
        ):
            return False
    return True


def _call(part: dict[str, Any], objects: bool) -> Call | None:
    """The function call of a ``functionCall`` part, when plain (``objects``: see
    :func:`read_response_objects`)."""
    inner = part["functionCall"]
    if type(inner) is not dict or len(inner) != 3:
        return None
    try:  # these three, as many as the fields: the fields are these
        call_id, name, args = inner["id"], inner["name"], inner["args"]
    except KeyError:
        return None
    if type(call_id) is not str or not call_id:
        return None
    if type(name) is not str or not name or type(args) is not dict:
        return None
    arguments: Any = arguments_json(args)  # the decoder's own text of the object (its compact())
    if arguments is None:
        return None
    if objects and _scalars(args):
        arguments = dict(args)  # what the text parses to (a copy: the output holds its own)
    return call_id, name, arguments


def _parts(parts: Any, plain: PlainResponse, objects: bool) -> bool:
    """The text and calls of ``parts`` read into ``plain``, when plain."""
    if type(parts) is not list or not parts:
        return False
    for index, part in enumerate(parts):
        if type(part) is not dict:
            return False
        if len(part) != 1:  # one field: "text" (the first part only) or "functionCall"
            return False
        if index == 0 and "text" in part:
            text = part["text"]
            if type(text) is not str or not text:
                return False
            plain.text = text
        elif "functionCall" in part:
            call = _call(part, objects)
            if call is None:
                return False
            plain.calls.append(call)
        else:
            return False
    return len(plain.calls) < 2 or distinct(plain.calls)


def _usage(wire: Any, plain: PlainResponse) -> bool:
    """The usage of ``wire`` by the Gemini decoder read into ``plain``, when it decodes."""
    try:  # not an object: the decoder says so
        plain.usage = decode_usage(wire)
    except ToolwireError:
        return False
    return True


def read_typed(r: Any, objects: bool = False) -> PlainResponse | None:
    """:func:`read_response` of a response its schema decoded (a :class:`GeminiResponse`): the
    checks left are of values, the reader's own; the usage is ``decode_usage``'s of counts.
    ``r`` untyped: a field its schema types ``int`` or ``str`` may be ``None`` (compiled, a typed
    local would refuse it). ``objects``: see :func:`read_typed_objects`."""
    if not r.responseId or not r.modelVersion or len(r.candidates) != 1:
        return None
    candidate = r.candidates[0]
    finish = candidate.finishReason
    stop = _FINISH_REASONS.get(finish, "other")
    plain = PlainResponse(r.responseId, r.modelVersion, stop, finish)
    if not typed_parts(candidate.content.parts, plain, objects):
        return None
    if stop == "end_turn" and plain.calls:
        plain.stop = "tool_calls"
    u = r.usageMetadata
    if u is not None:
        candidates, thoughts = u.candidatesTokenCount, u.thoughtsTokenCount
        if thoughts is None:  # the common usage: Usage's fields in order, extra its default {}
            plain.usage = _USAGE(u.promptTokenCount, candidates, u.totalTokenCount, u.cachedContentTokenCount)
        else:
            plain.usage = _USAGE(
                input_tokens=u.promptTokenCount,
                output_tokens=(candidates or 0) + thoughts,
                total_tokens=u.totalTokenCount,
                cached_tokens=u.cachedContentTokenCount,
                reasoning_tokens=thoughts,
                extra={"~candidates": False} if candidates is None else {},
            )
    if r.createTime is not None:
        plain.created = _created(r.createTime)
    return plain


def read_typed_objects(r: Any) -> PlainResponse | None:
    """:func:`read_typed` for a target of object arguments (Anthropic), the bytes API's only:
    a call's arguments the decoded object itself, not its text, which the writer would parse
    back to an equal object: decoded JSON (strings, integers, finite floats: msgspec refuses a
    number out of range and a lone surrogate) makes a text that parses back equal
    (``_response_form.typed_parts``)."""
    return read_typed(r, True)


def read_response_objects(p: Any) -> PlainResponse | None:
    """:func:`read_response` for a target of object arguments (Anthropic): a call's arguments
    a copy of its ``args`` object, not their text, which the writer would parse back to an
    equal object, when its values are strings, integers, booleans and ``None`` (a float or a
    nested value: the text, parsed by the writer)."""
    return read_response(p, True)


def read_response(p: Any, objects: bool = False) -> PlainResponse | None:
    """The :class:`PlainResponse` of a response ``p`` of the module docstring's shape, else
    ``None`` (``objects``: see :func:`read_response_objects`)."""
    if type(p) is not dict:
        return None
    candidates, response_id, model = p.get("candidates"), p.get("responseId"), p.get("modelVersion")
    if type(response_id) is not str or not response_id or type(model) is not str or not model:
        return None
    if type(candidates) is not list or len(candidates) != 1 or type(candidates[0]) is not dict:
        return None
    candidate = candidates[0]
    finish, content = candidate.get("finishReason"), candidate.get("content")
    if type(finish) is not str or type(content) is not dict or len(content) != 2:
        return None
    try:  # "role" and "parts", as many as the fields: the fields are these
        role, parts = content["role"], content["parts"]
    except KeyError:
        return None
    if role != "model":
        return None
    stop = _FINISH_REASONS.get(finish, "other")
    plain = PlainResponse(response_id, model, stop, finish)
    if not _parts(parts, plain, objects):
        return None
    if stop == "end_turn" and plain.calls:
        plain.stop = "tool_calls"
    if "usageMetadata" in p and not _usage(p["usageMetadata"], plain):
        return None
    if "createTime" in p:
        created = p["createTime"]
        if type(created) is not str:
            return None
        plain.created = _created(created)
    return plain


def _args(arguments: Any) -> tuple[bool, Any]:
    """``(ok, args)``: the ``args`` object of a call's arguments as the encoder parses them
    (``None``: none written, for empty text), ``ok`` false when they are not JSON text of an
    object."""
    text = arguments_json(arguments)  # an object source's: the text its decoder makes
    if text is None:
        return False, None
    if not text:
        return True, None
    try:
        args = args_object(text, _ARGS_AT)
    except ToolwireError:
        return False, None
    return type(args) is dict, args  # else the message of what the text is


def _wire_parts(plain: PlainResponse) -> list[dict[str, Any]] | None:
    """The Gemini parts of the text and calls, arguments parsed as the encoder parses them."""
    parts: list[dict[str, Any]] = []
    if plain.text is not None:
        parts.append({"text": plain.text})
    for call_id, name, arguments in plain.calls:
        ok, args = _args(arguments)
        if not ok:
            return None
        inner: dict[str, Any] = {"name": name}
        if args is not None:
            inner["args"] = args
        inner["id"] = call_id
        parts.append({"functionCall": inner})
    return parts


def write_response(plain: PlainResponse) -> dict[str, Any] | None:
    """The Gemini response the general path writes for ``plain`` (see the module docstring), or
    ``None``."""
    finish = _TO_WIRE.get(plain.stop)
    parts = _wire_parts(plain)
    if finish is None or parts is None:
        return None
    out: dict[str, Any] = {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": finish}],
    }
    if plain.usage is not None:
        out["usageMetadata"] = foreign_usage(plain.usage)  # drop: the general path makes the notes
    if plain.model:
        out["modelVersion"] = plain.model
    out["responseId"] = plain.id
    if plain.usage is None:
        out["usageMetadata"] = {"promptTokenCount": 0, "totalTokenCount": 0}
    if not plain.model:  # none named (Bedrock): the encoder's, after the fields it has
        out["modelVersion"] = "unknown"
    return out


def write_wire(plain: PlainResponse) -> Any:
    """:func:`write_response` as Structs that encode to the same JSON (the bytes API's writer,
    :mod:`toolwire._plain._response_out`), or ``None``. No model named (Bedrock): the dict's,
    whose ``modelVersion`` comes last."""
    if not plain.model:
        return write_response(plain)
    finish = _TO_WIRE.get(plain.stop)
    if finish is None:
        return None
    parts: list[Any] = []
    if plain.text is not None:
        parts.append(_OUT_TEXT(plain.text))
    for call_id, name, arguments in plain.calls:
        ok, args = _args(arguments)
        if not ok:
            return None
        inner = _OUT_BARE_CALL(name, call_id) if args is None else _OUT_CALL(name, args, call_id)
        parts.append(_OUT_PART(inner))
    candidates = [_OUT_CANDIDATE(_OUT_CONTENT("model", parts), finish)]
    if plain.usage is None:
        return _OUT_BARE(candidates, plain.model, plain.id, {"promptTokenCount": 0, "totalTokenCount": 0})
    return _OUT_RESPONSE(candidates, foreign_usage(plain.usage), plain.model, plain.id)
