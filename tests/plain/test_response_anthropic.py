"""The Anthropic response reader and writer of the response lanes: one-spot changes of a plain
Anthropic response pin each guard of the reader (the lane takes the plain shapes, the general
path every other one, with the same payload, notes and IR both ways), and the writer's refusals."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.test_response_lane import same_both_ways
from toolwire._json import MAX_DEPTH
from toolwire._plain import anthropic_response, chat_response
from toolwire._plain._response_lane import RESPONSE_WRITERS, response_lane
from toolwire.errors import LimitError
from toolwire.translate import translate_response

SOURCE = "anthropic"
TARGETS = [t for t in RESPONSE_WRITERS if t != SOURCE]


def plain() -> dict[str, Any]:
    """An Anthropic response of every shape the lane takes."""
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [
            {"type": "text", "text": "Checking."},
            {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"a": [1, {"b": None}]}},
            {"type": "tool_use", "id": "toolu_2", "name": "g", "input": {}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 10,
            "output_tokens": 5,
            "cache_read_input_tokens": 4,
            "cache_creation_input_tokens": 2,
            "service_tier": "standard",
        },
    }


def _block(index: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda p: p["content"][index]


TAKEN: dict[str, Callable[[dict[str, Any]], Any]] = {
    "as it is": lambda p: None,
    "text only": lambda p: [p["content"].pop(), p["content"].pop(), p.update(stop_reason="end_turn")],
    "calls only": lambda p: p["content"].pop(0),
    "end_turn with calls": lambda p: p.update(stop_reason="end_turn"),
    "cut at max_tokens": lambda p: p.update(stop_reason="max_tokens"),
    "a stop sequence reason": lambda p: p.update(stop_reason="stop_sequence"),
    "a refusal stop": lambda p: p.update(stop_reason="refusal"),
    "a pause": lambda p: p.update(stop_reason="pause_turn"),
    "usage of two counts": lambda p: p.update(usage={"input_tokens": 1, "output_tokens": 2}),
    "thinking tokens": lambda p: p["usage"].update(output_tokens_details={"thinking_tokens": 3}),
}

FALLS_BACK: dict[str, Callable[[dict[str, Any]], Any]] = {
    "an unknown field": lambda p: p.update(container=None),
    "another field for stop_sequence": lambda p: p.update(container=p.pop("stop_sequence")),
    "another field for the text": lambda p: _block(0)(p).update(citations=_block(0)(p).pop("text")),
    "another field for the input": lambda p: _block(1)(p).update(caller=_block(1)(p).pop("input")),
    "no stop_sequence": lambda p: p.pop("stop_sequence"),
    "a matched stop sequence": lambda p: p.update(stop_sequence="END"),
    "another type": lambda p: p.update(type="error"),
    "a user role": lambda p: p.update(role="user"),
    "an empty id": lambda p: p.update(id=""),
    "a model not a string": lambda p: p.update(model=None),
    "an unknown stop reason": lambda p: p.update(stop_reason="later"),
    "a null stop reason": lambda p: p.update(stop_reason=None),
    "no content": lambda p: p.update(content=[]),
    "content as a string": lambda p: p.update(content="hi"),
    "an empty text": lambda p: _block(0)(p).update(text=""),
    "a text with citations": lambda p: _block(0)(p).update(citations=[]),
    "a text after a call": lambda p: p["content"].append({"type": "text", "text": "Done."}),
    "two texts": lambda p: p["content"].insert(1, {"type": "text", "text": "More."}),
    "a thinking block": lambda p: p["content"].insert(
        0, {"type": "thinking", "thinking": "", "signature": "s"}
    ),
    "a call id used twice": lambda p: _block(2)(p).update(id="toolu_1"),
    "an empty call id": lambda p: _block(1)(p).update(id=""),
    "an empty name": lambda p: _block(1)(p).update(name=""),
    "input as a string": lambda p: _block(1)(p).update(input="{}"),
    "a server tool call": lambda p: _block(1)(p).update(type="server_tool_use"),
    "a call with caller": lambda p: _block(1)(p).update(caller={"type": "direct"}),
    "usage not an object": lambda p: p.update(usage=None),
    "a usage count as a string": lambda p: p["usage"].update(input_tokens="10"),
    "not a dict": lambda p: p.clear(),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", TAKEN)
def test_plain_shapes_take_the_lane(name: str, target: str) -> None:
    payload = plain()
    TAKEN[name](payload)
    assert same_both_ways(payload, SOURCE, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", FALLS_BACK)
def test_other_shapes_take_the_general_path(name: str, target: str) -> None:
    payload = plain()
    FALLS_BACK[name](payload)
    assert not same_both_ways(payload, SOURCE, target)


def test_the_plain_response_to_chat() -> None:
    out = translate_response(plain(), source=SOURCE, target="openai-chat", policy="drop").payload
    message = out["choices"][0]["message"]
    assert [c["function"]["arguments"] for c in message["tool_calls"]] == ['{"a":[1,{"b":null}]}', "{}"]
    assert out["choices"][0]["finish_reason"] == "tool_calls"
    assert out["usage"]["prompt_tokens"] == 16  # uncached + cache reads + cache writes


def _chat(arguments: str, call_id: str = "call_1") -> dict[str, Any]:
    call = {"id": call_id, "type": "function", "function": {"name": "f", "arguments": arguments}}
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1,
        "model": "gpt-4o",
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
    }


@pytest.mark.parametrize(
    ("arguments", "call_id", "taken"),
    [
        ('{"a": 1}', "call_1", True),
        ("[1]", "call_1", False),  # not an object: the general path sends {} and notes it
        ("{", "call_1", False),  # not JSON
        ('{"a": 1}', "call.1", False),  # an id Anthropic's pattern refuses: rewritten
    ],
)
def test_the_anthropic_writer_refuses_what_the_encoder_rewrites(
    arguments: str, call_id: str, taken: bool
) -> None:
    payload = _chat(arguments, call_id)
    assert (response_lane(payload, "openai-chat", SOURCE, "drop") is not None) is taken
    assert same_both_ways(payload, "openai-chat", SOURCE) is taken


def test_text_writers_refuse_arguments_too_deep_to_write() -> None:
    deep: Any = {}
    inner = deep
    for _ in range(MAX_DEPTH + 1):
        inner["a"] = {}
        inner = inner["a"]
    payload = plain()
    payload["content"][1]["input"] = deep
    read = anthropic_response.read_response(payload)
    assert read is not None
    assert chat_response.write_response(read) is None
    for target in ("openai-chat", "openai-responses"):
        assert response_lane(payload, SOURCE, target, "drop") is None
        with pytest.raises(LimitError):  # what the general path says of it
            translate_response(payload, source=SOURCE, target=target, policy="drop")
