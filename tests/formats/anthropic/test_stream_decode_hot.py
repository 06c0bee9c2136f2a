"""Which Anthropic stream events the decoder's hot path takes, and that both paths agree
(issue 22: a hot path that takes an event it should not would drop or misplace it)."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.formats.anthropic import StreamDecoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import TextPart, ToolCall
from toolwire.ir.stream import TextDelta, ToolCallDelta

MESSAGE = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude",
    "content": [],
    "stop_reason": None,
    "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
}
START = {"type": "message_start", "message": MESSAGE}
TEXT_START = {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}
CALL_START = {
    "type": "content_block_start",
    "index": 1,
    "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}},
}


def text(value: Any = "b", index: Any = 0, kind: Any = "text_delta") -> dict[str, Any]:
    return {"type": "content_block_delta", "index": index, "delta": {"type": kind, "text": value}}


def args(value: Any = "{", index: Any = 1) -> dict[str, Any]:
    return {
        "type": "content_block_delta",
        "index": index,
        "delta": {"type": "input_json_delta", "partial_json": value},
    }


def fed(*events: dict[str, Any]) -> StreamDecoder:
    decoder = StreamDecoder()
    for event in (START, *events):
        decoder.feed(event)
    return decoder


def test_deltas_of_the_open_block_take_the_hot_path() -> None:
    assert fed(TEXT_START).hot(text()) == (TextDelta, 0, "b")
    assert fed(TEXT_START).hot(text("")) == (TextDelta, 0, "")
    calls = fed(TEXT_START, {"type": "content_block_stop", "index": 0}, CALL_START)
    assert calls.hot(args()) == (ToolCallDelta, 1, "{")


@pytest.mark.parametrize(
    "event",
    [
        text(5),
        text(index=1),
        text(index="0"),
        text(kind="thinking_delta"),
        args(index=0),
        {**text(), "type": "content_block_stop"},
        {**text(), "delta": "b"},
        "b",
    ],
)
def test_anything_else_takes_the_general_path(event: Any) -> None:
    assert fed(TEXT_START).hot(event) is None


def test_no_hot_path_without_an_open_block() -> None:
    assert fed().hot(text()) is None
    assert fed(TEXT_START, {"type": "content_block_stop", "index": 0}).hot(text()) is None


def test_hot_and_general_paths_give_the_same_response() -> None:
    events = [
        START,
        TEXT_START,
        text("a"),
        text(""),
        text("b"),
        {"type": "content_block_stop", "index": 0},
        CALL_START,
        args('{"x"'),
        args(""),
        args(":1}"),
        {"type": "content_block_stop", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 3}},
        {"type": "message_stop"},
    ]
    hot, general = StreamDecoder(), StreamDecoder()
    via_hot = [e for event in events for e in hot.feed(event)] + hot.close()
    via_general = [e for event in events for e in general._feed(event)] + general.close()
    assert via_hot == via_general
    parts = accumulate(via_hot).parts
    assert [type(p) for p in parts] == [TextPart, ToolCall]
    assert (parts[0].text, parts[1].arguments) == ("ab", '{"x":1}')  # type: ignore[union-attr]
