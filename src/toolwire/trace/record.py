"""The trace record: one gateway call, as the trace viewer and ``toolwire trace`` show it.

A record is written once, after the call ends (off the request path), and never changed. Bodies
are kept as text, already redacted (no key, no auth header) and capped: :class:`TraceBody` says
how long the body was and whether the text is cut. Stream events carry their time since the
call started, so a page can draw the timeline (first byte, each tool call's start and end, the
end).

======================  =====================================================================
field group             what
======================  =====================================================================
who / where             ``method``, ``path``, ``client_format``, ``upstream``,
                        ``upstream_format``, ``route``, ``client_model``, ``upstream_model``
outcome                 ``status``, ``error``, ``stream``, ``latency``, token counts
bodies                  ``client_request``, ``upstream_request``, ``upstream_response``,
                        ``client_response`` (:class:`TraceBody`, ``None`` when there was none)
stream                  ``events``: each SSE event on each side, with its time
notes                   every conversion note, with the payload it points into
======================  =====================================================================
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "TRACE_VERSION",
    "TraceBody",
    "TraceEvent",
    "TraceLatency",
    "TraceNote",
    "TraceQuery",
    "TraceRecord",
    "TraceSummary",
    "decode_trace",
    "encode_trace",
]

TRACE_VERSION = 1
"""The trace layout this toolwire writes and the newest it reads."""

Side = Literal["client_request", "upstream_request", "upstream_response", "client_response"]
"""Which of the four payloads of a call a note or event belongs to."""


class TraceBody(msgspec.Struct, frozen=True, kw_only=True):
    """One payload of the call, redacted and capped.

    Attributes:
        text: the body as text (JSON for JSON bodies), cut at the cap when ``truncated``.
        size: the body's full length in bytes, before the cap.
        truncated: whether ``text`` is only the first part of the body.
        content_type: the body's media type.
    """

    text: str
    size: int
    truncated: bool = False
    content_type: str = "application/json"


class TraceEvent(msgspec.Struct, frozen=True, kw_only=True):
    """One stream event on one side of the call.

    Attributes:
        t_ms: milliseconds since the gateway received the request.
        side: ``"upstream_response"`` (as the upstream sent it) or ``"client_response"``.
        name: the SSE event name, or the event's ``type``, or ``"data"``.
        kind: what the timeline marks: ``"first_byte"``, ``"tool_call_start"``,
            ``"tool_call_end"``, ``"text"``, ``"reasoning"``, ``"end"``, ``"error"`` or ``"other"``.
        index: the content index (tool call number) the event is about, if any.
        data: the event's data, capped like bodies.
    """

    t_ms: float
    side: Side
    name: str
    kind: str = "other"
    index: int | None = None
    data: str = ""


class TraceNote(msgspec.Struct, frozen=True, kw_only=True):
    """One conversion note of the call.

    Attributes:
        side: the payload ``path`` points into (the source of that conversion).
        path: JSON path into that payload.
        kind: the note's kind (:data:`toolwire.ir.notes.NoteKind`).
        message: the note's sentence.
        loss: whether meaning changed.
        target_side: the payload ``target`` points into.
        target: JSON path into the converted payload, when known.
    """

    side: Side
    path: str
    kind: str
    message: str
    loss: bool = True
    target_side: Side | None = None
    target: str | None = None


class TraceLatency(msgspec.Struct, frozen=True, kw_only=True):
    """Where the time went, in milliseconds.

    Attributes:
        total: request received -> last byte to the client.
        upstream: request sent upstream -> last upstream byte (``None`` when nothing went up).
        first_byte: request received -> first byte to the client.
    """

    total: float
    upstream: float | None = None
    first_byte: float | None = None

    @property
    def gateway(self) -> float:
        """The gateway's own share: ``total`` minus ``upstream``."""
        return self.total - (self.upstream or 0.0)


class TraceRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One gateway call.

    Attributes:
        v: layout version (:data:`TRACE_VERSION`).
        id: the trace id (the call's request id).
        created_at: unix seconds when the request arrived.
        method: HTTP method of the client request.
        path: request path (no query string secrets: the ``key`` parameter is removed).
        status: HTTP status returned to the client.
        client_format: the client's wire format (``None`` for routes with no format).
        upstream: the upstream's name in the config.
        upstream_format: the upstream's wire format.
        route: the route that matched, as written in the config (``None``: the default).
        client_model: the model the client asked for.
        upstream_model: the model sent upstream.
        stream: whether the answer was a stream.
        latency: timings.
        input_tokens: prompt tokens reported by the upstream.
        output_tokens: completion tokens reported by the upstream.
        error: the error message returned, if the call failed.
        client_request: the client's request body.
        upstream_request: the body sent upstream.
        upstream_response: the upstream's body (non-streamed) or ``None`` (streams: ``events``).
        client_response: the body returned to the client (non-streamed).
        events: stream events of both sides, in time order.
        notes: every conversion note.
    """

    v: int = TRACE_VERSION
    id: str
    created_at: float
    method: str
    path: str
    status: int
    client_format: str | None = None
    upstream: str | None = None
    upstream_format: str | None = None
    route: str | None = None
    client_model: str | None = None
    upstream_model: str | None = None
    stream: bool = False
    latency: TraceLatency = TraceLatency(total=0.0)
    input_tokens: int | None = None
    output_tokens: int | None = None
    error: str | None = None
    client_request: TraceBody | None = None
    upstream_request: TraceBody | None = None
    upstream_response: TraceBody | None = None
    client_response: TraceBody | None = None
    events: list[TraceEvent] = []
    notes: list[TraceNote] = []

    @property
    def has_loss(self) -> bool:
        """Whether any note says meaning changed."""
        return any(note.loss for note in self.notes)

    def summary(self) -> TraceSummary:
        """The list-view line of this record."""
        return TraceSummary(
            id=self.id,
            created_at=self.created_at,
            method=self.method,
            path=self.path,
            status=self.status,
            client_format=self.client_format,
            upstream_format=self.upstream_format,
            client_model=self.client_model,
            upstream_model=self.upstream_model,
            stream=self.stream,
            total_ms=self.latency.total,
            notes=len(self.notes),
            loss_notes=sum(note.loss for note in self.notes),
            error=self.error,
        )


class TraceSummary(msgspec.Struct, frozen=True, kw_only=True):
    """A trace's line in a list (no bodies): what ``/ui`` and ``toolwire trace ls`` show."""

    id: str
    created_at: float
    method: str
    path: str
    status: int
    client_format: str | None = None
    upstream_format: str | None = None
    client_model: str | None = None
    upstream_model: str | None = None
    stream: bool = False
    total_ms: float = 0.0
    notes: int = 0
    loss_notes: int = 0
    error: str | None = None


class TraceQuery(msgspec.Struct, frozen=True, kw_only=True):
    """Which traces a list asks for; every filter set must match.

    Attributes:
        limit: at most this many, the newest first.
        before: the id of the last trace of the previous page.
        model: client or upstream model equal to this.
        pair: ``"<client_format>-><upstream_format>"``.
        status: an exact status code, or a class such as ``"4xx"``.
        has_loss: only traces with (``True``) or without (``False``) loss notes.
    """

    limit: int = 50
    before: str | None = None
    model: str | None = None
    pair: str | None = None
    status: str | None = None
    has_loss: bool | None = None

    def matches(self, summary: TraceSummary) -> bool:
        """Whether ``summary`` passes every filter (``limit``/``before`` aside)."""
        if self.model is not None and self.model not in (summary.client_model, summary.upstream_model):
            return False
        if self.pair is not None and self.pair != f"{summary.client_format}->{summary.upstream_format}":
            return False
        if self.status is not None and not _status_matches(self.status, summary.status):
            return False
        return self.has_loss is None or self.has_loss == (summary.loss_notes > 0)


def _status_matches(wanted: str, status: int) -> bool:
    if len(wanted) == 3 and wanted.endswith("xx") and wanted[0].isdigit():
        return status // 100 == int(wanted[0])
    return wanted == str(status)


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(TraceRecord)


def encode_trace(record: TraceRecord) -> bytes:
    """The stored bytes of ``record`` (compact JSON)."""
    return _ENCODER.encode(record)


def decode_trace(data: bytes) -> TraceRecord:
    """A record read back.

    Raises:
        toolwire.store.StoreError: the bytes are not a trace, or come from a newer layout.
    """
    from toolwire.store.base import StoreError

    try:
        record = _DECODER.decode(data)
    except msgspec.DecodeError as exc:
        raise StoreError(f"unreadable trace: {exc}") from None
    if record.v > TRACE_VERSION:
        raise StoreError(f"trace {record.id!r} has layout v{record.v}; this toolwire reads v{TRACE_VERSION}")
    return record
