"""An upstream's streamed body in, the client's stream bytes out (sans-IO, constant memory).

:class:`StreamRelay` is :class:`~toolwire.streaming.WireReader` plus an
:class:`~toolwire.translate.Exchange`'s stream translation (names, kinds, ids and model restored,
opaque state sealed), with what a hop adds:

- bytes that do not parse as an event end the stream with the client's own error event (code
  ``malformed_event``) after every event before them; later bytes are ignored;
- keep-alives are kept (:data:`KEEPALIVES`): an Anthropic ``ping`` event or an SSE comment line
  becomes the client's keep-alive, a ``ping`` event for an Anthropic client, a ``: ping``
  comment for the other SSE clients (a JSON-array client has none);
- a Gemini client that asked without ``alt=sse`` gets a JSON array.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from toolwire.errors import PayloadError
from toolwire.formats._stream import WireEvent, encode_wire_event
from toolwire.framing import JSONArrayEncoder, encode_comment
from toolwire.ir.base import Format
from toolwire.streaming import KEEPALIVE, WireReader, _malformed

if TYPE_CHECKING:
    from toolwire.translate import Exchange

__all__ = ["KEEPALIVES", "SSE_KEEPALIVE", "StreamRelay", "relay_stream"]

SSE_KEEPALIVE = encode_comment("ping")
"""The keep-alive of SSE clients whose format has no ping event."""

KEEPALIVES: dict[str, bytes] = {
    "anthropic": encode_wire_event("anthropic", {"type": "ping"}),
    "openai-chat": SSE_KEEPALIVE,
    "openai-responses": SSE_KEEPALIVE,
    "gemini": SSE_KEEPALIVE,
    "bedrock-converse": b"",  # AWS event-stream has no keep-alive message
}
"""A client format's keep-alive bytes on an SSE stream."""

STREAM_TYPES: dict[str, str] = {"bedrock-converse": "application/vnd.amazon.eventstream"}
"""The ``content-type`` of a client format's stream when it is not SSE."""

EVENT_STREAM = "text/event-stream"
JSON = "application/json"


def _is_keepalive(event: WireEvent) -> bool:
    return event is KEEPALIVE or (type(event) is dict and event.get("type") == "ping")


class StreamRelay:
    """One upstream stream through an :class:`~toolwire.translate.Exchange`, bytes to bytes.

    Args:
        exchange: the exchange whose request went up (its client format, stream choice and what
            the answer needs restored).
        json_array: answer as a JSON array (default: what the client asked for, see
            :meth:`~toolwire.translate.Exchange.request_http`).
    """

    def __init__(self, exchange: Exchange, *, json_array: bool | None = None) -> None:
        from toolwire.translate import resolve_format

        self._ex = exchange
        self._client: Format = resolve_format(exchange.client)
        self._reader = WireReader(keepalives=True)
        array = exchange.client_json_array if json_array is None else json_array
        self._array = JSONArrayEncoder() if array else None
        self._keepalive = b"" if array else KEEPALIVES[self._client]
        self._failed = False
        self._closed = False

    @property
    def client(self) -> Format:
        """The client's wire format."""
        return self._client

    @property
    def usage(self) -> tuple[int | None, int | None] | None:
        """Input and output tokens the upstream's stream reported at its end (``None`` before)."""
        usage = self._ex._stream_translator().usage
        return None if usage is None else (usage.input_tokens, usage.output_tokens)

    @property
    def content_type(self) -> str:
        """The ``content-type`` of the client's answer."""
        return JSON if self._array is not None else STREAM_TYPES.get(self._client, EVENT_STREAM)

    def feed(self, data: bytes) -> bytes:
        """The client's bytes for another chunk of the upstream's body (split anywhere)."""
        if self._failed or self._closed:
            return b""
        try:
            events = self._reader.feed(data)
        except PayloadError as exc:
            return self._fail(exc)
        return b"".join([self._event(event) for event in events])

    def close(self) -> bytes:
        """End of the upstream's body: the client's last bytes (a stream cut short gets the
        client's error event, from the translation)."""
        if self._closed:
            return b""
        out = b""
        if not self._failed:
            try:
                out = b"".join([self._event(event) for event in self._reader.close()])
            except PayloadError as exc:
                out = self._fail(exc)
        self._closed = True
        if self._array is None:
            return out + self._ex.stream_close_frames()
        return out + self._items(self._ex.stream_close()) + self._array.close()

    def _event(self, event: WireEvent) -> bytes:
        if _is_keepalive(event):
            return self._keepalive
        if self._array is None:
            return self._ex.stream_frames(event)
        return self._items(self._ex.stream(event))

    def _items(self, events: Iterable[WireEvent]) -> bytes:
        array = self._array
        assert array is not None
        return b"".join([array.feed(event) for event in events if type(event) is dict])

    def _fail(self, exc: PayloadError) -> bytes:
        self._failed = True
        events = self._ex._stream_translator().feed_ir(_malformed(exc))
        if self._array is None:
            return b"".join([encode_wire_event(self._client, event) for event in events])
        return self._items(events)


def relay_stream(exchange: Exchange, chunks: Iterable[bytes]) -> Iterator[bytes]:
    """:class:`StreamRelay` over an iterable of chunks (empty outputs skipped)."""
    relay = StreamRelay(exchange)
    for chunk in chunks:
        out = relay.feed(chunk)
        if out:
            yield out
    out = relay.close()
    if out:
        yield out
