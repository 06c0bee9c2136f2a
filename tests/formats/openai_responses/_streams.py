"""Helpers for the Responses stream tests: recordings as streams, SSE bytes, encoding."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from tests.corpus import Sample
from toolwire.formats._stream import sse_event_name
from toolwire.formats.openai_responses.stream import StreamEncoder
from toolwire.framing import SSEDecoder, encode_sse
from toolwire.ir.notes import Notes
from toolwire.ir.stream import StreamEvent

TERMINAL = frozenset({"response.completed", "response.incomplete", "response.failed"})


def streams(sample: Sample) -> list[list[dict[str, Any]]]:
    """The streams of a recording. Some recording files hold several steps' streams back to back
    (a new ``response.created`` after a terminal event starts the next one)."""
    out: list[list[dict[str, Any]]] = [[]]
    for item in sample.payload:
        data = item.data
        assert isinstance(data, dict)
        ended = any(event["type"] in TERMINAL for event in out[-1])
        if data.get("type") == "response.created" and ended:
            out.append([])
        out[-1].append(data)
    return out


def sse_bytes(events: Iterable[dict[str, Any]]) -> bytes:
    """The events as SSE bytes, named by their type as the API sends them."""
    return b"".join(encode_sse(sse_event_name("openai-responses", e), json.dumps(e)) for e in events)


def parse_sse(chunks: Iterable[bytes]) -> list[dict[str, Any]]:
    """SSE bytes fed chunk by chunk to the SSE decoder, each event's data parsed as JSON."""
    decoder = SSEDecoder()
    events = []
    for chunk in chunks:
        events.extend(decoder.feed(chunk))
    events.extend(decoder.close())
    return [json.loads(event.data) for event in events]


def encode(events: Iterable[StreamEvent], notes: Notes | None = None) -> list[dict[str, Any]]:
    """Canonical events through a fresh :class:`StreamEncoder`, closed at the end."""
    encoder = StreamEncoder(notes if notes is not None else Notes("drop"))
    out = [wire for event in events for wire in encoder.feed(event)] + encoder.close()
    dicts = [wire for wire in out if isinstance(wire, dict)]
    assert len(dicts) == len(out), "Responses events are objects"
    return dicts
