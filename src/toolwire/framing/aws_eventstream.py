"""AWS event-stream binary framing, sans-IO: bytes in, :class:`EventMessage` objects out (and back).

The framing of Bedrock's ``ConverseStream`` (content type ``application/vnd.amazon.eventstream``).
One message is::

    total length (uint32 BE) | headers length (uint32 BE) | prelude CRC32 (of the 8 bytes before)
    headers | payload | message CRC32 (of every byte before it)

A header is a name (uint8 length + UTF-8), a type byte and a value. The ten value types are in
:data:`HEADER_TYPES`: ``true``/``false`` (no value), ``byte``, ``short``, ``integer``, ``long``
(signed big-endian), ``bytes`` and ``string`` (uint16 length first), ``timestamp`` (int64
milliseconds since the epoch) and ``uuid`` (16 bytes).

:class:`EventStreamDecoder` takes chunks split at any byte and checks both CRCs and the size limits
before it buffers a message's body, so a corrupt or hostile length fails at once instead of
waiting for bytes that never come. :func:`encode_message` writes one message; decoding it gives
the same message back, and encoding a decoded message gives its bytes back.
"""

from __future__ import annotations

import datetime as _dt
import struct
import uuid
import zlib
from collections.abc import Mapping
from typing import Any

import msgspec

from toolwire.errors import LimitError, PayloadError, StreamError

__all__ = [
    "HEADER_TYPES",
    "MAX_HEADERS_SIZE",
    "MAX_PAYLOAD_SIZE",
    "EventMessage",
    "EventStreamDecoder",
    "HeaderValue",
    "encode_message",
]

MAX_HEADERS_SIZE = 128 * 1024
"""The largest headers section the service sends (128 KiB)."""
MAX_PAYLOAD_SIZE = 16 * 1024 * 1024
"""Default limit for one message's payload (16 MiB, like the other framings' line limit)."""

_PRELUDE = struct.Struct(">III")
_PRELUDE_SIZE = 12
_CRC_SIZE = 4
_MIN_SIZE = _PRELUDE_SIZE + _CRC_SIZE
_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC)

HEADER_TYPES: dict[str, int] = {
    "true": 0,
    "false": 1,
    "byte": 2,
    "short": 3,
    "integer": 4,
    "long": 5,
    "bytes": 6,
    "string": 7,
    "timestamp": 8,
    "uuid": 9,
}
"""Header value type name -> its type byte on the wire."""

_INTS: dict[int, struct.Struct] = {
    2: struct.Struct(">b"),
    3: struct.Struct(">h"),
    4: struct.Struct(">i"),
    5: struct.Struct(">q"),
    8: struct.Struct(">q"),
}
"""Fixed-size numeric header types -> their struct (timestamp is an int64 of milliseconds)."""
_U16 = struct.Struct(">H")
_NAMES = {code: name for name, code in HEADER_TYPES.items()}


class HeaderValue(msgspec.Struct, frozen=True, gc=False):
    """A header value with its wire type, for values whose Python type leaves it open.

    ``HeaderValue("short", 7)`` writes a 2-byte integer; a plain ``int`` is written as ``integer``
    when it fits in 32 bits, else ``long``.
    """

    type: str
    value: Any


class EventMessage(msgspec.Struct, frozen=True, gc=False):
    """One event-stream message.

    Attributes:
        headers: name -> value: ``bool``, ``int`` (byte/short/integer/long), ``bytes``, ``str``,
            :class:`datetime.datetime` (timestamp, UTC, millisecond precision) or
            :class:`uuid.UUID`.
        payload: the payload bytes (JSON for Bedrock).
        types: name -> wire type name of each header as decoded (see :data:`HEADER_TYPES`), so
            that :func:`encode_message` writes a decoded message back byte for byte.
    """

    headers: dict[str, Any]
    payload: bytes = b""
    types: dict[str, str] = msgspec.field(default_factory=dict)


class EventStreamDecoder:
    """Incremental event-stream parser (no I/O): ``feed(bytes) -> list[EventMessage]``.

    Args:
        max_payload: largest payload in bytes; a message declaring more raises
            :class:`~toolwire.errors.LimitError` as soon as its prelude arrives.

    Corrupt input (a CRC mismatch, a length that cannot hold the prelude and headers, a header
    running past its section, an unknown header type) raises
    :class:`~toolwire.errors.PayloadError` at ``$[n]`` (n counts messages) naming the byte
    offset in the stream. After an error the decoder refuses more input.
    """

    def __init__(self, *, max_payload: int = MAX_PAYLOAD_SIZE) -> None:
        self.max_payload = max_payload
        self.count = 0  # messages returned so far
        self.offset = 0  # stream offset of the first byte in the buffer
        self._buffer = bytearray()
        self._need = _PRELUDE_SIZE  # bytes the next step waits for
        self._total = 0  # total length of the message whose prelude was checked, else 0
        self._failed = False
        self._closed = False

    def feed(self, data: bytes) -> list[EventMessage]:
        """Consume a chunk and return the messages it completed."""
        if self._failed or self._closed:
            raise StreamError("event-stream decoder fed after " + ("an error" if self._failed else "close()"))
        buffer = self._buffer
        buffer += data
        out: list[EventMessage] = []
        try:
            while len(buffer) >= self._need:
                if not self._total:
                    self._total = self._prelude(buffer)
                    self._need = self._total
                    continue
                out.append(self._message(bytes(buffer[: self._total])))
                del buffer[: self._total]
                self.offset += self._total
                self._total = 0
                self._need = _PRELUDE_SIZE
        except PayloadError:
            self._failed = True
            raise
        return out

    def close(self) -> list[EventMessage]:
        """End of stream: raises :class:`~toolwire.errors.PayloadError` inside a message."""
        if self._closed or self._failed:
            return []
        self._closed = True
        if self._buffer:
            size = self._total or "?"
            raise PayloadError(
                f"event stream ended inside a message at byte {self.offset}"
                f" ({len(self._buffer)} of {size} bytes)",
                path=f"$[{self.count}]",
            )
        return []

    def _error(self, message: str, at: int = 0, cls: type[PayloadError] = PayloadError) -> PayloadError:
        return cls(f"{message} at byte {self.offset + at}", path=f"$[{self.count}]")

    def _prelude(self, buffer: bytearray) -> int:
        """Check the prelude at the start of ``buffer``; the message's total length."""
        total, headers, crc = _PRELUDE.unpack_from(buffer)
        if zlib.crc32(memoryview(buffer)[:8]) != crc:
            raise self._error("event-stream prelude CRC mismatch")
        if headers > MAX_HEADERS_SIZE:
            raise self._error(f"event-stream headers longer than {MAX_HEADERS_SIZE} bytes", cls=LimitError)
        payload = total - _MIN_SIZE - headers
        if payload < 0:
            raise self._error(f"event-stream message length {total} cannot hold its {headers} header bytes")
        if payload > self.max_payload:
            raise self._error(f"event-stream payload longer than {self.max_payload} bytes", cls=LimitError)
        return int(total)

    def _message(self, raw: bytes) -> EventMessage:
        """One whole message (prelude already checked)."""
        end = len(raw) - _CRC_SIZE
        if zlib.crc32(memoryview(raw)[:end]) != int.from_bytes(raw[end:], "big"):
            raise self._error("event-stream message CRC mismatch", end)
        headers_end = _PRELUDE_SIZE + int.from_bytes(raw[4:8], "big")
        headers, types = self._headers(raw, headers_end)
        self.count += 1
        return EventMessage(headers, raw[headers_end:end], types)

    def _headers(self, raw: bytes, end: int) -> tuple[dict[str, Any], dict[str, str]]:
        headers: dict[str, Any] = {}
        types: dict[str, str] = {}
        at = _PRELUDE_SIZE
        while at < end:
            try:
                name, code, value, next_at = _header(raw, at, end)
            except _Malformed as exc:
                raise self._error(f"malformed event-stream header: {exc}", at) from None
            headers[name] = value
            types[name] = _NAMES[code]
            at = next_at
        return headers, types


class _Malformed(Exception):
    """A header that cannot be read (the reason is the message)."""


def _take(raw: bytes, at: int, size: int, end: int) -> bytes:
    """``raw[at:at + size]``, which must lie within the headers section."""
    if at + size > end:
        raise _Malformed("runs past the headers section")
    return raw[at : at + size]


def _header(raw: bytes, at: int, end: int) -> tuple[str, int, Any, int]:
    """The header at ``raw[at:]``: (name, type byte, value, offset after it)."""
    size = raw[at]
    try:
        name = _take(raw, at + 1, size, end).decode()
    except UnicodeDecodeError:
        raise _Malformed("name is not UTF-8") from None
    at += 1 + size
    code = _take(raw, at, 1, end)[0]
    at += 1
    if code <= 1:
        return name, code, code == 0, at
    fixed = _INTS.get(code)
    if fixed is not None:
        (number,) = fixed.unpack(_take(raw, at, fixed.size, end))
        value: Any = _timestamp(number) if code == 8 else number
        return name, code, value, at + fixed.size
    if code == 9:
        return name, code, uuid.UUID(bytes=_take(raw, at, 16, end)), at + 16
    if code not in (6, 7):
        raise _Malformed(f"unknown value type {code}")
    (length,) = _U16.unpack(_take(raw, at, 2, end))
    data = _take(raw, at + 2, length, end)
    if code == 6:
        return name, code, data, at + 2 + length
    try:
        return name, code, data.decode(), at + 2 + length
    except UnicodeDecodeError:
        raise _Malformed("string value is not UTF-8") from None


def _timestamp(millis: int) -> _dt.datetime:
    try:
        return _EPOCH + _dt.timedelta(milliseconds=millis)
    except OverflowError:
        raise _Malformed("timestamp out of range") from None


def encode_message(
    headers: Mapping[str, Any], payload: bytes = b"", types: Mapping[str, str] | None = None
) -> bytes:
    """The bytes of one event-stream message.

    Args:
        headers: name -> value (see :attr:`EventMessage.headers`) or :class:`HeaderValue`.
        payload: the payload bytes.
        types: wire type names for headers given as plain values (an
            :attr:`EventMessage.types`); otherwise inferred from the value's Python type.

    Raises:
        PayloadError: a header name or value that the framing cannot hold (``$.headers.<name>``).
    """
    head = b"".join(_encode_header(name, value, (types or {}).get(name)) for name, value in headers.items())
    if len(head) > MAX_HEADERS_SIZE:
        raise LimitError(f"event-stream headers longer than {MAX_HEADERS_SIZE} bytes", path="$.headers")
    total = _MIN_SIZE + len(head) + len(payload)
    prelude = struct.pack(">II", total, len(head))
    body = prelude + struct.pack(">I", zlib.crc32(prelude)) + head + payload
    return body + struct.pack(">I", zlib.crc32(body))


def _encode_header(name: str, value: Any, kind: str | None) -> bytes:
    if isinstance(value, HeaderValue):
        kind, value = value.type, value.value
    key = name.encode()
    if not 0 < len(key) < 256:
        raise PayloadError("event-stream header name must be 1 to 255 bytes", path="$.headers")
    kind = kind or _infer(value)
    try:
        return bytes([len(key)]) + key + _encode_value(kind, value)
    except (struct.error, TypeError, ValueError, KeyError, AttributeError, OverflowError):
        raise PayloadError(
            f"event-stream header value does not fit type {kind!r}", path=f"$.headers.{name}"
        ) from None


def _infer(value: Any) -> str:
    """The wire type of a plain header value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return "integer" if -(2**31) <= value < 2**31 else "long"
    kinds = {str: "string", bytes: "bytes", _dt.datetime: "timestamp", uuid.UUID: "uuid"}
    for cls, kind in kinds.items():
        if isinstance(value, cls):
            return kind
    raise PayloadError(f"unsupported event-stream header value type {type(value).__name__}", path="$.headers")


def _encode_value(kind: str, value: Any) -> bytes:
    code = HEADER_TYPES[kind]
    if code <= 1:
        if value is not (code == 0):
            raise ValueError
        return bytes([code])
    if code == 8:
        value = (value - _EPOCH) // _dt.timedelta(milliseconds=1)
    fixed = _INTS.get(code)
    if fixed is not None:
        if type(value) is not int:
            raise TypeError
        return bytes([code]) + fixed.pack(value)
    if code == 9:
        return bytes([code]) + value.bytes  # type: ignore[no-any-return]
    data = value.encode() if code == 7 else bytes(value)
    if code == 7 and not isinstance(value, str):
        raise TypeError
    return bytes([code]) + _U16.pack(len(data)) + data
