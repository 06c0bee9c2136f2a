"""Core hardening (issue 19): hostile inputs give typed errors with a path, never foreign ones."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolwire._json import dumps, dumps_sorted, loads
from toolwire.errors import LimitError, PayloadError
from toolwire.framing.jsonarray import JSONArrayDecoder
from toolwire.ir.notes import Notes
from toolwire.schema import to_openai_strict
from toolwire.streaming import StreamTranslator, check_stream, translate_stream
from toolwire.translate import translate_request

SURROGATE = b"caf\xe9".decode("utf-8", "surrogateescape")


@pytest.mark.parametrize("chunk", [None, 4096, 7])
def test_a_deeply_nested_gemini_array_element_is_a_limit_error(chunk: int | None) -> None:
    """Before: RecursionError from the JSON decoder."""
    data = b"[" + b"[" * 100_000 + b"]" * 100_000 + b"]"
    decoder = JSONArrayDecoder()
    with pytest.raises(LimitError) as info:
        step = chunk or len(data)
        for start in range(0, len(data), step):
            decoder.feed(data[start : start + step])
        decoder.close()
    assert info.value.path == "$[0]"


def _called_with(arguments: dict[str, Any]) -> dict[str, Any]:
    """An Anthropic request whose one ``tool_use`` (``$.messages[1].content[0]``) has ``arguments``."""
    use = {"type": "tool_use", "id": "t", "name": "f", "input": arguments}
    return {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": "x"},
            {"role": "assistant", "content": [use]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]},
        ],
    }


def test_lone_surrogates_are_payload_errors_with_a_path() -> None:
    """Before: UnicodeEncodeError from the JSON encoder (tool inputs are re-serialized)."""
    payload = _called_with({"k": SURROGATE})
    for target in ("openai-chat", "openai-responses", "gemini"):
        with pytest.raises(PayloadError) as info:
            translate_request(payload, source="anthropic", target=target)
        assert info.value.path == "$.messages[1].content[0].input"
        assert "not valid Unicode" in str(info.value)
    with pytest.raises(PayloadError, match="not valid Unicode"):
        loads('{"a": "' + SURROGATE + '"}')
    with pytest.raises(PayloadError, match="not valid Unicode") as at:
        dumps({"a": SURROGATE}, path="$.x")
    assert at.value.path == "$.x"


@pytest.mark.parametrize("value", [1j, object()])
def test_a_value_json_cannot_hold_is_a_payload_error_with_a_path(value: Any) -> None:
    """Before: TypeError from the JSON encoder (an in-memory payload: tool inputs are re-serialized)."""
    payload = _called_with({"k": value})
    for target in ("openai-chat", "openai-responses", "gemini"):
        with pytest.raises(PayloadError, match="cannot be serialized") as info:
            translate_request(payload, source="anthropic", target=target)
        assert info.value.path == "$.messages[1].content[0].input"
    with pytest.raises(PayloadError, match="cannot be serialized") as at:
        dumps({"a": value}, path="$.x")
    assert at.value.path == "$.x"


def test_sorted_json_is_one_text_for_one_object() -> None:
    """``dumps_sorted`` (what a Bedrock response's id hashes): every object's keys sorted, at any
    depth; a dict with a key that is not a string (made in memory) in its own order; what JSON
    cannot hold, ``dumps``' errors with the path."""
    one = {"b": {"y": 1, "x": [{"d": 2, "c": None}]}, "a": "é"}
    other = {"a": "é", "b": {"x": [{"c": None, "d": 2}], "y": 1}}
    assert dumps_sorted(one) == dumps_sorted(other) == dumps(other)
    assert dumps(one) != dumps(other)
    assert dumps_sorted({"b": 1, 2: 3}) == b'{"b":1,"2":3}'
    with pytest.raises(PayloadError, match="cannot be serialized") as at:
        dumps_sorted({"b": 1j, "a": 1}, path="$.x")
    assert at.value.path == "$.x"
    with pytest.raises(PayloadError, match="not valid Unicode"):
        dumps_sorted({"a": SURROGATE})


def test_check_stream_reports_odd_field_types_as_problems() -> None:
    """Before: TypeError (an unhashable stop_reason, a list as tool call type)."""
    anthropic = [
        {
            "type": "message_start",
            "message": {
                "id": "m",
                "type": "message",
                "role": "assistant",
                "model": "m",
                "content": [],
                "usage": {"input_tokens": 1, "output_tokens": 0},
            },
        },
        {"type": "message_delta", "delta": {"stop_reason": {"odd": 1}}, "usage": {"output_tokens": 1}},
        {"type": "message_stop"},
    ]
    problems = check_stream("anthropic", anthropic)
    assert any(p.path == "$[1].delta.stop_reason" and p.code == "malformed_event" for p in problems)
    chat = [
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "tool_calls": [
                            {"index": 0, "id": "a", "type": ["x"], "function": {"name": "f", "arguments": ""}}
                        ]
                    },
                    "finish_reason": None,
                }
            ],
        },
    ]
    problems = check_stream("openai-chat", chat)
    assert any(p.path.endswith("tool_calls[0].type") for p in problems)


def responses_stream(final_content: list[dict[str, Any]]) -> bytes:
    resp = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": "in_progress",
        "model": "m",
        "output": [],
    }
    item = {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant", "content": []}
    part = {"type": "output_text", "text": "", "annotations": []}
    at = {"item_id": "msg_1", "output_index": 0, "content_index": 0}
    events = [
        {"type": "response.created", "response": resp},
        {"type": "response.output_item.added", "output_index": 0, "item": item},
        {"type": "response.content_part.added", **at, "part": part},
        {"type": "response.output_text.delta", **at, "delta": "hi"},
        {"type": "response.output_text.done", **at, "text": "hi"},
        {"type": "response.content_part.done", **at, "part": {**part, "text": "hi"}},
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": {**item, "status": "completed", "content": final_content},
        },
        {"type": "response.completed", "response": {**resp, "status": "completed"}},
    ]
    for number, event in enumerate(events):
        event["sequence_number"] = number
    return "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events).encode()


def test_responses_stream_whose_final_message_is_undecodable_keeps_the_streamed_text_and_the_item() -> None:
    """Before: AttributeError ('ToolCall' object has no attribute 'data'), then a PayloadError
    escaping ``StreamTranslator.feed``: the decoder ended a text part with an opaque item."""
    body = responses_stream([{"type": "x", "text": "hi"}])
    out = b"".join(translate_stream([body], source="openai-responses", target="openai-responses")).decode()
    frames = [json.loads(line[6:]) for line in out.splitlines() if line.startswith("data: ")]
    assert [f for f in frames if f["type"] == "error"] == []
    done = [f["item"] for f in frames if f["type"] == "response.output_item.done"]
    assert done[0]["content"] == [{"type": "output_text", "text": "hi", "annotations": []}]
    assert done[1]["content"] == [{"type": "x", "text": "hi"}]  # the upstream's final item, verbatim
    assert frames[-1]["type"] == "response.completed"
    # the same stream with ordinary content is one message
    good = responses_stream([{"type": "output_text", "text": "hi", "annotations": []}])
    out = b"".join(translate_stream([good], source="openai-responses", target="openai-responses")).decode()
    assert '"type":"error"' not in out and out.count("event: response.output_item.done") == 1


def test_responses_stream_whose_final_message_is_undecodable_to_anthropic_notes_the_item() -> None:
    events = [
        json.loads(line[6:])
        for line in responses_stream([{"type": "x"}]).decode().splitlines()
        if line.startswith("data: ")
    ]
    translator = StreamTranslator("openai-responses", "anthropic")
    out = [e for event in events for e in translator.feed(event)] + translator.close()
    texts = [e["delta"]["text"] for e in out if e.get("type") == "content_block_delta"]
    assert texts == ["hi"] and out[-1]["type"] == "message_stop"
    # the note names the source event that carried the item (output_item.done, event 6)
    assert ("$[6]", "dropped") in [(n.path, n.kind) for n in translator.note_items]


@pytest.mark.parametrize("fmt", [5, [], {}, 1.5, True])
def test_a_non_string_format_is_dropped_for_openai_strict(fmt: Any) -> None:
    """Before: TypeError (unhashable format looked up in the supported set)."""
    notes = Notes("drop")
    schema = {"type": "object", "properties": {"a": {"type": "string", "format": fmt}}, "required": ["a"]}
    out = to_openai_strict(schema, notes)
    assert "format" not in out["properties"]["a"]
    assert any(n.path == "$.properties.a.format" and n.kind == "dropped" for n in notes)
