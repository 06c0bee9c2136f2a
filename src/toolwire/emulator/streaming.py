"""Stream bodies: canonical events -> the format's wire events -> framed bytes, with faults.

Wire events come from each format's ``StreamEncoder`` (``toolwire.formats.<pkg>.stream``);
framing is SSE (event names per :func:`toolwire.formats._stream.sse_event_name`) or, for Gemini
without ``alt=sse``, a streamed JSON array.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import msgspec

from toolwire._json import dumps
from toolwire.emulator.complete import complete_events
from toolwire.emulator.events import response_events
from toolwire.emulator.faults import Faults
from toolwire.formats._stream import BINARY_FORMATS, WireEvent, sse_event_name
from toolwire.framing import JSONArrayEncoder, encode_sse
from toolwire.ir import Format, Notes, Request, Response
from toolwire.streaming import encode_wire_event, stream_encoder

__all__ = [
    "MALFORMED",
    "StreamCut",
    "stream_chunks",
    "streamed_response",
    "wire_events",
]

MALFORMED = '{"malformed": '
"""The data of the event the ``malformed`` fault sends (invalid JSON)."""


class StreamCut(Exception):
    """Raised inside a stream body to cut the connection (the ``disconnect`` fault)."""


def streamed_response(fmt: Format, request: Request, response: Response) -> Response:
    """``response`` as the format streams it: Chat reports usage only when
    ``stream_options.include_usage`` asks for it."""
    if fmt != "openai-chat":
        return response
    options = request.extra.get("stream_options")
    wanted = isinstance(options, dict) and options.get("include_usage") is True
    return response if wanted else msgspec.structs.replace(response, usage=None)


def wire_events(
    fmt: Format, response: Response, chunk_size: int, request: dict[str, Any] | None = None
) -> list[WireEvent]:
    """The complete wire event list of ``response`` streamed in ``fmt`` (``request``: the wire
    request, echoed where the format echoes it)."""
    encoder = stream_encoder(fmt, Notes("drop"))
    out: list[WireEvent] = []
    for event in response_events(response, chunk_size, origin=fmt):
        out.extend(encoder.feed(event))
    out.extend(encoder.close())
    return complete_events(fmt, out, request or {})


def _finishes(event: WireEvent) -> bool:
    choices = event.get("choices") if isinstance(event, dict) else None
    return isinstance(choices, list) and any(isinstance(c, dict) and c.get("finish_reason") for c in choices)


def _without_terminal(fmt: Format, events: list[WireEvent]) -> list[WireEvent]:
    """``events`` without what ends the stream (the ``drop_terminal`` fault)."""
    if fmt == "openai-chat":
        ends = [i for i, event in enumerate(events) if _finishes(event)]
        if ends:
            return events[: ends[0]]
    return events[:-1]


def _sse(fmt: Format, event: WireEvent, malformed: bool) -> bytes:
    if malformed and fmt in BINARY_FORMATS:  # a frame whose message CRC does not match
        frame = encode_wire_event(fmt, event)
        return frame[:-1] + bytes([frame[-1] ^ 0xFF])
    if malformed:
        return encode_sse(sse_event_name(fmt, event), MALFORMED)
    return encode_wire_event(fmt, event)


def stream_chunks(
    fmt: Format,
    response: Response,
    faults: Faults,
    *,
    chunk_size: int,
    sse: bool = True,
    request: dict[str, Any] | None = None,
    decorate: Callable[[WireEvent], WireEvent] | None = None,
) -> Iterator[bytes]:
    """The framed body chunks of a streamed response, faults applied.

    ``drop_terminal`` leaves out the last event (and a JSON array's closing bracket; for Chat,
    the finishing chunk and what follows it, since a ``finish_reason`` alone ends a Chat stream);
    ``malformed`` replaces the event in the middle with invalid JSON; ``disconnect`` raises
    :class:`StreamCut` half way through. ``decorate`` adds a service's fields to each event
    (Vertex AI's, see :mod:`toolwire.emulator.profiles`).
    """
    events = wire_events(fmt, response, chunk_size, request)
    if decorate is not None:
        events = [decorate(event) for event in events]
    if faults.drop_terminal and events:
        events = _without_terminal(fmt, events)
    bad = len(events) // 2 if faults.malformed else -1
    cut = max(1, len(events) // 2) if faults.disconnect else -1
    array = JSONArrayEncoder()
    for i, event in enumerate(events):
        if i == cut:
            raise StreamCut(f"disconnect fault after {i} events")
        if sse:
            yield _sse(fmt, event, i == bad)
        else:
            piece = array.feed(event)
            yield piece.replace(dumps(event), MALFORMED.encode()) if i == bad else piece
    if not sse and not faults.drop_terminal:
        yield array.close()
