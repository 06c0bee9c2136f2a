"""Gemini stream decoding, chunk by chunk (issue 22): candidates, usage updates, thought runs,
streamed calls and the chunk each stream note points at."""

from __future__ import annotations

from typing import Any

from toolwire.formats._stream import iter_events
from toolwire.formats.gemini import StreamDecoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, TextPart
from toolwire.ir.notes import Notes
from toolwire.ir.response import Usage
from toolwire.ir.stream import ResponseEnd, StreamErrorEvent, StreamEvent, UsageUpdate
from toolwire.streaming import StreamTranslator


def _chunk(*parts: dict[str, Any], finish: str | None = None, **top: Any) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], **top}


def _decode(chunks: list[Any]) -> tuple[list[StreamEvent], list[tuple[str, str, str]]]:
    notes = Notes("drop")
    out = iter_events(StreamDecoder(notes), chunks)
    return out, [(n.path, n.kind, n.message) for n in notes]


def _error(out: list[StreamEvent]) -> tuple[str | None, str]:
    last = out[-1]
    assert isinstance(last, StreamErrorEvent)
    return last.error.code, last.error.message


def test_null_candidates_are_no_candidates_but_a_non_list_is_malformed() -> None:
    usage = {"promptTokenCount": 3}
    out, _ = _decode([{"candidates": None, "usageMetadata": usage}, _chunk({"text": "a"}, finish="STOP")])
    resp = accumulate(out)
    assert (resp.text, resp.stop_reason) == ("a", "end_turn")
    out, _ = _decode([{"candidates": {}, "usageMetadata": usage}, _chunk({"text": "a"}, finish="STOP")])
    assert _error(out) == ("malformed_event", "$[0].candidates: expected an array, got object")


def test_only_the_first_candidate_is_kept_and_the_others_noted_once() -> None:
    second = {"content": {"role": "model", "parts": [{"text": "other"}]}}
    first = _chunk({"text": "one"})
    first["candidates"].append(second)
    last = _chunk({"text": " two"}, finish="STOP")
    last["candidates"].append(second)
    out, notes = _decode([first, last])
    assert accumulate(out).text == "one two"
    assert notes == [("$.candidates[1]", "dropped", "streamed candidates after the first")]


def test_a_response_id_that_is_not_a_string_is_malformed_at_its_path() -> None:
    out, _ = _decode([_chunk({"text": "a"}, responseId=5)])
    assert _error(out) == ("malformed_event", "$[0].responseId: expected a string, got integer")


def test_usage_metadata_gives_an_update_each_time_it_changes() -> None:
    one = {"promptTokenCount": 3, "totalTokenCount": 3}
    two = {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}
    chunks = [
        _chunk({"text": "a"}, usageMetadata=one),
        _chunk({"text": "b"}, usageMetadata=one),
        _chunk({"text": "c"}, finish="STOP", usageMetadata=two),
    ]
    out, _ = _decode(chunks)
    updates = [e.usage for e in out if isinstance(e, UsageUpdate)]
    assert updates == [
        Usage(input_tokens=3, total_tokens=3),
        Usage(input_tokens=3, output_tokens=2, total_tokens=5),
    ]
    end = out[-1]
    assert isinstance(end, ResponseEnd) and end.usage == updates[-1]


def test_a_thought_opened_empty_keeps_the_text_of_the_chunks_after_it() -> None:
    thought = {"text": "", "thought": True}
    chunks = [_chunk(thought), _chunk({**thought, "text": "hm"}), _chunk({"text": "ok"}, finish="STOP")]
    out, _ = _decode(chunks)
    reasoning, text = accumulate(out).parts
    assert isinstance(reasoning, ReasoningPart) and reasoning.text == "hm"
    assert isinstance(text, TextPart) and text.text == "ok"


def test_a_streamed_function_call_alone_stops_for_tool_calls() -> None:
    chunks = [
        _chunk({"functionCall": {"name": "f", "willContinue": True}}),
        _chunk({"functionCall": {"partialArgs": [{"jsonPath": "$.a", "numberValue": 1}]}}, finish="STOP"),
    ]
    out, _ = _decode(chunks)
    resp = accumulate(out)
    assert [(c.name, c.arguments) for c in resp.tool_calls] == [("f", '{"a":1}')]
    assert (resp.stop_reason, resp.raw_stop_reason) == ("tool_calls", "STOP")


def test_a_stream_note_about_a_part_names_the_chunk_that_started_it() -> None:
    chunks = [
        _chunk({"text": "hi"}),
        _chunk({"text": "hm", "thought": True}),
        _chunk({"text": "more", "thought": True}),
        _chunk({"executableCode": {"language": "PYTHON", "code": "1"}}),
        _chunk({"text": "x", "thoughtSignature": "c2ln"}, finish="STOP"),
    ]
    translator = StreamTranslator("gemini", "openai-chat")
    for chunk in chunks:
        translator.feed(chunk)
    translator.close()
    assert [n.path for n in translator.notes if n.kind == "dropped"] == ["$[1]", "$[3]", "$[4]"]
