"""Responses response objects: stop reasons, usage, errors, and encoding from other formats."""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import samples
from toolwire.formats import openai_responses as resp
from toolwire.ir import (
    ErrorInfo,
    Notes,
    ReasoningPart,
    Response,
    TextPart,
    ToolCall,
    ToolResult,
    Usage,
)

TEXT = {"type": "message", "id": "msg_1", "status": "completed", "role": "assistant", "content": []}
CALL = {
    "type": "function_call",
    "id": "fc_1",
    "call_id": "c1",
    "name": "f",
    "arguments": "{}",
    "status": "completed",
}
SEARCH = {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search"}}


def _response(status: str | None, output: list[Any], details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"id": "resp_1", "object": "response", "output": output}
    if status is not None:
        body["status"] = status
    body["incomplete_details"] = details
    return body


@pytest.mark.parametrize(
    ("status", "output", "details", "stop", "raw"),
    [
        ("completed", [TEXT], None, "end_turn", "completed"),
        ("completed", [TEXT, CALL], None, "tool_calls", "completed"),
        ("completed", [SEARCH, TEXT], None, "end_turn", "completed"),
        ("incomplete", [TEXT], {"reason": "max_output_tokens"}, "max_tokens", "incomplete:max_output_tokens"),
        ("incomplete", [], {"reason": "content_filter"}, "content_filter", "incomplete:content_filter"),
        ("incomplete", [], None, "other", "incomplete"),
        ("failed", [], None, "error", "failed"),
        ("cancelled", [], None, "other", "cancelled"),
        ("in_progress", [], None, None, "in_progress"),
        ("queued", [], None, None, "queued"),
        (None, [], None, None, None),
    ],
)
def test_stop_reason_table(status: str | None, output: list[Any], details: Any, stop: str, raw: str) -> None:
    body = _response(status, output, details)
    notes = Notes("strict")
    ir = resp.decode_response(body, notes)
    assert (ir.stop_reason, ir.raw_stop_reason, ir.status) == (stop, raw, status)
    assert resp.encode_response(ir, notes) == body


def test_usage_with_cached_and_reasoning_tokens() -> None:
    usage = {
        "input_tokens": 100,
        "input_tokens_details": {"cached_tokens": 40},
        "output_tokens": 30,
        "output_tokens_details": {"reasoning_tokens": 20},
        "total_tokens": 130,
    }
    ir = resp.decode_response({"object": "response", "output": [], "usage": usage}, Notes("strict"))
    assert ir.usage is not None
    assert (ir.usage.input_tokens, ir.usage.cached_tokens, ir.usage.output_tokens) == (100, 40, 30)
    assert (ir.usage.reasoning_tokens, ir.usage.total_tokens) == (20, 130)


def test_failed_response_error_object() -> None:
    body = {
        "id": "resp_1",
        "object": "response",
        "status": "failed",
        "error": {"code": "server_error", "message": "boom"},
        "output": [],
    }
    ir = resp.decode_response(body, Notes("strict"))
    assert ir.error == ErrorInfo(message="boom", code="server_error", origin="openai-responses")
    assert ir.stop_reason == "error"
    assert resp.encode_response(ir, Notes("strict")) == body


def test_reasoning_and_output_parts_decode() -> None:
    sample = next(
        s
        for s in samples(format="openai-responses", kind="response")
        if any(i.get("type") == "reasoning" for i in s.payload.get("output") or ())
        and any(i.get("type") == "function_call" for i in s.payload.get("output") or ())
    )
    ir = resp.decode_response(sample.payload, Notes("strict"))
    kinds = [type(p).__name__ for p in ir.parts]
    assert "ReasoningPart" in kinds and "ToolCall" in kinds
    assert ir.stop_reason == "tool_calls" and ir.raw_stop_reason == "completed"
    call = next(p for p in ir.parts if isinstance(p, ToolCall))
    wire = next(i for i in sample.payload["output"] if i.get("type") == "function_call")
    assert (call.id, call.item_id, call.arguments) == (wire["call_id"], wire["id"], wire["arguments"])


def test_cross_format_response_is_complete_and_notes_losses() -> None:
    ir = Response(
        origin="anthropic",
        id="msg_01",
        model="claude",
        created=None,
        stop_reason="tool_calls",
        raw_stop_reason="tool_use",
        parts=(
            ReasoningPart(text="hmm", summary=("short",), signature="SIG", origin="anthropic"),
            TextPart(text="Checking."),
            ToolCall(id="t1", name="w", arguments='{"c":"P"}'),
        ),
        usage=Usage(input_tokens=10, output_tokens=5, cached_tokens=3),
    )
    notes = Notes()
    out = resp.encode_response(ir, notes)
    ids = [item["id"] for item in out["output"]]
    assert ids[0].startswith("rs_") and ids[1].startswith("msg_") and ids[2].startswith("fc_")
    assert out == {
        "id": "msg_01",
        "object": "response",
        "created_at": 0,
        "status": "completed",
        "incomplete_details": None,
        "error": None,
        "model": "claude",
        "output": [
            {
                "type": "reasoning",
                "id": ids[0],
                "summary": [{"type": "summary_text", "text": "short"}],
                "content": [{"type": "reasoning_text", "text": "hmm"}],
            },
            {
                "id": ids[1],
                "type": "message",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Checking.", "annotations": [], "logprobs": []}],
            },
            {
                "type": "function_call",
                "call_id": "t1",
                "name": "w",
                "arguments": '{"c":"P"}',
                "id": ids[2],
                "status": "completed",
            },
        ],
        "usage": {
            "input_tokens": 10,
            "output_tokens": 5,
            "input_tokens_details": {"cached_tokens": 3, "cache_write_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        },
        "instructions": None,
        "tools": [],
        "tool_choice": "auto",
        "parallel_tool_calls": True,
        "metadata": {},
        "temperature": None,
        "top_p": None,
    }
    assert [(n.path, n.kind) for n in notes] == [
        ("$.created_at", "synthesized"),
        ("$.parts[0]", "dropped"),
        ("$.output", "synthesized"),
        ("$.usage.input_tokens_details.cache_write_tokens", "synthesized"),
        ("$.usage.output_tokens_details.reasoning_tokens", "synthesized"),
        ("$", "synthesized"),
    ]
    assert resp.encode_response(ir, Notes()) == out, "deterministic"


def test_cross_format_incomplete_response_and_synthesized_id() -> None:
    ir = Response(origin="gemini", stop_reason="max_tokens", parts=(TextPart(text="abc"),))
    notes = Notes()
    out = resp.encode_response(ir, notes)
    assert out["id"].startswith("resp_") and out["id"] == resp.encode_response(ir, Notes())["id"]
    assert (out["status"], out["incomplete_details"]) == ("incomplete", {"reason": "max_output_tokens"})
    assert out["output"][0]["status"] == "incomplete"
    assert ("$.id", "synthesized") in [(n.path, n.kind) for n in notes]


def test_cross_format_error_and_builtin_parts() -> None:
    ir = Response(
        origin="gemini",
        id="r",
        model="g",
        created=5,
        stop_reason="error",
        error=ErrorInfo(message="quota", status=429),
        parts=(
            ToolCall(name="executableCode", kind="builtin", extra={"~raw": {"code": "1"}}),
            ToolResult(call_id=None, name="codeExecutionResult", kind="builtin"),
        ),
    )
    notes = Notes()
    out = resp.encode_response(ir, notes)
    assert (out["status"], out["error"], out["output"]) == (
        "failed",
        {"code": "server_error", "message": "quota"},
        [],
    )
    assert [(n.path, n.kind) for n in notes][:3] == [
        ("$.error.code", "synthesized"),
        ("$.parts[0]", "dropped"),
        ("$.parts[1]", "dropped"),
    ]


def _recorded(record: Any) -> dict[Any, Any]:
    """The origins ``record`` writes into a recording collector."""
    notes = Notes("drop")
    notes.recording = True
    record(notes)
    return notes.origins


def test_record_response_counts_parts_from_the_items(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [{"type": "output_text", "text": "a", "annotations": []}, {"type": "refusal", "refusal": "no"}]
    output = [
        {**TEXT, "content": texts},  # two known content entries: two parts
        CALL,
        {**TEXT, "id": "msg_2", "content": [{"type": "mystery"}]},  # unknown entry: kept whole, one part
        SEARCH,
        {"type": "message", "role": "assistant", "content": "plain"},  # string content: one part
    ]
    payload = _response("completed", output)
    ir = resp.decode_response(payload, Notes("drop"))
    decoded = _recorded(lambda n: resp.decode_response(payload, n))
    assert decoded == {
        ("parts", 0): ("output", 0, "content", 0),
        ("parts", 1): ("output", 0, "content", 1),
        ("parts", 2): ("output", 1),
        ("parts", 3): ("output", 2, "content", 0),
        ("parts", 4): ("output", 3),
        ("parts", 5): ("output", 4, "content"),
    }

    def no_decoding(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("record_response decoded an item again")

    monkeypatch.setattr("toolwire.formats.openai_responses.response.decode_item", no_decoding)
    assert _recorded(lambda n: resp.record_response(payload, ir, n)) == decoded


def test_record_response_matches_the_recording_decoder_on_the_corpus() -> None:
    checked = 0
    for sample in samples(format="openai-responses", kind="response"):
        ir = resp.decode_response(sample.payload, Notes("drop"))
        expected = _recorded(lambda n: resp.decode_response(sample.payload, n))  # noqa: B023
        assert _recorded(lambda n: resp.record_response(sample.payload, ir, n)) == expected  # noqa: B023
        checked += 1
    assert checked > 10


def test_a_changed_echo_field_does_not_leak_into_the_next_response() -> None:
    """The request echo fields of a cross-format response are new objects every time: a caller
    changing one payload's ``tools`` or ``metadata`` changes no later payload."""
    from toolwire import translate_response

    chat = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
    }
    for policy in ("drop", "warn"):
        first = translate_response(
            chat, source="openai-chat", target="openai-responses", policy=policy
        ).payload
        first["tools"].append({"type": "function", "name": "x"})
        first["metadata"]["k"] = "v"
        second = translate_response(
            chat, source="openai-chat", target="openai-responses", policy=policy
        ).payload
        assert second["tools"] == [] and second["metadata"] == {}
