"""The byte hot path: ``StreamTranslator.feed_frames`` and the encoders' ``frame`` templates.

``tests/streaming/test_hot_paths.py`` compares ``feed_frames`` with the general path on every
recording and hostile variant; these tests pin the template edge cases and that the byte path
is actually taken.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest
from benchmarks.bench_stream import anthropic_stream

from tests.corpus import STREAM_FORMATS as FORMATS
from tests.streaming._matrix import benchmark_stream_in
from tests.streaming.test_hot_paths import _Uuids, assert_same
from toolwire._json import dumps
from toolwire.formats._stream import (
    HOLE,
    INT_HOLE,
    NO_HALVES,
    NO_LEND,
    Lent,
    encode_wire_event,
    frame_halves,
    frame_template,
    value_halves,
)
from toolwire.ir.response import ErrorInfo
from toolwire.ir.stream import StreamErrorEvent
from toolwire.streaming import StreamTranslator, encode_wire_events

TARGETS = ("openai-chat", "openai-responses")


def _with_head(**head: Any) -> list[dict[str, Any]]:
    events = anthropic_stream(150)
    events[0] = copy.deepcopy(events[0])
    events[0]["message"].update(head)
    return events


LANES = [(src, dst) for src in FORMATS for dst in FORMATS]


@pytest.mark.parametrize(("src", "dst"), LANES)
def test_fused_lane_is_taken_for_deltas(src: str, dst: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Most deltas go from the source's ``hot_frame`` to the target's ``frame_delta`` (the
    translator's sink, called by the decoder in the same call): no IR, no dicts."""
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=7))  # ids synthesized for a Bedrock source
    events = benchmark_stream_in(src, 300)
    translator = StreamTranslator(src, dst)
    assert translator._hot is not None
    taken = 0
    plain = translator._sink
    assert plain is not None

    def counted(kind: type, index: int, text: str) -> bytes | None:
        nonlocal taken
        data = plain(kind, index, text)
        taken += data is not None
        return data

    translator._sink = counted
    lending = _Lending(translator)
    framed = b"".join(lending.feed_frames(event) for event in events) + translator.close_frames()
    general = StreamTranslator(src, dst)
    assert framed == encode_wire_events(dst, [o for e in events for o in general.feed(e)] + general.close())
    # 208 text and 80 argument deltas; Gemini sends each tool call whole
    deltas = 208 if "gemini" in (src, dst) else 288
    taken += lending.written
    assert taken >= 0.8 * deltas, f"{taken} of about {deltas} deltas took the fused lane"
    if dst in _LENDING and src != dst and src != "bedrock-converse":
        # the text and argument deltas written by the decoder from the part the encoder lent it,
        # with no call into the encoder (``Lend``)
        lent = 208 if "gemini" in (src, dst) else 288
        if (src, dst) == ("openai-chat", "anthropic"):
            lent -= 40  # Chat keeps its calls open: the second one's deltas wait for the first's end
        assert lending.written >= 0.8 * lent


_LENDING = ("openai-chat", "anthropic", "gemini")
"""Targets whose encoders lend their open part to the decoder's hot path (``lend``)."""


class _Lending:
    """Counts the deltas a translator's decoder writes to the parts its encoder lends it: calls
    of :meth:`feed_frames` that reach neither the sink (the encoder's ``frame_delta``) nor the
    decoder's general path, yet add to a lent part's ``sent``. (The parts are the encoder's own:
    a compiled decoder holds them as the native ``Lent``, which no Python proxy can be.)"""

    def __init__(self, translator: StreamTranslator) -> None:
        self.written = 0
        self._translator = translator
        self._parts: list[Any] = []
        self._calls = 0
        decoder: Any = translator._decoder
        lend = getattr(decoder, "lend", None)
        if lend is not None:

            def kept(kind: type, index: int) -> Any:
                part = lend(kind, index)
                if part is not None:
                    self._parts.append(part)
                return part

            decoder.lend = kept
        for name in ("_sink", "_decode"):
            inner = getattr(translator, name)
            if inner is not None:
                setattr(translator, name, self._counted(inner))

    def _counted(self, inner: Any) -> Any:
        def call(*args: Any) -> Any:
            self._calls += 1
            return inner(*args)

        return call

    def feed_frames(self, event: Any) -> bytes:
        sent, calls = sum(part.sent for part in self._parts), self._calls
        data = self._translator.feed_frames(event)
        if self._calls == calls and sum(part.sent for part in self._parts) > sent:
            self.written += 1
        return data


@pytest.mark.parametrize("target", (*TARGETS, "gemini"))
@pytest.mark.parametrize(
    "head",
    [
        {"id": "msg_%d%s%%b", "model": "model-%(x)s"},  # template metacharacters in upstream values
        {"model": HOLE},  # a hole value in the head: the template is refused, deltas go the slow way
        {"id": f"msg_{INT_HOLE}"},
    ],
    ids=["percent", "hole", "int-hole"],
)
def test_upstream_values_cannot_break_the_template(
    target: str, head: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    uuids = _Uuids()
    monkeypatch.setattr(uuid, "uuid4", uuids)
    general = assert_same(_with_head(**head), "anthropic", target, uuids)  # byte path included
    framed = b"".join(encode_wire_events(target, out) for out in general)
    assert framed.count(b"Let ") >= 5  # every delta of the text went through


def test_frame_template_fills_to_the_framed_event() -> None:
    event = {"type": "response.output_text.delta", "delta": HOLE, "note": "100%", "sequence_number": INT_HOLE}
    template = frame_template("openai-responses", event, 2)
    assert template is not None
    filled = {**event, "delta": 'a "quoted"\n%s', "sequence_number": 12}
    assert template % (dumps('a "quoted"\n%s'), 12) == encode_wire_event("openai-responses", filled)


def test_frame_template_refuses_a_hole_count_it_was_not_told() -> None:
    event = {"id": HOLE, "choices": [{"delta": {"content": HOLE}}]}
    assert frame_template("openai-chat", event, 1) is None
    assert frame_template("openai-chat", event, 2) is not None


def test_halves_cut_at_the_one_hole() -> None:
    choices = [{"index": 0, "delta": {"content": HOLE}, "finish_reason": None}]
    head, tail = value_halves(choices)
    assert head + dumps('say "hi"') + tail == dumps([{**choices[0], "delta": {"content": 'say "hi"'}}])
    around = frame_halves("openai-chat", {"id": "c", "choices": HOLE, "model": "m"})
    chunk = {"id": "c", "choices": choices, "model": "m"}
    assert around[0] + head + b'"x"' + tail + around[1] == encode_wire_event(
        "openai-chat", {**chunk, "choices": [{**choices[0], "delta": {"content": "x"}}]}
    )
    assert value_halves({"a": HOLE, "b": HOLE}) == NO_HALVES
    assert frame_halves("openai-chat", {"a": 1}) == NO_HALVES


def test_halves_fill_with_percent_signs_kept_as_is() -> None:
    """The two concatenations that fill the halves keep ``%`` as is, in the fixed bytes and in
    the text."""
    event = {"id": "c%d%%", "choices": [{"delta": {"content": HOLE}}], "m": "%s"}
    head, tail = frame_halves("openai-chat", event)
    for text in ("x", "%s", 'a "q" %b\n'):
        filled = {**event, "choices": [{"delta": {"content": text}}]}
        assert head + dumps(text) + tail == encode_wire_event("openai-chat", filled)


@pytest.mark.parametrize("source", ("anthropic", "openai-chat", "openai-responses", "gemini"))
@pytest.mark.parametrize("target", _LENDING)
def test_a_lent_part_is_taken_back_by_the_encoders_next_event(source: str, target: str) -> None:
    """After an event the encoder takes on its general path (here an error fed as IR, which ends
    the target stream), the decoder no longer writes the text deltas of the part it was lent:
    they go back to the encoder, which sends nothing after its end."""
    if source == target:
        pytest.skip("a same-format pair")
    events = benchmark_stream_in(source, 300)
    translator = StreamTranslator(source, target, policy="drop")
    lending = _Lending(translator)
    position = 0
    while lending.written < 3:  # into the text, with its part lent
        lending.feed_frames(events[position])
        position += 1
    delta = events[position - 1]
    assert lending.feed_frames(delta)  # a delta like the last: written from the lent part
    lent = lending.written
    info = ErrorInfo(message="cut", code="upstream_error")
    assert translator.feed_ir(StreamErrorEvent(error=info))
    assert lending.feed_frames(delta) == b""
    assert lending.written == lent


@pytest.mark.parametrize("target", _LENDING)
def test_lent_parts_are_native_lent_parts(target: str) -> None:
    """The parts an encoder lends share the base ``Lent``, by which a compiled decoder holds them
    (a native attribute read and write per delta); the decoder's stand-in for "nothing lent" is
    one too, never written to."""
    source = "openai-responses" if target == "anthropic" else "anthropic"
    translator = StreamTranslator(source, target, policy="drop")
    lending = _Lending(translator)
    for event in benchmark_stream_in(source, 120):
        lending.feed_frames(event)
    assert lending.written and lending._parts
    assert all(isinstance(part, Lent) for part in lending._parts)
    assert isinstance(NO_LEND, Lent) and NO_LEND.head == b"" and NO_LEND.sent == 0
