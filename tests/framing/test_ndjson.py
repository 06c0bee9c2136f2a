"""NDJSONDecoder / encode_ndjson."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.framing.feeding import feed_bytewise, feed_split, feed_whole
from tests.framing.recordings import Recording, ndjson_recordings
from tests.framing.test_jsonarray import json_values
from toolwire.errors import LimitError, PayloadError, StreamError
from toolwire.framing import NDJSONDecoder, encode_ndjson

RECORDINGS = ndjson_recordings()


def decode(raw: bytes) -> list[Any]:
    whole = feed_whole(NDJSONDecoder, raw)
    assert feed_bytewise(NDJSONDecoder, raw) == whole
    return whole


@pytest.mark.parametrize("rec", RECORDINGS, ids=[r.id for r in RECORDINGS])
def test_recordings(rec: Recording) -> None:
    lines = [line for line in rec.raw.splitlines() if line.strip()]
    assert lines
    try:
        expected = [json.loads(line) for line in lines]
    except json.JSONDecodeError:  # one hand-written fixture holds a broken line: we must say where
        bad = next(i for i, line in enumerate(lines) if not _is_json(line))
        with pytest.raises(PayloadError) as info:
            decode(rec.raw)
        assert info.value.path == f"$[{bad}]"
        return
    assert decode(rec.raw) == expected


def _is_json(line: bytes) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return False
    return True


def test_line_handling() -> None:
    assert decode(b'{"a":1}\r\n\n  \n[2]\n3') == [{"a": 1}, [2], 3]
    assert decode(b"") == []
    assert decode(b"\n\n") == []


def test_values_yielded_per_line() -> None:
    dec = NDJSONDecoder()
    assert dec.feed(b'{"a":') == []
    assert dec.feed(b'1}\n{"b"') == [{"a": 1}]
    assert dec.feed(b":2}") == []
    assert dec.close() == [{"b": 2}]
    assert dec.close() == []
    with pytest.raises(StreamError):
        dec.feed(b"{}\n")


def test_invalid_json_has_path() -> None:
    for feed in (feed_whole, feed_bytewise):
        with pytest.raises(PayloadError) as info:
            feed(NDJSONDecoder, b'{"a":1}\n\n{"b":}\n')
        assert info.value.path == "$[1]"


def test_line_limit() -> None:
    raw = b"[" + b"1," * 60 + b"1]\n"
    for feed in (feed_whole, feed_bytewise):
        with pytest.raises(LimitError):
            feed(lambda: NDJSONDecoder(max_size=100), raw)
    assert feed_whole(lambda: NDJSONDecoder(max_size=200), raw) == [[1] * 61]


@settings(max_examples=150, deadline=None)
@given(st.lists(json_values, max_size=8), st.lists(st.integers(0, 1000), max_size=12))
def test_encode_decode_round_trip(items: list[Any], cuts: list[int]) -> None:
    wire = b"".join(encode_ndjson(item) for item in items)
    assert wire.count(b"\n") == len(items)
    assert feed_split(NDJSONDecoder, wire, cuts) == items
