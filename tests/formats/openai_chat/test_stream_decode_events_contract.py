"""Chat stream chunks -> IR events, exactly (issue 22): the parts each kind of delta opens, where
a stream ends, and the event a note about a part names."""

from __future__ import annotations

from typing import Any

from toolwire.formats.openai_chat import StreamDecoder
from toolwire.ir.content import ReasoningPart, RefusalPart, TextPart
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
from toolwire.streaming import StreamTranslator

START = ResponseStart(id="c1", origin="openai-chat", model="m", created=1)


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **top: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": {} if delta is None else delta, "finish_reason": finish}
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [choice],
        **top,
    }


def decode(chunks: list[Any], dialect: str | None = None) -> tuple[list[StreamEvent], StreamDecoder]:
    decoder = StreamDecoder(dialect=dialect)
    events = [e for c in chunks for e in decoder.feed(c)] + decoder.close()
    return events, decoder


def test_a_plain_text_stream_decodes_to_exactly_these_events() -> None:
    events, decoder = decode(
        [
            chunk({"role": "assistant", "content": ""}),
            chunk({"content": "hi"}),
            chunk({"content": " there"}),
            chunk({}, "stop"),
            "[DONE]",
        ]
    )
    assert events == [
        START,
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="hi"),
        TextDelta(index=0, text=" there"),
        PartEnd(index=0),
        ResponseEnd(stop_reason="end_turn", raw_stop_reason="stop"),
    ]
    assert list(decoder.notes) == []


def test_a_finish_on_a_text_chunk_ends_the_stream_without_done() -> None:
    events, _ = decode(
        [
            chunk({"role": "assistant", "content": ""}),
            chunk({"content": "hi"}),
            chunk({"content": " end"}, "length"),
        ]
    )
    assert events[-3:] == [
        TextDelta(index=0, text=" end"),
        PartEnd(index=0),
        ResponseEnd(stop_reason="max_tokens", raw_stop_reason="length"),
    ]


def test_reasoning_text_and_refusal_deltas_open_parts_of_their_kind() -> None:
    events, _ = decode(
        [
            chunk({"role": "assistant", "reasoning_content": "hm"}),
            chunk({"content": "no way"}),
            chunk({"refusal": "I refuse"}),
            chunk({}, "stop"),
            "[DONE]",
        ]
    )
    assert events[1:-1] == [
        PartStart(index=0, part=ReasoningPart(extra={"~field": "reasoning_content"})),
        ReasoningDelta(index=0, text="hm"),
        PartEnd(index=0),
        PartStart(index=1, part=TextPart(text="")),
        TextDelta(index=1, text="no way"),
        PartEnd(index=1),
        PartStart(index=2, part=RefusalPart(text="")),
        TextDelta(index=2, text="I refuse"),
        PartEnd(index=2),
    ]


def test_mistral_content_chunks_open_reasoning_and_text_parts() -> None:
    thinking = {"type": "thinking", "thinking": [{"type": "text", "text": "hm"}]}
    events, decoder = decode(
        [
            chunk({"role": "assistant", "content": [thinking]}),
            chunk({"content": [{"type": "reference", "reference_ids": [1]}, {"type": "text", "text": "hi"}]}),
            chunk({}, "stop"),
            "[DONE]",
        ],
        dialect="mistral",
    )
    assert events[1:-1] == [
        PartStart(
            index=0,
            part=ReasoningPart(origin="openai-chat", extra={"~chunk": "thinking", "~dialect": "mistral"}),
        ),
        ReasoningDelta(index=0, text="hm"),
        PartEnd(index=0),
        PartStart(index=1, part=TextPart(text="")),
        TextDelta(index=1, text="hi"),
        PartEnd(index=1),
    ]
    assert [(n.path, n.kind) for n in decoder.notes] == [("$[1].choices[0].delta.content[0].type", "dropped")]
    assert "'reference'" in next(iter(decoder.notes)).message


def test_a_content_chunk_that_is_not_an_object_ends_in_a_located_error() -> None:
    events, _ = decode([chunk({"role": "assistant", "content": ""}), chunk({"content": [5]})])
    (error,) = [e for e in events if isinstance(e, StreamErrorEvent)]
    assert (error.error.code, error.error.type) == ("malformed_event", "stream_error")
    assert "$[1].choices[0].delta.content[0]" in error.error.message


def test_a_chunk_of_another_choice_is_dropped_noted() -> None:
    other = chunk({"content": "second"})
    other["choices"][0]["index"] = 1
    events, decoder = decode([chunk({"role": "assistant", "content": "first"}), other, chunk({}, "stop")])
    assert [e.text for e in events if isinstance(e, TextDelta)] == ["first"]
    assert [(n.path, n.kind) for n in decoder.notes] == [("$[1].choices[0]", "dropped")]


def test_after_an_incomplete_stream_is_closed_nothing_more_is_decoded() -> None:
    decoder = StreamDecoder()
    for c in (chunk({"role": "assistant", "content": "hi"}), chunk({"content": " there"})):
        decoder.feed(c)
    (end,) = decoder.close()
    assert isinstance(end, StreamErrorEvent) and end.error.code == "incomplete_stream"
    assert "after 2 events" in end.error.message
    assert decoder.feed(chunk({"content": " late"})) == []
    assert decoder.close() == []


def test_a_leading_prompt_filter_chunk_goes_to_the_response_start() -> None:
    filters = [{"prompt_index": 0, "content_filter_results": {}}]
    lead = {
        "id": "",
        "object": "",
        "created": 0,
        "model": "",
        "choices": [],
        "prompt_filter_results": filters,
    }
    events, _ = decode([lead, chunk({"role": "assistant", "content": "hi"}), chunk({}, "stop"), "[DONE]"])
    assert events[0] == ResponseStart(
        id="c1", origin="openai-chat", model="m", created=1, extra={"prompt_filter_results": filters}
    )


def test_a_note_about_a_streamed_part_names_the_chunk_that_started_it() -> None:
    translator = StreamTranslator("openai-chat", "anthropic")
    for event in [
        chunk({"role": "assistant", "content": ""}),
        chunk({"content": "hi"}),
        chunk({"content": " there"}),
        chunk({"content": "!"}),
        chunk({"reasoning_content": "hm"}),
        chunk({"refusal": "no"}),
        chunk({}, "stop"),
        "[DONE]",
    ]:
        translator.feed(event)
    translator.close()
    assert [(n.path, n.kind) for n in translator.notes if n.path.startswith("$[")] == [
        ("$[4]", "dropped"),
        ("$[5]", "approximated"),
    ]


def test_an_indexed_fragment_continues_the_call_an_index_less_one_started() -> None:
    first = {"id": "x", "type": "function", "function": {"name": "f", "arguments": "{"}}
    events, decoder = decode(
        [
            chunk({"role": "assistant", "tool_calls": [first]}),
            chunk({"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}),
            chunk({}, "tool_calls"),
        ]
    )
    assert [e for e in events if isinstance(e, ToolCallDelta)] == [
        ToolCallDelta(index=0, arguments="{"),
        ToolCallDelta(index=0, arguments="}"),
    ]
    assert events[-1] == ResponseEnd(stop_reason="tool_calls", raw_stop_reason="tool_calls")
    assert list(decoder.notes) == []
