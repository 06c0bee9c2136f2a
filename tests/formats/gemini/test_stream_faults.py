"""Gemini stream faults and edge cases: truncation, malformed chunks, errors, streamed args."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tests.corpus import fixtures_dir
from tests.formats.gemini.test_stream_encode import encode
from toolwire.errors import PayloadError
from toolwire.formats._stream import iter_events
from toolwire.formats.gemini import StreamDecoder, StreamEncoder, check_stream, decode_error
from toolwire.formats.gemini._stream_args import ArgsWriter, parse_json_path
from toolwire.ir.accumulate import accumulate
from toolwire.ir.base import Format
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

_ARGS = "vercel-ai/gemini/google-stream-tool-call-arguments.chunks.txt"


def _text(text: str, finish: str | None = None, **extra: Any) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": [{"text": text, **extra}]}}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "responseId": "r1", "modelVersion": "gemini-x"}


def _call_part(inner: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"candidates": [{"content": {"role": "model", "parts": [{"functionCall": inner, **extra}]}}]}


def _num(path: str, value: Any = 1) -> dict[str, Any]:
    return {"jsonPath": path, "numberValue": value}


def _str(path: str, value: Any, more: bool = False) -> dict[str, Any]:
    return {"jsonPath": path, "stringValue": value, **({"willContinue": True} if more else {})}


def _recording(rel: str) -> list[dict[str, Any]]:
    root = fixtures_dir()
    if root is None or not (root / rel).is_file():
        pytest.skip("fixture corpus not found")
    lines = Path(root / rel).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _errors(events: list[StreamEvent]) -> list[ErrorInfo]:
    return [e.error for e in events if isinstance(e, StreamErrorEvent)]


# --- decoder faults ------------------------------------------------------------------------------


def test_missing_finish_reason_is_incomplete() -> None:
    events = iter_events(StreamDecoder(), [_text("Hello"), _text(" world")])
    assert [e.code for e in _errors(events)] == ["incomplete_stream"]
    assert not any(isinstance(e, ResponseEnd) for e in events)
    assert accumulate(events).text == "Hello world"


def test_finish_reason_ends_response_on_close() -> None:
    decoder = StreamDecoder()
    fed = decoder.feed(_text("Hi")) + decoder.feed(_text("!", "STOP"))
    assert not any(isinstance(e, ResponseEnd) for e in fed)  # more chunks may follow a finish
    end = decoder.close()[-1]
    assert isinstance(end, ResponseEnd) and (end.stop_reason, end.raw_stop_reason) == ("end_turn", "STOP")


@pytest.mark.parametrize(
    ("chunk", "path"),
    [
        ({"candidates": {"content": {}}}, "$[1].candidates"),
        ({"candidates": [{"content": {"parts": [{"text": 3}]}}]}, "$[1].candidates[0].content.parts[0].text"),
        ({"candidates": [{"finishReason": 1}]}, "$[1].candidates[0].finishReason"),
        ({"candidates": [{"content": {"parts": [{"functionCall": {"args": {}}}]}}]}, "functionCall.name"),
        ({"hello": "world"}, "$[1]"),
        ("[DONE]", "$[1]"),
    ],
)
def test_malformed_chunk(chunk: Any, path: str) -> None:
    decoder = StreamDecoder()
    decoder.feed(_text("ok"))
    events = decoder.feed(chunk)
    (error,) = _errors(events)
    assert error.code == "malformed_event" and path in error.message
    assert decoder.feed(_text("more", "STOP")) == [] and decoder.close() == []


def test_upstream_error_chunk() -> None:
    body = {"error": {"code": 429, "message": "Resource exhausted", "status": "RESOURCE_EXHAUSTED"}}
    decoder = StreamDecoder()
    events = decoder.feed(_text("partial")) + decoder.feed(body)
    (error,) = _errors(events)
    assert (error.status, error.type, error.message) == (429, "RESOURCE_EXHAUSTED", "Resource exhausted")
    assert decoder.close() == []
    assert accumulate(events).stop_reason == "error"


def test_truncated_streamed_arguments_never_become_empty_object() -> None:
    chunks = _recording(_ARGS)
    cut = next(i for i, c in enumerate(chunks) if "partialArgs" in json.dumps(c)) + 1
    events = iter_events(StreamDecoder(), chunks[:cut])
    (error,) = _errors(events)
    assert error.code == "incomplete_stream" and "getWeather" in error.message
    assert not any(isinstance(e, PartEnd) for e in events)
    response = accumulate(events)
    (call,) = response.tool_calls
    assert response.stop_reason == "error" and call.arguments == '{"location":"Boston'


def test_streamed_arguments_arrive_as_deltas() -> None:
    """Argument text streams on as it arrives and adds up to the final part's arguments."""
    chunks = [
        _call_part({"name": "say", "willContinue": True}),
        _call_part({"partialArgs": [_str("$.text", 'He said "hi"\n', more=True)], "willContinue": True}),
        _call_part({"partialArgs": [_str("$.text", "caf\u00e9 \U0001f600")], "willContinue": True}),
        _call_part({"partialArgs": [_num("$.n", 2), _str("$.tags[0]", "a"), _str("$.tags[1]", "b")]}),
        _text("", "STOP"),
    ]
    events = iter_events(StreamDecoder(), chunks)
    deltas = [e.arguments for e in events if isinstance(e, ToolCallDelta)]
    (end,) = [e for e in events if isinstance(e, PartEnd)]
    assert isinstance(end.part, ToolCall) and len(deltas) == 4
    assert "".join(deltas) == end.part.arguments
    assert json.loads(end.part.arguments) == {
        "text": 'He said "hi"\ncaf\u00e9 \U0001f600',
        "n": 2,
        "tags": ["a", "b"],
    }


def test_streamed_call_closed_mid_string_is_malformed() -> None:
    chunks = [
        _call_part({"name": "f", "willContinue": True}),
        _call_part({"partialArgs": [{"jsonPath": "$.a", "stringValue": "x", "willContinue": True}]}),
    ]
    (error,) = _errors(iter_events(StreamDecoder(), chunks))
    assert error.code == "malformed_event" and "unfinished" in error.message


def test_finish_inside_streamed_call_is_malformed() -> None:
    chunks = [_call_part({"name": "f", "willContinue": True}), _text("", "STOP")]
    chunks[1]["candidates"][0]["content"]["parts"] = []
    (error,) = _errors(iter_events(StreamDecoder(), chunks))
    assert error.code == "malformed_event" and "finishReason" in error.message


def test_streamed_call_assembles_typed_values_and_keeps_signature() -> None:
    sig = "c2lnbmF0dXJl"
    chunks = [
        _call_part({"name": "plan", "willContinue": True, "id": "c1"}, thoughtSignature=sig),
        _call_part(
            {
                "partialArgs": [
                    {"jsonPath": "$.steps[0].title", "stringValue": "Bo", "willContinue": True},
                    {"jsonPath": "$.steps[0].title", "stringValue": "il"},
                    {"jsonPath": "$.steps[0].minutes", "numberValue": 7.5},
                    {"jsonPath": "$.steps[1]['odd key']", "boolValue": True},
                    {"jsonPath": '$.note["x.y"]', "nullValue": "NULL_VALUE"},
                ],
                "willContinue": True,
            }
        ),
        _call_part({}),
        _text("", "STOP"),
    ]
    response = accumulate(iter_events(StreamDecoder(), chunks))
    (call,) = response.tool_calls
    assert (call.id, call.name, call.thought_signature) == ("c1", "plan", sig)
    assert json.loads(call.arguments) == {
        "steps": [{"title": "Boil", "minutes": 7.5}, {"odd key": True}],
        "note": {"x.y": None},
    }
    assert response.stop_reason == "tool_calls"
    assert check_stream(chunks) == []


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ([_str("$.a[1]", "x")], "out of order"),
        ([_num("$.a[0]"), _num("$.a[0]")], "out of order"),
        ([_num("$.a"), _num("$.a.b")], "set twice"),
        ([_num("$.a.b"), _num("$.c"), _num("$.a.d")], "set twice"),
        ([_num("$.a"), _num("$.b[0]"), _num("$.b.c")], "applied to an array"),
        ([_num("$[0]")], "applied to an object"),
        ([_str("$.a", "x", more=True), _num("$.b")], "left unfinished"),
        ([_str("$.a", "x", more=True)], "left unfinished"),
        ([_num("$.a", "1")], "unexpected string"),
        ([_num("$.a", True)], "unexpected boolean"),
        ([_str("$.a", 5)], "unexpected integer"),
        ([{"jsonPath": "a.b", "numberValue": 1}], "does not start"),
        ([{"jsonPath": "$.a"}], "without stringValue"),
        ([_num("$")], "sets no argument"),
    ],
)
def test_bad_partial_args(entries: list[dict[str, Any]], message: str) -> None:
    writer = ArgsWriter()
    with pytest.raises(PayloadError, match=message):
        writer.apply(entries, "$.partialArgs")
        writer.finish("$")


def test_json_path_parsing() -> None:
    assert parse_json_path('$.a[0][\'b c\']["d\\"e"].f', "$") == ("a", 0, "b c", 'd"e', "f")
    with pytest.raises(PayloadError, match="cannot parse"):
        parse_json_path("$.a[x]", "$")


def test_empty_text_makes_no_part_but_a_signature_does() -> None:
    sig = "c2ln"
    chunks = [_call_part({"name": "f", "args": {}}), _text(""), _text("", "STOP", thoughtSignature=sig)]
    parts = accumulate(iter_events(StreamDecoder(), chunks)).parts
    assert [type(p) for p in parts] == [ToolCall, TextPart]
    assert parts[1] == TextPart(text="", thought_signature=sig)


def test_thoughts_and_text_become_separate_parts() -> None:
    chunks = [
        _text("plan ", thought=True),
        _text("more", thought=True, thoughtSignature="c2ln"),
        _text("answer"),
        _text(" here", "STOP"),
    ]
    parts = accumulate(iter_events(StreamDecoder(), chunks)).parts
    assert parts == (
        ReasoningPart(text="plan more", signature="c2ln", origin="gemini"),
        TextPart(text="answer here"),
    )


# --- check_stream ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("chunks", "code"),
    [
        ([_text("a", "STOP"), _text("b")], "unexpected_chunk"),
        ([{"error": {"code": 500}}, _text("a", "STOP")], "unexpected_chunk"),
        ([_text("a"), {**_text("b", "STOP"), "responseId": "other"}], "changed"),
        ([_call_part({"name": "f", "willContinue": True}), _text("x", "STOP")], "call_interrupted"),
        ([_call_part({"args": {}}), _text("", "STOP")], "call_without_name"),
        ([_call_part({"name": "f", "willContinue": True}), {"usageMetadata": {}}], "missing_finish"),
        ([_text("a")], "missing_finish"),
        (["[DONE]", _text("a", "STOP")], "not_a_chunk"),
        ([{"candidates": {}, "usageMetadata": {}}], "bad_shape"),
        ([{"candidates": [{"finishReason": 1}]}], "bad_shape"),
        ([{"candidates": [{"content": {"parts": ["x"]}, "finishReason": "STOP"}]}], "bad_shape"),
        ([{"candidates": [{"index": 1, "finishReason": "STOP"}]}], "bad_index"),
    ],
)
def test_check_stream_rules(chunks: list[Any], code: str) -> None:
    assert code in [p.code for p in check_stream(chunks)]


def test_check_stream_allows_usage_after_finish() -> None:
    assert (
        check_stream([_text("a", "STOP"), _text("b", "STOP"), {"usageMetadata": {"totalTokenCount": 3}}])
        == []
    )


# --- encoder --------------------------------------------------------------------------------------


def _parts(chunks: list[Any]) -> list[dict[str, Any]]:
    return [
        p
        for c in chunks
        for cand in c.get("candidates", ())
        for p in cand.get("content", {}).get("parts", ())
    ]


def test_foreign_reasoning_and_signatures_are_not_sent() -> None:
    notes = Notes("drop")
    events: list[StreamEvent] = [
        ResponseStart(id="msg_1", origin="anthropic", model="claude"),
        PartStart(0, ReasoningPart(origin="anthropic")),
        ReasoningDelta(0, text="thinking"),
        ReasoningDelta(0, signature="anthropic-signature"),
        PartEnd(0, ReasoningPart(text="thinking", signature="anthropic-signature", origin="anthropic")),
        PartStart(1, TextPart(text="")),
        TextDelta(1, "Hello"),
        PartEnd(1, TextPart(text="Hello")),
        ResponseEnd(stop_reason="end_turn", usage=Usage(input_tokens=3, output_tokens=2)),
    ]
    from toolwire.formats.gemini import StreamEncoder

    encoder = StreamEncoder(notes)
    chunks: list[Any] = [c for e in events for c in encoder.feed(e)] + encoder.close()
    assert "anthropic-signature" not in json.dumps(chunks) and "thinking" not in json.dumps(chunks)
    assert any(n.kind == "dropped" and "anthropic" in n.message for n in notes)
    assert _parts(chunks) == [{"text": "Hello"}]
    final = chunks[-1]
    assert final["candidates"][0]["finishReason"] == "STOP"
    assert final["usageMetadata"] == {"promptTokenCount": 3, "candidatesTokenCount": 2, "totalTokenCount": 5}
    assert all(c["responseId"] == "msg_1" and c["modelVersion"] == "claude" for c in chunks)


def test_whole_parts_and_late_signature() -> None:
    """Parts given whole (no deltas) and a Gemini signature known only at the part's end."""
    call = ToolCall(name="f", arguments='{"x":1}', id="c9", thought_signature="c2ln")
    events: list[StreamEvent] = [
        ResponseStart(origin="gemini"),
        PartStart(0, TextPart(text="Hi there")),
        PartEnd(0, TextPart(text="Hi there", thought_signature="dGV4dA==")),
        PartStart(1, call),
        PartEnd(1, call),
        ResponseEnd(stop_reason="tool_calls", raw_stop_reason="STOP"),
    ]
    chunks = encode(events)
    assert _parts(chunks) == [
        {"text": "Hi there"},
        {"text": "", "thoughtSignature": "dGV4dA=="},
        {"functionCall": {"name": "f", "args": {"x": 1}, "id": "c9"}, "thoughtSignature": "c2ln"},
    ]
    back = accumulate(iter_events(StreamDecoder(), chunks))
    assert back.parts == (TextPart(text="Hi there", thought_signature="dGV4dA=="), call)


def test_tool_call_waits_for_earlier_open_text() -> None:
    events: list[StreamEvent] = [
        ResponseStart(origin="openai-chat"),
        PartStart(0, TextPart(text="")),
        PartStart(1, ToolCall(name="f", id="call_1")),
        ToolCallDelta(1, '{"a":'),
        ToolCallDelta(1, "2}"),
        PartEnd(1),
        TextDelta(0, "first"),
        PartEnd(0),
        PartEnd(0),
        ResponseEnd(stop_reason="tool_calls"),
    ]
    chunks = encode(events)
    assert _parts(chunks) == [
        {"text": "first"},
        {"functionCall": {"name": "f", "args": {"a": 2}, "id": "call_1"}},
    ]


def test_error_event_and_close_without_end() -> None:
    info = ErrorInfo(message="overloaded", status=529, type="overloaded_error", origin="anthropic")
    chunks = encode([ResponseStart(origin="anthropic"), StreamErrorEvent(info)])
    error = decode_error(chunks[-1], None, Notes("drop"))
    assert (error.message, error.status) == ("overloaded", 529)
    cut = encode([ResponseStart(origin="gemini"), PartStart(0, TextPart(text="")), TextDelta(0, "x")])
    assert _parts(cut) == [{"text": "x"}]
    (error,) = _errors(iter_events(StreamDecoder(), cut))
    assert (error.type, error.message) == ("INTERNAL", "stream ended before the response was complete")


def test_blocked_prompt_round_trip() -> None:
    chunk = {"promptFeedback": {"blockReason": "SAFETY"}, "modelVersion": "gemini-x"}
    events = iter_events(StreamDecoder(), [copy.deepcopy(chunk)])
    assert isinstance(events[-1], ResponseEnd) and events[-1].stop_reason == "content_filter"
    again = encode(events)
    assert again == [{"modelVersion": "gemini-x", "promptFeedback": {"blockReason": "SAFETY"}}]


# --- the end of another format's stream, constant memory ------------------------------------------


def _call_events(origin: Format, end: ResponseEnd) -> list[StreamEvent]:
    return [
        ResponseStart(origin=origin),
        PartStart(0, ToolCall(name="f")),
        ToolCallDelta(0, '{"a":1}'),
        PartEnd(0),
        end,
    ]


def test_end_without_stop_reason_of_another_format_finishes_with_stop() -> None:
    """A Chat stream ended by ``[DONE]`` without ``finish_reason`` is complete: ``STOP``, noted."""
    notes = Notes("strict")
    encoder = StreamEncoder(notes)
    chunks = [c for e in _call_events("openai-chat", ResponseEnd()) for c in encoder.feed(e)]
    chunks += encoder.close()
    assert chunks[-1]["candidates"][0]["finishReason"] == "STOP"
    assert check_stream(chunks) == []
    assert [(n.path, n.kind) for n in notes] == [("$.candidates[0].finishReason", "synthesized")]
    back = accumulate(iter_events(StreamDecoder(), chunks))
    assert (back.error, back.stop_reason, back.raw_stop_reason) == (None, "tool_calls", "STOP")


@pytest.mark.parametrize(
    ("origin", "end"),
    [
        ("openai-responses", ResponseEnd(raw_stop_reason="queued", status="queued")),
        ("gemini", ResponseEnd()),
    ],
    ids=["unfinished-source", "gemini"],
)
def test_end_without_stop_reason_stays_incomplete(origin: Format, end: ResponseEnd) -> None:
    """A source that says it is unfinished, or a Gemini stream without one, gets no finishReason."""
    chunks = encode(_call_events(origin, end))
    assert "finishReason" not in chunks[-1]["candidates"][0]
    assert [p.code for p in check_stream(chunks)] == ["missing_finish"]


def test_thought_and_signed_text_runs_end_without_a_part() -> None:
    """Runs the start and the deltas rebuild hold nothing: their ``PartEnd`` has no part."""
    chunks = [
        _text("think ", thought=True),
        _text("more", thought=True, thoughtSignature="c2ln"),
        _text("Hi", thoughtSignature="dGV4dA=="),
        _text(" there", "STOP"),
    ]
    events = iter_events(StreamDecoder(), chunks)
    starts = [e.part for e in events if isinstance(e, PartStart)]
    assert starts == [ReasoningPart(origin="gemini"), TextPart(text="", thought_signature="dGV4dA==")]
    assert [e.part for e in events if isinstance(e, PartEnd)] == [None, None]
    assert accumulate(events).parts == (
        ReasoningPart(text="think more", signature="c2ln", origin="gemini"),
        TextPart(text="Hi there", thought_signature="dGV4dA=="),
    )


def test_late_text_signature_and_empty_thought_keep_their_part() -> None:
    """A text run signed on a later chunk gets its signature as a delta (its text is not held);
    a thought run without text ends with its part."""
    chunks = [
        _text("", thought=True, thoughtSignature="c2ln"),
        _text("Hi"),
        _text("", "STOP", thoughtSignature="dGV4dA=="),
    ]
    events = iter_events(StreamDecoder(), chunks)
    parts = (
        ReasoningPart(text="", signature="c2ln", origin="gemini"),
        TextPart(text="Hi", thought_signature="dGV4dA=="),
    )
    assert [e.part for e in events if isinstance(e, PartEnd)] == [parts[0], None]
    assert TextDelta(index=1, text="", signature="dGV4dA==") in events
    assert accumulate(events).parts == parts
