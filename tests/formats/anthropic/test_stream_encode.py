"""Anthropic stream encoder: every corpus response of every format, the SDK oracle, and faults."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from tests.corpus import Sample, params, require_corpus
from tests.formats.anthropic._streams import (
    blocks_of,
    ir_tool_calls,
    messages,
    sdk_message,
    synthesize,
)
from toolwire.formats._stream import iter_events
from toolwire.formats.anthropic import StreamDecoder, StreamEncoder, check_stream, encode_response
from toolwire.formats.anthropic._util import parse_object
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, Response, Usage
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ResponseEnd,
    ResponseStart,
    StreamErrorEvent,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)

_FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")


def _decode_response(sample: Sample) -> Response:
    module = importlib.import_module(f"toolwire.formats.{sample.format.replace('-', '_')}")
    resp: Response = module.decode_response(sample.payload, Notes())
    return resp


def _encode(events: list[StreamEvent], notes: Notes | None = None) -> list[Any]:
    enc = StreamEncoder(notes)
    return [w for e in events for w in enc.feed(e)] + enc.close()


def _responses() -> list[Any]:
    return [p for fmt in _FORMATS for p in params(fmt, "response")]


@pytest.mark.parametrize("sample", _responses())
def test_any_response_streams_like_its_non_stream_encoding(sample: Sample) -> None:
    """Chopped into deltas, whole parts (Gemini-style), and parallel calls interleaved."""
    require_corpus()
    resp = _decode_response(sample)
    variants = [{"pieces": 3}, {"whole": True}]
    if len(resp.tool_calls) >= 2:
        variants.append({"pieces": 2, "interleave": True})
    for variant in variants:
        _check_streamed(resp, synthesize(resp, **variant))


def _check_streamed(resp: Response, events: list[StreamEvent]) -> None:
    expected_calls, expected_text = blocks_of(encode_response(resp, Notes())["content"])
    wire = _encode(events)
    back = accumulate(iter_events(StreamDecoder(), wire))
    broken = [
        c for c in resp.tool_calls if c.kind == "function" and isinstance(parse_object(c.arguments), str)
    ]
    if broken:  # cut off (e.g. finish_reason "length"): sent as received, never as {}
        cut = resp.stop_reason == "max_tokens" and len(broken) == 1
        assert [p.code for p in check_stream(wire)] == [] if cut else ["invalid_tool_input"] * len(broken)
        names = {b.name for b in broken}
        assert [c.arguments for c in back.tool_calls if c.name in names] == [b.arguments for b in broken]
        return
    assert check_stream(wire) == []
    # the official SDK accumulates the same tool_use blocks and text
    message = sdk_message(wire)
    sdk_calls, sdk_text = blocks_of([b.to_dict() for b in message.content])
    assert (sdk_calls, sdk_text) == (expected_calls, expected_text)
    # and so does our own decoder
    assert back.error is None
    assert ir_tool_calls(back) == expected_calls
    assert back.text == expected_text


@pytest.mark.parametrize("sample", params("anthropic", "stream"))
def test_recording_survives_decode_then_encode(sample: Sample) -> None:
    require_corpus()
    for events in messages(sample.payload):
        decoded = iter_events(StreamDecoder(), events)
        if any(isinstance(e, StreamErrorEvent) for e in decoded):
            continue  # the hand-written spliced stream
        notes = Notes()
        wire = _encode(decoded, notes)
        assert check_stream(wire) == []
        again, first = accumulate(iter_events(StreamDecoder(), wire)), accumulate(decoded)
        assert again.parts == first.parts
        opaque = [[block for _, block in r.extra.get("opaque_blocks", ())] for r in (again, first)]
        assert opaque[0] == opaque[1]
        assert (again.stop_reason, again.raw_stop_reason, again.usage) == (
            first.stop_reason,
            first.raw_stop_reason,
            first.usage,
        )
        assert [n for n in notes if n.kind != "approximated"] == []


# ---------------------------------------------------------------- streaming behaviour


def _call(index: int, call_id: str, name: str) -> PartStart:
    return PartStart(index=index, part=ToolCall(id=call_id, name=name))


def test_interleaved_calls_buffer_only_the_second_one() -> None:
    enc = StreamEncoder()
    steps = [
        ResponseStart(id="r", model="m", origin="openai-chat"),
        _call(0, "a", "f"),
        _call(1, "b", "g"),
        ToolCallDelta(index=0, arguments='{"x":'),
        ToolCallDelta(index=1, arguments='{"y": 2}'),
        ToolCallDelta(index=0, arguments=" 1}"),
        PartEnd(index=1),
        PartEnd(index=0),
        ResponseEnd(stop_reason="tool_calls"),
    ]
    out = [enc.feed(e) for e in steps]
    kinds = [[w["type"] for w in batch] for batch in out]
    assert kinds[1] == ["content_block_start"]  # the first call streams at once
    assert kinds[2] == kinds[4] == kinds[6] == []  # the second waits
    assert kinds[3] == kinds[5] == ["content_block_delta"]
    assert kinds[7] == [
        "content_block_stop",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
    ]
    wire = [w for batch in out for w in batch]
    assert check_stream(wire) == []
    assert wire[-2]["delta"]["stop_reason"] == "tool_use"
    message = sdk_message(wire)
    assert [(b.id, b.name, b.input) for b in message.content] == [("a", "f", {"x": 1}), ("b", "g", {"y": 2})]


def test_foreign_reasoning_is_dropped_and_anthropic_signature_kept() -> None:
    notes = Notes()
    foreign = ReasoningPart(summary=("thought",), encrypted="gAAAA", id="rs_1", origin="openai-responses")
    ours = ReasoningPart(text="hmm", signature="EqQBCkgIBRABGAIiQL+sig==", origin="anthropic")
    resp = Response(parts=(foreign, ours, TextPart(text="hi")), id="r", model="m", stop_reason="end_turn")
    wire = _encode(synthesize(resp), notes)
    assert check_stream(wire) == []
    starts = [w["content_block"]["type"] for w in wire if w["type"] == "content_block_start"]
    assert starts == ["thinking", "text"]
    signatures = [
        w["delta"]["signature"] for w in wire if w.get("delta", {}).get("type") == "signature_delta"
    ]
    assert signatures == ["EqQBCkgIBRABGAIiQL+sig=="]
    assert [(n.path, n.kind) for n in notes][:1] == [("$.parts[0]", "dropped")]
    thinking = sdk_message(wire).content[0]
    assert (thinking.thinking, thinking.signature) == ("hmm", "EqQBCkgIBRABGAIiQL+sig==")


def test_empty_text_from_another_format_opens_no_block() -> None:
    events: list[StreamEvent] = [
        ResponseStart(id="r", model="m", origin="openai-chat"),
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text=""),
        PartEnd(index=0),
        _call(1, "a", "f"),
        PartEnd(index=1),
        ResponseEnd(stop_reason="tool_calls"),
    ]
    wire = _encode(events)
    assert check_stream(wire) == []
    assert [w["index"] for w in wire if w["type"] == "content_block_start"] == [0]
    assert sdk_message(wire).content[0].input == {}


def test_error_event_ends_the_stream() -> None:
    events: list[StreamEvent] = [
        ResponseStart(id="r", model="m", origin="gemini"),
        _call(0, "a", "f"),
        ToolCallDelta(index=0, arguments='{"x"'),
        StreamErrorEvent(error=ErrorInfo(message="quota", status=429)),
    ]
    wire = _encode(events)
    assert wire[-1] == {"type": "error", "error": {"type": "rate_limit_error", "message": "quota"}}
    assert check_stream(wire) == []
    back = accumulate(iter_events(StreamDecoder(), wire))
    assert back.error is not None and back.error.status == 429


def test_missing_end_sends_an_error_event() -> None:
    notes = Notes()
    wire = _encode([ResponseStart(id="r", model="m", origin="gemini"), _call(0, "a", "f")], notes)
    assert wire[-1]["type"] == "error" and check_stream(wire) == []
    assert any(n.kind == "synthesized" for n in notes)


def test_truncated_arguments_are_noted_not_replaced() -> None:
    notes = Notes()
    events: list[StreamEvent] = [
        ResponseStart(id="r", model="m", origin="openai-chat"),
        _call(0, "a", "f"),
        ToolCallDelta(index=0, arguments='{"city": "Pa'),
        PartEnd(index=0),
        ResponseEnd(stop_reason="max_tokens"),
    ]
    wire = _encode(events, notes)
    chunks = [w["delta"]["partial_json"] for w in wire if w["type"] == "content_block_delta"]
    assert chunks == ['{"city": "Pa']
    assert check_stream(wire) == []  # cut by max_tokens, as Anthropic itself sends it
    assert [(n.path, n.target) for n in notes] == [("$.parts[0].arguments", None), ("$", "$.usage")]


def test_custom_tool_input_is_wrapped() -> None:
    notes = Notes()
    call = ToolCall(id="c", name="apply_patch", arguments="*** Begin Patch", kind="custom")
    resp = Response(parts=(call,), id="r", model="m", stop_reason="end_turn", usage=Usage(input_tokens=3))
    wire = _encode(synthesize(resp), notes)
    assert check_stream(wire) == []
    assert sdk_message(wire).content[0].input == {"input": "*** Begin Patch"}
    assert wire[-2]["delta"]["stop_reason"] == "tool_use"
    assert any("custom tool input" in n.message for n in notes)


def _stream_params() -> list[Any]:
    return [p for fmt in _FORMATS if fmt != "anthropic" for p in params(fmt, "stream")]


@pytest.mark.parametrize("sample", _stream_params())
def test_other_formats_recorded_streams_translate(sample: Sample) -> None:
    """Real streams of the other formats, through their decoder, then ours: what StreamTranslator does."""
    require_corpus()
    module = importlib.import_module(f"toolwire.formats.{sample.format.replace('-', '_')}")
    source = iter_events(module.StreamDecoder(Notes()), [item.data for item in sample.payload])
    wire = _encode(source)
    assert check_stream(wire) == [] or _cut(wire)
    resp = accumulate(source)
    back = accumulate(iter_events(StreamDecoder(), wire))
    if resp.error is not None:
        assert back.error is not None and wire[-1]["type"] == "error"
        return
    expected_calls, expected_text = blocks_of(encode_response(resp, Notes())["content"])
    if any(isinstance(parse_object(c.arguments), str) for c in resp.tool_calls if c.kind == "function"):
        return  # a call cut short: covered by test_any_response_streams_like_its_non_stream_encoding
    deltas_only = accumulate([PartEnd(index=e.index) if isinstance(e, PartEnd) else e for e in source])
    if (deltas_only.text, ir_tool_calls(deltas_only)) != (resp.text, ir_tool_calls(resp)):
        return  # a trimmed fixture whose deltas disagree with its final items: no single truth
    sdk_calls, sdk_text = blocks_of([b.to_dict() for b in sdk_message(wire).content])
    assert (sdk_calls, sdk_text) == (expected_calls, expected_text)
    assert (ir_tool_calls(back), back.text) == (expected_calls, expected_text)


def _cut(wire: list[Any]) -> bool:
    """Whether the only problem is a tool input cut short by the end of the response."""
    return [p.code for p in check_stream(wire)] == ["invalid_tool_input"]
