"""SSEDecoder: hand-made edge cases of the WHATWG event-stream rules, limits, and a property
test against the spec-literal reference parser."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.framing.feeding import feed_bytewise, feed_split, feed_whole
from tests.framing.reference import reference_parse
from toolwire.errors import LimitError, StreamError
from toolwire.framing import SSEDecoder, SSEEvent, is_done


def decode(raw: bytes, **options: bool) -> list[SSEEvent]:
    """Decode whole, byte by byte and line by line; all three must agree."""
    whole = feed_whole(lambda: SSEDecoder(**options), raw)
    assert feed_bytewise(lambda: SSEDecoder(**options), raw) == whole
    assert whole == reference_parse(raw, **options)
    return whole


def datas(raw: bytes) -> list[str]:
    return [ev.data for ev in decode(raw)]


@pytest.mark.parametrize("ending", [b"\n", b"\r\n", b"\r"])
def test_line_endings(ending: bytes) -> None:
    raw = ending.join([b"event: a", b"data: 1", b"", b"data: 2", b"", b""])
    assert decode(raw) == [SSEEvent("a", "1"), SSEEvent(None, "2")]


def test_mixed_line_endings() -> None:
    assert datas(b"data: 1\r\n\rdata: 2\n\r\ndata: 3\r\r") == ["1", "2", "3"]


def test_crlf_split_across_chunks_is_one_line_ending() -> None:
    dec = SSEDecoder()
    assert dec.feed(b"data: a\r") == []
    assert dec.feed(b"\ndata: b\r") == []  # the LF belongs to the CR: no blank line yet
    assert dec.feed(b"\n\r") == [SSEEvent(None, "a\nb")]
    assert dec.feed(b"\n") == []  # LF of the CRLF blank line, not a second blank line
    assert dec.close() == []


def test_cr_cr_is_two_line_endings() -> None:
    dec = SSEDecoder()
    assert dec.feed(b"data: a\r") == []
    assert dec.feed(b"\r") == [SSEEvent(None, "a")]


def test_multiline_data_joined_with_lf() -> None:
    assert datas(b"data: a\ndata:\ndata: c\n\n") == ["a\n\nc"]


def test_one_leading_space_removed() -> None:
    assert datas(b"data:x\n\ndata: x\n\ndata:  x\n\ndata:\tx\n\n") == ["x", "x", " x", "\tx"]


def test_field_without_colon() -> None:
    assert decode(b"data\n\nevent\ndata\ndata\n\n") == [SSEEvent(None, ""), SSEEvent(None, "\n")]


def test_value_may_contain_colons() -> None:
    assert datas(b'data: {"a": "b:c"}\n\n') == ['{"a": "b:c"}']


def test_unknown_fields_ignored() -> None:
    assert decode(b"foo: bar\nDATA: x\ndata : y\ndata: z\n\n") == [SSEEvent(None, "z")]


def test_comments_ignored_by_default() -> None:
    assert decode(b": keep-alive\n\n:\ndata: x\n: mid\n\n") == [SSEEvent(None, "x")]


def test_comments_surfaced_on_request() -> None:
    got = decode(b": OPENROUTER PROCESSING\n\ndata: x\n:\n\n", comments=True)
    assert got == [
        SSEEvent(None, "", None, None, "OPENROUTER PROCESSING"),
        SSEEvent(None, "", None, None, ""),
        SSEEvent(None, "x"),
    ]
    assert not any(is_done(ev) for ev in got)


def test_blank_line_without_data_does_not_dispatch() -> None:
    assert decode(b"event: ping\n\nid: 7\n\nretry: 5\n\n\n\ndata: x\n\n") == [SSEEvent(None, "x", "7")]


def test_dispatch_empty_option() -> None:
    got = decode(b"event: ping\n\n: c\n\ndata: x\n\nretry: 5\n\n", dispatch_empty=True)
    assert got == [SSEEvent("ping", ""), SSEEvent(None, "x"), SSEEvent(None, "", None, 5)]


def test_event_type_resets_after_dispatch() -> None:
    events = decode(b"event: a\ndata: 1\n\ndata: 2\n\nevent:\ndata: 3\n\n")
    assert [(ev.event, ev.type) for ev in events] == [("a", "a"), (None, "message"), (None, "message")]


def test_event_without_data_is_dropped_with_its_type() -> None:
    assert decode(b"event: a\n\ndata: 1\n\n") == [SSEEvent(None, "1")]


def test_id_persists_until_changed() -> None:
    got = decode(b"id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 2\n\ndata: d\n\n")
    assert [ev.id for ev in got] == ["1", "1", "", "2"]


def test_id_with_nul_ignored() -> None:
    dec = SSEDecoder()
    events = dec.feed(b"id: 1\ndata: a\n\nid: x\x00y\ndata: b\n\n")
    assert events == [SSEEvent(None, "a", "1"), SSEEvent(None, "b", "1")]
    assert dec.last_event_id == "1"


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (b"3000", 3000),
        (b"0", 0),
        (b"", None),
        (b"+1", None),
        (b"1.5", None),
        (b" 1", None),
        ("\u0661".encode(), None),
    ],
)
def test_retry_needs_ascii_digits(value: bytes, expected: int | None) -> None:
    dec = SSEDecoder()
    events = dec.feed(b"retry: " + value + b"\ndata: x\n\n")
    assert events == [SSEEvent(None, "x", None, expected)]
    assert dec.retry == expected


def test_retry_applies_without_dispatch_and_persists_on_decoder() -> None:
    dec = SSEDecoder()
    assert dec.feed(b"retry: 10\n\ndata: x\n\n") == [SSEEvent(None, "x")]
    assert dec.retry == 10


def test_close_flushes_unterminated_event() -> None:
    assert datas(b"data: a\n\ndata: b") == ["a", "b"]
    assert datas(b"data: a\n\ndata: b\n") == ["a", "b"]
    assert datas(b"event: x\ndata: b\r\n") == ["b"]


def test_close_with_empty_tail() -> None:
    dec = SSEDecoder()
    assert dec.feed(b"data: a\n\n") == [SSEEvent(None, "a")]
    assert dec.close() == []
    assert dec.close() == []
    assert SSEDecoder().close() == []
    with pytest.raises(StreamError):
        dec.feed(b"data: b\n\n")


def test_done_sentinel() -> None:
    events = decode(b'data: {"x":1}\n\ndata: [DONE]\n\n')
    assert [is_done(ev) for ev in events] == [False, True]
    assert not is_done(SSEEvent(None, "[DONE] x"))
    assert not is_done(SSEEvent(None, '"[DONE]"'))


@pytest.mark.parametrize("text", ["é", "日本語", "🦜", "a\u2028b"])
def test_utf8_split_at_every_byte(text: str) -> None:
    raw = f"data: {text}\n\n".encode()
    for cut in range(len(raw) + 1):
        assert feed_split(SSEDecoder, raw, [cut]) == [SSEEvent(None, text)]


def test_invalid_utf8_replaced() -> None:
    assert datas(b"data: a\xffb\xe6\x97\n\n") == ["a\ufffdb\ufffd"]


def test_bom_stripped_once_at_start() -> None:
    bom = b"\xef\xbb\xbf"
    assert datas(bom + b"data: a\n\n") == ["a"]
    assert datas(bom + bom + b"data: a\n\n") == []  # second BOM is part of the field name
    assert datas(b"data: " + bom + b"a\n\n") == ["\ufeffa"]
    assert datas(b"\xef\xbbdata: a\n\n") == []  # not a BOM: U+FFFD starts the field name
    assert datas(bom) == []


def test_bom_split_across_chunks() -> None:
    dec = SSEDecoder()
    assert dec.feed(b"\xef") == []
    assert dec.feed(b"\xbb") == []
    assert dec.feed(b"\xbfdata: a\n\n") == [SSEEvent(None, "a")]


def test_line_limit() -> None:
    ok = b"data: " + b"x" * 94 + b"\n\n"  # a 100-byte line
    assert feed_bytewise(lambda: SSEDecoder(max_size=100), ok) == [SSEEvent(None, "x" * 94)]
    long = b": " + b"x" * 99 + b"\n\n"
    for feed in (feed_whole, feed_bytewise):
        with pytest.raises(LimitError):
            feed(lambda: SSEDecoder(max_size=100), long)
    with pytest.raises(LimitError):
        SSEDecoder(max_size=100).feed(b"data: a\n" + b"x" * 101)


def test_event_data_limit() -> None:
    raw = b"data: " + b"x" * 60 + b"\n" + b"data: " + b"y" * 60 + b"\n\n"
    for feed in (feed_whole, feed_bytewise):
        with pytest.raises(LimitError):
            feed(lambda: SSEDecoder(max_size=100), raw)
    assert feed_whole(lambda: SSEDecoder(max_size=100), raw.replace(b"\ndata", b"\n\ndata")) == [
        SSEEvent(None, "x" * 60),
        SSEEvent(None, "y" * 60),
    ]


TOKENS = [
    b"data", b"event", b"id", b"retry", b"foo", b":", b": ", b" ", b"\n", b"\r", b"\r\n", b"\n\n",
    b"x", b"42", b"[DONE]", b"\x00", "é日".encode(), b"\xe6", b"\xef\xbb\xbf", b"\xff",
]  # fmt: skip


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(TOKENS), max_size=60).map(b"".join),
    st.lists(st.integers(0, 400), max_size=12),
    st.booleans(),
    st.booleans(),
)
def test_random_streams_match_reference(raw: bytes, cuts: list[int], comments: bool, empty: bool) -> None:
    def make() -> SSEDecoder:
        return SSEDecoder(comments=comments, dispatch_empty=empty)

    expected = reference_parse(raw, comments=comments, dispatch_empty=empty)
    assert feed_split(make, raw, cuts) == expected
    assert feed_bytewise(make, raw) == expected


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200), st.lists(st.integers(0, 200), max_size=8))
def test_arbitrary_bytes_match_reference(raw: bytes, cuts: list[int]) -> None:
    assert feed_split(SSEDecoder, raw, cuts) == reference_parse(raw)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=60).map(b"".join), st.booleans(), st.booleans())
def test_streams_fed_one_block_per_chunk_match_reference(raw: bytes, comments: bool, empty: bool) -> None:
    """Cut after every blank line (servers flush one event per chunk: the single-event path)."""

    def make() -> SSEDecoder:
        return SSEDecoder(comments=comments, dispatch_empty=empty)

    cuts = [i + 2 for i in range(len(raw)) if raw[i : i + 2] == b"\n\n"]
    assert feed_split(make, raw, cuts) == reference_parse(raw, comments=comments, dispatch_empty=empty)


@pytest.mark.parametrize(
    "chunk",
    [
        b"data: x\n\n",
        b"data:x\n\n",
        b"data:  x\n\n",
        b"data: \n\n",
        b"event: a\ndata: {}\n\n",
        b"event:a\ndata:{}\n\n",
        b"event: \ndata: y\n\n",
        b"event: a:b\ndata: y\n\n",
        b"event: a\nevent: b\ndata: y\n\n",
        b"id: 1\ndata: y\n\n",
        b"eventx: a\ndata: y\n\n",
        b"datax: y\n\n",
        b": hi\n\n",
        b"data: a\ndata: b\n\n",
        "data: é\n\n".encode(),
        b"data: \xff\n\n",
    ],
)
def test_single_event_chunks(chunk: bytes) -> None:
    """Each chunk after a first event, fed whole (the single-event path) and line by line."""
    raw = b"id: 7\ndata: first\n\n" + chunk + chunk
    fast = feed_split(SSEDecoder, raw, [len(b"id: 7\ndata: first\n\n"), len(raw) - len(chunk)])
    assert fast == reference_parse(raw) == feed_bytewise(SSEDecoder, raw)
