"""The fast lanes of the input decoder (``_fast_items``) give exactly what the general decoder gives.

Each item is decoded by its lane and by ``decode_item``; the two must print the same (``repr``
shows every field and the order of every extra), and the lane must take the shapes it is for
(else it would be dead code) and leave the others to the general decoder.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import toolwire
from toolwire.errors import ToolwireError
from toolwire.formats import openai_responses as resp
from toolwire.formats.openai_responses import _messages
from toolwire.formats.openai_responses._decode_items import decode_item
from toolwire.formats.openai_responses._fast_items import FAST_DECODERS
from toolwire.ir import Notes

_TAKEN: list[dict[str, Any]] = [
    {"role": "user", "content": "hi"},
    {"role": "system", "content": "be brief"},
    {"role": "developer", "content": "be brief"},
    {"role": "assistant", "content": "hello"},
    {"role": "assistant", "content": ""},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "a"}]},
    {
        "type": "message",
        "role": "developer",
        "id": "m1",
        "status": "completed",
        "content": [{"type": "input_text", "text": "a"}, {"type": "output_text", "text": "b"}],
    },
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "a", "extra": 1}]},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a"}]},
    {
        "type": "message",
        "id": "msg_1",
        "status": "completed",
        "role": "assistant",
        "content": [
            {"type": "output_text", "text": "a", "annotations": [], "logprobs": []},
            {"type": "input_text", "text": "b"},
        ],
    },
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": ""},
    {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "f", "arguments": "{}"},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": "completed"},
    {"type": "function_call_output", "call_id": "c1", "output": "ok"},
    {"type": "function_call_output", "call_id": "c1", "output": ""},
    {"type": "function_call_output", "status": "completed", "call_id": "c1", "output": "ok", "id": "o1"},
    {"type": "function_call_output", "call_id": "c1", "output": "ok", "id": "o1"},
]

_LEFT: list[dict[str, Any]] = [
    {"role": "user", "content": ""},
    {"role": "user", "content": "hi", "name": "x"},
    {"role": "robot", "content": "hi"},
    {"role": "user", "content": [{"type": "input_text", "text": "a"}]},
    {"type": "message", "role": "user", "content": []},
    {"type": "message", "role": "user", "content": "a"},
    {"type": "message", "role": "user", "content": [{"type": "input_image", "image_url": "u"}]},
    {"type": "message", "role": "user", "content": [{"type": ["x"], "text": "a"}]},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": None}]},
    {"type": "message", "role": "user", "content": ["a"]},
    {"type": "message", "role": "user", "id": None, "content": [{"type": "input_text", "text": "a"}]},
    {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "a"}], "x": 1},
    {"type": "message", "role": "assistant", "content": []},
    {"type": "message", "content": [{"type": "input_text", "text": "a"}]},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": {}},
    {"type": "function_call", "call_id": None, "name": "f", "arguments": "{}"},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "namespace": "n"},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "status": None},
    {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}", "x": 1},
    {"type": "function_call_output", "call_id": "c1", "output": [{"type": "input_text", "text": "a"}]},
    {"type": "function_call_output", "call_id": "c1", "output": "ok", "name": "f"},
    {"type": "function_call_output", "call_id": "c1", "output": "ok", "id": 3},
    {"type": "function_call_output", "output": "ok", "x": 1},
]


def _general(item: dict[str, Any]) -> str:
    return repr(decode_item(copy.deepcopy(item), "$.input[0]"))


@pytest.mark.parametrize("item", _TAKEN)
def test_a_common_shape_takes_its_lane_and_decodes_as_the_general_decoder(item: dict[str, Any]) -> None:
    lane = FAST_DECODERS[item.get("type")]
    got = lane(copy.deepcopy(item))
    assert got is not None
    assert repr(got) == _general(item)


@pytest.mark.parametrize("item", _LEFT)
def test_other_shapes_are_left_to_the_general_decoder(item: dict[str, Any]) -> None:
    assert FAST_DECODERS[item.get("type")](copy.deepcopy(item)) is None


def test_a_request_decodes_as_without_the_lanes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Grouping of consecutive model output and tool results, ids of the groups and where each
    message came from are the same through the lanes as through the general decoder alone."""
    items = [item for item in _TAKEN + _LEFT if _decodes(item)]
    items += [_TAKEN[3], _TAKEN[10], _TAKEN[9], _TAKEN[14], _TAKEN[16], _TAKEN[0], _TAKEN[12], _TAKEN[8]]
    payload = {"model": "m", "instructions": "be brief", "input": items}
    fast = _decoded(payload)
    monkeypatch.setattr(_messages, "FAST_DECODERS", {})
    assert fast == _decoded(payload)


def _decoded(payload: dict[str, Any]) -> tuple[str, dict[Any, Any]]:
    recorder = Notes("drop")
    recorder.recording = True
    resp.decode_request(copy.deepcopy(payload), recorder)
    return repr(resp.decode_request(copy.deepcopy(payload), Notes("drop"))), recorder.origins


def _decodes(item: dict[str, Any]) -> bool:
    try:
        decode_item(copy.deepcopy(item), "$")
    except ToolwireError:
        return False
    return True


def test_notes_on_parts_name_the_item_and_content_part_they_came_from() -> None:
    """Where each part came from (recorded when a note needs it) survives the lanes: the calls
    of one assistant group are their own items, a message's parts their own content entries."""
    file = {"type": "input_file", "file_url": "https://example.com/a.pdf"}
    items = [
        {"role": "user", "content": "q"},
        {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}", "id": "fc_1"},
        {"type": "function_call", "call_id": "d", "name": "f", "arguments": "{}", "id": "fc_2"},
        {"type": "function_call_output", "call_id": "c", "output": "ok"},
        {"type": "function_call_output", "call_id": "d", "output": "ok"},
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "a"}, file]},
    ]
    result = toolwire.translate_request(
        {"model": "m", "input": items}, source="openai-responses", target="openai-chat", policy="drop"
    )
    assert [note.path for note in result.notes] == ["$.input[1]", "$.input[2]", "$.input[5].content[1]"]
