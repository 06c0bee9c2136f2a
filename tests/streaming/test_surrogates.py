"""A delta whose text cannot be UTF-8 (a lone surrogate, which in-memory events parsed by the
stdlib ``json`` may hold) raises toolwire's ``PayloadError`` from ``feed_frames``, on every path.

The hot paths write a delta's bytes from a template (the encoder's ``frame_delta``, or the
decoder writing the encoder's lent part): a text they cannot encode declines to the general
path, which raises the typed error, instead of a raw ``UnicodeEncodeError``. The bad delta
comes first, second or third in its part, so that each of those writes sees it in some pair
(the first delta of a part may take the general path, the second the encoder's
``frame_delta``, the third the lent part).
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.corpus import STREAM_FORMATS as FORMATS
from tests.streaming.test_hot_paths import _general
from toolwire.errors import PayloadError
from toolwire.formats._stream import WireEvent, make_delta
from toolwire.ir.content import TextPart, ToolCall
from toolwire.ir.stream import PartEnd, PartStart, ResponseEnd, ResponseStart, TextDelta, ToolCallDelta
from toolwire.streaming import StreamTranslator, stream_encoder

SURROGATE = "\ud800"


def _anthropic(texts: list[str], args: list[str]) -> list[WireEvent]:
    message = {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": []}
    usage = {"input_tokens": 1, "output_tokens": 1}
    events: list[WireEvent] = [
        {"type": "message_start", "message": {**message, "stop_reason": None, "usage": usage}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    ]
    events += [
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": t}} for t in texts
    ]
    events += [
        {"type": "content_block_stop", "index": 0},
        {
            "type": "content_block_start",
            "index": 1,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
        },
    ]
    events += [
        {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": a}}
        for a in args
    ]
    events += [
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 5}},
        {"type": "message_stop"},
    ]
    return events


def _stream(src: str, where: str, at: int) -> list[WireEvent]:
    """A stream of ``src`` whose ``where`` ("text" or "args") has a lone surrogate in its delta
    ``at`` (by toolwire's ``feed``, which builds events without serializing them)."""
    texts, args = ["Ha", "b", "c!"], ['{"k":"a', "b", 'c"}']
    deltas = texts if where == "text" else args
    deltas[at] = deltas[at].replace("abc"[at], "abc"[at] + SURROGATE)  # in the JSON string
    translator = StreamTranslator("anthropic", src, policy="drop")
    return [out for event in _anthropic(texts, args) for out in translator.feed(event)] + translator.close()


def _holds(value: Any) -> bool:
    """Whether ``value`` holds the surrogate in a string (``repr`` escapes it)."""
    if isinstance(value, dict):
        return any(_holds(item) for item in value.values())
    if isinstance(value, list):
        return any(_holds(item) for item in value)
    return isinstance(value, str) and SURROGATE in value


_CASES = [
    (src, dst, where, at)
    for src in FORMATS
    for dst in FORMATS
    for where in ("text", "args")
    if not (where == "args" and src == "gemini")  # Gemini streams whole calls: no argument deltas
    for at in (0, 1, 2)
]


@pytest.mark.parametrize(("src", "dst", "where", "at"), _CASES, ids=lambda v: str(v))
def test_a_lone_surrogate_in_a_delta_is_a_payload_error(src: str, dst: str, where: str, at: int) -> None:
    events = _stream(src, where, at)
    bad = next(i for i, event in enumerate(events) if _holds(event))
    translator = StreamTranslator(src, dst, policy="drop")
    for event in events[:bad]:
        translator.feed_frames(event)
    if where == "args" and dst == "gemini":  # Gemini holds a call's arguments to its end
        translator.feed_frames(events[bad])
        return
    with pytest.raises(PayloadError, match="not valid Unicode"):
        translator.feed_frames(events[bad])


def _outputs(translator: StreamTranslator, events: list[WireEvent]) -> list[Any]:
    out: list[Any] = []
    for event in [*events, None]:
        try:
            out.append(translator.feed_frames(event) if event is not None else translator.close_frames())
        except PayloadError as exc:
            out.append(str(exc))
    return out


@pytest.mark.parametrize(("src", "dst", "where", "at"), _CASES, ids=lambda v: str(v))
def test_the_stream_goes_on_as_the_general_path_after_the_error(
    src: str, dst: str, where: str, at: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A caller that goes on after the error gets what the general paths give: the hot path
    that declined changed nothing (its part's count of characters sent, its sequence numbers)."""
    monkeypatch.setattr(uuid, "uuid4", lambda: uuid.UUID(int=1))  # ids synthesized alike
    events = _stream(src, where, at)
    general = _general(StreamTranslator(src, dst, policy="drop"))
    assert _outputs(StreamTranslator(src, dst, policy="drop"), events) == _outputs(general, events)


_START = ResponseStart(id="r1", model="m", created=1)


@pytest.mark.parametrize(
    ("dst", "kind"),
    [
        ("openai-chat", TextDelta),
        ("openai-chat", ToolCallDelta),
        ("anthropic", TextDelta),
        ("anthropic", ToolCallDelta),
        ("gemini", TextDelta),  # (Gemini holds a call's arguments: no bytes to write)
        ("openai-responses", TextDelta),
        ("openai-responses", ToolCallDelta),
    ],
)
def test_frame_delta_declines_a_lone_surrogate_with_no_state_change(dst: str, kind: type) -> None:
    """The encoder's ``frame_delta`` gives ``None`` for text it cannot encode and changes nothing:
    its part ends as if the delta never came (the rest of a final part longer than what was
    sent is sent once, from where the sent deltas ended)."""
    part: Any = TextPart(text="") if kind is TextDelta else ToolCall(name="f", id="call_1")
    final: Any = (
        TextPart(text="Hel, MORE")
        if kind is TextDelta
        else ToolCall(name="f", id="call_1", arguments='{"a":1}')
    )
    encoders = [stream_encoder(dst), stream_encoder(dst)]
    out: list[list[WireEvent]] = [[], []]
    for which, encoder in enumerate(encoders):
        for event in (
            _START,
            PartStart(index=0, part=part),
            make_delta(kind, 0, '{"a"' if kind is ToolCallDelta else "Hel"),
        ):
            out[which] += encoder.feed(event)
        if which:
            assert encoder.frame_delta(kind, 0, "x" + SURROGATE) is None  # type: ignore[attr-defined]
        for event in (PartEnd(index=0, part=final), ResponseEnd(stop_reason="end_turn")):
            out[which] += encoder.feed(event)
    assert out[0] == out[1]
