"""The Responses reader of the response lanes (``toolwire._plain.responses_response``).

Hand-written one-spot changes of a plain Responses response pin each guard of the reader (the
corpora go through every pair in ``test_response_lane``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.test_response_lane import same_both_ways
from toolwire._plain._response_lane import RESPONSE_WRITERS
from toolwire._plain.responses_response import read_response

RESPONSES = "openai-responses"
TARGETS = [t for t in RESPONSE_WRITERS if t != RESPONSES]


def plain() -> dict[str, Any]:
    """A Responses response of every shape the lane takes (a real one's fields)."""
    return {
        "id": "resp_9",
        "object": "response",
        "created_at": 1700000000,
        "status": "completed",
        "background": False,
        "billing": {"payer": "developer"},
        "completed_at": 1700000001,
        "error": None,
        "incomplete_details": None,
        "instructions": "Be brief.",
        "max_output_tokens": None,
        "model": "gpt-5",
        "output": [
            {
                "id": "msg_1",
                "type": "message",
                "status": "completed",
                "role": "assistant",
                "content": [{"type": "output_text", "text": "Checking.", "annotations": [], "logprobs": []}],
            },
            {
                "id": "fc_1",
                "type": "function_call",
                "status": "completed",
                "arguments": '{"a": 1}',
                "call_id": "c1",
                "name": "f",
            },
            {
                "id": "fc_2",
                "type": "function_call",
                "status": "completed",
                "arguments": "{}",
                "call_id": "c2",
                "name": "g",
            },
        ],
        "parallel_tool_calls": True,
        "reasoning": {"effort": "low", "summary": None},
        "store": True,
        "temperature": 1.0,
        "text": {"format": {"type": "text"}, "verbosity": "medium"},
        "tool_choice": "auto",
        "tools": [{"type": "function", "name": "f", "parameters": {}, "strict": True}],
        "top_p": 1.0,
        "truncation": "disabled",
        "usage": {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 2},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 1},
            "total_tokens": 15,
        },
        "user": None,
        "metadata": {},
    }


def _output(p: dict[str, Any], index: int) -> dict[str, Any]:
    return p["output"][index]  # type: ignore[no-any-return]


def _part(p: dict[str, Any]) -> dict[str, Any]:
    return _output(p, 0)["content"][0]  # type: ignore[no-any-return]


_DETAILS = ("input_tokens_details", "output_tokens_details")
_ECHO = ("instructions", "tools", "tool_choice", "metadata", "user")

TAKEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "as it is": lambda p: None,
    "text only": lambda p: [p["output"].pop(), p["output"].pop()],
    "calls only": lambda p: p["output"].pop(0),
    "no usage": lambda p: p.pop("usage"),
    "null usage": lambda p: p.update(usage=None),
    "usage without details": lambda p: [
        p["usage"].pop(k) for k in ("input_tokens_details", "output_tokens_details")
    ],
    "a usage field the decoder does not name": lambda p: p["usage"].update(cost=1),
    "cut at the length limit": lambda p: p.update(
        status="incomplete", incomplete_details={"reason": "max_output_tokens"}
    ),
    "filtered": lambda p: p.update(status="incomplete", incomplete_details={"reason": "content_filter"}),
    "incomplete without a reason": lambda p: p.update(status="incomplete"),
    "no creation time": lambda p: p.pop("created_at"),
    "a null creation time": lambda p: p.update(created_at=None),
    "a string creation time": lambda p: p.update(created_at="1700000000"),
    "no echo fields": lambda p: [
        p.pop(k) for k in ("instructions", "tools", "tool_choice", "metadata", "user")
    ],
    "bare items": lambda p: [_output(p, i).pop(k) for i in range(3) for k in ("id", "status")],
    "a bare text part": lambda p: [_part(p).pop("annotations"), _part(p).pop("logprobs")],
    "no error field": lambda p: p.pop("error"),
    "cancelled": lambda p: p.update(status="cancelled"),
    "failed without an error": lambda p: p.update(status="failed"),
    "an unknown status": lambda p: p.update(status="paused"),
}

FALLS_BACK: dict[str, Callable[[dict[str, Any]], None]] = {
    "another object": lambda p: p.update(object="response.compaction"),
    "no object": lambda p: p.pop("object"),
    "an error": lambda p: p.update(error={"code": "server_error", "message": "x"}),
    "no id": lambda p: p.pop("id"),
    "an empty id": lambda p: p.update(id=""),
    "a numeric id": lambda p: p.update(id=9),
    "no model": lambda p: p.pop("model"),
    "an empty model": lambda p: p.update(model=""),
    "a numeric model": lambda p: p.update(model=5),
    "no status": lambda p: p.pop("status"),
    "in progress": lambda p: p.update(status="in_progress"),
    "queued": lambda p: p.update(status="queued"),
    "a list status": lambda p: p.update(status=["completed"]),
    "no output": lambda p: p.pop("output"),
    "an empty output": lambda p: p.update(output=[]),
    "output as an object": lambda p: p.update(output=_output(p, 0)),
    "numeric output": lambda p: p.update(output=3),
    "an item not an object": lambda p: p["output"].append("x"),
    "a message after a call": lambda p: p["output"].append(copy.deepcopy(_output(p, 0))),
    "a reasoning item": lambda p: p["output"].insert(0, {"type": "reasoning", "id": "rs_1", "summary": []}),
    "an untyped message": lambda p: _output(p, 0).pop("type"),
    "a user message": lambda p: _output(p, 0).update(role="user"),
    "an unknown message field": lambda p: _output(p, 0).update(phase="final"),
    "another field for the message status": lambda p: _output(p, 0).update(phase=_output(p, 0).pop("status")),
    "another field for the part's logprobs": lambda p: _part(p).update(extra=_part(p).pop("logprobs")),
    "another field for the call status": lambda p: _output(p, 1).update(
        namespace=_output(p, 1).pop("status")
    ),
    "a numeric message id": lambda p: _output(p, 0).update(id=1),
    "a numeric message status": lambda p: _output(p, 0).update(status=1),
    "no content part": lambda p: _output(p, 0).update(content=[]),
    "string content": lambda p: _output(p, 0).update(content="Checking."),
    "content as an object": lambda p: _output(p, 0).update(content={"type": "output_text"}),
    "two text parts": lambda p: _output(p, 0)["content"].append({"type": "output_text", "text": "x"}),
    "a part not an object": lambda p: _output(p, 0).update(content=["x"]),
    "a refusal": lambda p: _output(p, 0).update(content=[{"type": "refusal", "refusal": "no"}]),
    "an unknown part field": lambda p: _part(p).update(extra=1),
    "an input_text part": lambda p: _part(p).update(type="input_text"),
    "annotations": lambda p: _part(p).update(annotations=[{"type": "url_citation"}]),
    "logprobs": lambda p: _part(p).update(logprobs=[{"token": "x"}]),
    "an empty text": lambda p: _part(p).update(text=""),
    "a numeric text": lambda p: _part(p).update(text=1),
    "a custom call": lambda p: _output(p, 1).update(type="custom_tool_call"),
    "a namespaced call": lambda p: _output(p, 1).update(namespace="ns"),
    "a numeric call item id": lambda p: _output(p, 1).update(id=1),
    "a numeric call status": lambda p: _output(p, 1).update(status=1),
    "no call id": lambda p: _output(p, 1).pop("call_id"),
    "a numeric call id": lambda p: _output(p, 1).update(call_id=1),
    "a numeric name": lambda p: _output(p, 1).update(name=1),
    "an empty call id": lambda p: _output(p, 1).update(call_id=""),
    "a call id used twice": lambda p: _output(p, 2).update(call_id="c1"),
    "an empty name": lambda p: _output(p, 1).update(name=""),
    "no name": lambda p: _output(p, 1).pop("name"),
    "empty arguments": lambda p: _output(p, 1).update(arguments=""),
    "object arguments": lambda p: _output(p, 1).update(arguments={"a": 1}),
    "usage as a list": lambda p: p.update(usage=[]),
    "a usage count as a string": lambda p: p["usage"].update(input_tokens="10"),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", TAKEN)
def test_plain_shapes_take_the_lane(name: str, target: str) -> None:
    payload = plain()
    TAKEN[name](payload)
    assert same_both_ways(payload, RESPONSES, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", FALLS_BACK)
def test_other_shapes_take_the_general_path(name: str, target: str) -> None:
    payload = plain()
    FALLS_BACK[name](payload)
    assert not same_both_ways(payload, RESPONSES, target)


def test_the_reader_reads_the_decoder_s_values() -> None:
    assert read_response([plain()]) is None
    got = read_response(plain())
    assert got is not None
    assert (got.id, got.model, got.stop, got.raw_stop, got.created) == (
        "resp_9",
        "gpt-5",
        "tool_calls",
        "completed",
        1700000000,
    )
    assert (got.text, got.calls) == ("Checking.", [("c1", "f", '{"a": 1}'), ("c2", "g", "{}")])
    assert got.usage is not None and (got.usage.cached_tokens, got.usage.reasoning_tokens) == (2, 1)
    cut = plain()
    cut.update(status="incomplete", incomplete_details={"reason": "max_output_tokens"}, created_at="x")
    got = read_response(cut)
    assert got is not None
    assert (got.stop, got.raw_stop, got.created) == ("max_tokens", "incomplete:max_output_tokens", None)
    cut.update(incomplete_details=None)
    got = read_response(cut)
    assert got is not None and (got.stop, got.raw_stop) == ("other", "incomplete")
    assert read_response({**plain(), "status": "in_progress"}) is None  # not finished
