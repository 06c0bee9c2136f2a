"""Gemini stream encoding: responses of every format -> events -> chunks -> back, SDK-checked."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from google.genai import types

from tests.corpus import FORMATS, Sample, params, samples
from tests.formats.gemini._streams import expected_calls, expected_text, synth_events
from toolwire.errors import ToolwireError
from toolwire.formats._stream import iter_events
from toolwire.formats.gemini import StreamDecoder, StreamEncoder, check_stream
from toolwire.framing import JSONArrayDecoder, JSONArrayEncoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response
from toolwire.ir.stream import ResponseEnd, StreamEvent
from toolwire.translate import format_module

# Recordings with made-up enum values (FAKE_NEW_FINISH_REASON...) make the SDK warn; expected.
pytestmark = pytest.mark.filterwarnings("ignore:.* is not a valid:UserWarning")

RESPONSES = [p for fmt in FORMATS for p in params(fmt, "response")]


def _decode(sample: Sample) -> Response:
    module = format_module(sample.format)
    try:
        return module.decode_response(sample.payload, Notes())  # type: ignore[no-any-return]
    except ToolwireError as exc:  # that codec's own tests own this failure
        pytest.skip(f"{sample.format} decode_response rejects this sample: {exc}")


def encode(events: list[StreamEvent]) -> list[Any]:
    """All chunks the encoder makes for ``events`` (with close)."""
    encoder = StreamEncoder(Notes("drop"))
    chunks: list[Any] = []
    for event in events:
        chunks.extend(encoder.feed(event))
    chunks.extend(encoder.close())
    return chunks


def sdk_validate(chunk: dict[str, Any], passthrough: bool) -> types.GenerateContentResponse:
    """Validate one chunk with the official SDK's model (it forbids unknown fields).

    ``passthrough``: the chunk re-encodes a recorded Gemini payload, whose fields newer than
    this SDK (``serviceTier``...) are kept; the SDK parses server responses by dropping
    unknown fields first (``_from_response``), so that path is used for them.
    """
    model = types.GenerateContentResponse
    if passthrough:
        return model._from_response(response=copy.deepcopy(chunk), kwargs={})
    return model.model_validate(chunk)


def _sdk_view(chunks: list[Any], passthrough: bool) -> tuple[str, list[tuple[str, Any]]]:
    """Text and function calls as the official SDK sees the chunks (each chunk validated)."""
    text: list[str] = []
    calls: list[tuple[str, Any]] = []
    for chunk in chunks:
        response = sdk_validate(chunk, passthrough)
        for candidate in response.candidates or ():
            for part in (candidate.content.parts if candidate.content else None) or ():
                if part.text is not None and not part.thought:
                    text.append(part.text)
                if part.function_call is not None:
                    calls.append((part.function_call.name or "", part.function_call.args or {}))
    return "".join(text), calls


def _round_trip(resp: Response, events: list[StreamEvent]) -> None:
    chunks = encode(events)
    back = accumulate(iter_events(StreamDecoder(), chunks))
    if resp.stop_reason is None:  # nothing says the response is complete: neither will Gemini
        assert back.error is not None and back.error.code == "incomplete_stream"
        assert [p.code for p in check_stream(chunks)] == ["missing_finish"]
    else:
        assert check_stream(chunks) == []
    got_calls = [(c.name, json.loads(c.arguments or "{}")) for c in back.tool_calls if c.kind != "builtin"]
    assert got_calls == expected_calls(resp)
    assert back.text == expected_text(resp)
    assert _sdk_view(chunks, resp.origin == "gemini") == (expected_text(resp), expected_calls(resp))
    if resp.origin == "gemini":
        assert [(c.id, c.thought_signature) for c in back.tool_calls] == [
            (c.id, c.thought_signature) for c in resp.tool_calls
        ]
        assert back.usage == resp.usage
    if resp.origin == "gemini" and resp.stop_reason is not None:
        assert (back.stop_reason, back.raw_stop_reason) == (resp.stop_reason, resp.raw_stop_reason)


@pytest.mark.parametrize("sample", RESPONSES)
def test_encode_response_of_any_format(sample: Sample) -> None:
    resp = _decode(sample)
    _round_trip(resp, synth_events(resp))


def test_encode_interleaved_tool_calls() -> None:
    """Parallel calls whose events interleave (ends in reverse order) keep their order."""
    tried = 0
    for fmt in FORMATS:
        for sample in samples(fmt, "response"):
            try:
                resp = format_module(fmt).decode_response(sample.payload, Notes())
            except ToolwireError:
                continue
            if len([c for c in resp.tool_calls if c.kind != "builtin"]) >= 2:
                tried += 1
                _round_trip(resp, synth_events(resp, interleave=True))
    if tried == 0:
        pytest.skip("no corpus response with two tool calls")


@pytest.mark.parametrize("sample", params("gemini", "stream"))
def test_same_format_stream_round_trip(sample: Sample) -> None:
    """Decoding a recording, encoding it again and decoding that gives the same response."""
    chunks = [item.data for item in sample.payload]
    events = iter_events(StreamDecoder(), chunks)
    if not isinstance(events[-1], ResponseEnd):
        pytest.skip("stream does not end normally")
    again = encode(events)
    assert check_stream(again) == []
    for chunk in again:
        sdk_validate(chunk, passthrough=True)
    assert accumulate(iter_events(StreamDecoder(), again)) == accumulate(events)


@pytest.mark.parametrize("sample", params("gemini", "stream")[:20])
def test_json_array_framing_round_trip(sample: Sample) -> None:
    """Encoder chunks written as a JSON array decode (bytewise) to the same events."""
    chunks = [item.data for item in sample.payload]
    events = iter_events(StreamDecoder(), chunks)
    if not isinstance(events[-1], ResponseEnd):
        pytest.skip("stream does not end normally")
    wire = encode(events)
    framing = JSONArrayEncoder()
    raw = b"".join(framing.feed(c) for c in wire) + framing.close()
    decoder = JSONArrayDecoder()
    parsed: list[Any] = []
    for i in range(len(raw)):
        parsed.extend(decoder.feed(raw[i : i + 1]))
    parsed.extend(decoder.close())
    assert parsed == wire
    assert iter_events(StreamDecoder(), parsed) == iter_events(StreamDecoder(), wire)
