"""SSE encoding: exact bytes, rejected field values, and encoder -> decoder round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.framing.feeding import feed_split, feed_whole
from toolwire.errors import PayloadError
from toolwire.framing import DONE, SSEDecoder, SSEEncoder, SSEEvent, encode_comment, encode_sse, is_done


def test_encode_simple() -> None:
    assert encode_sse("message_stop", '{"type":"message_stop"}') == (
        b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
    )
    assert encode_sse(None, "[DONE]") == DONE == b"data: [DONE]\n\n"


def test_encode_all_fields_and_multiline_data() -> None:
    assert encode_sse("e", "a\nb\r\nc\rd", id="7", retry=1500) == (
        b"event: e\nid: 7\nretry: 1500\ndata: a\ndata: b\ndata: c\ndata: d\n\n"
    )


def test_encode_empty_data_and_empty_event() -> None:
    assert encode_sse("", "") == b"data: \n\n"
    assert feed_whole(SSEDecoder, encode_sse("", "")) == [SSEEvent(None, "")]


def test_leading_space_in_data_survives() -> None:
    assert feed_whole(SSEDecoder, encode_sse(None, " x\n  y")) == [SSEEvent(None, " x\n  y")]


@pytest.mark.parametrize(
    "kwargs",
    [
        {"event": "a\nb"},
        {"event": "a\rb"},
        {"id": "1\n2"},
        {"id": "1\x002"},
        {"retry": -1},
        {"retry": True},
        {"retry": "10"},
    ],
)
def test_bad_fields_rejected(kwargs: dict[str, object]) -> None:
    args: dict[str, object] = {"event": None, "data": "x", **kwargs}
    with pytest.raises(PayloadError):
        encode_sse(**args)  # type: ignore[arg-type]


def test_comments() -> None:
    assert encode_comment("ping") == b": ping\n\n"
    assert encode_comment() == b":\n\n"
    assert encode_comment("a\n\nb") == b": a\n:\n: b\n\n"
    raw = encode_comment("keep-alive") + encode_sse(None, "x")
    assert feed_whole(SSEDecoder, raw) == [SSEEvent(None, "x")]
    assert feed_whole(lambda: SSEDecoder(comments=True), raw) == [
        SSEEvent(None, "", None, None, "keep-alive"),
        SSEEvent(None, "x"),
    ]


def test_encoder_class() -> None:
    enc = SSEEncoder()
    assert enc.event("a", "1", id="9") == b"event: a\nid: 9\ndata: 1\n\n"
    assert enc.event("a", "2", id="9") == b"event: a\ndata: 2\n\n"  # id unchanged: not repeated
    assert enc.encode(SSEEvent(None, "", "9", None, "hi")) == b": hi\n\n"
    assert enc.comment("x") == b": x\n\n"
    assert is_done(feed_whole(SSEDecoder, enc.done())[0])


field = st.text(st.characters(codec="utf-8", exclude_characters="\r\n\x00"), max_size=12)
event_st = st.tuples(
    st.none() | field.filter(bool),
    st.text(st.characters(codec="utf-8"), max_size=40),
    st.none() | field,
    st.none() | st.integers(0, 10**12),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(event_st, max_size=12), st.lists(st.integers(0, 2000), max_size=10))
def test_encode_decode_round_trip(
    events: list[tuple[str | None, str, str | None, int | None]], cuts: list[int]
) -> None:
    wire = b"".join(encode_sse(*ev) for ev in events)
    expected, last_id = [], None
    for event, data, id_, retry in events:
        last_id = id_ if id_ is not None else last_id
        data = data.replace("\r\n", "\n").replace("\r", "\n")
        expected.append(SSEEvent(event, data, last_id, retry))
    assert feed_split(SSEDecoder, wire, cuts) == expected
    enc = SSEEncoder()
    assert feed_whole(SSEDecoder, b"".join(enc.encode(ev) for ev in expected)) == expected
