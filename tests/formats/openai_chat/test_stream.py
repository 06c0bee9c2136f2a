"""Chat stream decoder on the recorded corpus: results, feeding modes, same-format round trip."""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import Sample, params
from tests.formats.openai_chat._stream_helpers import (
    decode_all,
    encode_all,
    from_sse_bytewise,
    observed,
    raw_expectations,
    to_sse,
)
from toolwire.formats._stream import WireEvent
from toolwire.formats.openai_chat import StreamDecoder, check_stream, decode_response
from toolwire.ir.accumulate import accumulate
from toolwire.ir.notes import Notes
from toolwire.ir.stream import PartEnd, PartStart, ResponseEnd, ResponseStart, StreamErrorEvent

STREAMS = params("openai-chat", "stream")


def _wire(sample: Sample) -> list[WireEvent]:
    return [item.data for item in sample.payload]


@pytest.mark.parametrize("sample", STREAMS)
def test_recording_decodes_to_what_the_chunks_say(sample: Sample) -> None:
    wire = _wire(sample)
    events = decode_all(wire)
    assert not [e for e in events if isinstance(e, StreamErrorEvent)]
    assert isinstance(events[0], ResponseStart) and events[0].origin == "openai-chat"
    assert isinstance(events[-1], ResponseEnd)
    resp = accumulate(events)
    assert observed(resp) == raw_expectations(wire)
    starts = [e.index for e in events if isinstance(e, PartStart)]
    ends = [e.index for e in events if isinstance(e, PartEnd)]
    assert sorted(starts) == sorted(ends) == list(range(len(starts)))


@pytest.mark.parametrize("sample", STREAMS)
def test_check_stream_accepts_recording(sample: Sample) -> None:
    assert check_stream(_wire(sample)) == []


@pytest.mark.parametrize("sample", STREAMS)
def test_whole_event_by_event_and_bytewise_agree(sample: Sample) -> None:
    wire = _wire(sample)
    whole = decode_all(wire)
    decoder = StreamDecoder(Notes("drop"))
    one_by_one = []
    for event in wire:
        one_by_one.extend(decoder.feed(event))
    one_by_one.extend(decoder.close())
    bytewise = decode_all(from_sse_bytewise(to_sse(wire)))
    assert whole == one_by_one == bytewise


@pytest.mark.parametrize("sample", STREAMS)
def test_reencoding_a_recording_gives_the_same_ir_events(sample: Sample) -> None:
    events = decode_all(_wire(sample))
    wire = encode_all(events)
    assert check_stream(wire) == []
    assert decode_all(wire) == events


def _as_response_body(events: list[Any]) -> dict[str, Any]:
    """A ``chat.completion`` body built from recorded chunks by plain concatenation (choice 0)."""
    first = next(e for e in events if isinstance(e, dict) and e.get("choices"))
    expected = raw_expectations(events)
    message: dict[str, Any] = {"role": "assistant", "content": expected.text or None}
    calls = [
        {"id": cid, "type": "function", "function": {"name": name, "arguments": args}}
        for cid, name, args in expected.calls
    ]
    if calls:
        message["tool_calls"] = calls
    finish = next(
        (
            c["finish_reason"]
            for e in events
            if isinstance(e, dict)
            for c in e.get("choices") or []
            if c.get("index", 0) == 0 and c.get("finish_reason")
        ),
        None,
    )
    return {
        "id": first["id"],
        "object": "chat.completion",
        "model": first["model"],
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }


@pytest.mark.parametrize("sample", STREAMS)
def test_stream_agrees_with_the_non_stream_decoder(sample: Sample) -> None:
    wire = _wire(sample)
    streamed = accumulate(decode_all(wire))
    whole = decode_response(_as_response_body(wire), Notes("drop"))
    assert streamed.tool_calls == list(whole.tool_calls)
    assert streamed.text == whole.text
    assert (streamed.stop_reason, streamed.raw_stop_reason) == (whole.stop_reason, whole.raw_stop_reason)
    assert (streamed.id, streamed.model) == (whole.id, whole.model)
