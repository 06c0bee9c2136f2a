"""The hot paths of the stream codecs give exactly what their general paths give.

Codecs that speed up their common events (text and argument deltas) keep the general path as
``_feed``; ``feed`` may answer a well-formed common event inline and must give the same IR or
wire events, notes included. Each test runs two translators side by side, one calling every
codec's ``_feed`` instead of its ``feed``, over every recorded stream to every target, over
the benchmark's synthetic stream, and over hostile variants of the events the hot paths take.
"""

from __future__ import annotations

import copy
import uuid
from collections.abc import Iterable
from typing import Any

import pytest
from benchmarks.bench_stream import anthropic_stream

from tests.compiled import pure_only
from tests.corpus import STREAM_FORMATS as FORMATS
from tests.corpus import Sample
from tests.streaming._matrix import all_stream_samples, benchmark_stream_in, wire_of
from toolwire.formats._stream import WireEvent
from toolwire.ir.content import TextPart
from toolwire.ir.stream import PartEnd, PartStart, ResponseEnd, ResponseStart, StreamEvent, TextDelta
from toolwire.streaming import StreamTranslator, encode_wire_events, stream_decoder


def _general(translator: StreamTranslator) -> StreamTranslator:
    """``translator`` with every codec that has a hot path sent down its general path: the
    translator calls each codec's ``_feed`` (set on the translator, not on the codecs, whose
    methods a compiled build, ``make compiled``, cannot replace)."""
    decoder, encoder = translator._decoder, translator._encoder
    translator._decode = getattr(decoder, "_feed", decoder.feed)
    translator._encode_one = getattr(encoder, "_feed", encoder.feed)
    translator._frame = None
    translator._hot = None
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


def _run_frames(translator: StreamTranslator, events: Iterable[WireEvent]) -> tuple[list[bytes], list[Any]]:
    out = [translator.feed_frames(copy.deepcopy(event)) for event in events]
    out.append(translator.close_frames())
    return out, [(n.path, n.kind, n.message) for n in translator.note_items]


def assert_same(events: list[WireEvent], src: str, dst: str, uuids: _Uuids) -> list[list[WireEvent]]:
    """Fast and general translation of ``events`` agree event for event, notes included; so do
    the SSE bytes of the byte hot path (``feed_frames``) and of the general path's events.
    Returns the target events, per source event (and ``close``)."""
    uuids.count = 0
    fast = _run(StreamTranslator(src, dst), events)
    uuids.count = 0
    general = _run(_general(StreamTranslator(src, dst)), events)
    assert fast == general
    uuids.count = 0
    frames, notes = _run_frames(StreamTranslator(src, dst), events)
    assert frames == [encode_wire_events(dst, out) for out in general[0]]
    assert notes == general[1]
    return general[0]


def _recordings() -> list[Any]:
    return [pytest.param(s, id=f"{s.format}:{s.id}") for s in all_stream_samples()]


@pytest.mark.parametrize("sample", _recordings())
def test_recordings_to_every_target(sample: Sample, uuids: _Uuids) -> None:
    """Every recorded stream, to every target, through the hot paths and without them."""
    wire = wire_of(sample)
    for dst in FORMATS:
        if _hot_codecs(sample.format, dst):
            assert_same(wire, sample.format, dst, uuids)


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("anthropic", "openai-chat"),
        ("anthropic", "openai-responses"),
        ("openai-chat", "anthropic"),
        ("openai-responses", "openai-chat"),
        ("gemini", "gemini"),
    ],
)
@pure_only
def test_hot_paths_are_taken(src: str, dst: str) -> None:
    """The comparisons compare something: on these pairs most events skip ``_feed`` (checked in
    the pure-Python build: the compiled one runs the same code)."""
    translator = StreamTranslator(src, dst)
    calls = dict.fromkeys(("decoder", "encoder"), 0)
    for name, codec in (("decoder", translator._decoder), ("encoder", translator._encoder)):
        general = getattr(codec, "_feed", None)
        if general is None:
            calls.pop(name)
            continue

        def counted(event: Any, general: Any = general, name: str = name) -> Any:
            calls[name] += 1
            return general(event)

        codec._feed = counted  # type: ignore[attr-defined]
    events = anthropic_stream(400) if src == "anthropic" else benchmark_stream_in(src, 400)
    _run(translator, events)
    assert calls
    # Chat keeps every tool call open until the finish, so an Anthropic target queues the
    # second call's argument deltas (general path) until the first call's block closes; a
    # Responses stream has about seven structural events per item, and a Gemini stream sends
    # each tool call whole, so it has fewer deltas.
    most = len(events) // {"openai-chat": 2, "openai-responses": 5, "gemini": 5}.get(src, 10)
    for name, count in calls.items():
        assert count < most, f"{name}: {count} of {len(events)} events took the general path"


@pytest.mark.parametrize("dst", FORMATS)
def test_benchmark_stream(dst: str, uuids: _Uuids) -> None:
    """The benchmark's Anthropic stream (text and two tool calls)."""
    assert_same(anthropic_stream(200), "anthropic", dst, uuids)


def _variant(at: int, delta: Any, **event: Any) -> list[WireEvent]:
    """The benchmark stream with its event ``at`` (a delta) replaced."""
    events: list[WireEvent] = list(anthropic_stream(120))
    events[at] = {"type": "content_block_delta", "index": 0, "delta": delta, **event}
    return events


def _chat_stream() -> list[WireEvent]:
    return benchmark_stream_in("openai-chat")


def _matcher(src: str, which: str) -> Any:
    """Which events of a ``src`` stream a change may hit: Chat chunks whose delta has only
    ``which``, Responses events of type ``which``, Gemini chunks of one text part."""

    def chat(event: Any) -> bool:
        delta = event["choices"][0].get("delta", {}) if event.get("choices") else {}
        return which in delta and len(delta) == 1

    def gemini(event: Any) -> bool:
        parts = (event.get("candidates") or [{}])[0].get("content", {}).get("parts", [])
        return len(parts) == 1 and "text" in parts[0]

    return {"openai-chat": chat, "gemini": gemini}.get(src, lambda event: event.get("type") == which)


def _changed(src: str, which: str, path: str, value: Any) -> list[WireEvent]:
    """The stream in ``src`` with ``value`` set at the dotted ``path`` (numbers index lists) of
    the 3rd event that :func:`_matcher` picks (a copy)."""
    events = copy.deepcopy(benchmark_stream_in(src))
    target: Any = [e for e in events if isinstance(e, dict) and _matcher(src, which)(e)][2]
    *parents, last = path.split(".")
    for key in parents:
        target = target[int(key)] if key.isdigit() else target[key]
    if value is _DELETE:
        del target[int(last) if last.isdigit() else last]
    else:
        target[int(last) if last.isdigit() else last] = value
    return events


_DELETE = object()
"""A value for :func:`_changed`: the key at the path is removed (a hot path's subscript misses)."""


_TEXT_AT = 5  # a text delta of block 0
_CHAT, _RESP, _GEM = "openai-chat", "openai-responses", "gemini"
_TEXT_EVENT = "response.output_text.delta"
_ARGS_EVENT = "response.function_call_arguments.delta"
_CALL = "choices.0.delta.tool_calls"
_PART = "candidates.0.content.parts.0"
CHANGES: dict[str, tuple[str, str, str, Any]] = {
    # name: (source, which event, dotted path, new value)
    "chat-new-top-field": (_CHAT, "content", "moderation", {"flagged": False}),
    "chat-usage-mid-stream": (_CHAT, "content", "usage", {"prompt_tokens": 1}),
    "chat-logprobs": (_CHAT, "content", "choices.0.logprobs", {"content": []}),
    "chat-finish-mid-text": (_CHAT, "content", "choices.0.finish_reason", "stop"),
    "chat-second-choice": (_CHAT, "content", "choices.0.index", 1),
    "chat-index-not-int": (_CHAT, "content", "choices.0.index", "0"),
    "chat-content-not-a-string": (_CHAT, "content", "choices.0.delta.content", 3),
    "chat-empty-content": (_CHAT, "content", "choices.0.delta.content", ""),
    "chat-refusal": (_CHAT, "content", "choices.0.delta", {"refusal": "no"}),
    "chat-extra-choice-field": (_CHAT, "content", "choices.0.seed", 3),
    "chat-error-chunk": (_CHAT, "content", "error", {"message": "boom"}),
    "chat-args-not-a-string": (_CHAT, "tool_calls", f"{_CALL}.0.function.arguments", 5),
    "chat-args-unknown-call": (_CHAT, "tool_calls", f"{_CALL}.0.index", 7),
    "chat-args-new-id": (_CHAT, "tool_calls", f"{_CALL}.0.id", "call_x"),
    "chat-args-name": (_CHAT, "tool_calls", f"{_CALL}.0.function.name", "other"),
    "chat-args-custom": (_CHAT, "tool_calls", f"{_CALL}.0", {"index": 0, "custom": {"input": "x"}}),
    "chat-two-fragments": (
        _CHAT,
        "tool_calls",
        _CALL,
        [{"index": 0, "function": {"arguments": "a"}}, {"index": 1, "function": {"arguments": "b"}}],
    ),
    "responses-delta-not-a-string": (_RESP, _TEXT_EVENT, "delta", None),
    "responses-unknown-item": (_RESP, _TEXT_EVENT, "output_index", 9),
    "responses-index-not-int": (_RESP, _TEXT_EVENT, "output_index", "0"),
    "responses-new-content-index": (_RESP, _TEXT_EVENT, "content_index", 4),
    "responses-text-for-a-call": (_RESP, _TEXT_EVENT, "output_index", 1),
    "responses-args-for-the-message": (_RESP, _ARGS_EVENT, "output_index", 0),
    "responses-refusal": (_RESP, _TEXT_EVENT, "type", "response.refusal.delta"),
    "responses-type-not-a-string": (_RESP, _TEXT_EVENT, "type", ["response.output_text.delta"]),
    "responses-type-an-object": (_RESP, _TEXT_EVENT, "type", {"a": 1}),
    "gemini-usage-mid-stream": (_GEM, "text", "usageMetadata", {"promptTokenCount": 1}),
    "gemini-create-time": (_GEM, "text", "createTime", "2026-01-01T00:00:00Z"),
    "gemini-model-null": (_GEM, "text", "modelVersion", None),
    "gemini-late-signature": (_GEM, "text", f"{_PART}.thoughtSignature", "c2ln"),
    "gemini-part-extra": (_GEM, "text", f"{_PART}.fooBar", 1),
    "gemini-thought-in-text-run": (_GEM, "text", f"{_PART}.thought", True),
    "gemini-finish-mid-text": (_GEM, "text", "candidates.0.finishReason", "STOP"),
    "gemini-candidate-index": (_GEM, "text", "candidates.0.index", 0),
    "gemini-role": (_GEM, "text", "candidates.0.content.role", "user"),
    "gemini-text-not-a-string": (_GEM, "text", f"{_PART}.text", 5),
    "gemini-empty-text": (_GEM, "text", f"{_PART}.text", ""),
    # A key the hot paths read by subscript is missing: the general path's way out, no KeyError.
    "chat-no-choices": (_CHAT, "content", "choices", _DELETE),
    "chat-choice-without-index": (_CHAT, "content", "choices.0.index", _DELETE),
    "chat-choice-without-delta": (_CHAT, "content", "choices.0.delta", _DELETE),
    "chat-args-choice-without-index": (_CHAT, "tool_calls", "choices.0.index", _DELETE),
    "responses-no-type": (_RESP, _TEXT_EVENT, "type", _DELETE),
    "responses-no-delta": (_RESP, _TEXT_EVENT, "delta", _DELETE),
    "responses-no-output-index": (_RESP, _TEXT_EVENT, "output_index", _DELETE),
    "responses-no-content-index": (_RESP, _TEXT_EVENT, "content_index", _DELETE),
    "responses-args-no-delta": (_RESP, _ARGS_EVENT, "delta", _DELETE),
    "anthropic-no-event-type": ("anthropic", "content_block_delta", "type", _DELETE),
    "anthropic-no-index": ("anthropic", "content_block_delta", "index", _DELETE),
    "anthropic-no-delta": ("anthropic", "content_block_delta", "delta", _DELETE),
    "anthropic-no-delta-type": ("anthropic", "content_block_delta", "delta.type", _DELETE),
    "gemini-candidate-without-content": (_GEM, "text", "candidates.0.content", _DELETE),
    "gemini-content-without-parts": (_GEM, "text", "candidates.0.content.parts", _DELETE),
    "gemini-part-without-text": (_GEM, "text", f"{_PART}.text", _DELETE),
    "gemini-no-candidates": (_GEM, "text", "candidates", _DELETE),
    # A value of another type where a hot path declares one (compiled, a dict, a str or an int
    # local: the TypeError of its check declines).
    "anthropic-event-type-a-list": ("anthropic", "content_block_delta", "type", ["content_block_delta"]),
    "anthropic-delta-type-a-number": ("anthropic", "content_block_delta", "delta.type", 3),
    "anthropic-index-a-float": ("anthropic", "content_block_delta", "index", 0.0),
    "anthropic-index-a-bool": ("anthropic", "content_block_delta", "index", False),
    "anthropic-index-a-string": ("anthropic", "content_block_delta", "index", "0"),
    "chat-choice-a-list": (_CHAT, "content", "choices.0", ["index", "delta"]),
    "responses-delta-a-list": (_RESP, _TEXT_EVENT, "delta", ["x"]),
    "gemini-candidate-a-list": (_GEM, "text", "candidates.0", ["content"]),
    "gemini-part-a-string": (_GEM, "text", f"{_PART}", "t"),
    "gemini-two-candidates": (
        _GEM,
        "text",
        "candidates",
        [{"content": {"parts": [{"text": "a"}]}}, {"content": {"parts": [{"text": "b"}]}}],
    ),
}
"""Events changed so that they look like a hot path's but are not."""

HOSTILE: dict[str, tuple[str, list[WireEvent]]] = {
    "empty-text": ("anthropic", _variant(_TEXT_AT, {"type": "text_delta", "text": ""})),
    "text-not-a-string": ("anthropic", _variant(_TEXT_AT, {"type": "text_delta", "text": 7})),
    "text-missing": ("anthropic", _variant(_TEXT_AT, {"type": "text_delta"})),
    "delta-not-an-object": ("anthropic", _variant(_TEXT_AT, ["text_delta"])),
    "delta-a-string": ("anthropic", _variant(_TEXT_AT, "text_delta")),
    "anthropic-not-an-object": (
        "anthropic",
        [*anthropic_stream(120)[:_TEXT_AT], 17, *anthropic_stream(120)[_TEXT_AT:]],
    ),
    "anthropic-event-a-list": (
        "anthropic",
        [*anthropic_stream(120)[:_TEXT_AT], ["content_block_delta"], *anthropic_stream(120)[_TEXT_AT:]],
    ),
    "wrong-delta-for-block": (
        "anthropic",
        _variant(_TEXT_AT, {"type": "input_json_delta", "partial_json": "{"}),
    ),
    "unknown-delta": ("anthropic", _variant(_TEXT_AT, {"type": "shiny_delta", "text": "x"})),
    "wrong-index": ("anthropic", _variant(_TEXT_AT, {"type": "text_delta", "text": "x"}, index=3)),
    "wrong-event-type": (
        "anthropic",
        _variant(_TEXT_AT, {"type": "text_delta", "text": "x"}, type="content_block_stop"),
    ),
    "citation-mid-block": (
        "anthropic",
        _variant(
            _TEXT_AT,
            {"type": "citations_delta", "citation": {"type": "char_location", "cited_text": "x"}},
        ),
    ),
    "error-mid-block": (
        "anthropic",
        [
            *anthropic_stream(120)[:_TEXT_AT],
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            *anthropic_stream(120)[_TEXT_AT:],
        ],
    ),
    "cut-short": ("anthropic", anthropic_stream(120)[:40]),
    "chat-not-an-object": (_CHAT, [*_chat_stream()[:4], 17, *_chat_stream()[4:]]),
    "chat-after-done": (_CHAT, [*_chat_stream(), *_chat_stream()[3:6]]),
    "responses-after-completed": (_RESP, [*benchmark_stream_in(_RESP), *benchmark_stream_in(_RESP)[5:9]]),
    **{name: (change[0], _changed(*change)) for name, change in CHANGES.items()},
}


@pytest.mark.parametrize("name", list(HOSTILE))
@pytest.mark.parametrize("dst", FORMATS)
def test_hostile_variants(name: str, dst: str, uuids: _Uuids) -> None:
    """Events that look like the hot path's but are not take the general path's way out."""
    src, events = HOSTILE[name]
    assert_same(events, src, dst, uuids)


@pytest.mark.parametrize("dst", FORMATS)
def test_text_delta_with_a_signature_is_noted_like_the_general_path(dst: str, uuids: _Uuids) -> None:
    """A text delta that brings a Gemini signature with its text: same output and notes."""
    events: list[StreamEvent] = [
        ResponseStart(id="r", origin="gemini", model="g"),
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="a"),
        TextDelta(index=0, text="b", signature="c2ln"),
        TextDelta(index=0, text="c"),
        PartEnd(index=0),
        ResponseEnd(stop_reason="end_turn"),
    ]
    results = []
    for translator in (StreamTranslator("gemini", dst), _general(StreamTranslator("gemini", dst))):
        uuids.count = 0
        wire = [translator.feed_ir(event) for event in events]
        results.append((wire, [(n.path, n.kind, n.message) for n in translator.note_items]))
    assert results[0] == results[1]
    if dst != "gemini":
        assert any("signature" in message for _, _, message in results[0][1])


@pytest.mark.parametrize("src", FORMATS)
def test_hot_frame_hands_hot_lanes_to_the_sink(src: str, uuids: _Uuids) -> None:
    """``hot_frame`` is ``hot`` fused with the encoder's byte path: the lane ``hot`` gives, with
    the same state change, goes to the sink when it has text; the sink's bytes come back, and
    the lane when the sink declines (``None``) or there is no text. Events ``hot`` declines
    reach no sink."""
    events = benchmark_stream_in(src, 200)
    plain, fused = stream_decoder(src), stream_decoder(src)
    if not hasattr(fused, "hot_frame"):
        pytest.skip(f"{src}: no hot path")
    calls: list[tuple[type, int, str]] = []

    def sink(kind: type, index: int, text: str) -> bytes | None:
        calls.append((kind, index, text))
        return None if len(calls) % 3 == 0 else f"{len(calls)}".encode()

    taken = 0
    for event in events:
        lane = plain.hot(copy.deepcopy(event))
        before = len(calls)
        out = fused.hot_frame(copy.deepcopy(event), sink)  # type: ignore[attr-defined]
        if lane is None:
            assert out is None and len(calls) == before
            count = uuids.count  # ids synthesized alike for both
            general = plain._feed(copy.deepcopy(event))  # type: ignore[attr-defined]
            uuids.count = count
            assert fused._feed(copy.deepcopy(event)) == general  # type: ignore[attr-defined]
        elif not lane[2]:
            assert out == lane and len(calls) == before
        else:
            assert calls[before:] == [lane]
            assert out == (lane if len(calls) % 3 == 0 else f"{len(calls)}".encode())
            taken += 1
    assert taken > len(events) // 2
    assert plain.close() == fused.close()
