"""The plain response: the part of a response every response lane carries (issue 18).

A response lane is the response side of the pair lanes (:mod:`toolwire._plain._form`): a
*reader* turns a source response into a :class:`PlainResponse` or returns ``None``, a *writer*
turns it into exactly the target response the general path writes, or returns ``None``. A plain
response is one assistant turn: a text, then function calls; a stop reason; token usage.

Response lanes run under the ``drop`` policy only, where notes are not logged or raised but kept
for whoever reads them: a cross-format response almost always notes something (a creation time,
ids or request echo fields the target requires), and the lane result's notes are the general
path's, made when first read.
"""

from __future__ import annotations

from typing import Any, Final

from msgspec.json import Encoder

from toolwire._plain._form import Call
from toolwire.ir.response import StopReason, Usage

__all__ = ["PlainResponse", "arguments_json", "distinct", "typed_parts", "typed_usage"]


_USAGE: Final = Usage  # compiled, a static: not a look-up in the module's globals each call

_FIELDS = ("calls", "created", "id", "model", "raw_stop", "stop", "text", "usage")
"""The fields of :class:`PlainResponse` (its ``__slots__``, which a compiled class does not have)."""


class PlainResponse:
    """A plain response (see the module docstring).

    Attributes:
        id: the response id.
        model: the model that answered, ``""`` when the source names none (Bedrock; every
            other reader takes only a non-empty model).
        created: the creation time (Unix seconds), ``None`` when the source has none.
        text: the assistant text, ``None`` when the turn has only calls.
        calls: the function calls, after the text (:data:`~toolwire._plain._form.Call`).
        stop: the IR stop reason; ``raw_stop``: the source's own value.
        usage: the token usage as the IR holds it (the source codec's own decoder made it),
            ``None`` when the response has none.
    """

    __slots__ = ("calls", "created", "id", "model", "raw_stop", "stop", "text", "usage")

    def __init__(self, id: str, model: str, stop: StopReason, raw_stop: str) -> None:
        self.id = id
        self.model = model
        self.stop = stop
        self.raw_stop = raw_stop
        self.created: int | None = None
        self.text: str | None = None
        self.calls: list[Call] = []
        self.usage: Usage | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        """How :mod:`copy` and :mod:`pickle` rebuild it: field by field (compiled, the class has
        neither ``__dict__`` nor ``__slots__`` state for them to fill, and a bare instance can't be
        made without calling ``__init__``)."""
        return _rebuilt_response, (tuple(getattr(self, k) for k in _FIELDS),)

    def __repr__(self) -> str:
        return "PlainResponse(" + ", ".join(f"{k}={getattr(self, k)!r}" for k in _FIELDS) + ")"

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, PlainResponse):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in _FIELDS)

    __hash__ = None  # type: ignore[assignment]


def _rebuilt_response(fields: tuple[Any, ...]) -> PlainResponse:
    """The :class:`PlainResponse` of ``fields``, in the order of ``_FIELDS`` (see ``__reduce__``)."""
    out = PlainResponse("", "", "end_turn", "")
    for name, value in zip(_FIELDS, fields, strict=True):
        setattr(out, name, value)
    return out


def typed_usage(
    input_tokens: Any, output_tokens: Any, total: Any, inner: Any, outer: Any, names: Any
) -> Usage | None:
    """``counts_only`` of an OpenAI usage a typed schema decoded (Chat's and Responses' share
    the details' fields: ``inner`` the input details, ``outer`` the output details; ``names``
    the format's hint names), ``None`` for an empty details object (which only the decoder's
    general code reads)."""
    extra: dict[str, Any] = {}
    cached: Any = None
    write: Any = None
    reasoning: Any = None
    if inner is not None:
        cached, write = inner.cached_tokens, inner.cache_write_tokens
        if cached is None and write is None:
            return None
        extra[names.input_hint] = {}
    if outer is not None:
        reasoning = outer.reasoning_tokens
        if reasoning is None:
            return None
        extra[names.output_hint] = {}
    return _USAGE(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        total_tokens=total,
        cached_tokens=cached,
        cache_creation_tokens=write,
        reasoning_tokens=reasoning,
        extra=extra,
    )


def distinct(calls: list[Call]) -> bool:
    """Whether the ``calls``' ids are distinct: the readers ask once they have read two or more
    (one call, the common case, needs no set of the ids seen)."""
    return len({call[0] for call in calls}) == len(calls)


_encode: Final = Encoder().encode  # compiled, a static: no look-up in the module's globals


def arguments_json(arguments: Any) -> str | None:
    """:func:`~toolwire._plain._form.arguments_text` with the encoder called straight (a text as
    it is, an object as its compact JSON, ``None`` for anything else or an object that can't
    be written): the response writers' (a few hundred ns a call less)."""
    if type(arguments) is str:
        return arguments
    if type(arguments) is not dict:
        return None
    try:
        return _encode(arguments).decode()
    except Exception:
        return None


def typed_parts(parts: Any, plain: PlainResponse, objects: bool) -> bool:
    """The text and calls of a typed reader's parts read into ``plain`` (Gemini's parts,
    Bedrock's blocks: ``_response_wire.GeminiPart`` and ``BedrockBlock``, each a ``text`` or a
    ``call`` of an ``id``, ``name`` and ``args`` object, a field left out ``None``, the types
    msgspec checked), when plain: at least one part, each of one of the two, a non-empty text
    first only, non-empty call ids and names, ids used once, an object that can be written.
    A call's arguments are the decoder's compact text of the object; ``objects`` (a target of
    object arguments, the bytes API's only): the decoded object itself, which the text parses
    back to, unless the text holds a ``null`` (the text of a ``None`` and of an infinite float,
    which would parse back as ``None``: none today, kept should a decoder give one). The object
    is the decoded body's, which nothing else holds."""
    if not parts:
        return False
    calls = plain.calls
    for index, part in enumerate(parts):
        text, call = part.text, part.call
        if call is None:
            if index or not text:  # a text after a call, an empty one, or a part of neither
                return False
            plain.text = text
            continue
        call_id, name = call.id, call.name
        if text is not None or not call_id or not name:
            return False
        arguments: Any = arguments_json(call.args)
        if arguments is None:
            return False
        if objects and "null" not in arguments:
            arguments = call.args
        calls.append((call_id, name, arguments))
    return len(calls) < 2 or distinct(calls)
