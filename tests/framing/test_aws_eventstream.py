"""EventStreamDecoder / encode_message (AWS event-stream binary), with botocore's parser as oracle."""

from __future__ import annotations

import datetime as dt
import struct
import uuid
import zlib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.framing.feeding import feed_bytewise, feed_split, feed_whole
from tests.framing.recordings import Recording, eventstream_recordings
from toolwire.errors import LimitError, PayloadError, StreamError
from toolwire.framing.aws_eventstream import (
    HEADER_TYPES,
    MAX_HEADERS_SIZE,
    EventMessage,
    EventStreamDecoder,
    HeaderValue,
    encode_message,
)

eventstream = pytest.importorskip("botocore.eventstream")

RECORDINGS = eventstream_recordings()


def oracle(raw: bytes) -> list[tuple[dict[str, Any], bytes]]:
    """botocore's reading of ``raw``: (headers, payload) per message."""
    buffer = eventstream.EventStreamBuffer()
    buffer.add_data(raw)
    return [(message.headers, message.payload) for message in buffer]


def as_botocore(message: EventMessage) -> tuple[dict[str, Any], bytes]:
    """Our message in botocore's terms: a timestamp is its milliseconds, a uuid its bytes."""
    headers: dict[str, Any] = {}
    for name, value in message.headers.items():
        if isinstance(value, dt.datetime):
            value = (value - dt.datetime(1970, 1, 1, tzinfo=dt.UTC)) // dt.timedelta(milliseconds=1)
        elif isinstance(value, uuid.UUID):
            value = value.bytes
        headers[name] = value
    return headers, message.payload


def test_recordings_present() -> None:
    if not RECORDINGS:
        pytest.skip("fixture corpus not present")
    assert len(RECORDINGS) >= 9


@pytest.mark.parametrize("rec", RECORDINGS, ids=[r.id for r in RECORDINGS])
def test_recordings_match_botocore_and_reencode(rec: Recording) -> None:
    messages = feed_whole(EventStreamDecoder, rec.raw)
    assert [as_botocore(m) for m in messages] == oracle(rec.raw)
    assert messages[0].headers[":event-type"] == "messageStart"
    assert messages[0].types == {
        ":event-type": "string",
        ":content-type": "string",
        ":message-type": "string",
    }
    assert b"".join(encode_message(m.headers, m.payload, m.types) for m in messages) == rec.raw


@pytest.mark.parametrize("rec", RECORDINGS[:2], ids=[r.id for r in RECORDINGS[:2]])
def test_recordings_bytewise(rec: Recording) -> None:
    assert feed_bytewise(EventStreamDecoder, rec.raw) == feed_whole(EventStreamDecoder, rec.raw)


ALL_TYPES: dict[str, Any] = {
    "t": True,
    "f": False,
    "b": HeaderValue("byte", -5),
    "s": HeaderValue("short", 300),
    "i": 70000,
    "l": 2**40,
    "y": b"\x00\xffraw",
    "str": "héllo",
    "ts": dt.datetime(2024, 5, 6, 7, 8, 9, 123000, tzinfo=dt.UTC),
    "u": uuid.UUID("12345678-1234-5678-1234-567812345678"),
}


def test_every_header_type_round_trips_and_matches_botocore() -> None:
    raw = encode_message(ALL_TYPES, b'{"a":1}')
    (message,) = feed_whole(EventStreamDecoder, raw)
    assert message.types == {
        "t": "true",
        "f": "false",
        "b": "byte",
        "s": "short",
        "i": "integer",
        "l": "long",
        "y": "bytes",
        "str": "string",
        "ts": "timestamp",
        "u": "uuid",
    }
    assert message.headers["b"] == -5 and message.headers["s"] == 300
    assert message.headers["ts"] == ALL_TYPES["ts"] and message.headers["u"] == ALL_TYPES["u"]
    assert message.payload == b'{"a":1}'
    assert [as_botocore(message)] == oracle(raw)
    assert encode_message(message.headers, message.payload, message.types) == raw


def test_every_split_point() -> None:
    raw = encode_message(ALL_TYPES, b"x" * 5) + encode_message({":event-type": "metadata"}, b"{}")
    whole = feed_whole(EventStreamDecoder, raw)
    assert len(whole) == 2
    assert feed_bytewise(EventStreamDecoder, raw) == whole
    for cut in range(len(raw) + 1):
        assert feed_split(EventStreamDecoder, raw, [cut]) == whole


def test_empty_payload_and_no_headers() -> None:
    raw = encode_message({}, b"")
    assert len(raw) == 16
    assert feed_whole(EventStreamDecoder, raw) == [EventMessage({}, b"", {})]
    assert oracle(raw) == [({}, b"")]


header_values = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.binary(max_size=40),
    st.text(max_size=40),
    st.builds(HeaderValue, st.just("byte"), st.integers(-128, 127)),
    st.builds(HeaderValue, st.just("short"), st.integers(-(2**15), 2**15 - 1)),
    st.builds(uuid.UUID, st.uuids().map(str)),
)
messages = st.tuples(
    st.dictionaries(st.text(min_size=1, max_size=12), header_values, max_size=6), st.binary(max_size=200)
)


@settings(max_examples=150, deadline=None)
@given(st.lists(messages, min_size=1, max_size=4), st.lists(st.integers(0, 2000), max_size=6))
def test_random_messages_match_botocore(items: list[tuple[dict[str, Any], bytes]], cuts: list[int]) -> None:
    raw = b"".join(encode_message(headers, payload) for headers, payload in items)
    decoded = feed_split(EventStreamDecoder, raw, cuts)
    assert [as_botocore(m) for m in decoded] == oracle(raw)
    assert [m.payload for m in decoded] == [payload for _, payload in items]


def _frame(headers: bytes, payload: bytes, total: int | None = None) -> bytes:
    """A message built by hand (correct CRCs), with an optional wrong total length."""
    total = 16 + len(headers) + len(payload) if total is None else total
    prelude = struct.pack(">II", total, len(headers))
    body = prelude + struct.pack(">I", zlib.crc32(prelude)) + headers + payload
    return body + struct.pack(">I", zlib.crc32(body))


GOOD = encode_message({":event-type": "messageStart"}, b'{"role":"assistant"}')


def _error(raw: bytes, prefix: bytes = GOOD) -> PayloadError:
    dec = EventStreamDecoder()
    with pytest.raises(PayloadError) as info:
        dec.feed(prefix + raw)
        dec.close()
    message = str(info.value)
    assert "\n" not in message
    with pytest.raises(StreamError):
        dec.feed(b"")
    return info.value


def test_prelude_crc_mismatch_names_offset_and_message() -> None:
    bad = bytearray(GOOD)
    bad[8] ^= 1
    error = _error(bytes(bad))
    assert error.path == "$[1]"
    assert f"prelude CRC mismatch at byte {len(GOOD)}" in error.message
    with pytest.raises(Exception):  # noqa: B017 - botocore refuses it too
        oracle(bytes(bad))


def test_message_crc_mismatch() -> None:
    bad = bytearray(GOOD)
    bad[20] ^= 0x40
    error = _error(bytes(bad), b"")
    assert error.path == "$[0]"
    assert f"message CRC mismatch at byte {len(GOOD) - 4}" in error.message


def test_corrupt_prelude_fails_before_the_body_arrives() -> None:
    """A prelude whose CRC is wrong fails on its 12th byte: no waiting for a declared length."""
    prelude = struct.pack(">II", 2**31, 0)
    dec = EventStreamDecoder()
    assert dec.feed(prelude + b"\x00\x00\x00") == []
    with pytest.raises(PayloadError, match="prelude CRC"):
        dec.feed(b"\x01")


def test_oversize_payload_fails_at_the_prelude() -> None:
    prelude = struct.pack(">II", 16 + 1001, 0)
    dec = EventStreamDecoder(max_payload=1000)
    with pytest.raises(LimitError, match="payload longer than 1000 bytes at byte 0"):
        dec.feed(prelude + struct.pack(">I", zlib.crc32(prelude)))
    ok = EventStreamDecoder(max_payload=1001)
    assert ok.feed(_frame(b"", b"y" * 1001))[0].payload == b"y" * 1001


def test_oversize_headers() -> None:
    prelude = struct.pack(">II", 16 + MAX_HEADERS_SIZE + 1, MAX_HEADERS_SIZE + 1)
    with pytest.raises(LimitError, match="headers longer"):
        EventStreamDecoder().feed(prelude + struct.pack(">I", zlib.crc32(prelude)))
    with pytest.raises(LimitError, match="headers longer"):
        encode_message({f"h{i}": "x" * 30000 for i in range(5)})


def test_length_too_small_for_headers() -> None:
    error = _error(_frame(b"\x01a\x00", b"", total=16 + 2))
    assert "cannot hold its 3 header bytes" in error.message


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        (b"\x05ab", "runs past the headers section"),  # name longer than the section
        (b"\x01a\x07\x00\x09abc", "runs past the headers section"),  # string longer than the section
        (b"\x01a\x04\x00\x00", "runs past the headers section"),  # truncated int32
        (b"\x01a\x0a", "unknown value type 10"),
        (b"\x01\xff\x00", "name is not UTF-8"),
        (b"\x01a\x07\x00\x01\xff", "string value is not UTF-8"),
        (b"\x01a", "runs past the headers section"),  # no type byte
    ],
)
def test_malformed_headers(headers: bytes, reason: str) -> None:
    error = _error(_frame(headers, b"{}"))
    assert error.message == f"malformed event-stream header: {reason} at byte {len(GOOD) + 12}"
    assert error.path == "$[1]"


def test_truncated_stream_at_close() -> None:
    dec = EventStreamDecoder()
    assert dec.feed(GOOD + GOOD[:20]) != []
    with pytest.raises(
        PayloadError, match=rf"ended inside a message at byte {len(GOOD)} \(20 of {len(GOOD)} bytes\)"
    ):
        dec.close()
    partial = EventStreamDecoder()
    partial.feed(GOOD[:5])
    with pytest.raises(PayloadError, match=r"\(5 of \? bytes\)"):
        partial.close()
    assert dec.close() == []


def test_feed_after_close_refused() -> None:
    dec = EventStreamDecoder()
    assert dec.close() == []
    with pytest.raises(StreamError, match="after close"):
        dec.feed(GOOD)


@pytest.mark.parametrize(
    ("value", "kind"),
    [(300, "byte"), ("x", "integer"), (1, "string"), (True, "false"), (2**31, "integer"), (object(), None)],
)
def test_encode_refuses_values_that_do_not_fit(value: Any, kind: str | None) -> None:
    types = {"h": kind} if kind else None
    with pytest.raises(PayloadError) as info:
        encode_message({"h": value}, b"", types)
    assert info.value.path.startswith("$.headers")


def test_encode_refuses_bad_names() -> None:
    with pytest.raises(PayloadError, match="1 to 255 bytes"):
        encode_message({"": "x"})
    with pytest.raises(PayloadError, match="1 to 255 bytes"):
        encode_message({"n" * 256: "x"})
    assert set(HEADER_TYPES) == set(ALL_TYPES_KINDS)


ALL_TYPES_KINDS = (
    "true",
    "false",
    "byte",
    "short",
    "integer",
    "long",
    "bytes",
    "string",
    "timestamp",
    "uuid",
)
