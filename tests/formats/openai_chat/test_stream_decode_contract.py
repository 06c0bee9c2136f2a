"""Chat stream decoder contracts a client relies on (issue 22): malformed chunks end the stream
with a typed, located error; tool-call fragments never merge two calls; per-chunk noise never
reaches the re-encoded stream."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.formats.openai_chat import StreamDecoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ToolCall
from toolwire.ir.stream import StreamErrorEvent, StreamEvent, TextDelta, ToolCallDelta
from toolwire.streaming import StreamTranslator, check_stream


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


def decode(chunks: list[Any]) -> tuple[list[StreamEvent], StreamDecoder]:
    decoder = StreamDecoder()
    events = [e for c in chunks for e in decoder.feed(c)] + decoder.close()
    return events, decoder


def calls(chunks: list[Any]) -> list[tuple[str | None, str, str]]:
    events, _ = decode(chunks)
    response = accumulate(events)
    return [(p.id, p.name, p.arguments) for p in response.parts if isinstance(p, ToolCall)]


def fragment(arguments: str, **fields: Any) -> dict[str, Any]:
    call: dict[str, Any] = {**fields, "function": {"arguments": arguments}}
    if "name" in fields:
        call["function"]["name"] = call.pop("name")
    return {"tool_calls": [call]}


# ---------------------------------------------------------------- malformed choices


@pytest.mark.parametrize("bad", [5, "x", None, [], [{"index": 0}], True])
def test_a_non_object_choice_mid_stream_ends_in_a_located_error(bad: Any) -> None:
    head = chunk({"role": "assistant", "content": "hi"})
    events, decoder = decode([head, {**chunk(), "choices": [bad]}, chunk({"content": "more"})])
    errors = [e for e in events if isinstance(e, StreamErrorEvent)]
    assert len(errors) == 1 and (errors[0].error.code, errors[0].error.type) == (
        "malformed_event",
        "stream_error",
    )
    assert errors[0].error.message.startswith("$[1].choices[0]: expected an object")
    assert events[-1] == errors[0]  # nothing after the error, close() adds nothing
    assert accumulate(events[:-1]).parts[0].text == "hi"  # type: ignore[union-attr]
    assert decoder.close() == []


@pytest.mark.parametrize("bad", [5, "x", {"a": 1}])
def test_non_list_choices_end_in_a_located_error(bad: Any) -> None:
    events, _ = decode([chunk({"content": "hi"}), {**chunk(), "choices": bad}])
    assert isinstance(events[-1], StreamErrorEvent)
    assert events[-1].error.message.startswith("$[1].choices: ")


def test_a_chunk_without_choices_ends_in_a_located_error() -> None:
    events, _ = decode([chunk({"content": "hi"}), {"id": "c1", "object": "chat.completion.chunk"}])
    assert isinstance(events[-1], StreamErrorEvent)
    assert events[-1].error.message == "$[1].choices: missing required field 'choices'"


def test_events_after_done_are_ignored_with_one_note() -> None:
    events, decoder = decode([chunk({"content": "hi"}), "[DONE]", chunk({"content": "late"}), "[DONE]"])
    assert accumulate(events).parts[0].text == "hi"  # type: ignore[union-attr]
    assert [(n.path, n.kind, n.message) for n in decoder.notes] == [
        ("$[2]", "skipped", "event after the end of the stream ignored")
    ]


def test_a_stream_cut_before_its_finish_is_incomplete() -> None:
    events, _ = decode([chunk({"content": "hi"})])
    assert isinstance(events[-1], StreamErrorEvent)
    error = events[-1].error
    assert (error.code, error.type) == ("incomplete_stream", "stream_error")
    assert error.message == "stream ended after 1 events without finish_reason or [DONE]"


# ---------------------------------------------------------------- index-less fragments


def test_index_less_fragments_with_a_new_id_start_a_new_call() -> None:
    chunks = [
        chunk({"role": "assistant"}),
        chunk(fragment('{"x":', id="a", type="function", name="f")),
        chunk(fragment("1}")),
        chunk(fragment('{"y":', id="b", type="function", name="g")),
        chunk(fragment("2}")),
        chunk(finish="tool_calls"),
        "[DONE]",
    ]
    assert calls(chunks) == [("a", "f", '{"x":1}'), ("b", "g", '{"y":2}')]


def test_index_less_fragments_repeating_the_id_stay_in_one_call() -> None:
    chunks = [
        chunk(fragment('{"x":', id="a", type="function", name="f")),
        chunk(fragment("1", id="a")),
        chunk(fragment("}", id="a")),
        chunk(finish="tool_calls"),
    ]
    assert calls(chunks) == [("a", "f", '{"x":1}')]
    assert list(decode(chunks)[1].notes) == []  # a repeated id is not a late one


def test_a_new_id_at_the_same_index_starts_a_new_call() -> None:
    chunks = [
        chunk(fragment("{}", index=0, id="a", type="function", name="f")),
        chunk(fragment('{"z":0}', index=0, id="b", type="function", name="g")),
        chunk(finish="tool_calls"),
    ]
    assert calls(chunks) == [("a", "f", "{}"), ("b", "g", '{"z":0}')]


def test_interleaved_indexed_fragments_go_to_their_own_call() -> None:
    chunks = [
        chunk(fragment("[", index=0, id="a", type="function", name="f")),
        chunk(fragment("{", index=1, id="b", type="function", name="g")),
        chunk(fragment("1]", index=0)),
        chunk(fragment("}", index=1)),
        chunk(finish="tool_calls"),
    ]
    assert calls(chunks) == [("a", "f", "[1]"), ("b", "g", "{}")]


def test_an_index_less_fragment_after_indexed_ones_continues_the_last_call() -> None:
    chunks = [
        chunk(fragment("[", index=0, id="a", type="function", name="f")),
        chunk(fragment("{", index=1, id="b", type="function", name="g")),
        chunk(fragment("}")),
        chunk(finish="tool_calls"),
    ]
    assert calls(chunks) == [("a", "f", "["), ("b", "g", "{}")]


def test_arguments_before_the_name_are_kept_for_the_call() -> None:
    chunks = [
        chunk(fragment('{"a"', index=0, id="a", type="function")),
        chunk(fragment(":1}", index=0, name="f")),
        chunk(finish="tool_calls"),
    ]
    assert calls(chunks) == [("a", "f", '{"a":1}')]


def test_a_call_that_never_got_a_name_ends_in_an_error() -> None:
    events, _ = decode([chunk(fragment("{}", index=0, id="a")), chunk(finish="tool_calls"), "[DONE]"])
    assert isinstance(events[-1], StreamErrorEvent)
    assert "tool call 'a' ended without a name" in events[-1].error.message


def test_a_late_id_or_name_is_noted_and_ignored() -> None:
    chunks = [
        chunk(fragment("{", index=0, type="function", name="f")),
        chunk(fragment("}", index=0, id="late", name="other")),
        chunk(finish="tool_calls"),
    ]
    events, decoder = decode(chunks)
    assert [(p.id, p.name, p.arguments) for p in accumulate(events).parts] == [(None, "f", "{}")]  # type: ignore[union-attr]
    kinds = sorted((n.path, n.kind) for n in decoder.notes)
    assert kinds == [("$[1].choices[0].delta.tool_calls[0].function", "dropped")] * 2


# ---------------------------------------------------------------- per-chunk fields


def test_the_obfuscation_field_never_reaches_the_re_encoded_stream() -> None:
    chunks = [
        chunk({"role": "assistant", "content": ""}, obfuscation="abc"),
        chunk({"content": "hi"}, obfuscation="de"),
        chunk({"content": " there"}, obfuscation="fgh"),
        chunk(finish="stop", obfuscation="x"),
        "[DONE]",
    ]
    for target in ("openai-chat", "openai-responses", "anthropic", "gemini"):
        translator = StreamTranslator("openai-chat", target)
        out = [e for c in chunks for e in translator.feed(c)] + translator.close()
        assert "obfuscation" not in repr(out), target
        assert "hi" in repr(out) and " there" in repr(out)
        assert check_stream(target, out) == []  # type: ignore[arg-type]
        assert not [n for n in translator.note_items if "obfuscation" in n.path]


def test_a_field_the_first_chunk_lacked_goes_to_the_end_of_the_response() -> None:
    events, _ = decode(
        [chunk({"content": "hi"}), chunk(finish="stop", moderation={"flagged": False}), "[DONE]"]
    )
    assert accumulate(events).extra == {"moderation": {"flagged": False}}


def test_per_chunk_logprobs_are_noted_once() -> None:
    with_logprobs = chunk({"content": "a"})
    with_logprobs["choices"][0]["logprobs"] = {"content": []}
    events, decoder = decode([chunk({"content": "h"}), with_logprobs, with_logprobs, chunk(finish="stop")])
    assert [(n.path, n.kind) for n in decoder.notes] == [("$[1].choices[0].logprobs", "dropped")]
    assert accumulate(events).parts[0].text == "haa"  # type: ignore[union-attr]


# ---------------------------------------------------------------- the hot path


def started(*chunks: Any) -> StreamDecoder:
    decoder = StreamDecoder()
    for c in (chunk({"role": "assistant", "content": "a"}), *chunks):
        decoder.feed(c)
    return decoder


def test_a_plain_text_chunk_mid_stream_takes_the_hot_path() -> None:
    decoder = started()
    assert decoder.hot(chunk({"content": "b"})) == (TextDelta, 0, "b")


def test_a_plain_argument_chunk_mid_stream_takes_the_hot_path() -> None:
    decoder = started(chunk(fragment("", index=0, id="x", type="function", name="f")))
    assert decoder.hot(chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{"}}]})) == (
        ToolCallDelta,
        1,
        "{",
    )


def only_choice(**fields: Any) -> dict[str, Any]:
    """A text chunk whose choice has exactly ``fields`` (the hot path counts a choice's keys)."""
    out = chunk({"content": "b"})
    out["choices"] = [fields]
    return out


@pytest.mark.parametrize(
    "event",
    [
        only_choice(index=0, delta={"content": "b"}),
        only_choice(index=0, delta={"content": "b"}, logprobs=None),
        only_choice(index=0, delta={"content": "b"}, finish_reason=None, logprobs=None),
    ],
)
def test_a_text_chunk_with_or_without_the_optional_choice_fields_takes_the_hot_path(event: Any) -> None:
    assert started().hot(event) == (TextDelta, 0, "b")


def swapped(field: str, **other: Any) -> dict[str, Any]:
    """A text chunk of five fields, ``field`` of the plain chunk's replaced by ``other`` (the hot
    path takes a chunk of exactly id, object, created, model and choices without a key-set check)."""
    out = {key: value for key, value in chunk({"content": "b"}).items() if key != field}
    return {**out, **other}


def with_choice(**fields: Any) -> dict[str, Any]:
    out = chunk({"content": "b"})
    out["choices"][0].update(fields)
    return out


@pytest.mark.parametrize(
    "event",
    [
        chunk({"content": ""}),  # nothing to send
        chunk({"refusal": "no"}),  # another flowing kind
        chunk({"content": "b", "refusal": "c"}),
        chunk({"content": 5}),
        chunk({"content": "b"}, finish="stop"),
        chunk({"content": "b"}, usage={"prompt_tokens": 1}),
        chunk({"content": "b"}, error={"message": "x"}),
        chunk({"content": "b"}, unknown_top=1),
        swapped("model", usage={"prompt_tokens": 1}),
        swapped("id", error={"message": "x"}),
        swapped("object", unknown_top=1),
        swapped("created", unknown_top=1),
        with_choice(index=1),
        with_choice(index="0"),
        with_choice(logprobs={"content": []}),
        with_choice(other=1),
        only_choice(index=0, delta={"content": "b"}, other=None),  # as many keys as with finish_reason
        only_choice(index=0, other={"content": "b"}, finish_reason=None),  # no delta, as many keys
        with_choice(delta="b"),
        {**chunk({"content": "b"}), "choices": [chunk()["choices"][0]] * 2},
        {**chunk(), "choices": [5]},
        {**chunk(), "choices": "x"},
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{"}}]}),  # no such call
        "[DONE]",
        5,
    ],
)
def test_anything_else_takes_the_general_path(event: Any) -> None:
    assert started().hot(event) is None


@pytest.mark.parametrize(
    "calls",
    [
        [{"index": 0, "function": {"arguments": "{"}}, {"index": 0, "function": {"arguments": "}"}}],
        [{"index": 0, "function": {"arguments": "{"}, "id": "x"}],
        [{"index": "0", "function": {"arguments": "{"}}],
        [{"index": 0, "function": {"arguments": "{", "name": "f"}}],
        [{"index": 0, "function": {"arguments": 5}}],
        [{"index": 0, "function": "{"}],
        [{"index": 0, "custom": {"input": "{"}}],
        [5],
    ],
)
def test_unusual_argument_chunks_take_the_general_path(calls: list[Any]) -> None:
    decoder = started(chunk(fragment("", index=0, id="x", type="function", name="f")))
    assert decoder.hot(chunk({"tool_calls": calls})) is None


def test_a_custom_call_input_takes_the_general_path() -> None:
    decoder = started(
        chunk({"tool_calls": [{"index": 0, "id": "x", "type": "custom", "custom": {"name": "f"}}]})
    )
    assert decoder.hot(chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{"}}]})) is None


def test_the_hot_path_is_closed_before_the_start_and_after_the_finish() -> None:
    assert StreamDecoder().hot(chunk({"content": "b"})) is None
    finished = started(chunk(finish="stop"))
    assert finished.hot(chunk({"content": "b"})) is None


def test_hot_and_general_paths_give_the_same_stream() -> None:
    chunks = [
        chunk({"role": "assistant", "content": "a"}),
        chunk({"content": "b"}),
        chunk(fragment("", index=0, id="x", type="function", name="f")),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": ""}}]}),
        chunk(finish="tool_calls"),
        "[DONE]",
    ]
    hot, general = StreamDecoder(), StreamDecoder()
    via_hot = [e for c in chunks for e in hot.feed(c)] + hot.close()
    via_general = [e for c in chunks for e in general._feed(c)] + general.close()
    assert via_hot == via_general
    response = accumulate(via_hot)
    assert [getattr(p, "text", None) or getattr(p, "arguments", None) for p in response.parts] == ["ab", "{}"]


def test_each_kind_of_note_is_given_once_whatever_the_field_names() -> None:
    chunks = [
        chunk({**fragment("{", index=0, type="function", name="f"), "": 1}),
        chunk({**fragment("}", index=0, id="late", name="other"), "": 2}),
        chunk(finish="tool_calls"),
    ]
    _, decoder = decode(chunks)
    assert sorted(n.message for n in decoder.notes) == [
        "call id 'late' came after the call started",
        "delta field '' is not carried",
        "later name 'other' of call 'f' ignored",
    ]
