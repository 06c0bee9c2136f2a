"""Anthropic stream decoder and checker on every recorded stream, and on faults."""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from tests.corpus import Sample, params, require_corpus
from tests.formats.anthropic._streams import (
    from_sse,
    ir_tool_calls,
    messages,
    raw_message,
    raw_tool_calls,
    sse_bytes,
)
from toolwire.formats._stream import iter_events
from toolwire.formats.anthropic import StreamDecoder, check_stream, decode_response
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import PartEnd, ResponseEnd, StreamErrorEvent, StreamEvent, ToolCallDelta

# Hand-written fixtures of broken streams (vercel/ai tests its recovery with them).
_SPLICED = "vercel-ai/anthropic/spliced-message-start.chunks.txt"
_DUPLICATE = "vercel-ai/anthropic/duplicate-message-start.chunks.txt"
_TRUNCATED = "anthropic-sdk-python/anthropic/stream__incomplete_partial_json_response.sse"


def _decode(events: list[Any], notes: Notes | None = None) -> list[StreamEvent]:
    return iter_events(StreamDecoder(notes), events)


def _streams(sample: Sample) -> list[list[Any]]:
    require_corpus()
    return messages(sample.payload)


@pytest.mark.parametrize("sample", params("anthropic", "stream"))
def test_recording_decodes_to_its_tool_calls(sample: Sample) -> None:
    for events in _streams(sample):
        decoded = _decode(events)
        errors = [e for e in decoded if isinstance(e, StreamErrorEvent)]
        if sample.id == _SPLICED:
            assert [e.error.code for e in errors] == ["malformed_event"]
            continue
        assert errors == []
        resp = accumulate(decoded)
        assert ir_tool_calls(resp) == raw_tool_calls(events)
        assert resp.origin == "anthropic" and resp.stop_reason is not None


@pytest.mark.parametrize("sample", params("anthropic", "stream"))
def test_recording_passes_the_checker(sample: Sample) -> None:
    for events in _streams(sample):
        problems = check_stream(events)
        if sample.id == _SPLICED:
            assert {p.code for p in problems} >= {"unexpected_event"}
        elif sample.id == _DUPLICATE:
            assert [(p.path, p.code) for p in problems] == [("$[1]", "unexpected_event")]
        else:
            assert problems == []


@pytest.mark.parametrize("sample", params("anthropic", "stream"))
def test_recording_matches_the_non_streamed_decoding(sample: Sample) -> None:
    """Each part equals what decode_response gives for the message the events add up to."""
    for events in _streams(sample):
        if sample.id in (_SPLICED, _DUPLICATE):
            continue
        expected = decode_response(raw_message(events), Notes())
        got = accumulate(_decode(events))
        assert len(got.parts) == len(expected.parts)
        for mine, theirs in zip(got.parts, expected.parts, strict=True):
            if isinstance(theirs, ToolCall):  # raw partial_json text vs compact re-serialization
                assert isinstance(mine, ToolCall)
                if sample.id != _TRUNCATED:
                    assert json.loads(mine.arguments) == json.loads(theirs.arguments)
                assert (mine.id, mine.name, mine.kind) == (theirs.id, theirs.name, theirs.kind)
            else:
                assert mine == theirs
        assert (got.stop_reason, got.raw_stop_reason, got.id, got.model) == (
            expected.stop_reason,
            expected.raw_stop_reason,
            expected.id,
            expected.model,
        )
        assert got.usage is not None and expected.usage is not None
        assert got.usage.output_tokens == expected.usage.output_tokens
        assert got.usage.input_tokens == expected.usage.input_tokens


@pytest.mark.parametrize("sample", params("anthropic", "stream"))
def test_whole_event_by_event_and_byte_by_byte_agree(sample: Sample) -> None:
    """The SSE bytes in one chunk, parsed events one by one, and the bytes one at a time."""
    for events in _streams(sample):
        one_by_one = _decode(events)
        raw = sse_bytes(events)
        assert _decode(from_sse(raw, len(raw))) == one_by_one
        step = 1 if len(raw) < 60_000 else 7  # a few recordings are large: odd-sized chunks
        assert _decode(from_sse(raw, step)) == one_by_one
        assert len(one_by_one) > 2


def test_recorded_sse_bytes_decode_like_the_parsed_events() -> None:
    """The provider's own bytes (whitespace padding and all), fed one byte at a time."""
    require_corpus()
    for sample in (s for s in params("anthropic", "stream") if s.values[0].id.endswith(".sse")):
        recording: Sample = sample.values[0]
        assert recording.raw is not None
        parsed = [i.data for i in recording.payload]
        assert _decode(from_sse(recording.raw.encode(), 1)) == _decode(parsed)


# ---------------------------------------------------------------- specific recordings


def _sample_events(sample_id: str) -> list[Any]:
    require_corpus()
    found = [p.values[0] for p in params("anthropic", "stream") if p.values[0].id == sample_id]
    if not found:
        pytest.skip(f"{sample_id} not in the corpus")
    return [i.data for i in found[0].payload]


def test_truncated_tool_arguments_stay_truncated_and_are_noted() -> None:
    events = _sample_events(_TRUNCATED)
    notes = Notes()
    decoded = _decode(events, notes)
    call = accumulate(decoded).tool_calls[0]
    expected = "".join(
        e["delta"]["partial_json"] for e in events if e["type"] == "content_block_delta" and e["index"] == 1
    )
    assert call.arguments == expected and call.arguments not in ("", "{}")
    ends = [e for e in decoded if isinstance(e, ResponseEnd)]
    assert ends[0].raw_stop_reason == "max_tokens"
    assert any("incomplete arguments" in n.message for n in notes)


def test_duplicate_message_start_is_ignored_with_a_note() -> None:
    notes = Notes()
    resp = accumulate(_decode(_sample_events(_DUPLICATE), notes))
    assert resp.text == "Hello, World!" and resp.error is None
    assert [n.path for n in notes] == ["$[1]"]


def test_thinking_signature_is_byte_exact() -> None:
    events = _sample_events("simonw-llm-anthropic/anthropic/test_thinking_prompt.yaml#0/stream")
    signature = next(
        e["delta"]["signature"] for e in events if e.get("delta", {}).get("type") == "signature_delta"
    )
    reasoning = accumulate(_decode(events)).parts[0]
    assert isinstance(reasoning, ReasoningPart)
    assert reasoning.signature == signature and reasoning.origin == "anthropic"


# ---------------------------------------------------------------- faults

_START = {
    "type": "message_start",
    "message": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 1},
    },
}
_TOOL = {
    "type": "content_block_start",
    "index": 0,
    "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
}


def _json(index: int, text: str) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "input_json_delta", "partial_json": text},
    }


_STOP = {"type": "content_block_stop", "index": 0}
_DELTA = {
    "type": "message_delta",
    "delta": {"stop_reason": "tool_use", "stop_sequence": None},
    "usage": {"output_tokens": 9},
}
_END = {"type": "message_stop"}


def test_missing_terminal_event_is_an_incomplete_stream() -> None:
    decoded = _decode([_START, _TOOL, _json(0, '{"a": 1}'), _STOP, _DELTA])
    assert isinstance(decoded[-1], StreamErrorEvent)
    assert decoded[-1].error.code == "incomplete_stream"
    assert [p.code for p in check_stream([_START, _TOOL, _STOP, _DELTA])] == ["missing_terminal"]


def test_empty_stream_is_incomplete() -> None:
    assert [type(e) for e in _decode([])] == [StreamErrorEvent]
    assert [p.code for p in check_stream([])] == ["missing_terminal"]


@pytest.mark.parametrize(
    ("bad", "path"),
    [
        (
            {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta"}},
            "$[2].delta.partial_json",
        ),
        ({"type": "content_block_delta", "index": 3, "delta": {"type": "input_json_delta"}}, "$[2].index"),
        (
            {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "x"}},
            "$[2].delta.type",
        ),
        ({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}, "$[2]"),
        ({"type": "content_block_stop", "index": 2}, "$[2].index"),
        ({"kind": "content_block_stop"}, "$[2].type"),
        ("[DONE]", "$[2]"),
    ],
)
def test_malformed_event_is_an_error_with_a_path(bad: Any, path: str) -> None:
    decoded = _decode([_START, _TOOL, bad, _STOP, _DELTA, _END])
    errors = [e for e in decoded if isinstance(e, StreamErrorEvent)]
    assert len(errors) == 1 and errors[0].error.code == "malformed_event"
    assert errors[0].error.param == path
    assert check_stream([_START, _TOOL, bad, _STOP, _DELTA, _END]) != []


def test_upstream_error_event_carries_the_provider_error() -> None:
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    decoded = _decode([_START, _TOOL, _json(0, '{"a"'), error])
    assert isinstance(decoded[-1], StreamErrorEvent)
    info = decoded[-1].error
    assert (info.type, info.message, info.status, info.origin) == (
        "overloaded_error",
        "Overloaded",
        529,
        "anthropic",
    )
    assert accumulate(decoded).stop_reason == "error"
    assert check_stream([_START, _TOOL, error]) == []
    assert [p.code for p in check_stream([_START, error, _END])] == ["event_after_end"]


def test_truncated_arguments_never_become_an_empty_object() -> None:
    notes = Notes()
    events = [_START, _TOOL, _json(0, '{"city": "Par'), _STOP, _DELTA, _END]
    decoded = _decode(events, notes)
    ends = [e for e in decoded if isinstance(e, PartEnd)]
    assert isinstance(ends[0].part, ToolCall) and ends[0].part.arguments == '{"city": "Par'
    assert len(notes) == 1
    assert [p.code for p in check_stream(events)] == ["invalid_tool_input"]


def test_empty_argument_stream_means_an_empty_object() -> None:
    decoded = _decode([_START, _TOOL, _json(0, ""), _STOP, _DELTA, _END])
    assert [e.arguments for e in decoded if isinstance(e, ToolCallDelta)] == ["{}"]
    assert accumulate(decoded).tool_calls[0].arguments == "{}"


def test_block_left_open_is_a_problem_unless_cut_by_max_tokens() -> None:
    events = [_START, _TOOL, _json(0, "{}"), _DELTA, _END]
    assert [p.code for p in check_stream(events)] == ["block_not_closed"]
    cut = {**_DELTA, "delta": {"stop_reason": "max_tokens", "stop_sequence": None}}
    assert check_stream([_START, _TOOL, _json(0, "{}"), cut, _END]) == []


def test_citations_and_unknown_events_follow_the_non_stream_decoder() -> None:
    citation = {
        "type": "char_location",
        "cited_text": "x",
        "document_index": 0,
        "start_char_index": 0,
        "end_char_index": 1,
    }
    events = [
        _START,
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "text", "text": "", "citations": None},
        },
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "citations_delta", "citation": citation},
        },
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
        {"type": "future_event"},
        _STOP,
        _DELTA,
        _END,
    ]
    notes = Notes()
    resp = accumulate(_decode(events, notes))
    assert resp.parts == (TextPart(text="hi", extra={"citations": [citation]}),)
    assert [n.path for n in notes] == ["$[4]"]
    assert [p.code for p in check_stream(events)] == ["unknown_event"]


@pytest.mark.parametrize("hold_calls", [True, False])
@pytest.mark.parametrize("streamed", ['{"city": "Paris"}', '{"city": "Par', ""])
def test_tool_use_final_part_is_the_decoded_block(hold_calls: bool, streamed: str) -> None:
    """A ``tool_use`` block's final part (from its start's part, not decoded again) is what
    decoding the finished block gives, with the streamed text as arguments."""
    start = {"type": "tool_use", "id": "toolu_1", "name": "get", "input": {}, "cache_control": {"type": "x"}}
    wire: list[Any] = [
        {
            "type": "message_start",
            "message": {
                "id": "m",
                "type": "message",
                "role": "assistant",
                "model": "c",
                "content": [],
                "usage": {"input_tokens": 1},
            },
        },
        {"type": "content_block_start", "index": 0, "content_block": start},
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": streamed},
        },
        {"type": "content_block_stop", "index": 0},
    ]
    decoder = StreamDecoder(Notes("drop"))
    decoder.hold_calls = hold_calls
    ends = [e for event in wire for e in decoder.feed(event) if isinstance(e, PartEnd)]
    parsed = json.loads(streamed) if streamed.endswith("}") else {}
    message = {
        "id": "m",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1},
        "content": [{**start, "input": parsed}],
    }
    expected = decode_response(message, Notes("drop")).parts[0]
    assert isinstance(expected, ToolCall)
    assert ends[0].part == msgspec.structs.replace(expected, arguments=streamed or "{}")
