"""Property: any interleaving of parallel tool calls encodes to a valid, equivalent Anthropic stream."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.formats.anthropic._streams import chop, sdk_message
from toolwire.formats._stream import iter_events
from toolwire.formats.anthropic import StreamDecoder, StreamEncoder, check_stream
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import TextPart, ToolCall
from toolwire.ir.stream import (
    PartEnd,
    PartStart,
    ResponseEnd,
    ResponseStart,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
)

_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)
_ARGS = st.dictionaries(st.text(max_size=6), _VALUES, max_size=4)


@st.composite
def _streams(draw: st.DrawFn) -> tuple[list[StreamEvent], list[tuple[str, str, Any]], str]:
    text = draw(st.text(max_size=20))
    calls = draw(st.lists(_ARGS, min_size=1, max_size=4))
    lanes: list[list[StreamEvent]] = []
    starts: list[StreamEvent] = [PartStart(index=0, part=TextPart(text=""))]
    lanes.append(
        [TextDelta(index=0, text=t) for t in chop(text, draw(st.integers(1, 4)))] + [PartEnd(index=0)]
    )
    expected = []
    for n, args in enumerate(calls, 1):
        raw = json.dumps(args)
        starts.append(PartStart(index=n, part=ToolCall(id=f"call_{n}", name=f"tool_{n}")))
        pieces = chop(raw, draw(st.integers(1, 5)))
        lanes.append([ToolCallDelta(index=n, arguments=p) for p in pieces] + [PartEnd(index=n)])
        expected.append((f"call_{n}", f"tool_{n}", args))
    # every part starts in index order (as sources send them); deltas and ends interleave freely
    events: list[StreamEvent] = [ResponseStart(id="r", model="m", origin="openai-chat")]
    pending = [0] * len(lanes)
    started = 0
    while started < len(lanes) or any(pending[i] < len(lanes[i]) for i in range(started)):
        live = [i for i in range(started) if pending[i] < len(lanes[i])]
        if started < len(lanes) and (not live or draw(st.booleans())):
            events.append(starts[started])
            started += 1
            continue
        lane = draw(st.sampled_from(live))
        events.append(lanes[lane][pending[lane]])
        pending[lane] += 1
    events.append(ResponseEnd(stop_reason="tool_calls"))
    return events, expected, text


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_streams())
def test_interleaved_parallel_calls(case: tuple[list[StreamEvent], list[tuple[str, str, Any]], str]) -> None:
    events, expected, text = case
    enc = StreamEncoder()
    wire = [w for e in events for w in enc.feed(e)] + enc.close()
    assert check_stream(wire) == []
    message = sdk_message(wire)
    calls = [(b.id, b.name, b.input) for b in message.content if b.type == "tool_use"]
    assert calls == expected
    assert "".join(b.text for b in message.content if b.type == "text") == text
    back = accumulate(iter_events(StreamDecoder(), wire))
    assert [(c.id, c.name, json.loads(c.arguments)) for c in back.tool_calls] == expected
    assert back.stop_reason == "tool_calls" and back.raw_stop_reason == "tool_use"
