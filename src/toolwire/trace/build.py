"""A finished call's :class:`~toolwire.hop._capture.HopCapture` as a :class:`TraceRecord` (no I/O).

Run off the request path (the gateway's trace writer). In this order, for every text that goes
into the record (bodies, stream event data, note messages, the error):

1. redact: every secret (the key the client presented, the upstream auth header values, the
   configured upstream and gateway keys) is replaced with :data:`REDACTED`, also in its JSON
   escaped spelling. Headers are never kept, and the path has no query string;
2. cap: the text is cut at ``max_body_bytes`` (UTF-8, never inside a character); the body's
   full size (before redaction) is kept with ``truncated``.

Notes made by the request's translation point into ``client_request`` (their ``target`` into
``upstream_request``); the others into ``upstream_response`` (target ``client_response``).
"""

from __future__ import annotations

import json
from collections.abc import Generator, Iterable

from toolwire.hop._capture import HopCapture, Payload, StreamSide
from toolwire.hop._steps import HopRecord
from toolwire.trace._events import iter_stream_events
from toolwire.trace.record import TraceBody, TraceLatency, TraceNote, TraceRecord

__all__ = ["REDACTED", "Redactor", "build_trace", "iter_build_trace"]

REDACTED = "[redacted]"
"""What a secret is replaced with."""


class Redactor:
    """Replaces secrets in text, then cuts it at ``cap`` bytes.

    Args:
        secrets: the strings to remove (empty ones are ignored).
        cap: the most UTF-8 bytes a text keeps.
    """

    def __init__(self, secrets: Iterable[str], cap: int) -> None:
        spelled = {s for secret in secrets if secret for s in (secret, json.dumps(secret)[1:-1])}
        self.secrets = sorted(spelled, key=len, reverse=True)  # a longer secret first: no half-redaction
        self.cap = cap

    def redact(self, text: str) -> str:
        """``text`` without any secret."""
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
        return text

    def cut(self, text: str) -> str:
        """``text`` redacted and capped."""
        return self._capped(self.redact(text))[0]

    def _capped(self, text: str) -> tuple[str, bool]:
        if len(text) * 4 <= self.cap:  # fits whatever its characters
            return text, False
        data = text.encode()
        if len(data) <= self.cap:
            return text, False
        return data[: self.cap].decode(errors="ignore"), True

    def body(self, payload: Payload | None) -> TraceBody | None:
        """A payload as kept (``None`` stays ``None``); ``truncated`` also when only the start
        of the payload was captured."""
        if payload is None:
            return None
        text, cut = self._capped(self.redact(payload.data.decode(errors="replace")))
        cut = cut or len(payload.data) < payload.size
        return TraceBody(text=text, size=payload.size, truncated=cut, content_type=payload.content_type)


def _notes(capture: HopCapture, redactor: Redactor) -> list[TraceNote]:
    notes: list[TraceNote] = []
    for n, note in enumerate(capture.notes):
        request = n < capture.request_notes
        notes.append(
            TraceNote(
                side="client_request" if request else "upstream_response",
                path=note.path,
                kind=note.kind,
                message=redactor.cut(note.message),
                loss=note.loss,
                target_side="upstream_request" if request else "client_response",
                target=note.target,
            )
        )
    return notes


def _ms(start: float | None, end: float | None) -> float | None:
    return None if start is None or end is None else round((end - start) * 1000, 3)


def build_trace(
    record: HopRecord, capture: HopCapture, *, created_at: float, done: float, secrets: Iterable[str] = ()
) -> TraceRecord:
    """The trace of a finished call (:func:`iter_build_trace` run to its end)."""
    steps = iter_build_trace(record, capture, created_at=created_at, done=done, secrets=secrets)
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: TraceRecord = stop.value
            return result


def iter_build_trace(
    record: HopRecord, capture: HopCapture, *, created_at: float, done: float, secrets: Iterable[str] = ()
) -> Generator[None, None, TraceRecord]:
    """The trace of a finished call, yielding now and then while a long stream's events are
    built (an event-loop caller lets requests run at each yield).

    Args:
        record: the call's record (ids, formats, models, status, tokens).
        capture: what the hop and the shell kept of it (``started``: the shell's monotonic
            time when the request arrived).
        created_at: unix seconds when the request arrived.
        done: the shell's monotonic time of the call's last byte.
        secrets: keys known beyond the call's own (the config's upstream and gateway keys).
    """
    redactor = Redactor([*secrets, *capture.secrets], capture.budget)
    stream = bool(capture.chunks)
    formats: dict[StreamSide, str | None] = {
        "upstream_response": record.upstream_format,
        "client_response": record.client,
    }
    events = (yield from iter_stream_events(capture, formats, redactor.cut)) if stream else []
    payloads = capture.payloads
    return TraceRecord(
        id=record.request_id,
        created_at=created_at,
        method=record.method,
        path=record.path,
        status=record.status,
        client_format=record.client,
        upstream=record.upstream,
        upstream_format=record.upstream_format,
        route=capture.route,
        client_model=record.client_model,
        upstream_model=record.upstream_model,
        stream=record.stream,
        latency=TraceLatency(
            total=_ms(capture.started, done) or 0.0,
            upstream=_ms(capture.sent_at, capture.upstream_done_at),
            first_byte=_ms(capture.started, capture.first_byte_at),
        ),
        input_tokens=record.input_tokens,
        output_tokens=record.output_tokens,
        error=redactor.cut(record.error) if record.error is not None else None,
        client_request=redactor.body(payloads.get("client_request")),
        upstream_request=redactor.body(payloads.get("upstream_request")),
        upstream_response=None if stream else redactor.body(payloads.get("upstream_response")),
        client_response=None if stream else redactor.body(payloads.get("client_response")),
        events=events,
        notes=_notes(capture, redactor),
    )
