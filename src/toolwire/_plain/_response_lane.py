"""Response lanes: a plain response straight from its source dict to the target payload.

See :mod:`toolwire._plain._response_form`. A lane is a reader of the source format and a writer
of the target format; :func:`response_lane` runs the pair's under the ``drop`` policy, and the
general path runs for every other response.

A JSON body (``translate_response_bytes``) of a source with a typed schema
(:mod:`toolwire._plain._response_wire`) is decoded by it straight (:func:`typed_response_lane`):
msgspec checks the shape in C while it parses, no dict is made, and the reader's ``read_typed``
checks the values left. Only a body: msgspec's conversion of a dict takes more than JSON values
(a tuple as an array, an ``IntEnum`` as an integer) where the reader and the general path refuse
them. A body the schema refuses (an error in the JSON too) goes the dict's way, which says why.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from msgspec import DecodeError
from msgspec.json import Decoder, Encoder

from toolwire._json import dumps
from toolwire._plain import (
    anthropic_response,
    bedrock_response,
    chat_response,
    gemini_response,
    responses_response,
)
from toolwire._plain._response_form import PlainResponse
from toolwire._plain._response_wire import (
    AnthropicMessage,
    BedrockResponse,
    ChatCompletion,
    GeminiResponse,
    ResponsesResponse,
)

__all__ = [
    "OBJECT_READERS",
    "RESPONSE_LANES",
    "RESPONSE_READERS",
    "RESPONSE_WRITERS",
    "TYPED_LANES",
    "TYPED_READERS",
    "WIRE_WRITERS",
    "response_lane",
    "typed_response_bytes",
    "typed_response_lane",
]

Reader = Callable[[Any], PlainResponse | None]
Writer = Callable[[PlainResponse], dict[str, Any] | None]

RESPONSE_READERS: dict[str, Reader] = {
    "openai-chat": chat_response.read_response,
    "anthropic": anthropic_response.read_response,
    "gemini": gemini_response.read_response,
    "openai-responses": responses_response.read_response,
    "bedrock-converse": bedrock_response.read_response,
}
"""Each format's response reader: its response as a :class:`PlainResponse`, or ``None``."""

RESPONSE_WRITERS: dict[str, Writer] = {
    "openai-chat": chat_response.write_response,
    "openai-responses": responses_response.write_response,
    "anthropic": anthropic_response.write_response,
    "gemini": gemini_response.write_response,
    "bedrock-converse": bedrock_response.write_response,
}
"""Each format's response writer: a :class:`PlainResponse` as its response, or ``None``."""


RESPONSE_LANES: Final[dict[tuple[str, str], tuple[Reader, Writer]]] = {
    (source, target): (reader, writer)
    for source, reader in RESPONSE_READERS.items()
    for target, writer in RESPONSE_WRITERS.items()
    if source != target  # a same-format response keeps its own forms (hints)
}
"""Each pair's lane, ``(source, target) -> (reader, writer)``: one look-up a call."""
RESPONSE_LANES[("gemini", "anthropic")] = (
    gemini_response.read_response_objects,
    anthropic_response.write_response,
)
RESPONSE_LANES[("gemini", "bedrock-converse")] = (
    gemini_response.read_response_objects,
    bedrock_response.write_response_objects,
)
"""Gemini into Anthropic and into Bedrock: a call's ``args`` object of scalars copied, not
written as text that the writer parses back (see ``read_response_objects``)."""


def response_lane(payload: Any, source: str, target: str, policy: str) -> dict[str, Any] | None:
    """The target response of ``payload`` by the pair's lane, or ``None`` (a policy other than
    ``drop``, no lane for the pair, or a response not plain: the general path runs)."""
    if policy != "drop":
        return None
    lane = RESPONSE_LANES.get((source, target))
    if lane is None:
        return None
    plain = lane[0](payload)
    return None if plain is None else lane[1](plain)


TYPED_READERS: dict[str, tuple[Any, Reader]] = {
    "openai-chat": (Decoder(ChatCompletion), chat_response.read_typed),
    "anthropic": (Decoder(AnthropicMessage), anthropic_response.read_typed),
    "gemini": (Decoder(GeminiResponse), gemini_response.read_typed),
    "openai-responses": (Decoder(ResponsesResponse), responses_response.read_typed),
    "bedrock-converse": (Decoder(BedrockResponse), bedrock_response.read_typed),
}
"""Each source with a typed schema: its JSON decoder and the reader of what it decodes."""

WIRE_WRITERS: dict[str, Callable[[PlainResponse], Any]] = {
    "openai-responses": responses_response.write_wire,
    "openai-chat": chat_response.write_wire,
    "anthropic": anthropic_response.write_wire,
    "gemini": gemini_response.write_wire,
}
"""Each target's writer in its typed form, for the bytes API: what it returns encodes to the
JSON of the dict writer's response (:mod:`toolwire._plain._response_out`)."""

OBJECT_READERS: dict[tuple[str, str], Reader] = {
    ("gemini", "anthropic"): gemini_response.read_typed_objects,
    ("gemini", "bedrock-converse"): gemini_response.read_typed_objects,
    ("bedrock-converse", "anthropic"): bedrock_response.read_typed_objects,
}
"""The pairs whose typed reader keeps the source's arguments objects for a target of objects
(not their text, which the writer would parse back to them)."""

TYPED_LANES: Final[dict[tuple[str, str], tuple[Any, Reader, Callable[[PlainResponse], Any]]]] = {
    (source, target): (
        TYPED_READERS[source][0],
        OBJECT_READERS.get((source, target), TYPED_READERS[source][1]),
        WIRE_WRITERS.get(target, writer),
    )
    for (source, target), (_, writer) in RESPONSE_LANES.items()
    if source in TYPED_READERS
}
"""Each pair's lane for a JSON body, ``(source, target) -> (decoder, typed reader, writer)``."""


def typed_response_lane(body: Any, source: Any, target: Any, policy: Any) -> Any:
    """The target response of the JSON ``body`` by the pair's lane, decoded by the source's
    schema, or ``None`` (no schema, a body it refuses, a response not plain: the caller parses
    the body and runs :func:`response_lane`, then the general path): a value ``dumps`` encodes
    (a dict, or the target's Structs: :data:`WIRE_WRITERS`). The arguments are the caller's,
    unchecked: typed ``Any`` so that the compiled build does not refuse a wrong type with its
    own TypeError before the dict's way says what is wrong."""
    if policy != "drop" or type(source) is not str or type(target) is not str:
        return None  # other arguments: the dict's way, which says what is wrong first
    lane = TYPED_LANES.get((source, target))
    if lane is None:
        return None
    try:
        value = lane[0].decode(body)
    except (DecodeError, RecursionError, UnicodeError, TypeError):  # ValidationError: a DecodeError
        return None
    plain = lane[1](value)
    return None if plain is None else lane[2](plain)


_encode: Final = Encoder().encode
"""``dumps``' encoder (msgspec's defaults) without its wrapper (Final, as the lanes' tables: compiled,
a static, not a look-up in the module's globals each call)."""


def typed_response_bytes(body: Any, source: Any, target: Any, policy: Any) -> bytes | None:
    """:func:`typed_response_lane` encoded (``translate_response_bytes``' lane: one call, the
    encoder straight; what it refuses, ``dumps`` says why), or ``None``."""
    if policy != "drop" or type(source) is not str or type(target) is not str:
        return None  # other arguments: the dict's way, which says what is wrong first
    lane = TYPED_LANES.get((source, target))
    if lane is None:
        return None
    decoder, reader, writer = lane
    try:
        value = decoder.decode(body)
    except (DecodeError, RecursionError, UnicodeError, TypeError):  # ValidationError: a DecodeError
        return None
    plain = reader(value)
    if plain is None:
        return None
    out = writer(plain)
    if out is None:
        return None
    try:
        return _encode(out)  # the encoder itself, no wrapper call
    except Exception:
        return dumps(out)  # its typed error
