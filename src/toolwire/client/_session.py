"""A stream being received, sans-IO: response bytes in, canonical stream events out.

Bytes are framed (SSE, or a JSON array for Gemini without ``alt=sse``), each event's JSON goes to
the format's ``StreamDecoder``, tool names are mapped back when the request was translated, and
the events are accumulated so the final response is available at the end. An error event from the
provider, or a stream that ends before its terminal event, raises a typed error.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Mapping
from typing import Any

import msgspec

from toolwire._json import loads
from toolwire.client._errors import StreamIdleTimeoutError, map_stream_error
from toolwire.errors import PayloadError, StreamError, UnsupportedError
from toolwire.formats._stream import BINARY_FORMATS, DONE, StreamDecoderLike, WireEvent
from toolwire.formats.bedrock_converse._stream_frames import wire_event
from toolwire.framing import EventStreamDecoder, JSONArrayDecoder, SSEDecoder
from toolwire.ir.accumulate import Accumulator
from toolwire.ir.base import Format
from toolwire.ir.content import ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response
from toolwire.ir.stream import PartEnd, PartStart, StreamErrorEvent, StreamEvent
from toolwire.translate import Exchange, chat_dialect, format_module

__all__ = ["IdleWatch", "StreamSession", "next_events", "stream_decoder"]


def stream_decoder(fmt: Format, notes: Notes, dialect: str | None = None) -> StreamDecoderLike:
    """The format's ``StreamDecoder`` (``dialect``: a Chat provider's, see
    :mod:`toolwire.formats.openai_chat.dialects`); :class:`UnsupportedError` when this toolwire
    has none."""
    name = format_module(fmt).__name__ + ".stream"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        raise UnsupportedError(f"streaming {fmt} needs {name}, which is not installed") from exc
    decoder: StreamDecoderLike = module.StreamDecoder(notes, **chat_dialect(fmt, dialect))
    return decoder


class IdleWatch:
    """Raises :class:`StreamIdleTimeoutError` when events stop arriving for ``limit`` seconds."""

    def __init__(self, limit: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.clock = clock
        self.last = clock()

    def tick(self, got_events: bool) -> None:
        """Record a chunk read; ``got_events`` tells whether it completed any event."""
        now = self.clock()
        if got_events:
            self.last = now
        elif self.limit is not None and now - self.last > self.limit:
            raise StreamIdleTimeoutError(
                f"no stream event for {now - self.last:.1f}s (idle limit {self.limit}s)"
            )


class StreamSession:
    """Decode one response stream of format ``fmt``.

    Attributes:
        raw_events: every wire event received, as decoded JSON (or ``"[DONE]"``).
        payload_events: the stream in the caller's format when the request was translated
            (through :meth:`Exchange.stream <toolwire.translate.Exchange.stream>`), else
            ``raw_events`` itself.
        started: whether any canonical event was produced (no retry after that).
        finished: whether the stream ended normally.
    """

    def __init__(
        self,
        fmt: Format,
        notes: Notes,
        headers: Mapping[str, str],
        *,
        json_array: bool = False,
        exchange: Exchange | None = None,
        secrets: tuple[str, ...] = (),
        dialect: str | None = None,
    ) -> None:
        self.format: Format = fmt
        self.secrets = secrets
        self.notes = notes
        self.headers = dict(headers)
        self.exchange = exchange
        self.raw_events: list[WireEvent] = []
        self.payload_events: list[WireEvent] = self.raw_events if exchange is None else []
        self.started = False
        self.finished = False
        self._decoder = stream_decoder(fmt, notes, dialect)
        self._binary = EventStreamDecoder() if fmt in BINARY_FORMATS else None  # Bedrock
        self._sse = None if json_array or self._binary is not None else SSEDecoder()
        self._array = JSONArrayDecoder() if json_array else None
        self._acc = Accumulator()

    def feed(self, chunk: bytes) -> list[StreamEvent]:
        """Consume response bytes; the canonical events they complete."""
        return self._decode(self._frames(chunk, final=False))

    def close(self) -> list[StreamEvent]:
        """End of the response body: remaining events (raises when the stream ended early)."""
        events = self._decode(self._frames(b"", final=True))
        if self.exchange is not None:
            self.payload_events.extend(self.exchange.stream_close())
        events.extend(self._checked(self._decoder.close()))
        self.finished = True
        return events

    def response(self) -> Response:
        """The response accumulated from the events so far."""
        return self._acc.response()

    def _frames(self, chunk: bytes, *, final: bool) -> list[WireEvent]:
        if self._binary is not None:
            try:
                messages = self._binary.close() if final else self._binary.feed(chunk)
                count = len(self.raw_events)
                return [wire_event(m, count + i) for i, m in enumerate(messages)]
            except PayloadError as exc:
                raise StreamError(exc.message, path=exc.path) from None
        if self._array is not None:
            items = self._array.close() if final else self._array.feed(chunk)
            return [item for item in items if isinstance(item, dict)]
        assert self._sse is not None
        out: list[WireEvent] = []
        for index, event in enumerate(self._sse.close() if final else self._sse.feed(chunk)):
            if event.comment is not None or not event.data:
                continue
            out.append(self._parse(event.data, len(self.raw_events) + index))
        return out

    @staticmethod
    def _parse(data: str, position: int) -> WireEvent:
        if data.strip() == DONE:
            return DONE
        try:
            value: Any = loads(data)
        except (ValueError, PayloadError, msgspec.DecodeError) as exc:
            raise StreamError(f"stream event is not JSON: {exc}", path=f"$[{position}]") from exc
        if not isinstance(value, dict):
            raise StreamError("stream event is not a JSON object", path=f"$[{position}]")
        return value

    def _decode(self, wire: list[WireEvent]) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        for event in wire:
            self.raw_events.append(event)
            if self.exchange is not None:
                self.payload_events.extend(self.exchange.stream(event))
            out.extend(self._checked(self._decoder.feed(event)))
        return out

    def _checked(self, events: list[StreamEvent]) -> list[StreamEvent]:
        out: list[StreamEvent] = []
        for event in events:
            if isinstance(event, StreamErrorEvent):
                raise map_stream_error(self.format, event.error, self.headers, self.secrets)
            event = self._restore(event)
            self._acc.feed(event)
            out.append(event)
        if out:
            self.started = True
        return out

    def _restore(self, event: StreamEvent) -> StreamEvent:
        if self.exchange is None or not isinstance(event, PartStart | PartEnd):
            return event
        part = event.part
        if not isinstance(part, ToolCall):
            return event
        restored = self.exchange.restore_response(Response(parts=(part,))).parts[0]
        return event if restored is part else msgspec.structs.replace(event, part=restored)


def next_events(session: StreamSession, idle: IdleWatch, chunk: bytes | None) -> list[StreamEvent]:
    """The events a chunk read completes (``chunk`` ``None``: the body ended), ticking ``idle``.

    Raises:
        StreamIdleTimeoutError: chunks came for longer than the idle limit without an event.
    """
    if chunk is None:
        return session.close()
    events = session.feed(chunk)
    idle.tick(bool(events))
    return events
