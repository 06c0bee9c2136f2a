"""The byte hot path: ``StreamTranslator.feed_frames`` and the encoders' ``frame`` templates.

``tests/streaming/test_hot_paths.py`` compares ``feed_frames`` with the general path on every
recording and hostile variant; these tests pin the template edge cases and that the byte path
is actually taken.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from benchmarks.bench_stream import anthropic_stream

from toolwire._json import dumps
from toolwire.formats._stream import HOLE, INT_HOLE, encode_wire_event, frame_template
from toolwire.streaming import StreamTranslator, encode_wire_events

TARGETS = ("openai-chat", "openai-responses")


def _with_head(**head: Any) -> list[dict[str, Any]]:
    events = anthropic_stream(150)
    events[0] = copy.deepcopy(events[0])
    events[0]["message"].update(head)
    return events


def _frames_and_general(events: list[dict[str, Any]], target: str) -> tuple[bytes, bytes]:
    fast = StreamTranslator("anthropic", target)
    framed = b"".join(fast.feed_frames(event) for event in events) + fast.close_frames()
    slow = StreamTranslator("anthropic", target)
    wire = [out for event in events for out in slow.feed(event)] + slow.close()
    return framed, encode_wire_events(target, wire)


@pytest.mark.parametrize("target", TARGETS)
def test_frame_path_is_taken_for_deltas(target: str) -> None:
    translator = StreamTranslator("anthropic", target)
    assert translator._hot is not None  # Anthropic deltas reach the encoder with no IR event
    taken = 0
    plain = translator._frame_delta

    def counted(kind: type, index: int, text: str) -> bytes | None:
        nonlocal taken
        data = plain(kind, index, text)
        taken += data is not None
        return data

    translator._frame_delta = counted
    events = anthropic_stream(200)
    for event in events:
        translator.feed_frames(event)
    deltas = sum(1 for e in events if e["type"] == "content_block_delta")
    assert taken >= deltas - 3  # the first delta of each part is sent by the general path


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize(
    "head",
    [
        {"id": "msg_%d%s%%b", "model": "model-%(x)s"},  # template metacharacters in upstream values
        {"model": HOLE},  # a hole value in the head: the template is refused, deltas go the slow way
        {"id": f"msg_{INT_HOLE}"},
    ],
    ids=["percent", "hole", "int-hole"],
)
def test_upstream_values_cannot_break_the_template(target: str, head: dict[str, Any]) -> None:
    framed, general = _frames_and_general(_with_head(**head), target)
    assert framed == general
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
