"""SSEDecoder on real recorded streams: every way of chunking gives the same events."""

from __future__ import annotations

import json
from itertools import accumulate

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.framing.feeding import feed_bytewise, feed_split, feed_whole
from tests.framing.recordings import Recording, sse_recordings
from tests.framing.reference import reference_parse
from toolwire.framing import SSEDecoder, SSEEncoder, is_done

RECORDINGS = sse_recordings()
IDS = [r.id for r in RECORDINGS]
needs_recordings = pytest.mark.skipif(not RECORDINGS, reason="fixture corpus not found")


@pytest.mark.parametrize("rec", RECORDINGS, ids=IDS)
def test_whole_matches_reference(rec: Recording) -> None:
    assert feed_whole(SSEDecoder, rec.raw) == reference_parse(rec.raw)


@pytest.mark.parametrize("rec", RECORDINGS, ids=IDS)
def test_bytewise_matches_whole(rec: Recording) -> None:
    assert feed_bytewise(SSEDecoder, rec.raw) == feed_whole(SSEDecoder, rec.raw)


@pytest.mark.parametrize("rec", RECORDINGS, ids=IDS)
def test_line_by_line_and_event_by_event_match_whole(rec: Recording) -> None:
    """The chunkings a network most often produces (these take the decoder's fast path)."""
    expected = feed_whole(SSEDecoder, rec.raw)
    lines = rec.raw.splitlines(keepends=True)  # bytes: splits at CRLF, CR and LF only
    assert feed_split(SSEDecoder, rec.raw, list(accumulate(len(line) for line in lines))) == expected
    sep = b"\r\n\r\n" if b"\r\n\r\n" in rec.raw else b"\n\n"
    events = rec.raw.split(sep)
    cuts = list(accumulate(len(event) + len(sep) for event in events[:-1]))
    assert feed_split(SSEDecoder, rec.raw, cuts) == expected


@pytest.mark.parametrize("rec", RECORDINGS, ids=IDS)
def test_line_endings_do_not_matter(rec: Recording) -> None:
    """Recorded JSON data never holds a raw CR/LF, so rewriting line endings is lossless."""
    lf = rec.raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    expected = feed_whole(SSEDecoder, lf)
    assert feed_whole(SSEDecoder, rec.raw) == expected
    assert feed_bytewise(SSEDecoder, lf.replace(b"\n", b"\r\n")) == expected
    assert feed_bytewise(SSEDecoder, lf.replace(b"\n", b"\r")) == expected


@pytest.mark.parametrize("rec", RECORDINGS, ids=IDS)
def test_events_carry_provider_json(rec: Recording) -> None:
    events = feed_whole(SSEDecoder, rec.raw)
    if b"data:" not in rec.raw:  # plain JSON error bodies recorded from a streaming endpoint
        assert events == []
        return
    assert events
    for i, ev in enumerate(events):
        if is_done(ev):
            assert i == len(events) - 1
            continue
        payload = json.loads(ev.data)
        if rec.provider in ("anthropic", "openai-responses") and ev.event is not None:
            assert payload["type"] == ev.event


@pytest.mark.parametrize("rec", RECORDINGS, ids=IDS)
def test_reencode_round_trip(rec: Recording) -> None:
    events = feed_whole(SSEDecoder, rec.raw)
    enc = SSEEncoder()
    wire = b"".join(enc.encode(ev) for ev in events)
    assert feed_whole(SSEDecoder, wire) == events


def test_openai_streams_end_with_done() -> None:
    chat = [r for r in RECORDINGS if r.id.startswith("openai-python/openai-chat/")]
    if not chat:
        pytest.skip("fixture corpus not found")
    for rec in chat:
        assert is_done(feed_whole(SSEDecoder, rec.raw)[-1]), rec.id


@needs_recordings
@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_splits_match_whole(data: st.DataObject) -> None:
    rec = data.draw(st.sampled_from(RECORDINGS), label="recording")
    cuts = data.draw(st.lists(st.integers(0, len(rec.raw)), max_size=40), label="cuts")
    assert feed_split(SSEDecoder, rec.raw, cuts) == feed_whole(SSEDecoder, rec.raw)
