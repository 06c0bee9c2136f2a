"""Fast paths of the stream codecs that have no recording of their own: each gives exactly what
the general path gives (output and notes), checked against that path itself."""

from __future__ import annotations

from typing import Any

import pytest

from tests.streaming._matrix import benchmark_stream_in
from toolwire._json import dumps_str
from toolwire.errors import PayloadError
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
    the ``type`` holds (a ``str`` subclass: the same toolwire error, JSON cannot hold it)."""
    expected = _outcome(lambda: encode_sse(sse_event_name(fmt, event), dumps_str(event)))
    assert _outcome(lambda: encode_wire_event(fmt, event)) == expected
    assert _outcome(lambda: encode_wire_event(fmt, event)) == expected  # from the cached prefix too
    assert expected is PayloadError or isinstance(expected, bytes)


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
    """The general path of ``_replay``: every buffered delta through ``_emit`` (a ``str``, the
    argument text ``frame_delta`` held, as its ToolCallDelta)."""
    for pending in slot.pending:
        event = ToolCallDelta(index=slot.ir, arguments=pending) if isinstance(pending, str) else pending
        out += self._emit(slot, event)
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


def _general_for_held_calls(encoder_cls: type, held: Any) -> Any:
    """``encoder_cls.frame_delta`` that leaves a held call's argument delta (``held``) to
    ``feed``, as before that delta had a fast path."""
    original = encoder_cls.frame_delta

    def frame_delta(self: Any, kind: type, index: int, text: str) -> bytes | None:
        if kind is ToolCallDelta and held(self, index):
            return None
        result: bytes | None = original(self, kind, index, text)
        return result

    return frame_delta


def _sse(source: str, target: str, events: list[WireEvent]) -> tuple[bytes, list[Any]]:
    translator = StreamTranslator(source, target, policy="warn")
    data = b"".join(translator.feed_frames(e) for e in events) + translator.close_frames()
    return data, list(translator.note_items)


_INTERLEAVED_CHAT: list[WireEvent] = [
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [
            {
                "index": 0,
                "delta": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "index": 0,
                            "id": "call_a",
                            "type": "function",
                            "function": {"name": "f", "arguments": ""},
                        },
                        {
                            "index": 1,
                            "id": "call_b",
                            "type": "function",
                            "function": {"name": "g", "arguments": ""},
                        },
                    ],
                },
                "logprobs": None,
                "finish_reason": None,
            }
        ],
    },
    *[
        {
            "id": "c",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "delta": {"tool_calls": [{"index": i % 2, "function": {"arguments": piece}}]},
                    "logprobs": None,
                    "finish_reason": None,
                }
            ],
        }
        for i, piece in enumerate(['{"x"', '{"y"', ": 1", ': "', "}", 'z"}'])
    ],
    {
        "id": "c",
        "object": "chat.completion.chunk",
        "created": 1,
        "model": "m",
        "choices": [{"index": 0, "delta": {}, "logprobs": None, "finish_reason": "tool_calls"}],
    },
    "[DONE]",
]
"""Two Chat calls whose argument deltas interleave (the second is held by Anthropic and Gemini
targets while the first streams)."""


_HELD: dict[str, tuple[str, str, bytes]] = {
    # target: (encoder module, its mark of a finished call in the bytes)
    "anthropic": ("toolwire.formats.anthropic._stream_encode", "_current", b'"type":"tool_use"'),
    "gemini": ("toolwire.formats.gemini._stream_encoder", "", b'"functionCall"'),
    "openai-responses": (
        "toolwire.formats.openai_responses._stream_encode",
        "_live",
        b'"type":"response.function_call_arguments.done"',
    ),
}


def _streaming(attribute: str) -> Any:
    """Whether ``index`` is the call the encoder streams now (its ``attribute``: the open
    block or live part), whose deltas always had the fast path; ``""``: none has."""

    def streams(encoder: Any, index: int) -> bool:
        now = getattr(encoder, attribute) if attribute else None
        ir = getattr(now, "ir", getattr(now, "index", None))
        return now is not None and ir == index and now.fast is ToolCallDelta

    return streams


@pytest.mark.parametrize(
    "events", [_INTERLEAVED_CHAT, benchmark_stream_in("openai-chat")], ids=["mixed", "bench"]
)
@pytest.mark.parametrize("target", list(_HELD))
def test_held_call_deltas_frame_as_the_general_path(
    events: list[WireEvent], target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An argument delta of a call the target holds (Anthropic: queued behind the open block;
    Gemini: until the call ends; Responses: waiting for the live part) takes ``frame_delta`` with
    no IR event: same bytes, same notes."""
    import importlib

    module, attribute, mark = _HELD[target]
    encoder_cls = importlib.import_module(module).StreamEncoder
    streams = _streaming(attribute)
    fast = _sse("openai-chat", target, events)
    patched = _general_for_held_calls(encoder_cls, lambda encoder, index: not streams(encoder, index))
    monkeypatch.setattr(encoder_cls, "frame_delta", patched)
    assert _sse("openai-chat", target, events) == fast
    assert fast[0].count(mark) == 2


def test_responses_waiting_call_delta_records_what_feed_records() -> None:
    """The Responses encoder's fast branch for a waiting call leaves the state ``feed`` leaves:
    the accumulated response and the waiting events."""
    from toolwire.formats.openai_responses._stream_encode import StreamEncoder as ResponsesEncoder

    head: list[StreamEvent] = [
        ResponseStart(id="resp_1", model="m", origin="openai-chat"),
        PartStart(index=0, part=_call("a")),
        PartStart(index=1, part=_call("b")),  # waits while call a streams
    ]
    fast, general = ResponsesEncoder(Notes("drop")), ResponsesEncoder(Notes("drop"))
    for encoder in (fast, general):
        for event in head:
            encoder.feed(event)
    assert fast.frame_delta(ToolCallDelta, 1, '{"y": 2}') == b""
    assert general.feed(ToolCallDelta(index=1, arguments='{"y": 2}')) == []
    assert fast._acc.response() == general._acc.response()
    assert fast._acc.response().parts[1] == ToolCall(id="b", name="tool_b", arguments='{"y": 2}')
    assert fast._waiting == general._waiting
