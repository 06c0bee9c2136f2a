"""JSONArrayDecoder / JSONArrayEncoder: Gemini's streamed JSON array framing."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.framing.feeding import feed_bytewise, feed_split, feed_whole
from tests.framing.recordings import Recording, json_array_recordings
from toolwire.errors import LimitError, PayloadError, StreamError
from toolwire.framing import JSONArrayDecoder, JSONArrayEncoder, jsonarray

RECORDINGS = json_array_recordings()


def decode(raw: bytes) -> list[Any]:
    whole = feed_whole(JSONArrayDecoder, raw)
    assert feed_bytewise(JSONArrayDecoder, raw) == whole
    return whole


@pytest.mark.parametrize("rec", RECORDINGS, ids=[r.id for r in RECORDINGS])
def test_recordings(rec: Recording) -> None:
    assert rec.raw.lstrip().startswith(b"[")
    expected = json.loads(rec.raw)
    assert decode(rec.raw) == expected
    assert all("candidates" in item or "usageMetadata" in item for item in expected)


@pytest.mark.skipif(not RECORDINGS, reason="fixture corpus not found")
@settings(max_examples=200, deadline=None)
@given(st.data())
def test_recordings_random_splits(data: st.DataObject) -> None:
    rec = data.draw(st.sampled_from(RECORDINGS), label="recording")
    cuts = data.draw(st.lists(st.integers(0, len(rec.raw)), max_size=30), label="cuts")
    assert feed_split(JSONArrayDecoder, rec.raw, cuts) == json.loads(rec.raw)


def test_gemini_separators() -> None:
    assert decode(b'[{"a": 1}\n,\r\n{"b": 2}\n]') == [{"a": 1}, {"b": 2}]


def test_elements_are_yielded_as_soon_as_complete() -> None:
    dec = JSONArrayDecoder()
    assert dec.feed(b'[{"a": [1, {"b"') == []
    assert dec.feed(b': "}]"}]}') == [{"a": [1, {"b": "}]"}]}]
    assert dec.feed(b"\n,") == []
    assert dec.feed(b"[]") == [[]]
    assert dec.feed(b"]") == []
    assert dec.close() == []
    assert dec.count == 2


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        (b"[]", []),
        (b"  \r\n[ ]\n", []),
        (b'["a\\"]b", "c\\\\", "\\\\\\""]', ['a"]b', "c\\", '\\"']),
        (b"[1, -2.5e3 ,true,false, null]", [1, -2.5e3, True, False, None]),
        (b"[[[]], {}, [{}]]", [[[]], {}, [{}]]),
        ('[{"t": "日本語 🦜"}]'.encode(), [{"t": "日本語 🦜"}]),
        (b'[{"k": "\\u00e9\\n"}]', [{"k": "é\n"}]),
    ],
)
def test_valid_arrays(raw: bytes, expected: list[Any]) -> None:
    assert decode(raw) == expected


@pytest.mark.parametrize(
    ("raw", "path"),
    [
        (b'{"error": {}}', "$"),
        (b"x[]", "$"),
        (b"[,{}]", "$"),
        (b"[{}{}]", "$"),
        (b"[{},]", "$"),
        (b"[{},,{}]", "$"),
        (b"[{}] x", "$"),
        (b"[{}][]", "$"),
        (b'[{"a":}]', "$[0]"),
        (b'[{}, {"a" 1}]', "$[1]"),
        (b"[{]", "$[0]"),
        (b"[tru]", "$[0]"),
    ],
)
def test_malformed_arrays(raw: bytes, path: str) -> None:
    for feed in (feed_whole, feed_bytewise):
        with pytest.raises(PayloadError) as info:
            feed(JSONArrayDecoder, raw)
        assert info.value.path == path


@pytest.mark.parametrize("raw", [b"", b"  ", b"[", b'[{"a": 1}', b'[{"a": 1},', b'[{"a": "]', b"[1"])
def test_unclosed_array_is_a_stream_error(raw: bytes) -> None:
    dec = JSONArrayDecoder()
    dec.feed(raw)
    with pytest.raises(StreamError):
        dec.close()
    with pytest.raises(StreamError):
        dec.feed(b"]")


def test_element_limit() -> None:
    raw = b'[{"a": "' + b"x" * 100 + b'"}]'
    for feed in (feed_whole, feed_bytewise):
        with pytest.raises(LimitError) as info:
            feed(lambda: JSONArrayDecoder(max_size=64), raw)
        assert info.value.path == "$[0]"
    small = b'[{"a": "' + b"x" * 40 + b'"}' + b", {}" * 50 + b"]"
    assert len(feed_bytewise(lambda: JSONArrayDecoder(max_size=64), small)) == 51


def test_encoder_layout() -> None:
    enc = JSONArrayEncoder()
    assert enc.feed({"a": 1}) + enc.feed([2]) + enc.close() == b'[{"a":1}\n,\r\n[2]]'
    assert JSONArrayEncoder().close() == b"[]"


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(st.lists(json_values, max_size=6), st.lists(st.integers(0, 1000), max_size=12))
def test_encode_decode_round_trip(items: list[Any], cuts: list[int]) -> None:
    enc = JSONArrayEncoder()
    wire = b"".join(enc.feed(item) for item in items) + enc.close()
    assert feed_split(JSONArrayDecoder, wire, cuts) == items
    pretty = json.dumps(items, indent=2, ensure_ascii=False).encode()
    assert feed_split(JSONArrayDecoder, pretty, cuts) == items


def test_msgspec_messages_the_fast_path_relies_on() -> None:
    """The fast path reads msgspec's error text; if it changes the scanner still works, but slower."""
    raw = b'{"a": [1]}\n,\r\n{}'
    with pytest.raises(msgspec.DecodeError) as info:
        msgspec.json.decode(raw)
    match = jsonarray._TRAILING.search(str(info.value))
    assert match is not None and int(match[1]) - 1 == raw.index(b",")
    with pytest.raises(msgspec.DecodeError) as info:
        msgspec.json.decode(b'{"a": [1')
    assert str(info.value).startswith(jsonarray._TRUNCATED)


def test_big_element_in_small_chunks_hands_over_to_the_scanner() -> None:
    text = 'x}]\\"{[' * 40_000  # brackets and escaped quotes inside a 280 KB string
    items = [{"t": text, "n": [{"k": [1, 2]}]}, {"t": "}"}, ["]", {"a": "\\"}]]
    raw = json.dumps(items, indent=1).encode()
    dec = JSONArrayDecoder()
    out: list[Any] = []
    for i in range(0, len(raw), 1000):
        out += dec.feed(raw[i : i + 1000])
    assert out == items
    assert dec.close() == []
