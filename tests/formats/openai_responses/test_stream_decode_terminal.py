"""The terminal event's ``output`` repeats the items of ``output_item.done``: the decoder takes
what it needs from ``response.completed`` without decoding those items again, with exactly the
``ResponseEnd`` a full decode of the response gives; an item unlike its done item is decoded."""

from __future__ import annotations

import copy
from typing import Any

from tests.streaming._matrix import benchmark_stream_in
from toolwire.formats.openai_responses.response import decode_response
from toolwire.formats.openai_responses.stream import StreamDecoder
from toolwire.ir.notes import Notes
from toolwire.ir.stream import ResponseEnd, StreamErrorEvent, StreamEvent


def _stream() -> list[dict[str, Any]]:
    events = benchmark_stream_in("openai-responses")
    assert all(isinstance(event, dict) for event in events)
    return copy.deepcopy(events)  # type: ignore[arg-type]


def _decode(events: list[dict[str, Any]]) -> list[StreamEvent]:
    decoder = StreamDecoder(Notes("drop"))
    return [out for event in events for out in decoder.feed(event)] + decoder.close()


def _end_as_decoded(response: dict[str, Any]) -> ResponseEnd:
    resp = decode_response(response, Notes("drop"))
    return ResponseEnd(
        stop_reason=resp.stop_reason,
        raw_stop_reason=resp.raw_stop_reason,
        usage=resp.usage,
        status=resp.status,
        extra=resp.extra,
    )


def test_done_items_end_as_a_full_decode_of_the_response() -> None:
    events = _stream()
    completed = events[-1]
    assert completed["type"] == "response.completed" and len(completed["response"]["output"]) == 3
    completed["response"]["top_p"] = None  # a quiet field besides the (non-empty) output
    end = _decode(events)[-1]
    assert end == _end_as_decoded(completed["response"])
    assert "output" not in end.extra.get("~responses", {})


def test_an_item_unlike_its_done_item_is_decoded() -> None:
    events = _stream()
    del events[-1]["response"]["output"][1]["name"]  # the done item had its name
    end = _decode(events)[-1]
    assert isinstance(end, StreamErrorEvent) and end.error.code == "malformed_event"
    assert "output[1]" in end.error.message


def test_an_output_item_never_done_is_decoded() -> None:
    events = _stream()
    first_call = next(i for i, e in enumerate(events) if e.get("item", {}).get("type") == "function_call")
    completed = events[-1]
    output = completed["response"]["output"]
    assert output[0]["type"] == "message"
    output[1:] = [{**output[1], "arguments": "{}"}]  # a call the stream never streamed
    end = _decode([*events[:first_call], completed])[-1]
    assert isinstance(end, ResponseEnd) and end.stop_reason == "tool_calls"
