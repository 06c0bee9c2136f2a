"""ConverseStream decoding (issue 22): the canonical events each wire event gives, the hot path
agreeing with the general one, the grammar's leniencies and refusals, and the event index every
stream note names."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.formats._stream import iter_events
from toolwire.formats.bedrock_converse.stream import StreamDecoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, Usage
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ReasoningDelta,
    ResponseEnd,
    ResponseStart,
    StreamErrorEvent,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)

FMT = "bedrock-converse"
START = {"messageStart": {"role": "assistant"}}
STOP = {"messageStop": {"stopReason": "end_turn"}}
USAGE = {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}


def delta(index: int, **body: Any) -> dict[str, Any]:
    return {"contentBlockDelta": {"contentBlockIndex": index, "delta": body}}


def block_start(index: int, **start: Any) -> dict[str, Any]:
    return {"contentBlockStart": {"contentBlockIndex": index, "start": start}}


def block_stop(index: int) -> dict[str, Any]:
    return {"contentBlockStop": {"contentBlockIndex": index}}


def call(index: int, call_id: str = "tooluse_1", name: str = "f") -> dict[str, Any]:
    return block_start(index, toolUse={"toolUseId": call_id, "name": name})


def run(*wire: dict[str, Any]) -> tuple[list[StreamEvent], list[tuple[str, str, str]]]:
    """Every canonical event of ``wire`` (closed), the ResponseStart's made-up id blanked, and
    the notes as (path, kind, message)."""
    notes = Notes()
    events = iter_events(StreamDecoder(notes), list(wire))
    if events and isinstance(events[0], ResponseStart):
        assert events[0].id.startswith("bedrock_") and len(events[0].id) > len("bedrock_")
        events[0] = ResponseStart(origin=FMT)
    return events, [(n.path, n.kind, n.message) for n in notes]


def error(events: list[StreamEvent]) -> ErrorInfo:
    last = events[-1]
    assert isinstance(last, StreamErrorEvent)
    return last.error


def fed(*wire: dict[str, Any]) -> StreamDecoder:
    decoder = StreamDecoder()
    for event in wire:
        decoder.feed(event)
    return decoder


# ---------------------------------------------------------------- the events of a whole stream


def test_a_stream_of_every_block_kind_gives_its_events_in_order() -> None:
    events, notes = run(
        START,
        delta(0, text="Let me "),
        delta(0, text="check."),
        block_stop(0),
        call(1, "tooluse_a", "get"),
        delta(1, toolUse={"input": '{"c":'}),
        delta(1, toolUse={"input": "1}"}),
        block_stop(1),
        delta(2, reasoningContent={"text": "hmm"}),
        delta(2, reasoningContent={"signature": "U0lH"}),
        block_stop(2),
        delta(3, reasoningContent={"redactedContent": "cmVk"}),
        delta(3, reasoningContent={"redactedContent": "YWN0"}),
        block_stop(3),
        {"messageStop": {"stopReason": "tool_use"}},
        {"metadata": {"usage": USAGE}},
    )
    call_part = ToolCall(name="get", id="tooluse_a")
    assert events == [
        ResponseStart(origin=FMT),
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="Let me "),
        TextDelta(index=0, text="check."),
        PartEnd(index=0),
        PartStart(index=1, part=call_part),
        ToolCallDelta(index=1, arguments='{"c":'),
        ToolCallDelta(index=1, arguments="1}"),
        PartEnd(index=1, part=ToolCall(name="get", id="tooluse_a", arguments='{"c":1}')),
        PartStart(index=2, part=ReasoningPart(origin=FMT)),
        ReasoningDelta(index=2, text="hmm"),
        ReasoningDelta(index=2, signature="U0lH"),
        PartEnd(index=2),
        PartStart(index=3, part=ReasoningPart(origin=FMT)),
        PartEnd(index=3, part=ReasoningPart(redacted="cmVkYWN0", origin=FMT)),
        ResponseEnd(
            stop_reason="tool_calls",
            raw_stop_reason="tool_use",
            usage=Usage(input_tokens=1, output_tokens=2, total_tokens=3),
        ),
    ]
    assert notes == []


def test_wire_block_indices_need_not_start_at_zero_the_ir_ones_do() -> None:
    events, _ = run(START, delta(7, text="a"), block_stop(7), delta(9, text="b"), block_stop(9), STOP)
    assert [(type(e).__name__, getattr(e, "index", None)) for e in events[1:-1]] == [
        ("PartStart", 0),
        ("TextDelta", 0),
        ("PartEnd", 0),
        ("PartStart", 1),
        ("TextDelta", 1),
        ("PartEnd", 1),
    ]


def test_empty_text_deltas_open_the_block_but_give_no_delta() -> None:
    events, _ = run(START, delta(0, text=""), delta(0, text=""), block_stop(0), STOP)
    assert events[1:-1] == [PartStart(index=0, part=TextPart(text="")), PartEnd(index=0)]


@pytest.mark.parametrize("inputs", [[], [""], ["", ""]], ids=["none", "one-empty", "two-empty"])
def test_a_call_without_input_text_gets_an_empty_object(inputs: list[str]) -> None:
    wire = [START, call(0), *(delta(0, toolUse={"input": text}) for text in inputs), block_stop(0), STOP]
    events, _ = run(*wire)
    assert events[2:-1] == [
        ToolCallDelta(index=0, arguments="{}"),
        PartEnd(index=0, part=ToolCall(name="f", id="tooluse_1", arguments="{}")),
    ]


def test_a_server_tool_call_is_builtin_and_keeps_its_type() -> None:
    start = block_start(0, toolUse={"toolUseId": "t", "name": "nova", "type": "server_tool_use", "x": 1})
    events, _ = run(START, start, delta(0, toolUse={"input": "{}"}), block_stop(0), STOP)
    assert events[1] == PartStart(
        index=0, part=ToolCall(name="nova", id="t", kind="builtin", extra={"type": "server_tool_use", "x": 1})
    )


def test_a_stream_without_message_start_still_starts_a_response() -> None:
    events, _ = run(delta(0, text="hi"), block_stop(0), STOP)
    assert events[0] == ResponseStart(origin=FMT) and events[1] == PartStart(index=0, part=TextPart(text=""))
    assert events[-1] == ResponseEnd(stop_reason="end_turn", raw_stop_reason="end_turn")


@pytest.mark.parametrize("first", [True, False], ids=["stop-first", "metadata-first"])
def test_the_end_comes_once_both_closing_events_came(first: bool) -> None:
    decoder = StreamDecoder()
    decoder.feed(START)
    closing = [STOP, {"metadata": {"usage": USAGE}}]
    if not first:
        closing.reverse()
    assert decoder.feed(closing[0]) == []
    (end,) = decoder.feed(closing[1])
    assert end == ResponseEnd(
        stop_reason="end_turn",
        raw_stop_reason="end_turn",
        usage=Usage(input_tokens=1, output_tokens=2, total_tokens=3),
    )
    assert decoder.close() == []


def test_the_closing_events_other_members_are_kept_in_the_end() -> None:
    events, _ = run(
        START,
        {
            "messageStop": {
                "stopReason": "end_turn",
                "additionalModelResponseFields": {"a": 1},
                "future": 2,
                "p": "padding",
            }
        },
        {
            "metadata": {
                "usage": USAGE,
                "metrics": {"latencyMs": 5},
                "trace": {"t": 1},
                "performanceConfig": {"latency": "standard"},
                "serviceTier": {"type": "priority"},
                "later": 3,
                "p": "pad",
            }
        },
    )
    end = events[-1]
    assert isinstance(end, ResponseEnd) and end.usage == Usage(
        input_tokens=1, output_tokens=2, total_tokens=3
    )
    assert end.extra == {
        "additionalModelResponseFields": {"a": 1},
        "~messageStop": {"future": 2},
        "~metrics": {"latencyMs": 5},
        "trace": {"t": 1},
        "performanceConfig": {"latency": "standard"},
        "serviceTier": {"type": "priority"},
        "~metadata": {"later": 3},
    }


# ---------------------------------------------------------------- leniencies, each noted at its event


def test_blocks_left_open_are_closed_by_message_stop_noted_there() -> None:
    events, notes = run(START, delta(0, text="a"), call(1), delta(1, toolUse={"input": "{}"}), STOP)
    assert events[-3:] == [
        PartEnd(index=0),
        PartEnd(index=1, part=ToolCall(name="f", id="tooluse_1", arguments="{}")),
        ResponseEnd(stop_reason="end_turn", raw_stop_reason="end_turn"),
    ]
    assert [(path, kind) for path, kind, _ in notes] == [("$[4]", "skipped"), ("$[4]", "skipped")]


def test_an_empty_block_start_waits_for_its_first_delta() -> None:
    events, notes = run(START, block_start(0), delta(0, text="hi"), block_stop(0), STOP)
    assert events[1:4] == [
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="hi"),
        PartEnd(index=0),
    ]
    assert notes == []


def test_a_block_started_empty_and_stopped_without_deltas_gives_no_part() -> None:
    events, notes = run(START, block_start(0), block_stop(0), delta(1, text="x"), block_stop(1), STOP)
    assert accumulate(events).parts == (TextPart(text="x"),)
    assert notes == [] and not any(isinstance(e, StreamErrorEvent) for e in events)


def test_a_block_start_of_a_kind_the_ir_lacks_is_skipped_noted() -> None:
    events, notes = run(START, block_start(0, image={"format": "png"}), block_stop(0), STOP)
    assert accumulate(events).parts == () and accumulate(events).error is None
    assert [(path, kind) for path, kind, _ in notes] == [("$[1]", "skipped")]


def test_a_delta_of_a_kind_the_ir_lacks_is_skipped_noted() -> None:
    events, notes = run(
        START, delta(0, text="a"), delta(0, citation={"title": "t"}), delta(0, text="b"), STOP
    )
    assert accumulate(events).parts == (TextPart(text="ab"),)
    assert [(path, kind) for path, kind, _ in notes if "citation" in _] == [("$[2]", "skipped")]


def test_a_reasoning_member_the_ir_lacks_is_skipped_noted() -> None:
    events, notes = run(START, delta(0, reasoningContent={"text": "r", "future": "x"}), block_stop(0), STOP)
    assert events[1:4] == [
        PartStart(index=0, part=ReasoningPart(origin=FMT)),
        ReasoningDelta(index=0, text="r"),
        PartEnd(index=0),
    ]
    assert [(path, kind) for path, kind, _ in notes] == [("$[1]", "skipped")]


def test_an_unknown_event_is_skipped_noted_and_the_stream_goes_on() -> None:
    events, notes = run(START, {"somethingNew": {"a": 1}}, delta(0, text="hi"), STOP)
    assert accumulate(events).parts == (TextPart(text="hi"),) and accumulate(events).error is None
    assert [(path, kind) for path, kind, _ in notes if "somethingNew" in _] == [("$[1]", "skipped")]


def test_events_after_the_end_are_ignored_noted_once() -> None:
    events, notes = run(START, STOP, {"metadata": {}}, delta(0, text="late"), STOP, {"metadata": {}})
    assert events == [
        ResponseStart(origin=FMT),
        ResponseEnd(stop_reason="end_turn", raw_stop_reason="end_turn"),
    ]
    assert [(path, kind) for path, kind, _ in notes] == [("$[3]", "skipped")]


def test_events_after_an_error_are_ignored() -> None:
    decoder = StreamDecoder()
    decoder.feed(START)
    (failed,) = decoder.feed({"throttlingException": {"message": "slow"}})
    assert isinstance(failed, StreamErrorEvent) and failed.error.status == 429
    assert decoder.feed(delta(0, text="hi")) == [] and decoder.feed(STOP) == []
    assert decoder.close() == []


# ---------------------------------------------------------------- note paths name the wire event


def test_notes_after_hot_path_deltas_name_the_right_event() -> None:
    """Deltas of an open text or toolUse block take the hot path; they still count as events."""
    _, notes = run(
        START,
        delta(0, text="a"),
        delta(0, text="b"),
        delta(0, text="c"),
        call(1),
        delta(1, toolUse={"input": "{"}),
        delta(1, toolUse={"input": "}"}),
        {"somethingNew": {}},
        block_stop(0),
        block_stop(1),
        STOP,
    )
    assert [(path, kind) for path, kind, _ in notes] == [("$[7]", "skipped")]


def test_a_part_opened_by_a_later_event_is_noted_at_that_event() -> None:
    """A Gemini client takes no Bedrock reasoning: the note names the event that opened it."""
    from toolwire.streaming import StreamTranslator

    translator = StreamTranslator(FMT, "gemini")
    for event in [
        START,
        delta(0, text="a"),
        delta(0, text="b"),
        delta(1, reasoningContent={"text": "r"}),
        STOP,
    ]:
        translator.feed(event)
    translator.close()
    assert [(n.path, n.kind) for n in translator.note_items if n.loss] == [("$[3]", "dropped")]


# ---------------------------------------------------------------- the hot path


def test_a_text_delta_of_the_open_text_block_takes_the_hot_path() -> None:
    decoder = fed(START, delta(0, text="a"))
    assert decoder.hot(delta(0, text="b")) == (TextDelta, 0, "b")
    assert decoder.hot(delta(0, text="")) == (TextDelta, 0, "")


def test_an_input_delta_of_the_open_call_takes_the_hot_path_and_is_kept() -> None:
    decoder = fed(START, delta(0, text="a"), block_stop(0), call(1))
    assert decoder.hot(delta(1, toolUse={"input": '{"a":'})) == (ToolCallDelta, 1, '{"a":')
    assert decoder.hot(delta(1, toolUse={"input": "1}"})) == (ToolCallDelta, 1, "1}")
    assert decoder.feed(block_stop(1)) == [
        PartEnd(index=1, part=ToolCall(name="f", id="tooluse_1", arguments='{"a":1}'))
    ]


@pytest.mark.parametrize(
    "event",
    [
        delta(1, text="b"),  # no such block
        delta(0, toolUse={"input": "{}"}),  # a text block
        delta(0, text=5),
        delta(0, reasoningContent={"text": "r"}),
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "b", "toolUse": {"input": ""}}}},
        {"contentBlockDelta": {"contentBlockIndex": "0", "delta": {"text": "b"}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": "b"}},
        {"contentBlockDelta": "b"},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {**delta(0, text="b"), **STOP},
        ["contentBlockDelta"],
    ],
    ids=[
        "unknown-block",
        "call-delta-in-text",
        "not-a-string",
        "reasoning",
        "two-members",
        "string-index",
        "string-delta",
        "string-body",
        "stop",
        "two-events",
        "not-an-object",
    ],
)
def test_any_other_event_leaves_the_hot_path_without_a_state_change(event: Any) -> None:
    decoder = fed(START, delta(0, text="a"))
    assert decoder.hot(event) is None
    assert decoder.feed({"somethingNew": {}}) == []  # event $[2]: the one refused by hot() not counted
    assert decoder.feed(delta(0, text="b")) == [TextDelta(index=0, text="b")]


@pytest.mark.parametrize(
    "event",
    [
        delta(0, toolUse={"input": 5}),
        delta(0, toolUse="x"),
        delta(0, toolUse={"json": "{}"}),
        delta(0, text="b"),
    ],
    ids=["number", "string-body", "no-input", "text-in-call"],
)
def test_a_malformed_call_delta_leaves_the_hot_path(event: Any) -> None:
    decoder = fed(START, call(0))
    assert decoder.hot(event) is None
    assert decoder.feed(delta(0, toolUse={"input": "{}"})) == [ToolCallDelta(index=0, arguments="{}")]


# ---------------------------------------------------------------- refusals


@pytest.mark.parametrize(
    ("wire", "param", "text"),
    [
        ([START, call(0), call(0)], "$[2]", "started twice"),
        ([START, block_start(0), block_start(0)], "$[2]", "started twice"),
        ([START, block_start(0), call(0)], "$[2]", "started twice"),
        ([START, delta(0, text="a"), call(0)], "$[2]", "started twice"),
        ([START, delta(0, text="a"), block_stop(0), delta(0, text="b")], "$[3]", "already stopped"),
        ([START, call(0), block_stop(0), delta(0, toolUse={"input": "{}"})], "$[3]", "already stopped"),
        ([START, block_start(0), block_stop(0), block_stop(0)], "$[3]", "already stopped"),
        ([START, STOP, delta(0, text="a")], "$[2]", "after messageStop"),
        ([START, STOP, STOP], "$[2]", "a second messageStop"),
        ([START, {"metadata": {}}, {"metadata": {}}], "$[2]", "a second metadata"),
        (
            [START, delta(0, text="a"), delta(0, reasoningContent={"text": "r"})],
            "$[2]",
            "reasoning delta in text",
        ),
        ([START, call(0), delta(0, text="a")], "$[2]", "text delta in call"),
        ([START, delta(0, text="a"), delta(0, toolUse={"input": "{}"})], "$[2]", "no started toolUse"),
        ([START, {"messageStart": {}}], "$[1]", "messageStart inside a message"),
        ([{"messageStart": {"role": "user"}}], "$[0].messageStart.role", "expected 'assistant'"),
        (
            [START, delta(0, reasoningContent={"text": 1})],
            "$[1].contentBlockDelta.delta.reasoningContent.text",
            "string",
        ),
        ([START, {"messageStop": {}}], "$[1].messageStop.stopReason", ""),
        ([START, {"metadata": {"usage": {"inputTokens": "1"}}}], "$[1].metadata.usage.inputTokens", ""),
        ([START, delta(0, text="a", toolUse={})], "$[1].contentBlockDelta.delta", "exactly one member"),
    ],
)
def test_an_event_that_breaks_the_grammar_ends_the_stream_with_its_index(
    wire: list[dict[str, Any]], param: str, text: str
) -> None:
    events, _ = run(*wire)
    failed = error(events)
    assert (failed.code, failed.param) == ("malformed_event", param)
    assert failed.message.startswith(param + ": ") and text in failed.message


@pytest.mark.parametrize(
    ("wire", "message"),
    [
        ([], "stream ended before any event"),
        ([START, delta(0, text="a")], "stream ended without messageStop"),
    ],
    ids=["empty", "cut"],
)
def test_a_stream_cut_short_is_an_incomplete_stream_error(wire: list[dict[str, Any]], message: str) -> None:
    events, _ = run(*wire)
    assert error(events) == ErrorInfo(message=message, code="incomplete_stream")


def test_an_exception_event_is_a_typed_error_with_its_members() -> None:
    events, _ = run(START, {"serviceUnavailableException": {"message": "busy", "p": "pad", "reason": "r"}})
    assert error(events) == ErrorInfo(
        message="busy", status=503, type="ServiceUnavailableException", origin=FMT, extra={"reason": "r"}
    )


def test_an_unknown_exception_is_a_server_error_named_by_its_type() -> None:
    events, _ = run(START, {"somethingNewException": {"message": 7}})
    assert error(events) == ErrorInfo(
        message="SomethingNewException", status=500, type="SomethingNewException", origin=FMT, extra={}
    )
