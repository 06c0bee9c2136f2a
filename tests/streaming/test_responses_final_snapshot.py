"""The Responses stream encoder's direct builds: the final response object of another format's plain
response (``final_snapshot``) equals ``encode_response`` with the stream's items (events, key order
and notes), declining (with no note) whatever it does not build; a hot-path delta's SSE bytes
(``delta_head``, ``delta_bytes``) equal its event's SSE bytes, for any item id, index and text."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from tests.compiled import pure_only
from toolwire import streaming
from toolwire._json import dumps_leaf
from toolwire.errors import ConversionError
from toolwire.formats._stream import HOLE, encode_wire_event
from toolwire.formats.openai_responses import _stream_encode, _stream_parts
from toolwire.formats.openai_responses._stream_encode import StreamEncoder
from toolwire.formats.openai_responses._stream_parts import (
    Live,
    delta_bytes,
    delta_event,
    delta_head,
    is_content,
)
from toolwire.ir.content import Part, ReasoningPart, RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo, StopReason, Usage
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ResponseEnd,
    ResponseStart,
    StreamErrorEvent,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    UsageUpdate,
)

_CALL = ToolCall(name="get_weather", id="toolu_1")
_USAGE = Usage(input_tokens=5, output_tokens=7)


def _stream(
    *,
    start: ResponseStart | None = None,
    parts: tuple[Part, ...] = (TextPart(text=""), _CALL),
    stop: StopReason | None = "tool_calls",
    usage: Usage | None = _USAGE,
    end_extra: dict[str, Any] | None = None,
) -> list[StreamEvent]:
    events: list[StreamEvent] = [start or ResponseStart(id="msg_1", model="m", created=1, origin="anthropic")]
    for index, part in enumerate(parts):
        events.append(PartStart(index=index, part=part))
        if isinstance(part, ToolCall):
            final = ToolCall(name=part.name, id=part.id, arguments='{"a": 1}')
            events += [ToolCallDelta(index=index, arguments=text) for text in ('{"a": ', "1}")]
            events.append(PartEnd(index=index, part=final))
        else:
            events += [TextDelta(index=index, text='hé "x"\n'), TextDelta(index=index, text="")]
            events.append(PartEnd(index=index))
    if usage is not None:
        events.append(UsageUpdate(usage=usage))
    events.append(ResponseEnd(stop_reason=stop, raw_stop_reason="raw", extra=end_extra or {}))
    return events


def _run(events: list[StreamEvent], policy: str) -> tuple[list[Any], list[Any]]:
    notes = Notes(policy)  # type: ignore[arg-type]
    encoder = StreamEncoder(notes)
    out: list[Any] = []
    try:
        for event in events:
            out += encoder.feed(event)
        out += encoder.close()
    except ConversionError as exc:
        out.append(("raised", exc.path, str(exc)))
    return out, list(notes)


_CASES = {
    "text-and-call": _stream(),
    "text-only": _stream(parts=(TextPart(text=""),), stop="end_turn"),
    "no-parts": _stream(parts=(), stop="end_turn"),
    "no-usage": _stream(usage=None),
    "some-details": _stream(usage=Usage(input_tokens=1, output_tokens=2, cached_tokens=3)),
    "write-only": _stream(usage=Usage(input_tokens=1, output_tokens=2, cache_creation_tokens=4)),
    "all-details": _stream(
        usage=Usage(input_tokens=1, output_tokens=2, total_tokens=9, cached_tokens=3, reasoning_tokens=1)
    ),
    "no-model-no-created": _stream(start=ResponseStart(id="msg_1", origin="gemini")),
    "no-id": _stream(start=ResponseStart(model="m", created=5, origin="openai-chat")),
    "inexact-stop": _stream(stop="stop_sequence"),
    "two-messages": _stream(parts=(TextPart(text=""), _CALL, RefusalPart(text=""), TextPart(text="a"))),
    # declined: the general path builds these
    "incomplete": _stream(stop="max_tokens"),
    "failed": _stream(stop="error"),
    "no-stop": _stream(stop=None),
    "usage-without-output": _stream(usage=Usage(input_tokens=1)),
    "usage-extra": _stream(usage=Usage(input_tokens=1, output_tokens=2, extra={"x": 1})),
    "end-extra": _stream(end_extra={"x-field": 1}),
    "signature": _stream(parts=(TextPart(text="", thought_signature="sig"),)),
    "same-format": _stream(start=ResponseStart(id="resp_1", model="m", created=1, origin="openai-responses")),
    "call-without-id": _stream(parts=(ToolCall(name="f"),)),
}
_DECLINED = {
    *("incomplete", "failed", "no-stop", "usage-without-output", "usage-extra", "end-extra", "same-format"),
    *("signature", "call-without-id"),  # items encoded with notes: ``Built`` is not clean
    "two-messages",  # a refusal has no hot path: its part is the accumulator's, not the item's
}


@pure_only
@pytest.mark.parametrize("policy", ["warn", "strict"])
@pytest.mark.parametrize("case", sorted(_CASES))
def test_final_snapshot_equals_the_general_one(
    monkeypatch: pytest.MonkeyPatch, case: str, policy: str
) -> None:
    events = _CASES[case]
    built: list[Any] = []
    direct = _stream_encode.final_snapshot
    monkeypatch.setattr(_stream_encode, "final_snapshot", lambda *a: built.append(direct(*a)) or built[-1])
    fast = _run(events, policy)
    monkeypatch.setattr(_stream_encode, "final_snapshot", lambda *a: None)
    slow = _run(events, policy)
    assert fast == slow
    final = [e for e in fast[0] if isinstance(e, dict) and "response" in e]
    if built:
        assert [list(e["response"]) for e in final] == [list(e["response"]) for e in slow[0] if e in final]
    if policy == "warn":  # which builds it
        assert (built[0] is None) == (case in _DECLINED)


@pure_only
def test_final_snapshot_declines_after_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed stream's ``response.failed`` never takes the direct build."""
    events = [*_stream()[:-1], StreamErrorEvent(error=ErrorInfo(message="boom", code="x"))]
    fast = _run(events, "warn")
    monkeypatch.setattr(_stream_encode, "final_snapshot", lambda *a: None)
    assert fast == _run(events, "warn")


_IDS = ["msg_1", "fc_%d%s%%", 'ids "quoted" é ✓', HOLE, f"a{HOLE}b", "", "x" * 300]
_TEXTS = ["a", "%s %d %%", '"\\\n\t', "é ✓ 😀", HOLE, "\x00\x1f", "x" * 1000]


@pytest.mark.parametrize("item_id", _IDS)
@pytest.mark.parametrize("kind", ["text", "function", "custom"])
@pytest.mark.parametrize("skeleton", [True, False])
def test_delta_head_gives_the_general_frame(
    item_id: str, kind: str, skeleton: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Filled with any text and sequence number (``delta_bytes``), ``delta_head`` gives the delta
    event's SSE bytes, from the per-process skeleton and without it (the general cut)."""
    content = kind == "text"
    part: Part = TextPart(text="") if content else ToolCall(name="f", id="c", kind=kind)  # type: ignore[arg-type]
    live = Live(3, part, item_id=item_id, output_index=12, content_index=4 if content else 0, content=content)
    live.fast_type = {
        "text": "response.output_text.delta",
        "function": "response.function_call_arguments.delta",
        "custom": "response.custom_tool_call_input.delta",
    }[kind]
    if not skeleton:
        monkeypatch.setitem(_stream_parts._SKELETONS, (live.fast_type, content), b"")
    head = delta_head(live)
    assert head or (not skeleton and HOLE in item_id)  # the general cut declines a hole in the id
    if not head:
        return
    for seq, text in enumerate(_TEXTS, start=7):
        event = delta_event(live, text, seq)
        assert delta_bytes(head, dumps_leaf(text), seq, content) == encode_wire_event(
            "openai-responses", event
        )


def _subclassed(value: Any) -> Any:
    """``value`` (an IR struct) as an instance of a subclass of its type."""
    cls = type(f"Sub{type(value).__name__}", (type(value),), {})
    return cls(**{name: getattr(value, name) for name in value.__struct_fields__})


def test_event_kinds_cover_every_ir_event() -> None:
    """The general path tells IR events by exact type first (the encoder's ``_KINDS``, the
    translator's ``_IR_EVENTS``): both hold every IR stream event type, and an instance of a
    subclass gets its base's kind (``_kind``: isinstance, in ``_KINDS`` order)."""
    types = set(get_args(StreamEvent))
    assert set(_stream_encode._KINDS) == types
    assert types == streaming._IR_EVENTS
    for event in [*_stream(), StreamErrorEvent(error=ErrorInfo(message="x"))]:
        assert _stream_encode._kind(_subclassed(event)) == _stream_encode._KINDS[type(event)]


def test_is_content_takes_subclasses() -> None:
    """``is_content`` is ``isinstance(part, CONTENT)``, by exact type first."""
    for part in (TextPart(text="a"), RefusalPart(text="b"), ToolCall(name="f"), ReasoningPart(text="r")):
        expected = isinstance(part, _stream_parts.CONTENT)
        assert is_content(part) is expected
        assert is_content(_subclassed(part)) is expected
