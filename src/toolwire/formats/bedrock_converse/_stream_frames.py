"""ConverseStream wire events <-> AWS event-stream messages.

A ConverseStream wire event is the decoded JSON of one message, keyed by its event type, the way
botocore hands it out and SDK recordings store it: ``{"contentBlockDelta": {...}}``. An
exception message (``:message-type: exception``) becomes ``{"<exceptionType>": {...}}`` with the
service's lowerCamel member name (``throttlingException``); a protocol error message
(``:message-type: error``) becomes an ``internalServerException`` naming its ``:error-code``.

Bedrock pads each payload with a random ``"p"`` string (it hides the length of the text); wire
events keep it (so a recording re-frames byte for byte), the stream decoder ignores it and the
encoder writes none.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

from toolwire._json import dumps, loads
from toolwire.errors import PayloadError
from toolwire.formats._stream import WireEvent
from toolwire.framing.aws_eventstream import EventMessage, encode_message

__all__ = [
    "CONTENT_TYPE",
    "EVENT_TYPES",
    "EXCEPTION_TYPES",
    "encode_frame",
    "frame_payload",
    "wire_event",
]

CONTENT_TYPE = "application/vnd.amazon.eventstream"
"""The HTTP content type of a ConverseStream body."""

EVENT_TYPES = frozenset(
    {"messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"}
)
"""The event members of the ``ConverseStreamOutput`` union."""

EXCEPTION_TYPES = frozenset(
    {
        "internalServerException",
        "modelStreamErrorException",
        "validationException",
        "throttlingException",
        "serviceUnavailableException",
    }
)
"""The exception members of the ``ConverseStreamOutput`` union."""


def wire_event(message: EventMessage, position: int = 0) -> WireEvent:
    """The wire event of one decoded message (``position`` counts messages, for error paths)."""
    headers = message.headers
    path = f"$[{position}]"
    kind = headers.get(":message-type", "event")
    if kind == "error":
        code = headers.get(":error-code", "UnknownError")
        text = headers.get(":error-message", "")
        return {"internalServerException": {"message": f"{code}: {text}" if text else str(code)}}
    name = headers.get(":event-type" if kind == "event" else ":exception-type")
    if kind not in ("event", "exception") or type(name) is not str:
        raise PayloadError(f"event-stream message without a valid :{kind}-type header", path=path)
    body = loads(message.payload, path=path) if message.payload else {}
    if type(body) is not dict:
        raise PayloadError("an event payload must be a JSON object", path=path)
    return {name: body}


def encode_frame(event: WireEvent) -> bytes:
    """The event-stream message of one ConverseStream wire event (a one-key object)."""
    if type(event) is not dict or len(event) != 1:
        raise PayloadError("a ConverseStream event is an object with exactly one member", path="$")
    ((name, body),) = event.items()
    if type(name) is not str or not name:
        raise PayloadError("a ConverseStream event needs a member name", path="$")
    headers: dict[str, Any]
    if name.endswith("Exception"):
        headers = {":exception-type": name, ":content-type": "application/json", ":message-type": "exception"}
    else:
        headers = {":event-type": name, ":content-type": "application/json", ":message-type": "event"}
    return encode_message(headers, dumps(body))


_HEADS: dict[str, bytes] = {}
"""Event type -> the encoded headers of its event message (see :func:`frame_payload`)."""


def frame_payload(name: str, payload: bytes) -> bytes:
    """:func:`encode_frame` of ``{name: body}`` given the JSON bytes of ``body`` (an event, not an
    exception): the encoders' hot path, with the headers encoded once per event type."""
    head = _HEADS.get(name)
    if head is None:
        head = encode_message(
            {":event-type": name, ":content-type": "application/json", ":message-type": "event"}
        )
        head = _HEADS[name] = head[12:-4]
    prelude = _LENGTHS.pack(16 + len(head) + len(payload), len(head))
    body = prelude + _U32.pack(zlib.crc32(prelude)) + head + payload
    return body + _U32.pack(zlib.crc32(body))


_LENGTHS = struct.Struct(">II")
_U32 = struct.Struct(">I")
