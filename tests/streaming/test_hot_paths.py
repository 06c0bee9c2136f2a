"""The hot paths of the stream codecs give exactly what their general paths give.

Codecs that speed up their common events (text and argument deltas) keep the general path as
``_feed``; ``feed`` may answer a well-formed common event inline and must give the same IR or
wire events, notes included. Each test runs two translators side by side, one with every
codec's ``feed`` replaced by its ``_feed``, over every recorded stream to every target, over
the benchmark's synthetic stream, and over hostile variants of the events the hot paths take.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterable
from typing import Any

import pytest

from benchmarks.bench_stream import anthropic_stream
from tests.corpus import FORMATS, Sample
from tests.streaming._matrix import all_stream_samples, wire_of
from toolwire.formats._stream import WireEvent
from toolwire.streaming import StreamTranslator


def _general(translator: StreamTranslator) -> StreamTranslator:
    """``translator`` with every codec that has a hot path sent down its general path."""
    for codec in (translator._decoder, translator._encoder):
        general = getattr(codec, "_feed", None)
        if general is not None:
            codec.feed = general  # type: ignore[method-assign]
    translator._decode = translator._decoder.feed
    translator._encode_one = translator._encoder.feed
    return translator


def _hot_codecs(src: str, dst: str) -> bool:
    translator = StreamTranslator(src, dst)
    return any(hasattr(codec, "_feed") for codec in (translator._decoder, translator._encoder))


def _run(translator: StreamTranslator, events: Iterable[WireEvent]) -> tuple[list[Any], list[Any]]:
    out: list[Any] = []
    for event in events:
        out.append(translator.feed(copy.deepcopy(event)))
    out.append(translator.close())
    return out, [(n.path, n.kind, n.message) for n in translator.note_items]


class _Uuids:
    """Deterministic stand-in for ``uuid.uuid4`` (ids synthesized for streams without one)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> uuid.UUID:
        self.count += 1
        return uuid.UUID(int=self.count)


@pytest.fixture(autouse=True)
def uuids(monkeypatch: pytest.MonkeyPatch) -> _Uuids:
    fake = _Uuids()
    monkeypatch.setattr(uuid, "uuid4", fake)
    return fake


def assert_same(events: list[WireEvent], src: str, dst: str, uuids: _Uuids) -> None:
    """Fast and general translation of ``events`` agree event for event, notes included."""
    uuids.count = 0
    fast = _run(StreamTranslator(src, dst), events)
    uuids.count = 0
    general = _run(_general(StreamTranslator(src, dst)), events)
    assert fast == general


def _recordings() -> list[Any]:
    return [pytest.param(s, id=f"{s.format}:{s.id}") for s in all_stream_samples()]


@pytest.mark.parametrize("sample", _recordings())
def test_recordings_to_every_target(sample: Sample, uuids: _Uuids) -> None:
    """Every recorded stream, to every target, through the hot paths and without them."""
    wire = wire_of(sample)
    for dst in FORMATS:
        if _hot_codecs(sample.format, dst):
            assert_same(wire, sample.format, dst, uuids)


@pytest.mark.parametrize("dst", ["openai-chat", "openai-responses"])
def test_hot_paths_are_taken(dst: str) -> None:
    """The comparisons compare something: on the benchmark's pairs most events skip ``_feed``."""
    translator = StreamTranslator("anthropic", dst)
    calls = {"decoder": 0, "encoder": 0}
    for name, codec in (("decoder", translator._decoder), ("encoder", translator._encoder)):
        general = codec._feed  # type: ignore[attr-defined]

        def counted(event: Any, general: Any = general, name: str = name) -> Any:
            calls[name] += 1
            return general(event)

        codec._feed = counted  # type: ignore[attr-defined]
    events = anthropic_stream(200)
    _run(translator, events)
    assert calls["decoder"] < len(events) // 10
    assert calls["encoder"] < len(events) // 10


@pytest.mark.parametrize("dst", FORMATS)
def test_benchmark_stream(dst: str, uuids: _Uuids) -> None:
    """The benchmark's Anthropic stream (text and two tool calls)."""
    assert_same(anthropic_stream(200), "anthropic", dst, uuids)


def _variant(at: int, delta: Any, **event: Any) -> list[WireEvent]:
    """The benchmark stream with its event ``at`` (a delta) replaced."""
    events: list[WireEvent] = list(anthropic_stream(120))
    events[at] = {"type": "content_block_delta", "index": 0, "delta": delta, **event}
    return events


_TEXT_AT = 5  # a text delta of block 0
HOSTILE = {
    "empty-text": _variant(_TEXT_AT, {"type": "text_delta", "text": ""}),
    "text-not-a-string": _variant(_TEXT_AT, {"type": "text_delta", "text": 7}),
    "text-missing": _variant(_TEXT_AT, {"type": "text_delta"}),
    "delta-not-an-object": _variant(_TEXT_AT, ["text_delta"]),
    "wrong-delta-for-block": _variant(_TEXT_AT, {"type": "input_json_delta", "partial_json": "{"}),
    "unknown-delta": _variant(_TEXT_AT, {"type": "shiny_delta", "text": "x"}),
    "wrong-index": _variant(_TEXT_AT, {"type": "text_delta", "text": "x"}, index=3),
    "wrong-event-type": _variant(_TEXT_AT, {"type": "text_delta", "text": "x"}, type="content_block_stop"),
    "citation-mid-block": _variant(
        _TEXT_AT,
        {"type": "citations_delta", "citation": {"type": "char_location", "cited_text": "x"}},
    ),
    "error-mid-block": [
        *anthropic_stream(120)[:_TEXT_AT],
        {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
        *anthropic_stream(120)[_TEXT_AT:],
    ],
    "cut-short": anthropic_stream(120)[:40],
}


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("dst", FORMATS)
def test_hostile_variants(name: str, dst: str, uuids: _Uuids) -> None:
    """Events that look like the hot path's but are not take the general path's way out."""
    assert_same(HOSTILE[name], "anthropic", dst, uuids)
