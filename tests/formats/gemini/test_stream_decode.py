"""Gemini stream decoding on every recorded stream: outcome, merged equality, framings."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.corpus import Sample, params
from tests.formats.gemini._streams import merge_chunks, raw_calls
from toolwire.formats._stream import iter_events
from toolwire.formats.gemini import StreamDecoder, check_stream, decode_error, decode_response
from toolwire.framing import JSONArrayDecoder, SSEDecoder
from toolwire.framing.sse_encoder import encode_sse
from toolwire.ir.accumulate import accumulate
from toolwire.ir.notes import Notes
from toolwire.ir.stream import ResponseEnd, ResponseStart, StreamErrorEvent, StreamEvent

STREAMS = params("gemini", "stream")
_CHUNK_KEYS = {"candidates", "promptFeedback", "usageMetadata"}

# Recordings that are SDK mocks of a stream cut short: the text parses, but no chunk carries
# a finishReason, so the decoder must report the stream as incomplete.
_NO_FINISH = {"streaming-success-quotes-escaped.txt"}


def _chunks(sample: Sample) -> list[Any]:
    return [item.data for item in sample.payload]


def _expected_outcome(chunks: list[Any]) -> tuple[str, Any]:
    """What a recording must decode to, judged from the raw chunks alone."""
    for chunk in chunks:
        if isinstance(chunk, dict) and "error" in chunk and not chunk.keys() & _CHUNK_KEYS:
            return "upstream_error", chunk["error"].get("status")
        if not isinstance(chunk, dict) or not chunk.keys() & _CHUNK_KEYS:
            return "malformed_event", None
    finishes = [
        c["candidates"][0]["finishReason"]
        for c in chunks
        if c.get("candidates") and "finishReason" in c["candidates"][0]
    ]
    if finishes:
        return "end", finishes[-1]
    blocks = [
        c["promptFeedback"]["blockReason"] for c in chunks if "blockReason" in c.get("promptFeedback", {})
    ]
    return ("end", blocks[-1]) if blocks else ("incomplete_stream", None)


@pytest.mark.parametrize("sample", STREAMS)
def test_recording_outcome(sample: Sample) -> None:
    chunks = _chunks(sample)
    events = iter_events(StreamDecoder(), chunks)
    assert isinstance(events[0], ResponseStart | StreamErrorEvent)
    kind, value = _expected_outcome(chunks)
    if sample.path.name in _NO_FINISH:
        assert kind == "incomplete_stream"
    last = events[-1]
    if kind == "end":
        assert isinstance(last, ResponseEnd), last
        assert last.raw_stop_reason == value
        assert not [e for e in events if isinstance(e, StreamErrorEvent)]
    else:
        assert isinstance(last, StreamErrorEvent), last
        if kind == "upstream_error":
            assert last.error.type == value and last.error.origin == "gemini"
        else:
            assert last.error.code == kind


@pytest.mark.parametrize("sample", STREAMS)
def test_accumulated_equals_merged_non_stream(sample: Sample) -> None:
    """The stream adds up to the non-stream decoding of its chunks merged into one body."""
    chunks = _chunks(sample)
    events = iter_events(StreamDecoder(), chunks)
    if not isinstance(events[-1], ResponseEnd):
        pytest.skip("stream does not end normally (see test_recording_outcome)")
    expected = decode_response(merge_chunks(chunks), Notes())
    assert accumulate(events) == expected


@pytest.mark.parametrize("sample", STREAMS)
def test_tool_calls_match_raw_recording(sample: Sample) -> None:
    chunks = _chunks(sample)
    response = accumulate(iter_events(StreamDecoder(), chunks))
    got = [
        (c.id, c.name, json.loads(c.arguments or "{}")) for c in response.tool_calls if c.kind == "function"
    ]
    assert got == raw_calls(chunks)


@pytest.mark.parametrize("sample", STREAMS)
def test_check_stream_accepts_recording(sample: Sample) -> None:
    chunks = _chunks(sample)
    problems = check_stream(chunks)
    kind, _ = _expected_outcome(chunks)
    if kind == "end" or kind == "upstream_error":
        assert problems == []
    else:
        assert problems, "a failed recording must break a rule"


def _sse_bytes(chunks: list[Any]) -> bytes:
    return b"".join(encode_sse(None, json.dumps(c)) for c in chunks)


def _decode_bytes(raw: bytes, cuts: list[int], array: bool = False) -> list[StreamEvent]:
    framing: Any = JSONArrayDecoder() if array else SSEDecoder()
    decoder = StreamDecoder()
    out: list[StreamEvent] = []
    start = 0
    for cut in [*cuts, len(raw)]:
        for item in framing.feed(raw[start:cut]):
            out.extend(decoder.feed(item if array else json.loads(item.data)))
        start = cut
    for item in framing.close():
        out.extend(decoder.feed(item if array else json.loads(item.data)))
    return [*out, *decoder.close()]


@pytest.mark.parametrize("sample", STREAMS)
def test_feeding_whole_event_by_event_and_byte_by_byte(sample: Sample) -> None:
    chunks = _chunks(sample)
    by_event = iter_events(StreamDecoder(), chunks)
    raw = _sse_bytes(chunks)
    assert _decode_bytes(raw, []) == by_event
    assert _decode_bytes(raw, list(range(1, len(raw)))) == by_event


@pytest.mark.parametrize("sample", STREAMS)
def test_json_array_framing_of_recording(sample: Sample) -> None:
    """``streamGenerateContent`` without ``alt=sse`` sends the same chunks as one JSON array."""
    chunks = _chunks(sample)
    raw = ("[" + ",\r\n".join(json.dumps(c) for c in chunks) + "]").encode()
    cuts = sorted(random.Random(7).sample(range(1, len(raw)), min(200, len(raw) - 1)))
    assert _decode_bytes(raw, cuts, array=True) == iter_events(StreamDecoder(), chunks)


@pytest.mark.parametrize("sample", [p for p in params("gemini", "error") if "streaming-" in p.id])
def test_streaming_error_bodies(sample: Sample) -> None:
    """A stream request answered with an error body (one chunk) gives that provider error."""
    body = sample.payload
    events = iter_events(StreamDecoder(), [body])
    (event,) = events
    assert isinstance(event, StreamErrorEvent)
    assert event.error == decode_error(body, None, Notes())
    assert (event.error.status, event.error.type) == (body["error"]["code"], body["error"]["status"])
