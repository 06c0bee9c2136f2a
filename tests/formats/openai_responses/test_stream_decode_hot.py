"""Which Responses stream events the decoder's hot path takes, and that both paths agree
(issue 22: a hot path that takes an event it should not would drop or misplace it)."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.formats.openai_responses import StreamDecoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import TextPart, ToolCall
from toolwire.ir.stream import TextDelta, ToolCallDelta

RESPONSE = {
    "id": "resp_1",
    "object": "response",
    "created_at": 1,
    "status": "in_progress",
    "model": "m",
    "output": [],
}
MESSAGE = {"id": "msg_1", "type": "message", "status": "in_progress", "role": "assistant", "content": []}
CALL = {
    "id": "fc_1",
    "type": "function_call",
    "call_id": "c1",
    "name": "f",
    "arguments": "",
    "status": "in_progress",
}
AT = {"item_id": "msg_1", "output_index": 0, "content_index": 0}


def head() -> list[dict[str, Any]]:
    return [
        {"type": "response.created", "response": RESPONSE},
        {"type": "response.output_item.added", "output_index": 0, "item": MESSAGE},
        {"type": "response.content_part.added", **AT, "part": {"type": "output_text", "text": ""}},
        {"type": "response.output_item.added", "output_index": 1, "item": CALL},
    ]


def text(delta: Any = "b", **fields: Any) -> dict[str, Any]:
    return {"type": "response.output_text.delta", **AT, "delta": delta, **fields}


def args(delta: Any = "{", **fields: Any) -> dict[str, Any]:
    return {
        "type": "response.function_call_arguments.delta",
        "item_id": "fc_1",
        "output_index": 1,
        "delta": delta,
        **fields,
    }


def started() -> StreamDecoder:
    decoder = StreamDecoder()
    for event in head():
        decoder.feed(event)
    return decoder


def test_text_and_argument_deltas_of_open_items_take_the_hot_path() -> None:
    decoder = started()
    assert decoder.hot(text()) == (TextDelta, 0, "b")
    assert decoder.hot({**text(), "type": "response.refusal.delta"}) == (TextDelta, 0, "b")
    assert decoder.hot(args()) == (ToolCallDelta, 1, "{")
    assert decoder.hot({**args(), "type": "response.custom_tool_call_input.delta"}) == (ToolCallDelta, 1, "{")


@pytest.mark.parametrize(
    "event",
    [
        text(""),
        text(5),
        text(output_index=2),
        text(output_index="0"),
        text(content_index=1),
        text(content_index="0"),
        {**text(), "type": 5},
        {**text(), "type": "response.output_text.done"},
        {**args(), "output_index": 0},  # arguments for a message
        text(output_index=1),  # text for a function call
        "[DONE]",
        [text()],
    ],
)
def test_anything_else_takes_the_general_path(event: Any) -> None:
    assert started().hot(event) is None


def test_no_hot_path_after_the_end() -> None:
    decoder = started()
    decoder.feed({"type": "response.completed", "response": {**RESPONSE, "status": "completed"}})
    assert decoder.hot(text()) is None


def test_hot_and_general_paths_give_the_same_response() -> None:
    events = [
        *head(),
        text("a"),
        text("b"),
        args('{"x"'),
        args(":1}"),
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": {
                **MESSAGE,
                "status": "completed",
                "content": [{"type": "output_text", "text": "ab", "annotations": []}],
            },
        },
        {"type": "response.output_item.done", "output_index": 1, "item": {**CALL, "arguments": '{"x":1}'}},
        {"type": "response.completed", "response": {**RESPONSE, "status": "completed"}},
    ]
    hot, general = StreamDecoder(), StreamDecoder()
    via_hot = [e for event in events for e in hot.feed(event)] + hot.close()
    via_general = [e for event in events for e in general._feed(event)] + general.close()
    assert via_hot == via_general
    parts = accumulate(via_hot).parts
    assert [type(p) for p in parts] == [TextPart, ToolCall]
    assert (parts[0].text, parts[1].arguments) == ("ab", '{"x":1}')  # type: ignore[union-attr]
