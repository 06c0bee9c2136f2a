"""The Responses stream encoder announces another format's message and tool call items
(``output_item.added``) and its ``response.created`` snapshot without encoding them when they are
plain (``_message_skeleton``, ``_call_skeleton``, ``created_snapshot``): the events, ids and notes equal
what the general encoders give; anything else (a thought signature, extra fields, media, a
missing call id, same-format hints) still takes the general path."""

from __future__ import annotations

from typing import Any

import pytest

from tests.compiled import pure_only
from toolwire.errors import ConversionError
from toolwire.formats.openai_responses import _stream_encode, _stream_items
from toolwire.formats.openai_responses._stream_encode import StreamEncoder
from toolwire.formats.openai_responses._stream_skeletons import plain_call, plain_content
from toolwire.ir.content import ImagePart, Part, RefusalPart, TextPart, ToolCall
from toolwire.ir.notes import Notes
from toolwire.ir.stream import PartEnd, PartStart, ResponseEnd, ResponseStart, TextDelta, ToolCallDelta


def _events(first: Part, origin: str = "anthropic") -> list[Any]:
    return [
        ResponseStart(id="msg_1", model="m", created=1, origin=origin),
        PartStart(index=0, part=first),
        TextDelta(index=0, text="hi") if not isinstance(first, ImagePart) else PartEnd(index=0),
        PartEnd(index=0) if not isinstance(first, ImagePart) else PartStart(index=1, part=TextPart(text="")),
        ResponseEnd(stop_reason="end_turn"),
    ]


def _run(events: list[Any], policy: str = "drop") -> tuple[list[Any], list[Any]]:
    notes = Notes(policy)  # type: ignore[arg-type]
    encoder = StreamEncoder(notes)
    out = [wire for event in events for wire in encoder.feed(event)]
    return out + encoder.close(), list(notes)


def _general(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (_stream_encode, _stream_items):
        monkeypatch.setattr(module, "plain_content", lambda part: False)


@pure_only
@pytest.mark.parametrize(
    "first",
    [TextPart(text=""), TextPart(text="x"), RefusalPart(text="")],
    ids=["text", "text-with-text", "refusal"],
)
def test_skeleton_equals_the_probe(monkeypatch: pytest.MonkeyPatch, first: Part) -> None:
    assert plain_content(first)
    fast = _run(_events(first))
    _general(monkeypatch)
    assert fast == _run(_events(first))
    added = [e for e in fast[0] if e["type"] == "response.output_item.added"]
    assert added[0]["item"]["id"].startswith("msg_") and added[0]["item"]["status"] == "in_progress"


@pure_only
@pytest.mark.parametrize(
    "first",
    [
        TextPart(text="", thought_signature="sig"),
        TextPart(text="", extra={"x-field": 1}),
        RefusalPart(text="", extra={"x-field": 1}),
        ImagePart(url="https://example.com/a.png"),
    ],
    ids=["signature", "text-extra", "refusal-extra", "image"],
)
def test_other_first_parts_probe(monkeypatch: pytest.MonkeyPatch, first: Part) -> None:
    assert not plain_content(first)
    calls: list[Any] = []
    probe = StreamEncoder._probe

    def spy(self: StreamEncoder, parts: Any, index: int) -> Any:
        calls.append(parts)
        return probe(self, parts, index)

    monkeypatch.setattr(StreamEncoder, "_probe", spy)
    _run(_events(first))
    assert calls and calls[0] == (first,)


@pure_only
def test_same_format_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same-format parts may carry the message's own fields (``~msg``): encoded, not assumed."""
    calls: list[Any] = []
    probe = StreamEncoder._probe
    monkeypatch.setattr(StreamEncoder, "_probe", lambda s, p, i: calls.append(p) or probe(s, p, i))
    _run(_events(TextPart(text=""), origin="openai-responses"))
    assert calls


def test_strict_signature_still_raises_at_the_probe() -> None:
    """A lossy first part under ``strict`` fails where the probe notes it, as before."""
    with pytest.raises(ConversionError) as raised:
        _run(_events(TextPart(text="", thought_signature="sig")), policy="strict")
    assert raised.value.path == "$.parts[0][0]"


@pure_only
@pytest.mark.parametrize(
    "start",
    [
        ResponseStart(id="msg_1", model="m", created=1, origin="anthropic"),
        ResponseStart(id="msg_1", origin="gemini"),
        ResponseStart(model="m", created=5, origin="openai-chat"),
        ResponseStart(id="msg_1", model="m", created=1, origin="anthropic", extra={"x-field": 1}),
        ResponseStart(id="resp_1", model="m", created=1, origin="openai-responses"),
    ],
    ids=["plain", "no-model-no-created", "no-id", "extra", "same-format"],
)
def test_created_snapshot_equals_the_general_one(
    monkeypatch: pytest.MonkeyPatch, start: ResponseStart
) -> None:
    """``response.created`` built directly (``created_snapshot``) equals ``_snapshot`` of the start,
    key order and notes included; starts with extra fields or of this format decline."""
    plain = start.origin != "openai-responses" and not start.extra
    calls: list[Any] = []
    general = StreamEncoder._snapshot
    monkeypatch.setattr(
        StreamEncoder, "_snapshot", lambda s, r, st=None: calls.append(st) or general(s, r, st)
    )
    monkeypatch.setattr(_stream_encode, "final_snapshot", lambda *args: None)  # its own test file
    fast = _run([start, ResponseEnd(stop_reason="end_turn")], policy="warn")
    assert calls == ([None] if plain else ["in_progress", None])
    monkeypatch.setattr(_stream_encode, "plain_start", lambda start: False)
    slow = _run([start, ResponseEnd(stop_reason="end_turn")], policy="warn")
    assert fast == slow
    assert [list(e["response"]) for e in fast[0][:2]] == [list(e["response"]) for e in slow[0][:2]]


def _call_events(call: ToolCall, origin: str = "anthropic") -> list[Any]:
    return [
        ResponseStart(id="msg_1", model="m", created=1, origin=origin),
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="hi"),
        PartEnd(index=0),
        PartStart(index=1, part=call),
        ToolCallDelta(index=1, arguments='{"a": 1}'),
        PartEnd(index=1),
        ResponseEnd(stop_reason="tool_calls"),
    ]


def _probes(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    calls: list[Any] = []
    probe = StreamEncoder._probe
    monkeypatch.setattr(StreamEncoder, "_probe", lambda s, p, i: calls.append(p) or probe(s, p, i))
    return calls


@pure_only
@pytest.mark.parametrize(
    "call",
    [
        ToolCall(name="f", id="call_1"),
        ToolCall(name="f", id="call_1", kind="custom"),
        ToolCall(name="f", id="call_1", item_id="fc_own"),
        ToolCall(name="f", id="call_1", namespace="ns"),
    ],
    ids=["function", "custom", "item-id", "namespace"],
)
def test_call_skeleton_equals_the_probe(monkeypatch: pytest.MonkeyPatch, call: ToolCall) -> None:
    probes = _probes(monkeypatch)
    encoded: list[Any] = []
    general = _stream_items.encode_assistant
    monkeypatch.setattr(_stream_items, "encode_assistant", lambda p, *a: encoded.append(p) or general(p, *a))
    fast = _run(_call_events(call), policy="warn")
    assert probes == []
    assert not any(isinstance(part, ToolCall) for parts in encoded for part in parts)  # nor its done item
    _general(monkeypatch)
    for module in (_stream_encode, _stream_items):
        monkeypatch.setattr(module, "plain_call", lambda call: False)
    assert fast == _run(_call_events(call), policy="warn")
    added = [e["item"] for e in fast[0] if e["type"] == "response.output_item.added"]
    assert added[1]["status"] == "in_progress" and added[1]["call_id"] == "call_1"


@pure_only
@pytest.mark.parametrize(
    "call",
    [
        ToolCall(name="f"),
        ToolCall(name="f", id="call_1", thought_signature="sig"),
        ToolCall(name="f", id="call_1", extra={"x-field": 1}),
        ToolCall(name="web_search", id="call_1", kind="builtin"),
    ],
    ids=["no-id", "signature", "extra", "builtin"],
)
def test_other_calls_probe(monkeypatch: pytest.MonkeyPatch, call: ToolCall) -> None:
    assert not plain_call(call)
    probes = _probes(monkeypatch)
    _run(_call_events(call))
    assert any(isinstance(p[0], ToolCall) for p in probes)


@pure_only
def test_same_format_call_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    probes = _probes(monkeypatch)
    _run(_call_events(ToolCall(name="f", id="call_1"), origin="openai-responses"))
    assert any(isinstance(p[0], ToolCall) for p in probes)


@pure_only
def test_message_of_text_and_refusal_equals_the_general_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A message item of several plain parts (``content_wire`` each, one id) and its done events."""
    events = [
        ResponseStart(id="msg_1", model="m", created=1, origin="gemini"),
        PartStart(index=0, part=TextPart(text="")),
        TextDelta(index=0, text="hi"),
        PartEnd(index=0),
        PartStart(index=1, part=RefusalPart(text="no")),
        PartEnd(index=1),
        PartStart(index=2, part=TextPart(text="", thought_signature="sig")),
        TextDelta(index=2, text="more"),
        PartEnd(index=2),
        ResponseEnd(stop_reason="end_turn"),
    ]
    fast = _run(events, policy="warn")
    _general(monkeypatch)
    assert fast == _run(events, policy="warn")
    done = [e["item"] for e in fast[0] if e["type"] == "response.output_item.done"]
    assert [part["type"] for part in done[0]["content"]] == ["output_text", "refusal", "output_text"]
