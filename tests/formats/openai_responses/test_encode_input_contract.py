"""Responses request ``input`` from other formats (issue 22): tool results become their own items
in order, and what input messages cannot carry is dropped with a note."""

from __future__ import annotations

from typing import Any

import msgspec

from toolwire.formats import openai_responses
from toolwire.ir.content import (
    ImagePart,
    Message,
    Part,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    ToolResult,
)
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.response import Response


def encode(*messages: Message) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    notes = Notes()
    out = openai_responses.encode_request(Request(messages=messages, model="m"), notes)
    return out["input"], [(n.kind, n.message) for n in notes]


def user(*parts: Part, **fields: Any) -> Message:
    return Message(role="user", parts=parts, **fields)


def test_text_around_a_tool_result_stays_on_its_own_side() -> None:
    call = Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="c1"),))
    result = ToolResult(call_id="c1", content=(TextPart(text="42"),))
    items, notes = encode(
        user(TextPart(text="q")), call, user(TextPart(text="before"), result, TextPart(text="after"))
    )
    assert items[2:] == [
        {"role": "user", "content": "before"},
        {"type": "function_call_output", "call_id": "c1", "output": "42"},
        {"role": "user", "content": "after"},
    ]
    assert notes == []


def test_a_message_id_and_a_participant_name_are_dropped_with_notes() -> None:
    items, notes = encode(user(TextPart(text="hi"), id="msg_1", name="ada"))
    assert items == [{"role": "user", "content": "hi"}]
    assert notes == [
        ("dropped", "message id 'msg_1' (input messages carry none)"),
        ("dropped", "participant name 'ada' of a user message"),
    ]


def test_a_tool_call_in_a_user_message_is_dropped_with_a_note() -> None:
    items, notes = encode(user(TextPart(text="hi"), ToolCall(name="f", arguments="{}", id="c1")))
    assert items == [{"role": "user", "content": "hi"}]
    assert notes == [("dropped", "ToolCall in a user message")]


def test_an_assistant_messages_own_fields_are_dropped_with_a_note() -> None:
    assistant = Message(role="assistant", parts=(TextPart(text="a"),), extra={"x_mood": "calm"})
    items, notes = encode(user(TextPart(text="q")), assistant)
    assert items[1] == {"role": "assistant", "content": "a"}
    assert notes == [("dropped", "field 'x_mood' has no equivalent in the target format")]


def test_an_empty_assistant_message_item_round_trips() -> None:
    empty = {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant", "content": []}
    payload = {"model": "m", "input": [{"role": "user", "content": "q"}, empty]}
    notes = Notes()
    out = openai_responses.encode_request(openai_responses.decode_request(payload, notes), notes)
    assert out["input"] == payload["input"]
    assert list(notes) == []


def test_reasoning_items_round_trip_in_their_own_shape() -> None:
    items = [
        {"role": "user", "content": "q"},
        {"type": "reasoning", "id": "rs_1", "encrypted_content": "opaque"},
        {
            "type": "reasoning",
            "id": "rs_2",
            "summary": [],
            "content": [{"type": "reasoning_text", "text": "a"}, {"type": "reasoning_text", "text": "b"}],
        },
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    ]
    notes = Notes()
    payload = {"model": "m", "input": items}
    out = openai_responses.encode_request(openai_responses.decode_request(payload, notes), notes)
    assert out["input"] == items
    assert list(notes) == []


def test_responses_reasoning_without_id_or_encrypted_state_is_dropped_with_a_note() -> None:
    thinking = Message(
        role="assistant", parts=(ReasoningPart(text="t", origin="openai-responses"), TextPart(text="a"))
    )
    items, notes = encode(user(TextPart(text="q")), thinking)
    assert items[1:] == [{"role": "assistant", "content": "a"}]
    assert notes == [("dropped", "reasoning item without id cannot be replayed")]


def test_replayed_responses_output_keeps_its_message_id() -> None:
    part = TextPart(text="a", extra={"~msg": {"id": "msg_1"}})
    items, _ = encode(user(TextPart(text="q")), Message(role="assistant", parts=(part,)))
    assert {k: items[1][k] for k in ("id", "type", "status", "role")} == {
        "id": "msg_1",
        "type": "message",
        "status": "completed",
        "role": "assistant",
    }


def test_a_refusal_in_a_tool_result_is_sent_as_text_with_a_note() -> None:
    call = Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="c1"),))
    result = ToolResult(call_id="c1", content=(TextPart(text="partial"), RefusalPart(text="no more")))
    items, notes = encode(user(TextPart(text="q")), call, Message(role="tool", parts=(result,)))
    output = items[2]["output"]
    assert [entry["text"] for entry in output] == ["partial", "no more"]
    assert {entry["type"] for entry in output} == {"input_text"}
    assert notes == [("approximated", "refusal in a tool result sent as text")]


def test_output_items_of_another_format_get_distinct_ids() -> None:
    calls = (ToolCall(name="f", arguments="{}", id="c1"), ToolCall(name="g", arguments="{}", id="c2"))
    out = openai_responses.encode_response(
        Response(id="resp_1", model="m", parts=(TextPart(text="a"), *calls)), Notes()
    )
    ids = [item["id"] for item in out["output"]]
    assert len(ids) == 3
    assert len(set(ids)) == 3


def test_a_string_assistant_content_becomes_a_list_when_a_part_is_added() -> None:
    payload = {
        "model": "m",
        "input": [{"role": "user", "content": "q"}, {"role": "assistant", "content": "a"}],
    }
    notes = Notes()
    req = openai_responses.decode_request(payload, notes)
    grown = msgspec.structs.replace(req.messages[1], parts=(*req.messages[1].parts, TextPart(text="b")))
    out = openai_responses.encode_request(
        msgspec.structs.replace(req, messages=(req.messages[0], grown)), notes
    )
    content = out["input"][1]["content"]
    assert content[0] == {"type": "output_text", "text": "a"}
    assert [entry["text"] for entry in content] == ["a", "b"]


def test_assistant_text_around_a_call_makes_two_message_items_and_media_is_dropped() -> None:
    parts = (
        TextPart(text="before"),
        ImagePart(url="https://x.test/a.png"),
        ToolCall(name="f", arguments="{}", id="c1"),
        TextPart(text="after"),
    )
    items, notes = encode(user(TextPart(text="q")), Message(role="assistant", parts=parts))
    assert items[1:] == [
        {"role": "assistant", "content": "before"},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"role": "assistant", "content": "after"},
    ]
    assert notes == [("dropped", "ImagePart in assistant output")]


def test_a_response_keeps_the_summary_of_another_formats_reasoning() -> None:
    thinking = ReasoningPart(summary=("planned",), signature="sig", origin="anthropic")
    out = openai_responses.encode_response(
        Response(id="resp_1", model="m", parts=(thinking, TextPart(text="a"))), Notes()
    )
    reasoning = out["output"][0]
    assert reasoning["type"] == "reasoning"
    assert reasoning["summary"] == [{"type": "summary_text", "text": "planned"}]
