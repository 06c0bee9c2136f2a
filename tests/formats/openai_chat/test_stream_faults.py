"""Chat stream decoder faults and provider quirks, and the rules :func:`check_stream` enforces."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.corpus import samples
from tests.formats.openai_chat._stream_helpers import decode_all, raw_expectations
from toolwire.formats._stream import DONE, WireEvent
from toolwire.formats.openai_chat import StreamDecoder, check_stream
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import ResponseEnd, StreamErrorEvent

PARALLEL = "magentic/openai-chat/test_decorator_return_parallel_function_call.yaml#0/stream"


def _chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **top: Any) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta or {}, "finish_reason": finish}
    return {
        "id": "c1",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [choice],
        **top,
    }


def _call(index: int, args: str | None = None, **fields: Any) -> dict[str, Any]:
    function = {k: v for k, v in (("name", fields.pop("name", None)), ("arguments", args)) if v is not None}
    return _chunk({"tool_calls": [{"index": index, **fields, "function": function}]})


def _recording(sample_id: str) -> list[WireEvent]:
    found = [s for s in samples("openai-chat", "stream") if s.id == sample_id]
    if not found:
        pytest.skip(f"recording {sample_id} not in the corpus")
    return [item.data for item in found[0].payload]


def _error(events: list[Any]) -> StreamErrorEvent:
    errors = [e for e in events if isinstance(e, StreamErrorEvent)]
    assert len(errors) == 1 and events[-1] is errors[0]
    return errors[0]


# ---------------------------------------------------------------- faults


def test_cut_before_finish_is_incomplete_and_keeps_truncated_arguments() -> None:
    wire = _recording(PARALLEL)
    cut = wire[:9]  # inside the second call's arguments
    events = decode_all(cut)
    assert _error(events).error.code == "incomplete_stream"
    resp = accumulate(events)
    assert resp.error is not None and resp.stop_reason == "error"
    expected = raw_expectations(cut)
    assert [(c.id, c.name, c.arguments) for c in resp.tool_calls] == expected.calls
    truncated = resp.tool_calls[-1].arguments
    assert truncated not in ("", "{}")
    with pytest.raises(ValueError):
        json.loads(truncated)
    assert [p.code for p in check_stream(cut)] == ["missing_terminal"]


def test_finish_without_done_is_complete() -> None:
    wire = [_chunk({"role": "assistant", "content": "hi"}), _chunk(finish="stop")]
    events = decode_all(wire)
    assert isinstance(events[-1], ResponseEnd) and events[-1].stop_reason == "end_turn"
    assert check_stream(wire) == []


def test_done_without_finish_is_complete_without_stop_reason() -> None:
    events = decode_all([_chunk({"content": "hi"}), DONE])
    assert isinstance(events[-1], ResponseEnd)
    assert events[-1].stop_reason is None and events[-1].raw_stop_reason is None


@pytest.mark.parametrize(
    ("bad", "path"),
    [
        ("not json", "$[1]"),
        ({"id": "c1", "choices": {"index": 0}}, "$[1].choices"),
        (_chunk({"content": 5}), "$[1].choices[0].delta.content"),
        (_chunk({"tool_calls": [{"index": "0"}]}), "$[1].choices[0].delta.tool_calls[0].index"),
        (_chunk({"tool_calls": [{"index": 0, "type": "web"}]}), "$[1].choices[0].delta.tool_calls[0].type"),
        ({"id": "c1", "model": "m"}, "$[1].choices"),
        (_chunk(usage=[1]), "$[1].usage"),
    ],
)
def test_malformed_event_is_an_error_with_its_path(bad: Any, path: str) -> None:
    decoder = StreamDecoder(Notes("drop"))
    decoder.feed(_chunk({"role": "assistant", "content": "a"}))
    events = decoder.feed(bad)
    error = _error(events).error
    assert error.code == "malformed_event"
    assert path in error.message
    assert decoder.feed(_chunk({"content": "more"})) == []
    assert decoder.close() == []


@pytest.mark.parametrize(
    ("body", "fields"),
    [
        (
            {"error": {"message": "boom", "type": "server_error", "code": "overloaded", "param": None}},
            ("boom", "server_error", "overloaded"),
        ),
        ({"error": {"message": "upstream failed", "code": 502}}, ("upstream failed", None, "502")),
    ],
)
def test_upstream_error_event(body: dict[str, Any], fields: tuple[Any, ...]) -> None:
    events = decode_all([_chunk({"content": "partial"}), body])
    error = _error(events).error
    assert (error.message, error.type, error.code) == fields
    assert accumulate(events).text == "partial"
    assert check_stream([_chunk({"content": "partial"}), body]) == []


def test_call_that_never_got_a_name_is_malformed() -> None:
    events = decode_all([_call(0, '{"a": 1}', id="call_1"), _chunk(finish="tool_calls"), DONE])
    assert _error(events).error.code == "malformed_event"


def test_empty_input_is_incomplete() -> None:
    assert _error(decode_all([])).error.code == "incomplete_stream"


# ---------------------------------------------------------------- provider quirks


def _calls(wire: list[WireEvent]) -> list[tuple[str | None, str, str]]:
    events = decode_all(wire)
    assert not [e for e in events if isinstance(e, StreamErrorEvent)]
    return [(c.id, c.name, c.arguments) for c in accumulate(events).tool_calls]


def test_interleaved_parallel_calls() -> None:
    wire = [
        _call(0, "", id="a", type="function", name="f"),
        _call(1, '{"y"', id="b", type="function", name="g"),
        _call(0, '{"x": 1}'),
        _call(1, ": 2}"),
        _chunk(finish="tool_calls"),
        DONE,
    ]
    assert _calls(wire) == [("a", "f", '{"x": 1}'), ("b", "g", '{"y": 2}')]
    assert check_stream(wire) == []


def test_same_index_with_a_new_id_is_a_new_call() -> None:
    wire = [
        _call(0, "{}", id="a", type="function", name="f"),
        _call(0, '{"q": 1}', id="b", type="function", name="g"),
        _chunk(finish="tool_calls"),
        DONE,
    ]
    assert _calls(wire) == [("a", "f", "{}"), ("b", "g", '{"q": 1}')]
    assert [p.code for p in check_stream(wire)] == ["tool_call_id_changed", "tool_call_name_changed"]


def test_name_after_arguments_and_fragments_without_index() -> None:
    no_index = {"tool_calls": [{"function": {"arguments": "1}"}}]}
    wire = [
        _call(0, '{"a": ', id="a", type="function"),
        _call(0, None, name="f"),
        _chunk(no_index),
        _chunk(finish="tool_calls"),
        DONE,
    ]
    assert _calls(wire) == [("a", "f", '{"a": 1}')]
    assert {p.code for p in check_stream(wire)} == {"tool_call_first_fragment", "tool_call_index"}


def test_legacy_function_call_stream() -> None:
    wire = [
        _chunk({"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": ""}}),
        _chunk({"function_call": {"arguments": '{"a":'}}),
        _chunk({"function_call": {"arguments": "1}"}}),
        _chunk(finish="function_call"),
        DONE,
    ]
    events = decode_all(wire)
    resp = accumulate(events)
    assert resp.tool_calls == [ToolCall(name="f", arguments='{"a":1}', extra={"~legacy": True})]
    assert resp.stop_reason == "tool_calls"


def test_reasoning_content_then_text_are_two_parts() -> None:
    wire = [
        _chunk({"role": "assistant", "reasoning_content": "let me "}),
        _chunk({"reasoning_content": "think"}),
        _chunk({"content": "42"}),
        _chunk(finish="stop"),
        DONE,
    ]
    resp = accumulate(decode_all(wire))
    assert resp.parts[0] == ReasoningPart(text="let me think", extra={"~field": "reasoning_content"})
    assert resp.text == "42"


def test_other_choices_are_noted_not_decoded() -> None:
    notes = Notes("drop")
    second = {"index": 1, "delta": {"content": "other"}, "finish_reason": None}
    wire = [
        {**_chunk({"content": "mine"}), "choices": [_chunk({"content": "mine"})["choices"][0], second]},
        DONE,
    ]
    events = decode_all(wire, notes)
    assert accumulate(events).text == "mine"
    assert [n.path for n in notes] == ["$[0].choices[1]"]


def test_azure_filter_preamble_goes_to_start_extra() -> None:
    preamble = {
        "choices": [],
        "created": 0,
        "id": "",
        "model": "",
        "object": "",
        "prompt_filter_results": [1],
    }
    resp = accumulate(decode_all([preamble, _chunk({"content": "x"}, finish="stop")]))
    assert resp.id == "c1" and resp.extra["prompt_filter_results"] == [1]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=6),
    st.lists(st.text(min_size=1, max_size=6), min_size=1, max_size=6),
    st.randoms(use_true_random=False),
)
def test_any_interleaving_of_two_calls_decodes_to_both(a: list[str], b: list[str], rnd: Any) -> None:
    order = [0] * len(a) + [1] * len(b)
    rnd.shuffle(order)
    pieces = {0: iter(a), 1: iter(b)}
    wire: list[WireEvent] = [
        _call(0, "", id="ca", type="function", name="fa"),
        _call(1, "", id="cb", type="function", name="fb"),
    ]
    wire += [_call(i, next(pieces[i])) for i in order]
    wire += [_chunk(finish="tool_calls"), DONE]
    assert _calls(wire) == [("ca", "fa", "".join(a)), ("cb", "fb", "".join(b))]
    assert check_stream(wire) == []


# ---------------------------------------------------------------- check_stream rules


@pytest.mark.parametrize(
    ("wire", "codes"),
    [
        ([_chunk({"content": "a"})], ["missing_terminal"]),
        ([DONE], ["empty_stream"]),
        ([_chunk({"content": "a"}), DONE, _chunk({"content": "b"})], ["event_after_done"]),
        ([{"error": {"message": "x"}}, DONE], ["event_after_error"]),
        ([_chunk(finish="stop"), _chunk(finish="stop"), DONE], ["duplicate_finish"]),
        ([_chunk(finish="stop"), _chunk({"content": "late"}), DONE], ["delta_after_finish"]),
        ([_chunk({"role": "user"}), DONE], ["wrong_role"]),
        ([_chunk(object="chat.completion"), DONE], ["wrong_object"]),
        ([_chunk(), {**_chunk(), "id": "c2"}, DONE], ["id_changed"]),
        ([_call(1, "{}", id="a", type="function", name="f"), DONE], ["tool_call_index_order"]),
        ([_call(0, "{}", name="f"), DONE], ["tool_call_first_fragment", "tool_call_first_fragment"]),
        ([_chunk({"content": "a"}), 42, DONE], ["malformed_event"]),
    ],
)
def test_check_stream_flags(wire: list[WireEvent], codes: list[str]) -> None:
    assert [p.code for p in check_stream(wire)] == codes
