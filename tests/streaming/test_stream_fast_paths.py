"""Fast paths of the stream codecs that have no recording of their own: each gives exactly what
the general path gives (output and notes), checked against that path itself."""

from __future__ import annotations

from typing import Any

import pytest

from tests.streaming._matrix import benchmark_stream_in
from toolwire._json import dumps_str
from toolwire.formats._stream import NAMED_EVENTS, WireEvent, encode_wire_event, sse_event_name
from toolwire.formats.anthropic._stream_encode import StreamEncoder
from toolwire.formats.anthropic._stream_slots import Slot
from toolwire.framing import encode_sse
from toolwire.ir.content import TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ResponseEnd,
    ResponseStart,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)
from toolwire.streaming import StreamTranslator, encode_wire_events


class _Name(str):
    """A ``str`` subclass as an event type (``isinstance`` holds, ``type() is str`` does not)."""


_ODD_EVENTS: list[dict[str, Any]] = [
    {"type": "message_stop"},
    {"type": _Name("message_stop"), "x": 1},
    {"type": 3},
    {"type": None},
    {"type": ["a"]},
    {"type": ""},
    {"no_type": True},
    {},
]


def _outcome(make: Any) -> bytes | type[Exception]:
    try:
        data: bytes = make()
    except Exception as exc:  # the kind of failure is what is compared
        return type(exc)
    return data


@pytest.mark.parametrize("fmt", [fmt for fmt in NAMED_EVENTS if fmt != "bedrock-converse"])
@pytest.mark.parametrize("event", _ODD_EVENTS, ids=repr)
def test_encode_wire_event_names_events_as_sse_event_name_does(fmt: Any, event: dict[str, Any]) -> None:
    """The inlined event naming equals :func:`sse_event_name` with :func:`encode_sse`, whatever
    the ``type`` holds (a ``str`` subclass: the same failure, JSON cannot hold it)."""
    expected = _outcome(lambda: encode_sse(sse_event_name(fmt, event), dumps_str(event)))
    assert _outcome(lambda: encode_wire_event(fmt, event)) == expected
    assert _outcome(lambda: encode_wire_event(fmt, event)) == expected  # from the cached prefix too
    assert expected is TypeError or isinstance(expected, bytes)


def test_no_events_frame_as_no_bytes() -> None:
    assert encode_wire_events("anthropic", []) == b""


def _call(call_id: str, kind: Any = "function") -> ToolCall:
    return ToolCall(id=call_id, name=f"tool_{call_id}", arguments="", kind=kind)


_BUFFERED: list[StreamEvent] = [
    ResponseStart(id="msg_1", model="m", origin="openai-chat"),
    PartStart(index=0, part=TextPart(text="")),
    TextDelta(index=0, text="hi"),
    PartStart(index=1, part=_call("a")),
    PartStart(index=2, part=_call("b")),  # buffered while call a streams
    ToolCallDelta(index=2, arguments='{"x"'),
    ToolCallDelta(index=1, arguments="{}"),
    ToolCallDelta(index=2, arguments=""),  # an empty delta: nothing sent
    ToolCallDelta(index=2, arguments=": 1}"),
    PartStart(index=5, part=_call("d")),
    ToolCallDelta(index=5, arguments='{"cut'),  # held: its check notes the cut arguments
    PartStart(index=3, part=_call("c", "custom")),  # a custom call: the general path
    ToolCallDelta(index=3, arguments="free text"),
    PartStart(index=4, part=TextPart(text="")),  # text buffered behind the calls
    TextDelta(index=4, text="after"),
    PartEnd(index=0),
    PartEnd(index=1),
    PartEnd(index=2, part=ToolCall(id="b", name="tool_b", arguments='{"x": 1}')),  # as sent: no more
    PartEnd(index=3),
    PartEnd(index=4),
    PartEnd(index=5),
    ResponseEnd(stop_reason="tool_use"),
]


def _emit_each(self: StreamEncoder, slot: Slot, out: list[WireEvent]) -> None:
    """The general path of ``_replay``: every buffered delta through ``_emit``."""
    for pending in slot.pending:
        out += self._emit(slot, pending)
    slot.pending.clear()


def _encode(events: list[StreamEvent]) -> tuple[list[WireEvent], list[Any]]:
    notes = Notes("warn")
    encoder = StreamEncoder(notes)
    out = [wire for event in events for wire in encoder.feed(event)]
    return out, list(notes.items)


def test_anthropic_encoder_replays_buffered_deltas_as_emit_does(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deltas buffered while another block streams are sent as ``_emit`` sends each one."""
    fast = _encode(_BUFFERED)
    monkeypatch.setattr(StreamEncoder, "_replay", _emit_each)
    general = _encode(_BUFFERED)
    assert fast == general
    deltas = [w["delta"] for w in fast[0] if isinstance(w, dict) and w["type"] == "content_block_delta"]
    assert {"type": "input_json_delta", "partial_json": ": 1}"} in deltas  # the replayed call's
    assert {"type": "text_delta", "text": "after"} in deltas
    assert any("not a complete JSON object" in note.message for note in fast[1])


def test_chat_to_anthropic_buffered_call_frames_as_the_general_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Chat stream's second call (buffered by the Anthropic encoder until the first ends)."""

    def frames() -> bytes:
        translator = StreamTranslator("openai-chat", "anthropic", policy="drop")
        return b"".join(translator.feed_frames(e) for e in benchmark_stream_in("openai-chat"))

    fast = frames()
    monkeypatch.setattr(StreamEncoder, "_replay", _emit_each)
    assert frames() == fast
