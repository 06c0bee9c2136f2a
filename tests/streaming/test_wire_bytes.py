"""Byte-level translation: :func:`translate_stream` over SSE bytes cut anywhere equals the
event-level translation, and :class:`WireReader` tells Gemini's JSON-array streaming from SSE.

The input bytes are each recording's own raw SSE text where the corpus has it (and it frames
to the recorded events), else the recorded events framed as SSE by :func:`encode_wire_events`.
"""

from __future__ import annotations

import json
import random
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.corpus import STREAM_FORMATS as FORMATS
from tests.corpus import Sample, require_corpus, samples
from tests.streaming._matrix import all_stream_samples, has_client_calls, source, translate, wire_of
from toolwire._json import dumps_str
from toolwire.errors import PayloadError
from toolwire.formats._stream import BINARY_FORMATS, WireEvent, join_wire_events, sse_event_name
from toolwire.framing import encode_message, encode_sse
from toolwire.streaming import (
    WireReader,
    check_stream,
    encode_wire_event,
    encode_wire_events,
    translate_stream,
)


@pytest.fixture(autouse=True)
def _fixed_ids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ids synthesized for streams without one (Bedrock's) are the same in every translation
    these tests compare."""
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=7))


_SAMPLES = all_stream_samples()


def _read(data: bytes, chunks: Iterator[bytes] | None = None) -> list[WireEvent]:
    reader = WireReader()
    out: list[WireEvent] = []
    for chunk in chunks if chunks is not None else iter([data]):
        out.extend(reader.feed(chunk))
    return out + reader.close()


def sse_bytes(sample: Sample) -> bytes:
    """The recording as SSE bytes: its raw text when that frames to the recorded events."""
    wire = wire_of(sample)
    if sample.raw is not None and sample.raw.lstrip()[:1] not in ("[", "{"):
        raw = sample.raw.encode()
        try:
            if _read(raw) == wire:
                return raw
        except PayloadError:
            pass
    return encode_wire_events(sample.format, wire)


def random_cuts(data: bytes, rng: random.Random, most: int = 97) -> Iterator[bytes]:
    """``data`` in pieces of 1..``most`` bytes (cuts inside lines, CRLFs and UTF-8 sequences)."""
    at = 0
    while at < len(data):
        size = rng.randint(1, most)
        yield data[at : at + size]
        at += size


def bytewise(data: bytes) -> Iterator[bytes]:
    """``data`` one byte at a time."""
    return (data[i : i + 1] for i in range(len(data)))


# A Chat response id the source did not give is synthesized at random (a fresh completion id
# per stream, like OpenAI's): the only bytes allowed to differ between two translations.
_RANDOM_ID = re.compile(rb"chatcmpl-[0-9a-f]{24}")


def _expected(sample: Sample, dst: str) -> bytes:
    out = encode_wire_events(dst, translate(wire_of(sample), sample.format, dst).wire)
    return _RANDOM_ID.sub(b"chatcmpl-?", out)


def _translated(chunks: Iterator[bytes], sample: Sample, dst: str) -> bytes:
    out = b"".join(translate_stream(chunks, source=sample.format, target=dst, policy="drop"))
    return _RANDOM_ID.sub(b"chatcmpl-?", out)


@pytest.mark.parametrize("fmt", FORMATS)
def test_random_cuts_equal_event_level_translation(fmt: str) -> None:
    """Every recording of ``fmt``, cut at random points, to a rotating target: same bytes."""
    require_corpus()
    rng = random.Random(f"cuts-{fmt}")
    for position, sample in enumerate(s for s in _SAMPLES if s.format == fmt):
        dst = FORMATS[position % len(FORMATS)]
        data = sse_bytes(sample)
        assert _read(data, random_cuts(data, rng)) == wire_of(sample), sample.id
        assert _translated(random_cuts(data, rng), sample, dst) == _expected(sample, dst), sample.id


def _smallest_with_calls(fmt: str) -> Sample:
    found = [s for s in samples(fmt, "stream") if has_client_calls(source(s.id, fmt).response)]
    return min(found, key=lambda s: len(sse_bytes(s)))


@pytest.mark.parametrize("fmt", FORMATS)
def test_byte_by_byte(fmt: str) -> None:
    """The smallest tool-call recording of each format, fed one byte at a time, to every target."""
    require_corpus()
    sample = _smallest_with_calls(fmt)
    data = sse_bytes(sample)
    for dst in FORMATS:
        assert _translated(bytewise(data), sample, dst) == _expected(sample, dst), dst


def _json_array(sample: Sample) -> bytes:
    """The Gemini recording as the REST endpoint streams it without ``alt=sse``: one JSON array."""
    return b"\r\n" + json.dumps(wire_of(sample), indent=2, ensure_ascii=False).encode() + b"\n"


def test_gemini_json_array_detected() -> None:
    """A JSON-array body (leading blank line, cut anywhere) reads as the same chunks as its SSE."""
    require_corpus()
    rng = random.Random("array")
    gemini = [s for s in samples("gemini", "stream") if all(isinstance(e, dict) for e in wire_of(s))]
    for position, sample in enumerate(gemini):
        data = _json_array(sample)
        assert _read(data, random_cuts(data, rng)) == wire_of(sample), sample.id
        dst = FORMATS[position % len(FORMATS)]
        assert _translated(random_cuts(data, rng), sample, dst) == _expected(sample, dst), sample.id


def test_gemini_json_array_byte_by_byte() -> None:
    """The smallest Gemini tool-call recording as a JSON array, one byte at a time."""
    require_corpus()
    sample = _smallest_with_calls("gemini")
    data = _json_array(sample)
    assert _read(data, bytewise(data)) == wire_of(sample)
    assert _translated(bytewise(data), sample, "openai-chat") == _expected(sample, "openai-chat")


def test_non_object_event_is_a_typed_error() -> None:
    """SSE data that is JSON but not an object is a PayloadError with the event's path."""
    with pytest.raises(PayloadError) as info:
        _read(b'data: {"a": 1}\n\ndata: [1, 2]\n\n')
    assert info.value.path == "$[1]"


@pytest.mark.parametrize("body", [b'[{"a": 1},\n {"b": 2}]\n', b'data: {"a": 1}\n\ndata: {"b": 2}\n\n'])
def test_byte_order_mark_and_blank_lead_in(body: bytes) -> None:
    """A UTF-8 BOM and blank lines before the body, split anywhere, do not hide the framing."""
    for lead in (b"", b"\r\n"):
        data = b"\xef\xbb\xbf" + lead + body
        assert _read(data, bytewise(data)) == [{"a": 1}, {"b": 2}]
    assert _read(b" \n" + body) == [{"a": 1}, {"b": 2}]


def test_encode_wire_event_writes_what_encode_sse_writes() -> None:
    """The cached-prefix framing equals the spec-checked encoder for every recorded event."""
    require_corpus()
    for sample in _SAMPLES:
        for event in wire_of(sample):
            if sample.format in BINARY_FORMATS:  # one AWS event-stream message per event
                ((kind, body),) = event.items()  # type: ignore[union-attr]
                headers = {":event-type": kind, ":content-type": "application/json", ":message-type": "event"}
                expected = encode_message(headers, dumps_str(body).encode())
            else:
                name = sse_event_name(sample.format, event)
                expected = encode_sse(name, event if isinstance(event, str) else dumps_str(event))
            assert encode_wire_event(sample.format, event) == expected, sample.id


def test_join_wire_events_writes_what_encode_wire_event_writes() -> None:
    """Events framed together (their prefixes looked up inline) equal each framed alone, for
    every recorded stream, and for events the inline lookup leaves to ``encode_wire_event``."""
    require_corpus()
    for sample in _SAMPLES:
        events = list(wire_of(sample))
        alone = b"".join(encode_wire_event(sample.format, event) for event in events)
        assert join_wire_events(sample.format, events) == alone, sample.id
    odd: list[WireEvent] = [{"a": 1}, {"type": 3}, {"type": "brand.new.kind"}, {"type": ""}, "[DONE]"]
    for fmt in ("anthropic", "openai-chat"):
        expected = b"".join(
            encode_sse(sse_event_name(fmt, e), e if isinstance(e, str) else dumps_str(e)) for e in odd
        )
        assert join_wire_events(fmt, odd) == expected, fmt


def _too_deep() -> dict[str, Any]:
    deep: Any = []
    for _ in range(100_000):  # deeper than the serializer recurses
        deep = [deep]
    return {"type": "ping", "deep": deep}


def _surrogate() -> dict[str, Any]:
    return {"type": "ping", "text": "\ud800"}


@pytest.mark.parametrize("bad", [_surrogate, _too_deep], ids=["surrogate", "deep"])
def test_join_wire_events_raises_what_encode_wire_event_raises(bad: Any) -> None:
    """An event that cannot be serialized raises the same toolwire error framed with others."""
    event = bad()
    with pytest.raises(PayloadError) as alone:
        encode_wire_event("anthropic", event)
    with pytest.raises(PayloadError) as joined:
        join_wire_events("anthropic", [{"type": "ping"}, event])
    assert (type(joined.value), joined.value.message) == (type(alone.value), alone.value.message)


def test_encode_wire_event_rejects_a_name_that_breaks_the_framing() -> None:
    """An event type with a line break cannot become an ``event:`` line (no cache poisoning)."""
    with pytest.raises(PayloadError):
        encode_wire_event("anthropic", {"type": "ping\ndata: {}"})


@pytest.mark.parametrize("sample", _SAMPLES, ids=lambda s: f"{s.format}:{s.id}")
def test_one_event_per_chunk_reads_like_whole(sample: Sample) -> None:
    """Chunks of one whole event each (how servers flush; WireReader's fast path) read the same
    events as the whole body and as single bytes."""
    data = sse_bytes(sample)
    if data.lstrip()[:1] == b"[":
        pytest.skip("JSON-array streaming")
    blocks = [piece + b"\n\n" for piece in data.split(b"\n\n") if piece]
    if b"".join(blocks) != data:  # CR line endings or a last event without its blank line
        blocks = [data]
    assert _read(data, iter(blocks)) == _read(data) == _read(data, bytewise(data))


def test_one_event_chunks_with_invalid_utf8_read_like_the_text_path() -> None:
    """A payload that is not UTF-8 is read as text with replacement characters either way."""
    data = b'data: {"a": "\xff"}\n\n'
    assert _read(data, iter([data, data])) == _read(data + data, bytewise(data + data))
    assert _read(data) == [{"a": "\ufffd"}]


@pytest.mark.parametrize(
    "bad", [b"data: {not json\n\n", b"data: [1, 2]\n\n", b"data: \xff\xfe\n\n"], ids=["json", "array", "utf8"]
)
def test_a_broken_event_loses_none_before_it(bad: bytes) -> None:
    """Events before a broken one in the same chunk are returned; the error comes with the next call."""
    good = b'data: {"a": 1}\n\n'
    reader = WireReader()
    assert reader.feed(good + good + bad + good) == [{"a": 1}, {"a": 1}]
    with pytest.raises(PayloadError) as info:
        reader.feed(good)
    assert info.value.path == "$[2]"
    reader = WireReader()
    assert reader.feed(good + bad) == [{"a": 1}]
    with pytest.raises(PayloadError):
        reader.close()


@pytest.mark.parametrize("target", FORMATS)
@pytest.mark.parametrize("split", ["one-chunk", "event-chunks", "bytewise"])
def test_translate_stream_ends_a_broken_upstream_with_the_targets_error(target: str, split: str) -> None:
    """A malformed upstream event mid-stream: every event before it, then the client's own error
    event (a legal end of its stream); nothing after it is read. Any split gives the same bytes."""
    sample = _smallest_with_calls("anthropic")
    blocks = [piece + b"\n\n" for piece in sse_bytes(sample).split(b"\n\n") if piece]
    cut = len(blocks) // 2
    chunks = [*blocks[:cut], b"event: content_block_delta\ndata: {broken\n\n", *blocks[cut:]]
    body = b"".join(chunks)
    split_chunks = {"one-chunk": [body], "event-chunks": chunks, "bytewise": list(bytewise(body))}[split]
    out = b"".join(translate_stream(split_chunks, source="anthropic", target=target, policy="drop"))
    assert out == b"".join(translate_stream([body], source="anthropic", target=target, policy="drop"))
    events = _read(out)
    assert check_stream(target, events) == []
    expected = b"".join(translate_stream(blocks[:cut], source="anthropic", target=target, policy="drop"))
    before = _read(expected)
    error_at = next(i for i, e in enumerate(events) if _is_error(target, e))
    assert events[:error_at] == before[:error_at]
    assert "malformed" in json.dumps(events[error_at]) or "invalid JSON" in json.dumps(events[error_at])


def _is_error(fmt: str, event: Any) -> bool:
    if not isinstance(event, dict):
        return False
    if fmt in ("anthropic", "openai-responses"):
        return event.get("type") == "error"
    if fmt == "bedrock-converse":
        return any(name.endswith("Exception") for name in event)
    return "error" in event
