"""Bytes of a streamed response in, wire events out: :class:`WireReader` (sans-IO).

SSE for every format, Gemini's JSON-array streaming and Bedrock's AWS event-stream binary,
detected from the first bytes, on top of :mod:`toolwire.framing`. Re-exported by
:mod:`toolwire.streaming`, its public home.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolwire._json import loads
from toolwire.errors import PayloadError
from toolwire.formats._stream import DONE, WireEvent
from toolwire.framing import EventMessage, EventStreamDecoder, JSONArrayDecoder, SSEDecoder, SSEEvent

__all__ = ["KEEPALIVE", "WireReader"]

KEEPALIVE = ":"
"""The wire event of an SSE comment line, from ``WireReader(keepalives=True)``."""

_BOM = b"\xef\xbb\xbf"
_DONE_BYTES = DONE.encode()


class WireReader:
    """Bytes of a streamed response in, wire events out (sans-IO: ``feed(bytes)``, ``close()``).

    SSE is detected by default; Gemini's JSON-array streaming (no ``alt=sse``) is detected by a
    leading ``[`` (after whitespace and a UTF-8 byte order mark, which may arrive split across
    chunks), and Bedrock's AWS event-stream binary by a leading NUL byte (the high byte of its
    first message's length, which no text stream starts with): each message is one wire event
    (:func:`toolwire.formats.bedrock_converse.stream.wire_event`). Each SSE ``data`` is parsed
    as JSON except Chat's ``[DONE]``.

    Args:
        keepalives: report SSE comment lines (servers' keep-alives) as :data:`KEEPALIVE`
            instead of skipping them.
    """

    def __init__(self, *, keepalives: bool = False) -> None:
        self._keepalives = keepalives
        self._sse: SSEDecoder | None = None
        self._array: JSONArrayDecoder | None = None
        self._binary: EventStreamDecoder | None = None
        self._head = b""
        self._count = 0
        self._error: PayloadError | None = None

    def feed(self, data: bytes) -> list[WireEvent]:
        """Parse another chunk of bytes (split anywhere).

        A broken event (not JSON, not an object) raises :class:`~toolwire.errors.PayloadError`
        with its position; the events before it in the same chunk are returned first, and the
        error is raised by the next call.
        """
        if self._error is not None:
            self._raise_pending()
        sse = self._sse
        if sse is not None:
            payload = sse.take_data(data)  # one whole event: no SSEEvent, no text decoding
            if payload is not None:
                return self._payload(payload)
            return self._events(sse.feed(data))
        if self._binary is not None:
            return self._messages(self._binary.feed(data))
        if self._array is None:
            data = self._head + data
            if data[:1] == b"\x00":
                self._head = b""
                self._binary = EventStreamDecoder()
                return self._messages(self._binary.feed(data))
            head = data.lstrip()
            if head.startswith(_BOM):
                head = head[len(_BOM) :].lstrip()
            if not head or _BOM.startswith(head):  # nothing telling yet: wait for more bytes
                self._head = data
                return []
            self._head = b""
            if not head.startswith(b"["):
                self._sse = SSEDecoder(comments=self._keepalives)
                return self.feed(data)
            self._array = JSONArrayDecoder()
            data = head
        return self._items(self._array.feed(data))

    def _payload(self, payload: bytes) -> list[WireEvent]:
        """The wire event of one SSE ``data`` payload, as :meth:`_events` reads it."""
        if not payload:
            return []
        if payload == _DONE_BYTES:
            return [DONE]
        try:
            item = loads(payload)
        except PayloadError:  # e.g. invalid UTF-8: read as text, as the SSE decoder would
            return self._events([SSEEvent(None, payload.decode("utf-8", "replace"))])
        if type(item) is dict:
            self._count += 1
            return [item]
        raise _not_an_object(self._count)

    def _messages(self, messages: Iterable[EventMessage]) -> list[WireEvent]:
        """The wire events of AWS event-stream messages (Bedrock's ConverseStream)."""
        from toolwire.formats.bedrock_converse._stream_frames import wire_event

        out: list[WireEvent] = []
        for message in messages:
            try:
                out.append(wire_event(message, self._count))
            except PayloadError as exc:
                return self._stop(out, exc)
            self._count += 1
        return out

    def close(self) -> list[WireEvent]:
        """End of bytes: a final event without its blank line is still delivered."""
        self._raise_pending()
        if self._binary is not None:
            return self._messages(self._binary.close())
        if self._array is not None:
            return self._items(self._array.close())
        if self._sse is not None:
            return self._events(self._sse.close())
        return []

    def _events(self, events: Iterable[Any]) -> list[WireEvent]:
        out: list[WireEvent] = []
        for event in events:
            data = event.data
            if event.comment is not None:
                out.append(KEEPALIVE)
                continue
            if not data:
                continue
            if data == DONE:
                out.append(DONE)
                continue
            try:
                item = loads(data)
            except PayloadError as exc:  # the path is built only for the error
                return self._stop(out, type(exc)(exc.message, path=f"$[{self._count}]"))
            if type(item) is not dict:
                return self._stop(out, _not_an_object(self._count))
            self._count += 1
            out.append(item)
        return out

    def _items(self, items: Iterable[Any]) -> list[WireEvent]:
        """The elements of a JSON-array stream as wire events (see :meth:`_events`)."""
        out: list[WireEvent] = []
        for item in items:
            if type(item) is not dict:
                return self._stop(out, _not_an_object(self._count))
            self._count += 1
            out.append(item)
        return out

    def _stop(self, out: list[WireEvent], error: PayloadError) -> list[WireEvent]:
        """At a broken event: the events before it, and its error raised by the next call (now
        when there are none), so that no event is lost with the error."""
        if not out:
            raise error
        self._error = error
        return out

    def _raise_pending(self) -> None:
        error = self._error
        if error is not None:
            self._error = None
            raise error


def _not_an_object(position: int) -> PayloadError:
    return PayloadError("a stream event must be a JSON object", path=f"$[{position}]")
