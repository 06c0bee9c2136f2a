"""Responses stream decoder and validator on every recorded Responses stream."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.corpus import Sample, params, require_corpus
from tests.formats.openai_responses._streams import TERMINAL, parse_sse, sse_bytes, streams
from toolwire.formats._stream import iter_events
from toolwire.formats.openai_responses.stream import StreamDecoder, check_stream
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import PartEnd, ResponseEnd, ResponseStart, StreamErrorEvent, StreamEvent

RECORDINGS = params("openai-responses", "stream")


def _decode(events: list[Any]) -> list[StreamEvent]:
    return iter_events(StreamDecoder(Notes("drop")), events)


def _raw_calls(events: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """(call_id, name, arguments) of the function and custom calls the stream completed."""
    out = []
    for event in events:
        item = event.get("item") or {}
        if event["type"] == "response.output_item.done" and item["type"] == "function_call":
            out.append((item["call_id"], item["name"], item["arguments"]))
        elif event["type"] == "response.output_item.done" and item["type"] == "custom_tool_call":
            out.append((item["call_id"], item["name"], item["input"]))
    return out


def _raw_text(events: list[dict[str, Any]]) -> str:
    texts = []
    for event in events:
        item = event.get("item") or {}
        if event["type"] == "response.output_item.done" and item["type"] == "message":
            texts += [part["text"] for part in item["content"] if part["type"] == "output_text"]
    return "".join(texts)


@pytest.mark.parametrize("sample", RECORDINGS)
def test_recording_decodes_to_its_calls_and_text(sample: Sample) -> None:
    require_corpus()
    for events in streams(sample):
        ir = _decode(events)
        failed = any(e["type"] in ("error", "response.failed") for e in events)
        errors = [e for e in ir if isinstance(e, StreamErrorEvent)]
        assert len(errors) == (1 if failed else 0), errors
        assert isinstance(ir[0], ResponseStart) and ir[0].origin == "openai-responses"
        resp = accumulate(ir)
        calls = [(c.id, c.name, c.arguments) for c in resp.tool_calls if c.kind != "builtin"]
        assert calls == _raw_calls(events)
        assert resp.text == _raw_text(events)
        if not failed:
            end = ir[-1]
            assert isinstance(end, ResponseEnd)
            terminal = events[-1]["response"]
            assert end.status == terminal["status"]
            if end.status == "completed":
                assert end.stop_reason == ("tool_calls" if calls else "end_turn")


@pytest.mark.parametrize("sample", RECORDINGS)
def test_check_stream_accepts_recording(sample: Sample) -> None:
    require_corpus()
    for events in streams(sample):
        assert check_stream(events) == []


@pytest.mark.parametrize("sample", RECORDINGS)
def test_part_ends_carry_the_done_items(sample: Sample) -> None:
    """Every finished part is the decoded ``output_item.done`` item, in output order."""
    require_corpus()
    for events in streams(sample):
        ir = _decode(events)
        ends = [e for e in ir if isinstance(e, PartEnd)]
        assert all(e.part is not None for e in ends)
        indexes = sorted(e.index for e in ends)
        assert indexes == list(range(len(indexes)))


@pytest.mark.parametrize("sample", RECORDINGS)
def test_feeding_whole_evented_and_bytewise_agree(sample: Sample) -> None:
    require_corpus()
    for events in streams(sample):
        expected = _decode(events)
        raw = sse_bytes(events)
        assert _decode(parse_sse([raw])) == expected
        if len(raw) <= 20_000:
            chunks = [raw[i : i + 1] for i in range(len(raw))]
        else:  # large recordings: 200 random cuts keep the suite fast
            cuts = sorted(random.Random(len(raw)).sample(range(len(raw)), 200))
            chunks = [raw[a:b] for a, b in zip([0, *cuts], [*cuts, len(raw)], strict=True)]
        assert _decode(parse_sse(chunks)) == expected


def test_corpus_has_failures_and_tool_calls() -> None:
    """The corpus exercises what the tests above claim to check."""
    require_corpus()
    from tests.corpus import samples

    all_streams = [s for sample in samples("openai-responses", "stream") for s in streams(sample)]
    assert sum(bool(_raw_calls(s)) for s in all_streams) >= 5
    assert any(e["type"] == "error" for s in all_streams for e in s)
    assert all(s[-1]["type"] in TERMINAL for s in all_streams)
    assert sum(isinstance(p, ToolCall) for s in all_streams for p in accumulate(_decode(s)).parts) >= 20


@pytest.mark.parametrize("sample", RECORDINGS)
def test_recording_cut_anywhere_reports_an_incomplete_stream(sample: Sample) -> None:
    """Every prefix short of the terminal event ends in ``incomplete_stream``; tool calls cut
    before their ``output_item.done`` keep exactly the argument text received."""
    require_corpus()
    events = streams(sample)[0]
    ends = [i for i, e in enumerate(events) if e["type"] in TERMINAL or e["type"] == "error"]
    for cut in sorted({*range(1, ends[0], max(1, ends[0] // 12)), ends[0]}):
        ir = _decode(events[:cut])
        assert isinstance(ir[-1], StreamErrorEvent) and ir[-1].error.code == "incomplete_stream"
        received: dict[str, str] = {}
        for event in events[:cut]:
            if event["type"] == "response.function_call_arguments.delta":
                received[event["item_id"]] = received.get(event["item_id"], "") + event["delta"]
        for call in accumulate(ir).tool_calls:
            if call.kind == "function" and call.item_id in received:
                done = any(
                    e["type"] == "response.output_item.done" and e["item"].get("id") == call.item_id
                    for e in events[:cut]
                )
                assert done or call.arguments == received[call.item_id]
