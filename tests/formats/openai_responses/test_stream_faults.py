"""Responses streams that go wrong: cut short, malformed, failed upstream; encoder error paths;
and the validator's rules on hand-made bad streams."""

from __future__ import annotations

from typing import Any

import pytest

from tests.formats.openai_responses._streams import encode
from toolwire.formats._stream import iter_events
from toolwire.formats.openai_responses.stream import StreamDecoder, StreamEncoder, check_stream
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ReasoningDelta,
    ResponseEnd,
    ResponseStart,
    StreamErrorEvent,
    TextDelta,
    ToolCallDelta,
)


def _response(status: str, output: list[Any] | None = None) -> dict[str, Any]:
    return {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": status,
        "model": "m",
        "output": output or [],
    }


CALL = {
    "id": "fc_1",
    "type": "function_call",
    "status": "in_progress",
    "arguments": "",
    "call_id": "call_1",
    "name": "f",
}
DONE_CALL = {**CALL, "status": "completed", "arguments": '{"a":1}'}


def _stream() -> list[dict[str, Any]]:
    """A small well-formed stream with one function call, sequence numbers 0..n."""
    events: list[dict[str, Any]] = [
        {"type": "response.created", "response": _response("in_progress")},
        {"type": "response.in_progress", "response": _response("in_progress")},
        {"type": "response.output_item.added", "output_index": 0, "item": CALL},
        {
            "type": "response.function_call_arguments.delta",
            "item_id": "fc_1",
            "output_index": 0,
            "delta": '{"a"',
        },
        {
            "type": "response.function_call_arguments.delta",
            "item_id": "fc_1",
            "output_index": 0,
            "delta": ":1}",
        },
        {
            "type": "response.function_call_arguments.done",
            "item_id": "fc_1",
            "output_index": 0,
            "arguments": '{"a":1}',
        },
        {"type": "response.output_item.done", "output_index": 0, "item": DONE_CALL},
        {"type": "response.completed", "response": _response("completed", [DONE_CALL])},
    ]
    return [{**event, "sequence_number": n} for n, event in enumerate(events)]


def _decode(events: list[Any]) -> list[Any]:
    return iter_events(StreamDecoder(Notes("drop")), events)


def _errors(events: list[Any]) -> list[ErrorInfo]:
    return [e.error for e in events if isinstance(e, StreamErrorEvent)]


def test_small_stream_is_valid_and_decodes() -> None:
    events = _stream()
    assert check_stream(events, stable_ids=True) == []
    resp = accumulate(_decode(events))
    assert [(c.id, c.name, c.arguments) for c in resp.tool_calls] == [("call_1", "f", '{"a":1}')]
    assert resp.stop_reason == "tool_calls"


def test_missing_terminal_event() -> None:
    events = _stream()[:-1]
    (error,) = _errors(_decode(events))
    assert error.code == "incomplete_stream"
    assert [p.code for p in check_stream(events)] == ["missing_terminal"]


def test_truncated_arguments_are_never_completed() -> None:
    """Cut inside the arguments: the call keeps exactly the text received, never ``{}``."""
    ir = _decode(_stream()[:4])
    assert _errors(ir)[0].code == "incomplete_stream"
    resp = accumulate(ir)
    assert [c.arguments for c in resp.tool_calls] == ['{"a"']
    assert resp.stop_reason == "error"
    assert not any(isinstance(e, PartEnd) for e in ir)


@pytest.mark.parametrize(
    ("position", "event", "path"),
    [
        (
            3,
            {
                "type": "response.function_call_arguments.delta",
                "item_id": "fc_1",
                "output_index": 0,
                "delta": 5,
            },
            "$[3].delta",
        ),
        (
            3,
            {"type": "response.output_text.delta", "output_index": "0", "content_index": 0, "delta": "x"},
            "$[3].output_index",
        ),
        (
            3,
            {"type": "response.output_text.delta", "output_index": 7, "content_index": 0, "delta": "x"},
            "$[3].output_index",
        ),
        (
            2,
            {"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call"}},
            "$[2].item.call_id",
        ),
        (0, {"type": "response.created", "response": {"output": "nope"}}, "$[0].response.output"),
        (1, ["not", "an", "object"], "$[1]"),
        (1, {"no": "type"}, "$[1].type"),
    ],
)
def test_malformed_event_names_its_path(position: int, event: Any, path: str) -> None:
    events: list[Any] = _stream()
    events[position] = event
    ir = _decode(events)
    (error,) = _errors(ir)
    assert error.code == "malformed_event"
    assert error.message.startswith(f"{path}: ")
    assert isinstance(ir[-1], StreamErrorEvent)  # nothing is decoded after a malformed event


@pytest.mark.parametrize(
    "error_event",
    [
        {"type": "error", "code": "server_error", "message": "boom", "param": None},  # the spec's shape
        {
            "type": "error",
            "error": {"type": "server_error", "code": "server_error", "message": "boom", "param": None},
        },
    ],
)
def test_upstream_error_event(error_event: dict[str, Any]) -> None:
    events = [*_stream()[:3], {**error_event, "sequence_number": 3}]
    assert check_stream(events) == []
    ir = _decode(events)
    (error,) = _errors(ir)
    assert (error.code, error.message, error.origin) == ("server_error", "boom", "openai-responses")
    assert ir[-1] == StreamErrorEvent(error=error)


def test_failed_response_without_error_event() -> None:
    failed = _response("failed")
    failed["error"] = {"code": "rate_limit_exceeded", "message": "slow down"}
    events = [*_stream()[:2], {"type": "response.failed", "response": failed, "sequence_number": 2}]
    assert check_stream(events) == []
    (error,) = _errors(_decode(events))
    assert (error.code, error.message) == ("rate_limit_exceeded", "slow down")


def test_events_after_the_end_are_ignored_and_noted() -> None:
    notes = Notes("drop")
    late = {"type": "response.in_progress", "response": _response("in_progress"), "sequence_number": 8}
    events = [*_stream(), late]
    assert _decode(events[:-1]) == iter_events(StreamDecoder(notes), events)
    assert [n.kind for n in notes] == ["skipped"]
    assert [p.code for p in check_stream(events)] == ["after_terminal"]


def test_progress_events_of_builtin_tools_are_noted_once() -> None:
    notes = Notes("drop")
    item = {"id": "ws_1", "type": "web_search_call", "status": "in_progress"}
    events: list[Any] = [
        {"type": "response.created", "response": _response("in_progress")},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.web_search_call.searching", "output_index": 0, "item_id": "ws_1"},
        {"type": "response.web_search_call.searching", "output_index": 0, "item_id": "ws_1"},
        {"type": "response.output_item.done", "output_index": 0, "item": {**item, "status": "completed"}},
        {"type": "response.completed", "response": _response("completed", [{**item, "status": "completed"}])},
    ]
    assert check_stream(events) == []
    resp = accumulate(iter_events(StreamDecoder(notes), events))
    assert [(c.name, c.kind) for c in resp.tool_calls] == [("web_search_call", "builtin")]
    assert resp.stop_reason == "end_turn"
    assert [n.kind for n in notes] == ["dropped"]


# ---------------------------------------------------------------- validator


def _codes(events: list[Any], **options: bool) -> list[str]:
    return [p.code for p in check_stream(events, **options)]


def test_check_stream_rules() -> None:
    good = _stream()
    assert _codes(good[1:])[0] == "unexpected_event"  # in_progress before created
    swapped = [good[0], good[1], good[2], good[6], good[3], *good[7:]]
    assert "unknown_item" in _codes(swapped)
    assert "sequence_number" in _codes([good[0], good[2], good[1], *good[3:]])
    unsequenced = [dict(good[0]), *good[1:]]
    del unsequenced[0]["sequence_number"]
    assert _codes(unsequenced) == ["sequence_number"]
    early_end = [*good[:4], good[7]]
    assert _codes(early_end) == ["item_not_done"]
    wrong_status = [*good[:7], {**good[7], "response": _response("incomplete", [DONE_CALL])}]
    assert _codes(wrong_status) == ["status"]
    no_id = [*good[:2], {**good[2], "item": {k: v for k, v in CALL.items() if k != "call_id"}}, *good[3:]]
    assert _codes(no_id) == ["missing_id"]
    text_in_call = [
        *good[:3],
        {**good[3], "type": "response.output_text.delta", "content_index": 0},
        *good[4:],
    ]
    assert _codes(text_in_call) == ["unexpected_event"]
    renamed = [*good[:6], {**good[6], "item": {**DONE_CALL, "id": "fc_2"}}, good[7]]
    assert _codes(renamed) == [] and _codes(renamed, stable_ids=True) == ["item_changed"]
    message = {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant", "content": []}
    part = {"type": "output_text", "text": "", "annotations": []}
    text = [
        good[0],
        {"type": "response.output_item.added", "output_index": 0, "item": message},
        {"type": "response.content_part.added", "output_index": 0, "content_index": 1, "part": part},
        {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "x"},
    ]
    assert _codes([{**e, "sequence_number": n} for n, e in enumerate(text)]) == [
        "content_index",
        "content_index",
        "missing_terminal",
    ]
    misplaced = [*good[:2], {**good[2], "output_index": 1}, *good[3:]]
    assert _codes(misplaced) == ["unknown_item"] * 4 + ["item_not_done"]


# ---------------------------------------------------------------- encoder faults


def test_encoder_turns_an_error_into_error_and_failed_events() -> None:
    notes = Notes("drop")
    wire = encode(
        [
            ResponseStart(id="r", model="m", origin="anthropic"),
            PartStart(index=0, part=TextPart(text="")),
            TextDelta(index=0, text="partial"),
            StreamErrorEvent(
                error=ErrorInfo(message="overloaded", type="overloaded_error", origin="anthropic")
            ),
        ],
        notes,
    )
    assert [e["type"] for e in wire][-2:] == ["error", "response.failed"]
    error, failed = wire[-2], wire[-1]["response"]
    assert (error["message"], error["code"], error["param"]) == ("overloaded", "overloaded_error", None)
    assert failed["status"] == "failed" and failed["error"]["message"] == "overloaded"
    assert failed["output"] == []  # the unfinished message is not reported as output
    assert check_stream(wire, stable_ids=True) == []


def test_encoder_error_before_start_is_a_lone_error_event() -> None:
    wire = encode([StreamErrorEvent(error=ErrorInfo(message="no", code="server_error"))])
    assert wire == [
        {"type": "error", "code": "server_error", "message": "no", "param": None, "sequence_number": 0}
    ]
    assert check_stream(wire) == []


def test_encoder_close_without_end_fails_the_stream() -> None:
    encoder = StreamEncoder(Notes("drop"))
    wire: list[Any] = encoder.feed(ResponseStart(id="r", origin="gemini"))
    wire += encoder.feed(PartStart(index=0, part=ToolCall(name="f", id="c")))
    wire += encoder.feed(ToolCallDelta(index=0, arguments='{"a'))
    wire += encoder.close()
    assert all(isinstance(e, dict) for e in wire)
    wire = [e for e in wire if isinstance(e, dict)]
    assert [e["type"] for e in wire][-2:] == ["error", "response.failed"]
    assert wire[-2]["code"] == "incomplete_stream"
    assert not any(e["type"] == "response.function_call_arguments.done" for e in wire)
    assert encoder.close() == [] and encoder.feed(ResponseEnd()) == []


def test_encoder_never_replays_foreign_reasoning_state() -> None:
    notes = Notes("drop")
    thinking = ReasoningPart(text="step", signature="sig-anthropic", origin="anthropic")
    wire = encode(
        [
            ResponseStart(id="r", model="m", origin="anthropic"),
            PartStart(index=0, part=ReasoningPart(text="", origin="anthropic")),
            ReasoningDelta(index=0, text="step"),
            ReasoningDelta(index=0, signature="sig-anthropic"),
            PartEnd(index=0, part=thinking),
            ResponseEnd(stop_reason="end_turn"),
        ],
        notes,
    )
    (item,) = wire[-1]["response"]["output"]
    assert item["type"] == "reasoning" and "encrypted_content" not in item
    assert item["content"] == [{"type": "reasoning_text", "text": "step"}]
    assert "sig-anthropic" not in str(wire)
    assert any(n.kind == "dropped" and "signature" in n.message for n in notes)


def test_encoder_drops_empty_foreign_reasoning_without_an_item() -> None:
    wire = encode(
        [
            ResponseStart(id="r", origin="anthropic"),
            PartStart(index=0, part=ReasoningPart(origin="anthropic")),
            ReasoningDelta(index=0, signature="sig"),
            PartEnd(index=0),
            PartStart(index=1, part=TextPart(text="hi")),
            PartEnd(index=1),
            ResponseEnd(stop_reason="end_turn"),
        ]
    )
    assert [e["item"]["type"] for e in wire if e["type"] == "response.output_item.added"] == ["message"]
    assert check_stream(wire, stable_ids=True) == []


def test_encoder_buffers_only_the_interleaved_call() -> None:
    wire = encode(
        [
            ResponseStart(id="r", origin="openai-chat"),
            PartStart(index=0, part=ToolCall(name="a", id="c0")),
            PartStart(index=1, part=ToolCall(name="b", id="c1")),
            ToolCallDelta(index=1, arguments="{}"),
            ToolCallDelta(index=0, arguments='{"x":1}'),
            PartEnd(index=0),
            PartEnd(index=1),
            ResponseEnd(stop_reason="tool_calls"),
        ]
    )
    kinds = [(e["type"], e.get("output_index")) for e in wire[2:-1]]
    assert kinds == [
        ("response.output_item.added", 0),
        ("response.function_call_arguments.delta", 0),
        ("response.function_call_arguments.done", 0),
        ("response.output_item.done", 0),
        ("response.output_item.added", 1),
        ("response.function_call_arguments.delta", 1),
        ("response.function_call_arguments.done", 1),
        ("response.output_item.done", 1),
    ]
    assert check_stream(wire, stable_ids=True) == []


def test_refusal_and_text_share_one_message() -> None:
    wire = encode(
        [
            ResponseStart(id="r", model="m", origin="anthropic"),
            PartStart(index=0, part=TextPart(text="")),
            TextDelta(index=0, text="Well"),
            PartEnd(index=0),
            PartStart(index=1, part=RefusalPart(text="")),
            TextDelta(index=1, text="I can't"),
            PartEnd(index=1),
            ResponseEnd(stop_reason="refusal"),
        ]
    )
    assert check_stream(wire, stable_ids=True) == []
    types = [e["type"] for e in wire]
    assert types.count("response.output_item.added") == 1
    assert [e["content_index"] for e in wire if e["type"] == "response.refusal.delta"] == [1]
    (item,) = wire[-1]["response"]["output"]
    assert [p["type"] for p in item["content"]] == ["output_text", "refusal"]
    resp = accumulate(_decode(wire))
    assert [type(p).__name__ for p in resp.parts] == ["TextPart", "RefusalPart"]
    assert resp.parts[1] == RefusalPart(text="I can't")
