"""Chat stream encoder: every corpus response of every format, streamed, checked, decoded back.

The official ``openai`` SDK is the oracle: its ``ChatCompletionStreamState`` must accumulate
the encoder's chunks (validated as ``ChatCompletionChunk``) into the same calls and text.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from openai.lib.streaming.chat import ChatCompletionStreamState
from openai.types.chat import ChatCompletionChunk

from tests.corpus import FORMATS, Sample, params
from tests.formats.openai_chat._stream_helpers import (
    Expected,
    decode_all,
    encode_all,
    expected_after_chat,
    observed,
    roundtrip,
    synthesize,
    with_parts,
)
from toolwire.formats._stream import DONE, WireEvent
from toolwire.formats.openai_chat import check_stream
from toolwire.formats.openai_chat import response as chat_response
from toolwire.formats.openai_chat.stream import StreamEncoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, Response, Usage
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ReasoningDelta,
    ResponseEnd,
    ResponseStart,
    StreamErrorEvent,
    TextDelta,
    ToolCallDelta,
    UsageUpdate,
)
from toolwire.translate import format_module

RESPONSES = [p for fmt in FORMATS for p in params(fmt, "response")]
VARIANTS = {"chopped": {}, "interleaved": {"interleave": True}, "whole": {"whole": True}}


def _decode(sample: Sample) -> Response:
    module = format_module(sample.format)
    return module.decode_response(sample.payload, Notes("drop"))  # type: ignore[no-any-return]


def _sdk_view(wire: list[WireEvent]) -> Expected:
    """Calls and text as the official SDK accumulates ``wire`` (chunks validated by its model)."""
    state: ChatCompletionStreamState[Any] = ChatCompletionStreamState()
    for event in wire:
        if event != DONE:
            state.handle_chunk(ChatCompletionChunk.model_validate(event))
    message = state.current_completion_snapshot.choices[0].message
    calls: list[tuple[str | None, str, str]] = []
    if message.function_call is not None:
        calls.append((None, message.function_call.name, message.function_call.arguments))
    for call in message.tool_calls or []:
        assert call.type == "function"
        calls.append((call.id, call.function.name, call.function.arguments))
    return Expected(calls, message.content or "", message.refusal or "")


@pytest.mark.parametrize("sample", RESPONSES)
def test_response_streams_through_chat(sample: Sample) -> None:
    """Chopped, interleaved and whole-part streams of one response: valid Chat, same calls and text.

    The SDK oracle runs on every variant except for custom tool calls, which the SDK's chunk
    model does not know (Chat documents only function fragments in streams).
    """
    resp = _decode(sample)
    sdk_can_parse = all(call.kind != "custom" for call in resp.tool_calls)
    for variant, options in VARIANTS.items():
        wire, back = roundtrip(synthesize(resp, **options))
        assert check_stream(wire) == [], variant
        assert back.error is None, variant
        expected = expected_after_chat(with_parts(resp, bool(options.get("interleave"))))
        assert observed(back) == expected, variant
        assert wire[-1] == DONE
        if sdk_can_parse:
            assert _sdk_view(wire) == expected, variant


# ---------------------------------------------------------------- encoder specifics

_CALL = ToolCall(name="get_weather", id="call_1", arguments="")


def _stream(*middle: Any, end: ResponseEnd | None = None, origin: Any = "anthropic") -> list[Any]:
    start = ResponseStart(id="msg_1", origin=origin, model="m", created=5)
    return [start, *middle, end or ResponseEnd(stop_reason="tool_calls")]


def _deltas(wire: list[WireEvent]) -> list[dict[str, Any]]:
    return [e["choices"][0]["delta"] for e in wire if isinstance(e, dict) and e.get("choices")]


def test_grammar_role_first_ids_once_usage_then_done() -> None:
    usage = Usage(input_tokens=3, output_tokens=4)
    events = _stream(
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="Hi"),
        PartEnd(index=0),
        PartStart(index=1, part=_CALL),
        PartStart(index=2, part=ToolCall(name="other", id="call_2")),
        ToolCallDelta(index=2, arguments='{"b":'),
        ToolCallDelta(index=1, arguments='{"a":1}'),
        ToolCallDelta(index=2, arguments="2}"),
        PartEnd(index=1),
        PartEnd(index=2),
        UsageUpdate(usage=usage),
    )
    wire = encode_all(events)
    deltas = _deltas(wire)
    assert [d.get("role") for d in deltas] == ["assistant"] + [None] * (len(deltas) - 1)
    fragments = [f for d in deltas for f in d.get("tool_calls", [])]
    assert [(f["index"], "id" in f, "name" in f["function"]) for f in fragments] == [
        (0, True, True),
        (1, True, True),
        (1, False, False),
        (0, False, False),
        (1, False, False),
    ]
    finish, tail, done = wire[-3:]
    assert isinstance(finish, dict) and finish["choices"][0]["finish_reason"] == "tool_calls"
    assert isinstance(tail, dict) and tail["choices"] == []
    assert tail["usage"] == {"prompt_tokens": 3, "completion_tokens": 4, "total_tokens": 7}
    assert done == DONE
    assert all(isinstance(e, dict) and e["id"] == "msg_1" for e in wire[:-1])
    assert check_stream(wire) == []


def test_empty_foreign_arguments_become_an_empty_object() -> None:
    wire = encode_all(_stream(PartStart(index=0, part=_CALL), PartEnd(index=0)))
    assert accumulate(decode_all(wire)).tool_calls[0].arguments == "{}"


def test_final_part_in_part_end_fills_what_deltas_left_out() -> None:
    final = ToolCall(name="get_weather", id="call_1", arguments='{"city":"Paris"}')
    events = _stream(
        PartStart(index=0, part=_CALL),
        ToolCallDelta(index=0, arguments='{"city"'),
        PartEnd(index=0, part=final),
    )
    assert accumulate(decode_all(encode_all(events))).tool_calls == [final]


def test_error_event_has_no_done_and_keeps_provider_fields() -> None:
    error = ErrorInfo(message="overloaded", type="overloaded_error", status=529, origin="anthropic")
    wire = encode_all(_stream(PartStart(index=0, part=TextPart(text="a")), StreamErrorEvent(error=error)))
    assert DONE not in wire
    body = wire[-1]
    assert isinstance(body, dict) and body["error"]["message"] == "overloaded"
    assert check_stream(wire) == []
    decoded = decode_all(wire)
    assert isinstance(decoded[-1], StreamErrorEvent) and decoded[-1].error.message == "overloaded"


def test_unfinished_source_closes_with_an_error_event() -> None:
    wire = encode_all(_stream(PartStart(index=0, part=_CALL), ToolCallDelta(index=0, arguments='{"a"'))[:-1])
    last = wire[-1]
    assert isinstance(last, dict) and last["error"]["code"] == "incomplete_stream"
    assert DONE not in wire


def test_foreign_reasoning_is_dropped_with_a_note_and_signature_never_sent() -> None:
    notes = Notes("drop")
    part = ReasoningPart(text="", origin="anthropic")
    events = _stream(
        PartStart(index=0, part=part),
        ReasoningDelta(index=0, text="think"),
        ReasoningDelta(index=0, signature="SIG"),
        PartEnd(index=0),
        PartStart(index=1, part=TextPart(text="ok")),
        PartEnd(index=1),
        end=ResponseEnd(stop_reason="end_turn"),
    )
    wire = encode_all(events, notes)
    assert "think" not in json.dumps(wire) and "SIG" not in json.dumps(wire)
    assert any("reasoning" in note.message for note in notes)


def test_reasoning_field_option_streams_foreign_reasoning_text_only() -> None:
    events = _stream(
        PartStart(index=0, part=ReasoningPart(origin="openai-responses", encrypted="ENC")),
        ReasoningDelta(index=0, summary="first", summary_index=0),
        ReasoningDelta(index=0, summary="second", summary_index=1),
        PartEnd(index=0),
        end=ResponseEnd(stop_reason="end_turn"),
    )
    wire = encode_all(events, reasoning_field="reasoning_content")
    assert "ENC" not in json.dumps(wire)
    reasoning = accumulate(decode_all(wire)).parts[0]
    assert isinstance(reasoning, ReasoningPart) and reasoning.text == "first\n\nsecond"


def test_strict_policy_refuses_a_lossy_stream() -> None:
    from toolwire.errors import ConversionError

    events = _stream(PartStart(index=0, part=ToolCall(name="web_search", kind="builtin")), PartEnd(index=0))
    with pytest.raises(ConversionError):
        encode_all(events, Notes("strict"))


def test_same_format_extras_ride_on_every_chunk() -> None:
    start = ResponseStart(
        id="c1", origin="openai-chat", model="m", created=1, extra={"system_fingerprint": "fp"}
    )
    events = [start, PartStart(index=0, part=TextPart(text="x")), PartEnd(index=0), ResponseEnd()]
    wire = encode_all(events)
    assert all(e["system_fingerprint"] == "fp" for e in wire if isinstance(e, dict))


@pytest.mark.parametrize(
    "usage",
    [
        Usage(input_tokens=10, output_tokens=5),
        Usage(input_tokens=10, output_tokens=5, total_tokens=20, cached_tokens=3, reasoning_tokens=2),
        Usage(input_tokens=10, output_tokens=5, cache_creation_tokens=4),
        Usage(input_tokens=10, output_tokens=5, cached_tokens=3, cache_creation_tokens=4),
        Usage(input_tokens=None, output_tokens=5),
        Usage(input_tokens=10, output_tokens=5, extra={"foo": 1}),
    ],
)
def test_usage_chunk_of_another_format_is_encode_usage(usage: Usage) -> None:
    """The usage chunk writes what ``encode_usage`` writes (its fast path for another format's
    usage included), with the same notes."""
    notes = Notes("warn")
    enc = StreamEncoder(notes)
    enc.feed(ResponseStart(id="r", model="m", created=1, origin="anthropic"))
    wire = enc.feed(ResponseEnd(stop_reason="end_turn", usage=usage))
    expected_notes = Notes("warn")
    expected = chat_response.encode_usage(usage, expected_notes, same=False)
    assert [e["usage"] for e in wire if isinstance(e, dict) and "usage" in e] == [expected]
    assert [n.message for n in notes.items if "usage" in n.path] == [n.message for n in expected_notes.items]
