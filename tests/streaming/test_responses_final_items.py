"""The Responses stream encoder's final response reuses the items of its ``output_item.done``
events (``Built``) only where encoding the accumulated response gives the same: checked, byte
for byte and note for note, against that encoding itself on every recorded stream, the
benchmark's streams and the cases where the two differ (status, notes, order)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.compiled import pure_only
from tests.streaming._matrix import all_stream_samples, benchmark_stream_in, wire_of
from toolwire.formats._stream import WireEvent
from toolwire.formats.openai_responses import _encode_items, _ids, _stream_encode
from toolwire.formats.openai_responses._encode_items import Built
from toolwire.formats.openai_responses._stream_encode import StreamEncoder
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, StopReason
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
from toolwire.streaming import StreamTranslator

_TARGET = "openai-responses"


class _Spy:
    """Counts the final encodings that reused the stream's items."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, *, reuse: bool) -> None:
        self.reused = 0
        general = Built.output

        def output(built: Built, parts: Any, ctx: Any) -> Any:
            if not reuse:
                return None
            items = general(built, parts, ctx)
            self.reused += items is not None
            return items

        monkeypatch.setattr(_encode_items.Built, "output", output)


def _frames(source: str, wire: list[WireEvent], policy: Any = "drop") -> tuple[bytes, list[Any]]:
    translator = StreamTranslator(source, _TARGET, policy=policy)
    data = b"".join(translator.feed_frames(event) for event in wire) + translator.close_frames()
    return data, list(translator.notes)


def _both(monkeypatch: pytest.MonkeyPatch, run: Any) -> tuple[Any, Any, int]:
    """``run()`` with the general final encoding, then with reuse; and how often it reused."""
    with monkeypatch.context() as patch:
        _Spy(patch, reuse=False)
        general = run()
    with monkeypatch.context() as patch:
        spy = _Spy(patch, reuse=True)
        fast = run()
    return general, fast, spy.reused


@pure_only
@pytest.mark.parametrize("sample", all_stream_samples(), ids=lambda s: f"{s.format}:{s.id}")
def test_recorded_streams_end_as_the_general_encoding(monkeypatch: pytest.MonkeyPatch, sample: Any) -> None:
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=1))  # Bedrock streams' response id
    wire = wire_of(sample)
    general, fast, _ = _both(monkeypatch, lambda: _outcome(lambda: _frames(sample.format, wire)))
    assert fast == general


def _outcome(run: Any) -> Any:
    try:
        return run()
    except Exception as exc:  # the failure is what is compared
        return type(exc), str(exc)


@pure_only
@pytest.mark.parametrize("source", ["openai-chat", "anthropic", "gemini", "openai-responses"])
@pytest.mark.parametrize("policy", ["drop", "warn", "strict"])
def test_benchmark_streams_reuse_their_items(
    monkeypatch: pytest.MonkeyPatch, source: str, policy: str
) -> None:
    wire = benchmark_stream_in(source, 200)
    general, fast, reused = _both(monkeypatch, lambda: _outcome(lambda: _frames(source, wire, policy)))
    assert fast == general
    assert isinstance(fast, tuple) and b"response.completed" in fast[0]
    assert reused == (source != _TARGET or reused)  # cross-format: reused; same: as it may
    if source != _TARGET:
        assert reused == 1


def _call(index: int, call_id: str | None = "c", **fields: Any) -> list[StreamEvent]:
    part = ToolCall(id=call_id, name=f"f{index}", arguments="", **fields)
    return [
        PartStart(index=index, part=part),
        ToolCallDelta(index=index, arguments='{"a": 1}'),
        PartEnd(index=index),
    ]


def _text(index: int) -> list[StreamEvent]:
    return [
        PartStart(index=index, part=TextPart(text="")),
        TextDelta(index=index, text="hi"),
        PartEnd(index=index),
    ]


def _encode(events: list[StreamEvent], policy: Any = "drop") -> tuple[list[WireEvent], list[Any]]:
    notes = Notes(policy)
    encoder = StreamEncoder(notes)
    out = [wire for event in events for wire in encoder.feed(event)] + encoder.close()
    return out, list(notes)


_START = ResponseStart(id="resp_1", model="m", origin="anthropic")


def _end(stop: StopReason = "tool_calls") -> ResponseEnd:
    return ResponseEnd(stop_reason=stop)


_CASES: dict[str, tuple[list[StreamEvent], int]] = {
    # name: (events, final encodings that reuse the items)
    "text and calls": ([_START, *_text(0), *_call(1), *_call(2, "d"), _end()], 1),
    # items closed before an incomplete end say "completed"; the final response "incomplete"
    "incomplete": ([_START, *_text(0), *_call(1), _end("max_tokens")], 0),
    # a call id made up (a note): the final encoding notes it again, at its own path
    "call without id": ([_START, *_text(0), *_call(1, None), _end()], 0),
    "dropped signature": ([_START, *_call(0, thought_signature="sig"), _end()], 0),
    # index 2 streams first: the items went out in another order than the final parts'
    "out of order": (
        [
            _START,
            PartStart(index=2, part=ToolCall(id="b", name="g")),
            PartStart(index=1, part=ToolCall(id="a", name="f")),
            ToolCallDelta(index=2, arguments="{}"),
            PartEnd(index=2),
            ToolCallDelta(index=1, arguments="{}"),
            PartEnd(index=1),
            _end(),
        ],
        0,
    ),
    # the reasoning part's end is built again by the accumulator: not the object encoded
    "reasoning": (
        [
            _START,
            PartStart(index=0, part=ReasoningPart(text="think", origin="anthropic")),
            PartEnd(index=0),
            *_text(1),
            _end(),
        ],
        0,
    ),
    "failed": (
        [_START, *_text(0), *_call(1), StreamErrorEvent(error=ErrorInfo(message="boom", code="x"))],
        1,
    ),
    "unfinished": ([_START, *_text(0), *_call(1)], 1),
    "same format": (
        [ResponseStart(id="resp_2", model="m", origin=_TARGET), *_text(0), *_call(1), _end()],
        1,
    ),
}


@pure_only
@pytest.mark.parametrize("name", list(_CASES))
@pytest.mark.parametrize("policy", ["drop", "warn"])
def test_final_response_is_the_general_encoding(
    monkeypatch: pytest.MonkeyPatch, name: str, policy: str
) -> None:
    events, reuses = _CASES[name]
    general, fast, reused = _both(monkeypatch, lambda: _encode(events, policy))
    assert fast == general
    assert reused == reuses


def test_incomplete_end_keeps_both_statuses() -> None:
    """What the reuse must not change: ``output_item.done`` says completed, the final response
    (built by the general encoding) incomplete."""
    events, _ = _CASES["incomplete"]
    out, _ = _encode(events)
    done = [e["item"]["status"] for e in out if e["type"] == "response.output_item.done"]
    final = [item["status"] for item in out[-1]["response"]["output"]]
    assert done == ["completed", "completed"]
    assert final == ["incomplete", "incomplete"]


def test_final_items_are_those_sent_done() -> None:
    events, _ = _CASES["text and calls"]
    out, _ = _encode(events)
    done = [e["item"] for e in out if e["type"] == "response.output_item.done"]
    assert out[-1]["type"] == "response.completed"
    assert out[-1]["response"]["output"] == done


def test_final_items_share_no_object_with_the_done_events() -> None:
    """A caller that edits an ``output_item.done`` item (a hook, a gateway) leaves the final
    response as it was encoded."""
    events, _ = _CASES["text and calls"]
    out, _ = _encode(events)
    final = out[-1]["response"]["output"]
    for event in out:
        if event["type"] == "response.output_item.done":
            item = event["item"]
            item["status"] = "edited"
            for nested in item.values():
                if isinstance(nested, list):
                    nested.clear()
    assert [item["status"] for item in final] == ["completed"] * 3
    assert final[0]["content"] and final[0]["content"][0]["text"] == "hi"


@pure_only
def test_each_item_id_is_derived_once_per_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """Added, done and final: one derivation per item, and none kept from a stream to the next
    (two streams of one response id derive their ids twice)."""
    derived: list[tuple[str, str, int]] = []
    hashed: list[str] = []

    def counting_seed(seed: str) -> str:
        hashed.append(seed)
        return hash_seed(seed)

    def counting(prefix: str, head: str, index: int) -> str:
        derived.append((prefix, head, index))
        return seeded(prefix, head, index)

    hash_seed, seeded = _ids.id_seed, _ids.seeded_id
    monkeypatch.setattr(_stream_encode, "id_seed", counting_seed)
    monkeypatch.setattr(_encode_items, "seeded_id", counting)  # item_id's and the stream's peek (id_at)
    events, _ = _CASES["text and calls"]
    first, _ = _encode(events)
    head = hash_seed("resp_1")
    assert derived == [("msg_", head, 1), ("fc_", head, 2), ("fc_", head, 3)]
    assert hashed == ["resp_1"]  # the seed hashed once a stream
    second, _ = _encode(events)
    assert len(derived) == 6 and second == first and hashed == ["resp_1"] * 2
