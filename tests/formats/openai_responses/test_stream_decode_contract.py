"""Responses stream decoding, event by event (issue 22): the canonical events a stream gives, the
error (code and path) of each kind of malformed event, and the events that give nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.formats.openai_responses._streams import encode
from toolwire.formats._stream import iter_events
from toolwire.formats.openai_responses.stream import StreamDecoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ReasoningDelta,
    ResponseEnd,
    ResponseStart,
    StreamErrorEvent,
    StreamEvent,
    TextDelta,
)

RESPONSE: dict[str, Any] = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1,
    "status": "in_progress",
    "model": "m",
    "output": [],
}
CREATED = {"type": "response.created", "response": RESPONSE}
MESSAGE = {"id": "msg_7", "type": "message", "status": "in_progress", "role": "assistant", "content": []}
CALL = {
    "id": "fc_1",
    "type": "function_call",
    "call_id": "c1",
    "name": "f",
    "arguments": "",
    "status": "in_progress",
}


def _decode(events: list[Any]) -> tuple[list[StreamEvent], list[tuple[str, str, str]]]:
    notes = Notes("drop")
    out = iter_events(StreamDecoder(notes), events)
    return out, [(n.path, n.kind, n.message) for n in notes]


def _completed(*output: dict[str, Any], status: str = "completed") -> dict[str, Any]:
    kind = "response.completed" if status == "completed" else f"response.{status}"
    return {"type": kind, "response": {**RESPONSE, "status": status, "output": list(output)}}


def _added(index: int, item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response.output_item.added", "output_index": index, "item": item}


def _done(index: int, item: dict[str, Any]) -> dict[str, Any]:
    return {"type": "response.output_item.done", "output_index": index, "item": item}


# ---------------------------------------------------------------- malformed events


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([{"type": "response.created"}], "$[0].response: missing required field 'response'"),
        ([CREATED, {"type": "response.completed"}], "$[1].response: missing required field 'response'"),
        (
            [CREATED, {"type": "response.function_call_arguments.delta", "delta": "{"}],
            "$[1].output_index: missing required field 'output_index'",
        ),
        (
            [CREATED, {"type": "response.function_call_arguments.delta", "output_index": 0.0, "delta": "{"}],
            "$[1].output_index: 'output_index' must be an integer",
        ),
        (
            [
                CREATED,
                _added(0, CALL),
                {
                    "type": "response.content_part.added",
                    "output_index": 0,
                    "content_index": 0,
                    "part": {"type": "output_text", "text": ""},
                },
            ],
            "$[2].output_index: content part for a 'function_call' item",
        ),
        (
            [
                CREATED,
                _added(0, MESSAGE),
                {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{"},
            ],
            "$[2].output_index: argument delta for an item that is not a tool call",
        ),
    ],
    ids=[
        "no-response",
        "terminal-without-response",
        "no-output-index",
        "float-output-index",
        "content-part-of-a-call",
        "args-of-a-message",
    ],
)
def test_a_malformed_event_ends_the_stream_with_its_path_and_reason(events: list[Any], message: str) -> None:
    out, _ = _decode(events)
    assert isinstance(out[-1], StreamErrorEvent)
    assert (out[-1].error.code, out[-1].error.message) == ("malformed_event", message)
    assert sum(isinstance(e, StreamErrorEvent) for e in out) == 1


# ---------------------------------------------------------------- what each event gives


def test_the_start_keeps_quiet_fields_but_not_the_placeholders_of_a_response_in_progress() -> None:
    created = {"type": "response.created", "response": {**RESPONSE, "usage": None, "error": None}}
    out, notes = _decode([created, _completed()])
    assert out[0] == ResponseStart(
        id="resp_1", origin="openai-responses", model="m", created=1, extra={"~responses": {"error": None}}
    )
    assert notes == []


def test_text_deltas_without_content_part_added_make_one_part_ended_by_the_terminal_event() -> None:
    final = {
        **MESSAGE,
        "status": "completed",
        "content": [{"type": "output_text", "text": "ab", "annotations": []}],
    }
    delta = {"type": "response.output_text.delta", "output_index": 0, "content_index": 0}
    out, notes = _decode(
        [CREATED, _added(0, MESSAGE), {**delta, "delta": "a"}, {**delta, "delta": "b"}, _completed(final)]
    )
    assert [type(e) for e in out] == [ResponseStart, PartStart, TextDelta, TextDelta, PartEnd, ResponseEnd]
    assert [e.index for e in out if isinstance(e, PartStart | TextDelta | PartEnd)] == [0, 0, 0, 0]
    end = out[4]
    assert isinstance(end, PartEnd) and isinstance(end.part, TextPart) and end.part.text == "ab"
    assert accumulate(out).text == "ab"
    assert notes == []


def test_a_message_item_streamed_back_keeps_its_id() -> None:
    final = {
        **MESSAGE,
        "status": "completed",
        "content": [{"type": "output_text", "text": "a", "annotations": []}],
    }
    events = [
        CREATED,
        _added(0, MESSAGE),
        {
            "type": "response.content_part.added",
            "output_index": 0,
            "content_index": 0,
            "part": {"type": "output_text", "text": "", "annotations": []},
        },
        {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "a"},
        _done(0, final),
        _completed(final),
    ]
    out, _ = _decode(events)
    wire = encode(out)
    added = [w["item"] for w in wire if w["type"] == "response.output_item.added"]
    assert added == [MESSAGE]


def test_a_custom_tool_call_streams_its_input_and_its_done_events_give_nothing() -> None:
    call = {
        "id": "ctc_1",
        "type": "custom_tool_call",
        "call_id": "c1",
        "name": "patch",
        "input": "",
        "status": "in_progress",
    }
    final = {**call, "input": "*** Begin", "status": "completed"}
    at = {"output_index": 0, "item_id": "ctc_1"}
    events = [
        CREATED,
        _added(0, call),
        {"type": "response.custom_tool_call_input.delta", **at, "delta": "*** Begin"},
        {"type": "response.custom_tool_call_input.done", **at, "input": "*** Begin"},
        _done(0, final),
        _completed(final),
    ]
    out, notes = _decode(events)
    assert notes == []
    [tool] = accumulate(out).tool_calls
    assert (tool.name, tool.kind, tool.arguments) == ("patch", "custom", "*** Begin")


def test_an_incomplete_response_ends_the_stream() -> None:
    final = {**CALL, "status": "incomplete", "arguments": '{"a"'}
    incomplete = _completed(final, status="incomplete")
    incomplete["response"]["incomplete_details"] = {"reason": "max_output_tokens"}
    out, _ = _decode([CREATED, _added(0, CALL), incomplete])
    end = out[-1]
    assert isinstance(end, ResponseEnd)
    assert (end.status, end.stop_reason) == ("incomplete", "max_tokens")
    assert isinstance(out[-2], PartEnd) and isinstance(out[-2].part, ToolCall)


def test_summary_parts_open_summaries_by_index_without_notes() -> None:
    item = {"id": "rs_1", "type": "reasoning", "summary": []}
    summary = [{"type": "summary_text", "text": "one"}, {"type": "summary_text", "text": "two"}]
    final = {**item, "summary": summary}
    at = {"output_index": 0, "item_id": "rs_1"}
    events: list[Any] = [CREATED, _added(0, item)]
    for slot, text in enumerate(("one", "two")):
        part = {"type": "summary_text", "text": ""}
        events.append(
            {"type": "response.reasoning_summary_part.added", **at, "summary_index": slot, "part": part}
        )
        events.append(
            {"type": "response.reasoning_summary_text.delta", **at, "summary_index": slot, "delta": text}
        )
    events += [_done(0, final), _completed(final)]
    out, notes = _decode(events)
    assert notes == []
    assert [(e.summary, e.summary_index) for e in out if isinstance(e, ReasoningDelta)] == [
        ("", 0),
        ("one", 0),
        ("", 1),
        ("two", 1),
    ]
    [part] = accumulate(out).parts
    assert isinstance(part, ReasoningPart) and part.summary == ("one", "two")


def test_after_close_the_decoder_gives_nothing_and_notes_what_it_ignores() -> None:
    notes = Notes("drop")
    decoder = StreamDecoder(notes)
    assert [type(e) for e in decoder.feed(CREATED)] == [ResponseStart]
    [error] = decoder.close()
    assert isinstance(error, StreamErrorEvent) and error.error.code == "incomplete_stream"
    assert decoder.feed(_added(0, CALL)) == []
    assert decoder.close() == []
    assert [(n.path, n.kind) for n in notes] == [("$[1]", "skipped")]
