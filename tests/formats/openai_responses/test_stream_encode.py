"""Responses stream encoder: responses of every format, streamed, read back by our decoder and
by the official ``openai`` SDK's stream accumulator."""

from __future__ import annotations

import typing
from typing import Any

import msgspec
import pytest
from openai._models import construct_type, validate_type
from openai._types import omit
from openai.lib.streaming.responses._responses import ResponseStreamState
from openai.types.responses import ResponseStreamEvent

from tests.corpus import FORMATS, Sample, params, require_corpus
from tests.formats.openai_responses._streams import encode, streams
from tests.formats.openai_responses._synth import synthesize
from toolwire.formats._stream import iter_events
from toolwire.formats.openai_responses import encode_response
from toolwire.formats.openai_responses.stream import StreamDecoder, check_stream
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import Response
from toolwire.translate import format_module

VARIANTS: dict[str, dict[str, bool]] = {
    "chopped": {},
    "whole": {"whole": True},
    "interleaved": {"interleave": True},
    "built": {"final": False},
}
RESPONSES = [p for fmt in FORMATS for p in params(fmt, "response")]


def _decoded(sample: Sample) -> Response | None:
    """The IR of a response sample, or None when it is not a finished, decodable response."""
    module = format_module(sample.format)
    try:
        resp: Response = module.decode_response(sample.payload, Notes("drop"))
    except Exception:  # undecodable samples are the non-stream tests' business
        return None
    return resp if resp.status in (None, "completed", "incomplete", "failed") else None


def _calls(resp: Response) -> list[tuple[str | None, str, str, str]]:
    return [(c.id, c.name, c.arguments, c.kind) for c in resp.tool_calls if c.kind != "builtin"]


def _status_free(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in item.items() if k != "status"} for item in items]


@pytest.mark.parametrize("sample", RESPONSES)
def test_any_response_streams_like_its_non_stream_encoding(sample: Sample) -> None:
    require_corpus()
    resp = _decoded(sample)
    if resp is None:
        pytest.skip("not a finished response this format decodes")
    for name, options in VARIANTS.items():
        ir = synthesize(resp, **options)
        wire = encode(ir)
        assert check_stream(wire, stable_ids=True) == [], name
        assert [e["sequence_number"] for e in wire] == list(range(len(wire)))
        assert not any("obfuscation" in e for e in wire)
        expected = accumulate(ir)
        final = wire[-1]["response"]
        assert final == encode_response(msgspec.structs.replace(expected, id=final["id"]), Notes("drop")), (
            name
        )
        done = [e["item"] for e in wire if e["type"] == "response.output_item.done"]
        if final["status"] == "incomplete":  # items closed before the end say "completed"
            assert _status_free(done) == _status_free(final["output"])
        else:
            assert done == final["output"], name
        got = accumulate(iter_events(StreamDecoder(Notes("drop")), wire))
        assert got.text == expected.text, name
        want = _calls(expected)
        synthesized = [
            (c[0] if w[0] is not None else None, *c[1:]) for c, w in zip(_calls(got), want, strict=True)
        ]
        assert synthesized == want, name


def _event_classes() -> dict[str, type]:
    """The SDK's model class of each Responses event type."""
    union = typing.get_args(typing.get_args(ResponseStreamEvent)[0])
    return {typing.get_args(cls.model_fields["type"].annotation)[0]: cls for cls in union}


EVENT_CLASSES = _event_classes()


def _sdk_replay(wire: list[dict[str, Any]], strict: bool) -> Any:
    """Feed the events to the SDK's stream state; the final response object it settles on."""
    state = ResponseStreamState(input_tools=omit, text_format=omit)
    final: Any = None
    for event in wire:
        if strict:  # full pydantic validation against the event's own model
            validate_type(type_=EVENT_CLASSES[event["type"]], value=event)
        for out in state.handle_event(construct_type(type_=ResponseStreamEvent, value=event)):  # type: ignore[arg-type]
            final = getattr(out, "response", final)
    return final


def _sdk_samples() -> list[Any]:
    """Every successful response with function calls, and ten text-only ones per format (the
    SDK's accumulator is slow; these cover what it checks)."""
    chosen, text_only = [], dict.fromkeys(FORMATS, 0)
    for param in RESPONSES:
        sample = param.values[0]
        resp = _decoded(sample) if sample is not None else None
        if resp is None or resp.status == "failed":
            continue
        if any(c.kind == "function" for c in resp.tool_calls) or text_only[sample.format] < 10:
            chosen.append(param)
            text_only[sample.format] += not resp.tool_calls
    return chosen or RESPONSES


@pytest.mark.filterwarnings("ignore::UserWarning")  # the SDK's own serializer warnings on built-in items
@pytest.mark.parametrize("sample", _sdk_samples())
def test_openai_sdk_accumulates_encoder_output(sample: Sample) -> None:
    """The official SDK accepts the events (strictly validated for streams we build from another
    format) and its snapshot has our function calls (ids kept) and output text."""
    require_corpus()
    resp = _decoded(sample)
    assert resp is not None
    wire = encode(synthesize(resp, interleave=True))
    final = _sdk_replay(wire, strict=resp.origin != "openai-responses")
    calls = [(o.call_id, o.name, o.arguments) for o in final.output if o.type == "function_call"]
    expected = [c for c in resp.tool_calls if isinstance(c, ToolCall) and c.kind == "function"]
    assert [c[1:] for c in calls] == [(c.name, c.arguments) for c in expected]
    assert [c.id for c in expected if c.id is not None] == [
        c[0] for c, e in zip(calls, expected, strict=True) if e.id
    ]
    assert final.output_text == resp.text


RECORDINGS = params("openai-responses", "stream")


@pytest.mark.parametrize("sample", RECORDINGS)
def test_recording_survives_decode_then_encode(sample: Sample) -> None:
    """Same format: decode a real stream, encode it again; the result is a valid stream whose
    final response equals the recording's, except for what the API itself changed between the
    done items and the final response (re-encrypted reasoning, rotated ids)."""
    require_corpus()
    for events in streams(sample):
        ir = iter_events(StreamDecoder(Notes("drop")), events)
        wire = encode(ir)
        assert check_stream(wire, stable_ids=True) == []
        before, after = accumulate(ir), accumulate(iter_events(StreamDecoder(Notes("drop")), wire))
        if check_stream(events, stable_ids=True):  # the upstream rotated ids; we keep the first ones
            assert (after.text, _calls(after)) == (before.text, _calls(before))
            continue
        assert after.parts == before.parts
        original = events[-1].get("response")
        if original is None or events[-1]["type"] == "response.failed":
            assert [e["type"] for e in wire[-2:]] == ["error", "response.failed"]
            continue
        done = {e["output_index"]: e["item"] for e in events if e["type"] == "response.output_item.done"}
        expected_output = [done.get(i, item) for i, item in enumerate(original["output"])]
        again = wire[-1]["response"]
        assert again["output"] == expected_output
        assert {k: v for k, v in again.items() if k not in ("output", "id")} == {
            k: v for k, v in original.items() if k not in ("output", "id")
        }
