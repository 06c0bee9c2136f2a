"""An Anthropic target's argument deltas on the byte hot path: the decoder writes them to the call's
lent slot and keeps their text in its ``held`` argument check, which stays bounded and is trimmed
exactly when the encoder's own path trims it; a call held while another block streams is replayed
as its bytes by ``feed_frames`` (``StreamEncoder.framing``), as the general path frames it."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.streaming.test_frames import _Lending
from tests.streaming.test_hot_paths import _Uuids, assert_same
from toolwire import _args_check
from toolwire._args_check import TRIM
from toolwire.errors import PayloadError
from toolwire.formats._stream import WireEvent
from toolwire.streaming import StreamTranslator, encode_wire_events

SOURCES = ("openai-chat", "openai-responses", "anthropic")
"""Sources whose decoders write argument deltas to a lent part (Gemini streams whole calls)."""


def _anthropic(calls: list[list[str]]) -> list[WireEvent]:
    """An Anthropic stream of one text block, then a tool call per list of argument pieces."""
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": []}
    events: list[WireEvent] = [
        {"type": "message_start", "message": {**message, "stop_reason": None, "usage": {"input_tokens": 1}}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_stop", "index": 0},
    ]
    for block, pieces in enumerate(calls, start=1):
        tool_use = {"type": "tool_use", "id": f"toolu_{block}", "name": "f", "input": {}}
        events.append({"type": "content_block_start", "index": block, "content_block": tool_use})
        events += [
            {
                "type": "content_block_delta",
                "index": block,
                "delta": {"type": "input_json_delta", "partial_json": p},
            }
            for p in pieces
        ]
        events.append({"type": "content_block_stop", "index": block})
    events += [
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 5}},
        {"type": "message_stop"},
    ]
    return events


def _in(fmt: str, events: list[WireEvent]) -> list[WireEvent]:
    translator = StreamTranslator("anthropic", fmt, policy="drop")
    return [out for event in events for out in translator.feed(event)] + translator.close()


def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


@pytest.fixture
def uuids(monkeypatch: pytest.MonkeyPatch) -> _Uuids:
    fake = _Uuids()
    monkeypatch.setattr(uuid, "uuid4", fake)
    return fake


@pytest.mark.parametrize("source", SOURCES)
def test_argument_deltas_are_written_to_the_lent_slot_with_their_check_bounded(source: str) -> None:
    """Past a call's first deltas, its argument deltas reach neither the encoder nor the general
    path; the argument check the decoder appends to never holds more than ``TRIM`` pieces."""
    pieces = _pieces('{"notes": "' + "x" * 900 + '"}', 3)  # 304 pieces: several trims
    events = _in(source, _anthropic([pieces]))
    translator = StreamTranslator(source, "anthropic", policy="drop")
    lending = _Lending(translator)
    encoder: Any = translator._encoder
    most = 0
    for event in events:
        lending.feed_frames(event)
        slot = encoder._current
        if slot is not None and slot.held is not None:
            most = max(most, len(slot.held))
    translator.close_frames()
    # all but the first delta and one per TRIM - 1 (the encoder appends and trims that one)
    assert lending.written >= len(pieces) - len(pieces) // (TRIM - 1) - 2
    assert 0 < most <= TRIM


@pytest.mark.parametrize("source", SOURCES)
@pytest.mark.parametrize("count", [TRIM - 1, TRIM, TRIM + 1, 2 * TRIM - 1, 2 * TRIM])
def test_the_lent_check_is_trimmed_where_the_encoder_trims_it(
    source: str, count: int, uuids: _Uuids, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Arguments longer than ``HELD`` that are a closed object with a bad token inside: checked
    exactly (noted) unless a trim past ``HELD`` made the check structural (not noted), so the
    note tells where the trims fell; the byte path, which the decoder writes, gives what the
    general path gives, at each count of pieces around a trim."""
    monkeypatch.setattr(_args_check, "HELD", 100)
    head, tail = '{"a": tru, "n": "', '"}'
    text = head + "x" * (2 * count - len(head) - len(tail)) + tail  # `count` pieces of 2
    events = _in(source, _anthropic([_pieces(text, 2)]))
    assert_same(events, source, "anthropic", uuids)


def test_a_held_call_is_replayed_as_its_bytes(uuids: _Uuids) -> None:
    """Chat keeps parallel calls open to the end, so an Anthropic target holds the second call's
    deltas while the first streams and replays them at the first's end: as bytes, on the byte
    path (no wire event built), equal to the general path's framed events."""
    events = _in("openai-chat", _anthropic([_pieces('{"a": "' + "y" * 60 + '"}', 4)] * 2))
    assert_same(events, "openai-chat", "anthropic", uuids)
    translator = StreamTranslator("openai-chat", "anthropic", policy="drop")
    encoder: Any = translator._encoder
    replayed = []
    for event in events:
        data = translator.feed_frames(event)
        assert encoder.framing is False  # set only while the translator frames the general path
        replayed.append(data.count(b'"index":2,"delta":{"type":"input_json_delta"'))
    assert max(replayed) == 18  # the second call's 18 deltas in one event's bytes


def test_a_lone_surrogate_in_a_replayed_delta_is_a_payload_error() -> None:
    """A held argument delta that cannot be UTF-8 is replayed as the wire event, whose framing
    raises toolwire's ``PayloadError`` (as it does on the general path); ``framing`` is reset."""
    second = ['{"a": "', "b\ud800", '"}']
    events = _in("openai-chat", _anthropic([['{"a": 1}'], second]))
    translator = StreamTranslator("openai-chat", "anthropic", policy="drop")
    general = StreamTranslator("openai-chat", "anthropic", policy="drop")
    raised = 0
    for event in events:
        try:
            data = translator.feed_frames(event)
        except PayloadError as exc:
            assert "not valid Unicode" in str(exc)
            with pytest.raises(PayloadError, match="not valid Unicode"):
                encode_wire_events("anthropic", general.feed(event))
            raised += 1
        else:
            assert data == encode_wire_events("anthropic", general.feed(event))
        assert translator._encoder.framing is False  # type: ignore[attr-defined]
    assert raised == 1
