"""Anthropic stream decoder contracts (issue 22): blocks the IR cannot hold come back as the
non-streamed decoding has them, usage adds up, notes name the event they are about, and the
hot path and the general path agree on long tool calls."""

from __future__ import annotations

from typing import Any

import msgspec

from toolwire._args_check import HELD
from toolwire.formats._stream import iter_events
from toolwire.formats.anthropic import StreamDecoder, decode_response
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import PartEnd, ResponseEnd, StreamErrorEvent, StreamEvent, ToolCallDelta

MESSAGE: dict[str, Any] = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 5, "output_tokens": 1},
}
START = {"type": "message_start", "message": MESSAGE}
STOP0 = {"type": "content_block_stop", "index": 0}
DELTA = {
    "type": "message_delta",
    "delta": {"stop_reason": "end_turn", "stop_sequence": None},
    "usage": {"output_tokens": 9},
}
END = {"type": "message_stop"}


def block_start(block: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return {"type": "content_block_start", "index": index, "content_block": block}


def delta(body: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": body}


def text_block(*pieces: str) -> list[dict[str, Any]]:
    start = block_start({"type": "text", "text": ""})
    return [start, *(delta({"type": "text_delta", "text": p}) for p in pieces), STOP0]


def decode(events: list[Any], notes: Notes | None = None) -> list[StreamEvent]:
    return iter_events(StreamDecoder(notes), events)


def response_end(events: list[StreamEvent]) -> ResponseEnd:
    ends = [e for e in events if isinstance(e, ResponseEnd)]
    assert len(ends) == 1, events
    return ends[0]


def noted(notes: Notes) -> list[tuple[str, str, str]]:
    return [(n.path, n.kind, n.message) for n in notes]


# ---------------------------------------------------------------- blocks the IR cannot hold


def test_a_streamed_compaction_block_ends_up_as_the_whole_block() -> None:
    events = [
        START,
        block_start({"type": "compaction", "content": ""}),
        delta({"type": "compaction_delta", "content": "summary of the talk"}),
        STOP0,
        DELTA,
        END,
    ]
    decoded = decode(events)
    whole = {"type": "compaction", "content": "summary of the talk"}
    assert not [e for e in decoded if isinstance(e, StreamErrorEvent)]
    assert response_end(decoded).extra["opaque_blocks"] == [[0, whole]]
    non_streamed = decode_response({**MESSAGE, "content": [whole], "stop_reason": "end_turn"}, Notes())
    assert non_streamed.extra["opaque_blocks"] == [[0, whole]]


def test_an_unknown_delta_of_an_unknown_block_merges_its_fields_but_not_its_type() -> None:
    events = [
        START,
        *text_block("hi"),
        block_start({"type": "future_block", "data": "a"}, 1),
        delta({"type": "future_delta", "data": "ab"}, 1),
        {"type": "content_block_stop", "index": 1},
        DELTA,
        END,
    ]
    notes = Notes()
    decoded = decode(events, notes)
    assert response_end(decoded).extra["opaque_blocks"] == [[1, {"type": "future_block", "data": "ab"}]]
    assert accumulate(decoded).text == "hi"
    assert noted(notes) == []


# ---------------------------------------------------------------- usage and tool calls


def test_usage_of_message_start_is_kept_where_message_delta_omits_it() -> None:
    decoded = decode([START, *text_block("hi"), DELTA, END])
    usage = response_end(decoded).usage
    assert usage is not None
    assert (usage.input_tokens, usage.output_tokens) == (5, 9)


def test_a_server_tool_call_ends_with_its_streamed_input() -> None:
    start = {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
    events = [
        START,
        block_start(start),
        delta({"type": "input_json_delta", "partial_json": '{"query": '}),
        delta({"type": "input_json_delta", "partial_json": '"weather"}'}),
        STOP0,
        DELTA,
        END,
    ]
    decoded = decode(events)
    ends = [e.part for e in decoded if isinstance(e, PartEnd)]
    whole = {**start, "input": {"query": "weather"}}
    expected = decode_response({**MESSAGE, "content": [whole], "stop_reason": "end_turn"}, Notes()).parts[0]
    assert isinstance(expected, ToolCall) and expected.extra["input"] == {"query": "weather"}
    raw = '{"query": "weather"}'
    assert ends == [msgspec.structs.replace(expected, arguments=raw)]


def test_a_call_with_its_input_in_the_start_and_no_deltas_streams_that_input() -> None:
    start = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": 1}}
    decoded = decode([START, block_start(start), STOP0, DELTA, END])
    assert [e.arguments for e in decoded if isinstance(e, ToolCallDelta)] == ['{"a":1}']
    assert accumulate(decoded).tool_calls[0].arguments == '{"a":1}'


def test_a_call_longer_than_the_held_limit_is_held_whole_by_default() -> None:
    piece = "x" * 600
    pieces = ['{"k": "', *([piece] * 130), '"}']
    events = [
        START,
        block_start({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}),
        *(delta({"type": "input_json_delta", "partial_json": p}) for p in pieces),
        STOP0,
        DELTA,
        END,
    ]
    assert len("".join(pieces)) > HELD
    ends = [e.part for e in decode(events) if isinstance(e, PartEnd)]
    assert len(ends) == 1 and isinstance(ends[0], ToolCall)
    assert ends[0].arguments == "".join(pieces)


def test_the_general_path_trims_long_arguments_as_the_hot_path_does() -> None:
    """``_feed`` (the general path) and ``feed`` (hot path first) give the same events, here for a
    call whose few deltas pass the held limit without being trimmed."""
    big = "y" * (HELD // 2)
    pieces = ['{"k": "', big, big, big, '"}']
    events = [
        START,
        block_start({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}),
        *(delta({"type": "input_json_delta", "partial_json": p}) for p in pieces),
        STOP0,
        DELTA,
        END,
    ]
    outs = []
    for general in (False, True):
        decoder = StreamDecoder()
        decoder.hold_calls = False
        feed = decoder._feed if general else decoder.feed
        outs.append([e for event in events for e in feed(event)] + decoder.close())
    assert outs[0] == outs[1]
    ends = [e.part for e in outs[1] if isinstance(e, PartEnd)]
    assert isinstance(ends[0], ToolCall) and ends[0].arguments == "".join(pieces)


# ---------------------------------------------------------------- notes


def test_a_cut_short_call_notes_its_incomplete_arguments_as_skipped() -> None:
    cut = {**DELTA, "delta": {"stop_reason": "max_tokens", "stop_sequence": None}}
    events = [
        START,
        block_start({"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}),
        delta({"type": "input_json_delta", "partial_json": '{"a": '}),
        cut,
        END,
    ]
    notes = Notes()
    decoded = decode(events, notes)
    assert accumulate(decoded).tool_calls[0].arguments == '{"a": '
    assert [(p, k) for p, k, _ in noted(notes)] == [("$[3]", "skipped"), ("$[3]", "skipped")]
    assert noted(notes)[0][2] == "content block 0 closed by message_delta (no content_block_stop)"
    assert noted(notes)[1][2].startswith("tool call 'f' ended with incomplete arguments (")
    assert all(not n.loss for n in notes)


def test_a_repeated_message_start_is_skipped_with_a_note() -> None:
    notes = Notes()
    decoded = decode([START, START, *text_block("hi"), DELTA, END], notes)
    assert accumulate(decoded).text == "hi"
    assert noted(notes) == [("$[1]", "skipped", "repeated message_start ignored")]


def test_events_after_the_end_are_noted_once_and_pings_never() -> None:
    ping = {"type": "ping"}
    notes = Notes()
    decoded = decode([START, *text_block("hi"), DELTA, END, ping, START, ping, START], notes)
    assert accumulate(decoded).text == "hi"
    assert noted(notes) == [("$[7]", "skipped", "events after the end of the stream ignored")]


def test_notes_after_hot_path_deltas_name_their_own_event() -> None:
    notes = Notes()
    decode([START, *text_block("a", "b"), {"type": "future_event"}, DELTA, END], notes)
    assert noted(notes) == [("$[5]", "skipped", "unknown stream event 'future_event' ignored")]


def test_message_stop_before_message_start_is_a_malformed_event() -> None:
    decoded = decode([END])
    assert [type(e) for e in decoded] == [StreamErrorEvent]
    error = decoded[0].error  # type: ignore[attr-defined]
    assert (error.code, error.param, error.message) == (
        "malformed_event",
        "$[0]",
        "$[0]: message_stop before message_start",
    )
