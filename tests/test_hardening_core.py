"""Core hardening (issue 19): hostile inputs give typed errors with a path, never foreign ones."""

from __future__ import annotations

import json
from typing import Any

import pytest

from toolwire._json import dumps, loads
from toolwire.errors import LimitError, PayloadError
from toolwire.framing.jsonarray import JSONArrayDecoder
from toolwire.ir.notes import Notes
from toolwire.schema import to_openai_strict
from toolwire.streaming import check_stream, translate_stream
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


def test_lone_surrogates_are_payload_errors_with_a_path() -> None:
    """Before: UnicodeEncodeError from the JSON encoder (tool inputs are re-serialized)."""
    payload = {
        "model": "m",
        "max_tokens": 5,
        "messages": [
            {"role": "user", "content": "x"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "t", "name": "f", "input": {"k": SURROGATE}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "ok"}]},
        ],
    }
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


def test_responses_to_responses_stream_with_undecodable_content_ends_in_an_error_event() -> None:
    """Before: AttributeError ('ToolCall' object has no attribute 'data')."""
    body = responses_stream([{"type": "x", "text": "hi"}])
    out = b"".join(translate_stream([body], source="openai-responses", target="openai-responses")).decode()
    frames = [json.loads(line[6:]) for line in out.splitlines() if line.startswith("data: ")]
    errors = [f for f in frames if f["type"] == "error"]
    assert len(errors) == 1 and errors[0]["code"] == "malformed_event"
    assert errors[0]["param"] == "$.parts[0]"
    assert frames[-1]["type"] == "response.failed"
    # the same stream with ordinary content still translates cleanly
    good = responses_stream([{"type": "output_text", "text": "hi", "annotations": []}])
    out = b"".join(translate_stream([good], source="openai-responses", target="openai-responses")).decode()
    assert '"type":"error"' not in out and "response.completed" in out


@pytest.mark.parametrize("fmt", [5, [], {}, 1.5, True])
def test_a_non_string_format_is_dropped_for_openai_strict(fmt: Any) -> None:
    """Before: TypeError (unhashable format looked up in the supported set)."""
    notes = Notes("drop")
    schema = {"type": "object", "properties": {"a": {"type": "string", "format": fmt}}, "required": ["a"]}
    out = to_openai_strict(schema, notes)
    assert "format" not in out["properties"]["a"]
    assert any(n.path == "$.properties.a.format" and n.kind == "dropped" for n in notes)
