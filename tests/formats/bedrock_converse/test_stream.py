"""ConverseStream codec: real binary recordings, SDK chunk recordings, botocore's typed parser as oracle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests import data
from tests.framing.recordings import Recording, eventstream_recordings
from toolwire.formats._stream import encode_wire_event, iter_events
from toolwire.formats.bedrock_converse.stream import StreamDecoder, StreamEncoder, check_stream, encode_frame
from toolwire.ir.accumulate import accumulate
from toolwire.ir.base import FORMATS
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
)
from toolwire.streaming import StreamTranslator, WireReader, stream_decoder, translate_stream
from toolwire.streaming import check_stream as check_any

boto3 = pytest.importorskip("boto3")
from botocore import eventstream as _es  # noqa: E402
from botocore import parsers as _parsers  # noqa: E402
from botocore.exceptions import EventStreamError  # noqa: E402

FMT = "bedrock-converse"
RECORDINGS = {r.id.split("/")[-1]: r for r in eventstream_recordings()}


class _Body:
    def __init__(self, raw: bytes) -> None:
        self.raw = raw

    def stream(self) -> Any:
        for i in range(0, len(self.raw), 5):  # botocore's own buffer takes any split too
            yield self.raw[i : i + 5]

    def close(self) -> None:
        pass


def botocore_events(raw: bytes) -> list[dict[str, Any]]:
    """What boto3's ``converse_stream`` would yield for ``raw`` (its typed ConverseStream parser)."""
    client = boto3.client(
        "bedrock-runtime", region_name="us-east-1", aws_access_key_id="k", aws_secret_access_key="s"
    )
    shape = client.meta.service_model.operation_model("ConverseStream").output_shape.members["stream"]
    return list(_es.EventStream(_Body(raw), shape, _parsers.EventStreamJSONParser(), "ConverseStream"))


def read(raw: bytes, step: int = 3) -> list[Any]:
    reader = WireReader()
    return [e for i in range(0, len(raw), step) for e in reader.feed(raw[i : i + step])] + reader.close()


def decode(wire: list[Any], notes: Notes | None = None) -> Response:
    return accumulate(iter_events(StreamDecoder(notes), wire))


def recording(name: str) -> Recording:
    if name not in RECORDINGS:
        pytest.skip("fixture corpus not present")
    return RECORDINGS[name]


def chunks(name: str) -> list[Any]:
    path = Path(data.fixtures_dir()) / "vercel-ai" / FMT / name
    if not path.exists():
        pytest.skip("fixture corpus not present")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# ---------------------------------------------------------------- real binary recordings


def test_text_stream() -> None:
    wire = read(recording("test_bedrock_model_stream.yaml#0").raw)
    assert wire[0] == {"messageStart": {"p": "abcdefghijklmnopqr", "role": "assistant"}}  # padding kept
    response = decode(wire)
    assert response.origin == FMT
    (part,) = response.parts
    assert isinstance(part, TextPart) and part.text.startswith("The capital of France is Paris.")
    assert response.stop_reason == "end_turn" and response.raw_stop_reason == "end_turn"
    assert response.usage is not None and response.usage.input_tokens == 13
    assert set(response.extra) == {"~metrics"}


def test_tool_call_stream() -> None:
    response = decode(read(recording("test_bedrock_model_iter_stream.yaml#0").raw))
    text, call = response.parts
    assert isinstance(text, TextPart) and text.text.startswith("<thinking> To find")
    assert call == ToolCall(
        name="get_temperature", arguments='{"city":"Paris"}', id="tooluse_lAG_zP8QRHmSYOwZzzaCqA"
    )
    assert response.stop_reason == "tool_calls"
    assert response.usage == Usage(input_tokens=471, output_tokens=91, total_tokens=562)


def test_signed_reasoning_stream() -> None:
    wire = read(recording("test_bedrock_model_thinking_part_stream.yaml#0").raw)
    signature = next(
        e["contentBlockDelta"]["delta"]["reasoningContent"]["signature"]
        for e in wire
        if "signature" in e.get("contentBlockDelta", {}).get("delta", {}).get("reasoningContent", {})
    )
    reasoning, text = decode(wire).parts
    assert isinstance(reasoning, ReasoningPart) and reasoning.origin == FMT
    assert reasoning.signature == signature and reasoning.text
    assert isinstance(text, TextPart) and text.text


def test_redacted_reasoning_stream() -> None:
    wire = read(recording("test_bedrock_model_thinking_part_redacted_stream.yaml#0").raw)
    blobs = [
        e["contentBlockDelta"]["delta"]["reasoningContent"]["redactedContent"]
        for e in wire
        if "contentBlockDelta" in e and "reasoningContent" in e["contentBlockDelta"]["delta"]
    ]
    first, second, text = decode(wire).parts
    assert [first, second] == [ReasoningPart(redacted=blob, origin=FMT) for blob in blobs]
    assert isinstance(text, TextPart) and text.text.startswith("I notice")


def test_server_tool_call_is_builtin_and_its_result_block_skipped() -> None:
    notes = Notes()
    response = decode(read(recording("test_bedrock_model_code_execution_tool_stream.yaml#0").raw), notes)
    builtin, final = response.parts
    assert (
        isinstance(builtin, ToolCall)
        and builtin.kind == "builtin"
        and builtin.name == "nova_code_interpreter"
    )
    assert builtin.extra == {"type": "server_tool_use"}
    assert (
        isinstance(final, ToolCall) and final.kind == "function" and final.arguments == '{"result":7006652.0}'
    )
    assert any("toolResult" in n.message for n in notes.items)


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_same_format_round_trip_is_exact(name: str) -> None:
    """Decode then encode gives the recorded events back (padding aside), as boto3 parses them."""
    raw = RECORDINGS[name].raw
    wire = read(raw, 11)
    assert check_stream(wire) == []
    encoder = StreamEncoder()
    out = [w for event in iter_events(StreamDecoder(), wire) for w in encoder.feed(event)] + encoder.close()
    assert check_stream(out) == []
    if "code_execution" in name:  # the server tool result block has no IR part
        assert len(out) == len(wire) - 3
        return
    assert out == [{name: _unpadded(body)} for event in wire for name, body in event.items()]
    assert b"".join(encode_wire_event(FMT, e) for e in wire) == raw  # the wire events re-frame exactly
    framed = b"".join(encode_wire_event(FMT, e) for e in out)
    assert botocore_events(framed) == botocore_events(raw)


def _unpadded(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if k != "p"}


@pytest.mark.parametrize("name", sorted(RECORDINGS))
@pytest.mark.parametrize("dst", FORMATS)
def test_binary_recordings_translate_to_every_format(name: str, dst: str) -> None:
    raw = RECORDINGS[name].raw
    out = b"".join(translate_stream([raw[:40], raw[40:]], source=FMT, target=dst))
    wire = read(out, 64)
    assert check_any(dst, wire) == []  # type: ignore[arg-type]
    back = accumulate(iter_events(stream_decoder(dst), wire))  # type: ignore[arg-type]
    source = decode(read(raw))
    assert back.error is None
    texts = [p.text for p in source.parts if isinstance(p, TextPart)]
    assert "".join(p.text for p in back.parts if isinstance(p, TextPart)) == "".join(texts)
    calls = [
        (p.name, json.loads(p.arguments))
        for p in source.parts
        if isinstance(p, ToolCall) and p.kind != "builtin"
    ]
    got = [
        (p.name, json.loads(p.arguments))
        for p in back.parts
        if isinstance(p, ToolCall) and p.kind != "builtin"
    ]
    assert got == calls


# ---------------------------------------------------------------- SDK chunk recordings (decoded JSON)


def test_tool_without_arguments_is_an_empty_object() -> None:
    response = decode(chunks("amazon-bedrock-tool-no-args.chunks.txt"))
    text, call = response.parts
    assert isinstance(text, TextPart) and text.text == "I'll update the issue list for you."
    assert call == ToolCall(name="updateIssueList", arguments="{}", id="tool-use-id")
    assert response.usage is not None and response.usage.total_tokens == 125


def test_blocks_without_stop_are_closed_by_message_stop() -> None:
    notes = Notes()
    response = decode(chunks("amazon-bedrock-json-tool.3.chunks.txt"), notes)
    assert [p.text for p in response.parts if isinstance(p, TextPart)] == [
        "First text block.",
        "Second text block.",
        "Third block.",
    ]
    assert response.stop_reason == "tool_calls" and response.usage is None
    assert sum("closed by messageStop" in n.message for n in notes.items) == 3


def test_metadata_before_message_stop() -> None:
    events = iter_events(StreamDecoder(), chunks("amazon-bedrock-tool-call.1.chunks.txt"))
    end = events[-1]
    assert isinstance(end, ResponseEnd) and end.raw_stop_reason == "tool_use"
    assert (
        end.usage is not None
        and end.usage.input_tokens == 125
        and end.extra == {"~metrics": {"latencyMs": 234}}
    )


def test_reasoning_chunks() -> None:
    response = decode(chunks("amazon-bedrock-reasoning.chunks.txt"))
    reasoning, text = response.parts
    assert isinstance(reasoning, ReasoningPart) and reasoning.text.endswith("So there are 3 r's.")
    assert reasoning.signature is not None and reasoning.signature.startswith("Ep0CCkgI")
    assert isinstance(text, TextPart) and text.text.startswith("There are **3** r's")
    assert response.extra["additionalModelResponseFields"] == {"delta": {"stop_sequence": None}}


# ---------------------------------------------------------------- errors and malformed streams


@pytest.mark.parametrize(
    ("name", "status"),
    [("throttlingException", 429), ("validationException", 400), ("modelStreamErrorException", 424)],
)
def test_exception_events_are_typed_errors(name: str, status: int) -> None:
    raw = encode_frame({"messageStart": {"role": "assistant"}}) + encode_frame({name: {"message": "boom"}})
    wire = read(raw)
    assert wire[1] == {name: {"message": "boom"}}
    events = iter_events(StreamDecoder(), wire)
    assert events[-1] == StreamErrorEvent(
        error=ErrorInfo(message="boom", status=status, type=name[0].upper() + name[1:], origin=FMT)
    )
    with pytest.raises(EventStreamError, match=f"{name}.*boom"):
        botocore_events(raw)


def test_error_event_encodes_as_exception() -> None:
    encoder = StreamEncoder()
    encoder.feed(ResponseStart())
    assert encoder.feed(
        StreamErrorEvent(error=ErrorInfo(message="slow", status=429, type="rate_limit_error"))
    ) == [{"throttlingException": {"message": "slow"}}]
    other = StreamEncoder()
    assert other.feed(StreamErrorEvent(error=ErrorInfo(message="x", type="ValidationException"))) == [
        {"validationException": {"message": "x"}}
    ]
    assert StreamEncoder().feed(StreamErrorEvent(error=ErrorInfo(message="x"))) == [
        {"internalServerException": {"message": "x"}}
    ]


@pytest.mark.parametrize(
    ("wire", "path", "text"),
    [
        ([{"contentBlockStop": {"contentBlockIndex": 0}}], "$[0]", "never started"),
        (
            [{"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"toolUse": {"input": "{"}}}}],
            "$[0]",
            "no started",
        ),
        (
            [{"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": 5}}}],
            "$[0].contentBlockDelta.delta.text",
            "expected a string",
        ),
        ([{"messageStart": {}}, {"messageStart": {}}], "$[1]", "inside a message"),
        ([{"a": {}, "b": {}}], "$[0]", "exactly one member"),
        (
            [{"contentBlockDelta": {"contentBlockIndex": -1, "delta": {"text": ""}}}],
            "$[0].contentBlockDelta.contentBlockIndex",
            "block index",
        ),
    ],
)
def test_malformed_events(wire: list[Any], path: str, text: str) -> None:
    events = iter_events(StreamDecoder(), wire)
    error = events[-1]
    assert isinstance(error, StreamErrorEvent) and error.error.code == "malformed_event"
    assert error.error.param == path and text in error.error.message


def test_incomplete_stream_and_held_end() -> None:
    cut = iter_events(StreamDecoder(), [{"messageStart": {"role": "assistant"}}])
    assert isinstance(cut[-1], StreamErrorEvent) and cut[-1].error.code == "incomplete_stream"
    held = iter_events(StreamDecoder(), [{"messageStart": {}}, {"messageStop": {"stopReason": "max_tokens"}}])
    assert held[-1] == ResponseEnd(stop_reason="max_tokens", raw_stop_reason="max_tokens")


def test_corrupt_bytes_end_the_translation_with_an_exception_event() -> None:
    raw = bytearray(recording("test_bedrock_model_stream.yaml#0").raw)
    raw[300] ^= 1
    out = read(b"".join(translate_stream([bytes(raw)], source=FMT, target="openai-chat")))
    assert any(isinstance(e, dict) and e.get("error", {}).get("code") == "malformed_event" for e in out)


# ---------------------------------------------------------------- encoder from other formats


def test_encoder_from_another_format() -> None:
    notes = Notes()
    encoder = StreamEncoder(notes)
    events = [
        ResponseStart(origin="anthropic", id="m"),
        PartStart(index=0, part=ReasoningPart(origin="anthropic")),
        ReasoningDelta(index=0, text="hmm", signature=None),
        PartEnd(index=0),
        PartStart(index=1, part=TextPart(text="")),
        PartEnd(index=1),
        PartStart(index=2, part=ToolCall(name="f")),
        ToolCallDelta(index=2, arguments='{"a":'),
        ToolCallDelta(index=2, arguments="1}"),
        PartEnd(index=2),
        PartStart(index=3, part=ToolCall(name="g", id="c", kind="custom")),
        ToolCallDelta(index=3, arguments="free text"),
        PartEnd(index=3),
        PartStart(index=4, part=TextPart(text="")),
        TextDelta(index=4, text="hi"),
        ResponseEnd(stop_reason="tool_calls", usage=Usage(input_tokens=10, output_tokens=2)),
    ]
    out = [w for e in events for w in encoder.feed(e)] + encoder.close()
    assert out == [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": ""}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {
            "contentBlockStart": {
                "contentBlockIndex": 1,
                "start": {"toolUse": {"toolUseId": "tooluse_2", "name": "f"}},
            }
        },
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": '{"a":'}}}},
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"toolUse": {"input": "1}"}}}},
        {"contentBlockStop": {"contentBlockIndex": 1}},
        {
            "contentBlockStart": {
                "contentBlockIndex": 2,
                "start": {"toolUse": {"toolUseId": "c", "name": "g"}},
            }
        },
        {
            "contentBlockDelta": {
                "contentBlockIndex": 2,
                "delta": {"toolUse": {"input": '{"input":"free text"}'}},
            }
        },
        {"contentBlockStop": {"contentBlockIndex": 2}},
        {"contentBlockDelta": {"contentBlockIndex": 3, "delta": {"text": "hi"}}},
        {"contentBlockStop": {"contentBlockIndex": 3}},
        {"messageStop": {"stopReason": "tool_use"}},
        {
            "metadata": {
                "usage": {"inputTokens": 10, "outputTokens": 2, "totalTokens": 12},
                "metrics": {"latencyMs": 0},
            }
        },
    ]
    assert check_stream(out) == []
    kinds = {(n.path, n.kind) for n in notes.items}
    assert ("$.parts[0]", "dropped") in kinds and ("$.parts[2]", "synthesized") in kinds
    assert ("$.parts[4]", "synthesized") in kinds  # closed by the end
    framed = b"".join(encode_wire_event(FMT, e) for e in out)
    assert botocore_events(framed) == out


def test_encoder_close_without_end() -> None:
    encoder = StreamEncoder()
    encoder.feed(ResponseStart())
    assert encoder.close() == [{"internalServerException": {"message": "incomplete stream"}}]
    assert encoder.close() == []


def test_protocol_error_and_untyped_messages() -> None:
    from toolwire.errors import PayloadError
    from toolwire.formats.bedrock_converse.stream import wire_event
    from toolwire.framing import EventMessage, encode_message

    error = encode_message(
        {":message-type": "error", ":error-code": "InternalFailure", ":error-message": "oops"}
    )
    assert read(error) == [{"internalServerException": {"message": "InternalFailure: oops"}}]
    with pytest.raises(PayloadError) as info:
        wire_event(EventMessage({":message-type": "event"}, b"{}"), 4)
    assert info.value.path == "$[4]" and ":event-type" in info.value.message
    with pytest.raises(PayloadError, match="JSON object"):
        wire_event(EventMessage({":event-type": "metadata"}, b"[1]"))
    with pytest.raises(PayloadError, match="exactly one member"):
        encode_frame({"a": {}, "b": {}})


def test_cut_off_arguments_are_closed_and_noted() -> None:
    notes = Notes()
    encoder = StreamEncoder(notes)
    events = [
        ResponseStart(origin="anthropic"),
        PartStart(index=0, part=ToolCall(name="f", id="c")),
        ToolCallDelta(index=0, arguments='{"a": ["x", "y'),
        PartEnd(index=0),
    ]
    out = [w for e in events for w in encoder.feed(e)]
    inputs = [w["contentBlockDelta"]["delta"]["toolUse"]["input"] for w in out if "contentBlockDelta" in w]
    assert inputs == ['{"a": ["x", "y', '"]}']
    assert json.loads("".join(inputs)) == {"a": ["x", "y"]}
    losses = [(n.kind, n.path) for n in notes.items if n.loss]
    assert losses == [("approximated", "$.blocks[0].toolUse.input")]


def test_a_stream_note_about_a_part_names_the_event_that_opened_it() -> None:
    """Issue 13 for streams: the reasoning block opened by event 1 is noted at ``$[1]`` (not an IR path)."""
    events = [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"text": "think"}}}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"reasoningContent": {"signature": "sig"}}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"contentBlockDelta": {"contentBlockIndex": 1, "delta": {"text": "hi"}}},
        {"contentBlockStop": {"contentBlockIndex": 1}},
        {"messageStop": {"stopReason": "end_turn"}},
    ]
    translator = StreamTranslator("bedrock-converse", "gemini")
    for event in events:
        translator.feed(event)
    translator.close()
    assert [(n.path, n.kind) for n in translator.note_items if n.loss] == [("$[1]", "dropped")]


def test_a_chat_stream_made_from_bedrock_names_made_up_fields_in_the_target() -> None:
    """Bedrock streams carry no model or creation time: Chat's chunks get stand-ins, noted at ``$`` with the
    chunk field as ``target`` (the source holds no such value)."""
    translator = StreamTranslator("bedrock-converse", "openai-chat")
    for event in [
        {"messageStart": {"role": "assistant"}},
        {"contentBlockDelta": {"contentBlockIndex": 0, "delta": {"text": "hi"}}},
        {"contentBlockStop": {"contentBlockIndex": 0}},
        {"messageStop": {"stopReason": "end_turn"}},
    ]:
        translator.feed(event)
    translator.close()
    made_up = [(n.path, n.target, n.loss) for n in translator.note_items if n.kind == "synthesized"]
    assert made_up == [("$", "$.created", False), ("$", "$.model", False)]
