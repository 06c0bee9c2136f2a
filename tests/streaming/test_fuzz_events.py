"""Mutated stream events: any JSON in any field of any event never escapes as a Python error.

Hypothesis takes the benchmark stream in each source format, replaces (or deletes) one field,
at any depth, of one event with arbitrary JSON, and translates it to every target three ways:
the hot paths (``feed``), the byte hot path (``feed_frames``) and the general paths only. All
three must agree, raise nothing, and, across formats, give a stream whose event order the
target's validator accepts (within one format a malformed event is passed on as it came).
"""

from __future__ import annotations

import copy
import uuid
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.corpus import STREAM_FORMATS as FORMATS
from tests.streaming._matrix import benchmark_stream_in
from tests.streaming.test_hot_paths import _Uuids, assert_same
from toolwire.ir.content import ToolCall
from toolwire.ir.stream import PartStart, StreamErrorEvent, TextDelta
from toolwire.streaming import StreamTranslator, check_stream, stream_decoder

JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
_STREAMS: dict[str, list[Any]] = {}
_CONTENT = frozenset({"invalid_tool_input"})


def _stream(fmt: str) -> list[Any]:
    if fmt not in _STREAMS:
        _STREAMS[fmt] = benchmark_stream_in(fmt, 100)
    return copy.deepcopy(_STREAMS[fmt])


def _slots(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``value`` a mutation may hit (dict keys and list positions, any depth)."""
    out: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        out.append((*path, key))
        out.extend(_slots(child, (*path, key)))
    return out


@st.composite
def mutated(draw: st.DrawFn, fmt: str) -> list[Any]:
    events = _stream(fmt)
    at = draw(st.integers(0, len(events) - 1))
    if not isinstance(events[at], dict):  # "[DONE]"
        events[at] = draw(JSON)
        return events
    slots = _slots(events[at])
    *parents, last = draw(st.sampled_from(slots))
    target = events[at]
    for key in parents:
        target = target[key]
    if isinstance(target, dict) and draw(st.booleans()):
        del target[last]
    else:
        target[last] = draw(JSON)
    return events


@pytest.mark.parametrize("src", FORMATS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_mutated_events_translate_the_same_on_every_path(src: str, data: st.DataObject) -> None:
    events = data.draw(mutated(src))
    uuids = _Uuids()  # ids synthesized for events that lost theirs: the same on every path
    with mock.patch.object(uuid, "uuid4", uuids):
        for dst in FORMATS:
            general = assert_same(events, src, dst, uuids)
            if src == dst:
                continue  # same format: a malformed upstream event is passed on as it came
            problems = check_stream(dst, [e for out in general for e in out])
            # broken argument JSON is passed on as received (noted), never replaced: the target's
            # validator may flag its content, never the event order
            assert [p for p in problems if p.code not in _CONTENT] == []


def _responses_done_of(events: list[Any], output_index: int) -> dict[str, Any]:
    return next(
        e["item"]
        for e in events
        if isinstance(e, dict)
        and e["type"] == "response.output_item.done"
        and e["output_index"] == output_index
    )


@pytest.mark.parametrize(
    ("output_index", "field", "value"),
    [
        (0, ("content", 0, "type"), "x"),  # the message's part type unknown: the item becomes opaque
        (0, ("content",), []),  # no content left: the item becomes opaque
        (0, ("type",), "x"),  # unknown item type where the message streamed
        (1, ("type",), "x"),  # unknown item type where a function call streamed
    ],
)
@pytest.mark.parametrize("dst", FORMATS)
def test_a_responses_item_that_ends_as_another_kind_keeps_what_streamed(
    output_index: int, field: tuple[Any, ...], value: Any, dst: str
) -> None:
    """Found by the test above (seed-dependent; formerly AttributeError in ``_content.py``,
    then a PayloadError out of ``feed``): the decoder ended a streamed text part (or call) with
    a final part of another kind. The streamed parts now end as sent, the final item comes as
    a part of its own, and every path agrees."""
    events = _stream("openai-responses")
    *parents, last = field
    target = _responses_done_of(events, output_index)
    for key in parents:
        target = target[key]
    target[last] = value
    general = assert_same(events, "openai-responses", dst, _Uuids())
    out = [e for chunk in general for e in chunk]
    decoder = stream_decoder(dst)  # type: ignore[arg-type]
    ir = [e for event in out for e in decoder.feed(event)] + decoder.close()
    text = "".join(e.text for e in ir if isinstance(e, TextDelta))
    names = [e.part.name for e in ir if isinstance(e, PartStart) and isinstance(e.part, ToolCall)]
    assert text == "Let me check the weather and the time "
    assert [name for name in names if name.startswith("get_")] == ["get_weather", "get_time"]
    assert not any(isinstance(e, StreamErrorEvent) for e in ir)
    assert [p for p in check_stream(dst, out) if p.code not in _CONTENT] == []


@pytest.mark.parametrize("dst", [f for f in FORMATS if f != "openai-responses"])
def test_a_responses_call_with_an_empty_call_id_gets_an_id_the_target_accepts(dst: str) -> None:
    """Found by the test above (seed-dependent): ``call_id: ""`` in a Responses call's
    ``output_item.added`` went to a Chat client as a first tool-call fragment with ``id: ""``,
    which Chat clients reject. Every path now agrees on an id the target accepts, and a Chat
    target's note says that the id was empty."""
    events = _stream("openai-responses")
    added = [e for e in events if isinstance(e, dict) and e["type"] == "response.output_item.added"]
    added[2]["item"]["call_id"] = ""  # the second call
    general = assert_same(events, "openai-responses", dst, _Uuids())
    out = [e for chunk in general for e in chunk]
    assert [p for p in check_stream(dst, out) if p.code not in _CONTENT] == []
    if dst == "openai-chat":
        headers = [
            c
            for e in out
            if isinstance(e, dict)
            for ch in e["choices"]
            for c in ch["delta"].get("tool_calls", [])
        ]
        ids = [c["id"] for c in headers if "id" in c]
        assert len(ids) == 2 and ids[0] == "toolu_01" and ids[1] not in ("", "toolu_01")
        translator = StreamTranslator("openai-responses", dst)
        for event in events:
            translator.feed(event)
        translator.close()
        assert any("had an empty id" in n.message for n in translator.notes), list(translator.notes)


def _unname(value: Any) -> bool:
    """The first tool call named ``get_weather`` in ``value`` renamed ``""``; ``False``: none."""
    if isinstance(value, dict):
        if value.get("name") == "get_weather":
            value["name"] = ""
            return True
        return any(_unname(v) for v in value.values())
    return isinstance(value, list) and any(_unname(v) for v in value)


@pytest.mark.parametrize("dst", FORMATS)
@pytest.mark.parametrize("src", FORMATS)
def test_a_call_started_with_an_empty_name_is_a_malformed_event(src: str, dst: str) -> None:
    """Found by the test above (seed-dependent) for a Responses source: ``name: ""`` in a call's
    start reached a Chat client as a first tool-call fragment without a name. Every source's
    decoder now takes such a call as malformed (``req_name``; Chat's when the call ends): every
    path agrees on an error event in its place."""
    events = _stream(src)
    assert _unname(events)
    uuids = _Uuids()  # a Bedrock stream's ids are synthesized: the same on every path
    with mock.patch.object(uuid, "uuid4", uuids):
        general = assert_same(events, src, dst, uuids)
    out = [e for chunk in general for e in chunk]
    decoder = stream_decoder(dst)  # type: ignore[arg-type]
    ir = [e for event in out for e in decoder.feed(event)] + decoder.close()
    names = [e.part.name for e in ir if isinstance(e, PartStart) and isinstance(e.part, ToolCall)]
    assert "" not in names
    errors = [e.error.message for e in ir if isinstance(e, StreamErrorEvent)]
    # a Chat call's name may come in a later fragment: its decoder judges it when the call ends
    said = "ended without a name" if src == "openai-chat" else "expected a tool name, got an empty string"
    assert errors and said in errors[0], errors
