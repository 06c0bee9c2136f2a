"""The Gemini reader and writer of the response lanes (``toolwire._plain.gemini_response``).

Hand-written one-spot changes of a plain Gemini response pin each guard of the reader (the
corpora go through every pair in ``test_response_lane``); Chat responses whose arguments the
Gemini encoder cannot parse to an object pin the writer's guard.
"""

from __future__ import annotations

import copy
import enum
from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.harness import plain_response
from tests.plain.test_response_lane import plain as chat_plain
from tests.plain.test_response_lane import same_both_ways
from toolwire import translate_response
from toolwire._plain._response_form import PlainResponse
from toolwire._plain._response_lane import RESPONSE_WRITERS
from toolwire._plain.gemini_response import read_response, read_response_objects, write_response

GEMINI = "gemini"
TARGETS = [t for t in RESPONSE_WRITERS if t != GEMINI]


def plain() -> dict[str, Any]:
    """A Gemini response of every shape the lane takes."""
    return {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "Checking."},
                        {"functionCall": {"name": "f", "args": {"a": 1, "b": [True, None]}, "id": "c1"}},
                        {"functionCall": {"name": "g", "args": {}, "id": "c2"}},
                    ],
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 10,
            "candidatesTokenCount": 5,
            "totalTokenCount": 17,
            "cachedContentTokenCount": 2,
            "thoughtsTokenCount": 2,
        },
        "modelVersion": "gemini-2.5-flash",
        "responseId": "resp-9",
    }


def _candidate(p: dict[str, Any]) -> dict[str, Any]:
    return p["candidates"][0]  # type: ignore[no-any-return]


def _parts(p: dict[str, Any]) -> list[Any]:
    return _candidate(p)["content"]["parts"]  # type: ignore[no-any-return]


def _inner(p: dict[str, Any], index: int = 1) -> dict[str, Any]:
    return _parts(p)[index]["functionCall"]  # type: ignore[no-any-return]


TAKEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "as it is": lambda p: None,
    "text only": lambda p: [_parts(p).pop(), _parts(p).pop()],
    "calls only": lambda p: _parts(p).pop(0),
    "no usage": lambda p: p.pop("usageMetadata"),
    "usage details": lambda p: p["usageMetadata"].update(
        promptTokensDetails=[{"modality": "TEXT", "tokenCount": 10}]
    ),
    "tool-use prompt tokens": lambda p: p["usageMetadata"].update(toolUsePromptTokenCount=3),
    "cut at the length limit": lambda p: _candidate(p).update(finishReason="MAX_TOKENS"),
    "filtered": lambda p: _candidate(p).update(finishReason="SAFETY"),
    "another finish reason": lambda p: _candidate(p).update(finishReason="OTHER"),
    "an unknown finish reason": lambda p: _candidate(p).update(finishReason="PAUSED"),
    "candidate fields": lambda p: _candidate(p).update(index=0, safetyRatings=[], avgLogprobs=-0.1),
    "top-level fields": lambda p: p.update(promptFeedback={"safetyRatings": []}),
    "a creation time (Vertex)": lambda p: p.update(createTime="2025-01-02T03:04:05.123456Z"),
    "an unreadable creation time": lambda p: p.update(createTime="yesterday"),
    "unicode arguments": lambda p: _inner(p).update(args={"city": "Zürich ☀", "n": 1.5e300}),
}

FALLS_BACK: dict[str, Callable[[dict[str, Any]], None]] = {
    "no response id": lambda p: p.pop("responseId"),
    "an empty response id": lambda p: p.update(responseId=""),
    "a numeric response id": lambda p: p.update(responseId=9),
    "no model": lambda p: p.pop("modelVersion"),
    "an empty model": lambda p: p.update(modelVersion=""),
    "a numeric model": lambda p: p.update(modelVersion=2),
    "no candidates": lambda p: p.pop("candidates"),
    "no candidate": lambda p: p.update(candidates=[]),
    "candidates as an object": lambda p: p.update(candidates=_candidate(p)),
    "two candidates": lambda p: p["candidates"].append(copy.deepcopy(_candidate(p))),
    "a candidate not an object": lambda p: p.update(candidates=["x"]),
    "no finish reason": lambda p: _candidate(p).pop("finishReason"),
    "a null finish reason": lambda p: _candidate(p).update(finishReason=None),
    "no content": lambda p: _candidate(p).pop("content"),
    "content as a list": lambda p: _candidate(p).update(content=[]),
    "content without role": lambda p: _candidate(p)["content"].pop("role"),
    "a user content": lambda p: _candidate(p)["content"].update(role="user"),
    "an unknown content field": lambda p: _candidate(p)["content"].update(x=1),
    "no parts": lambda p: _candidate(p)["content"].update(parts=[]),
    "parts as one object": lambda p: _candidate(p)["content"].update(parts={"text": "x"}),
    "numeric parts": lambda p: _candidate(p)["content"].update(parts=3),
    "a part not an object": lambda p: _parts(p).append("x"),
    "an empty text": lambda p: _parts(p)[0].update(text=""),
    "a numeric text": lambda p: _parts(p)[0].update(text=1),
    "a thought": lambda p: _parts(p)[0].update(thought=True),
    "a part of a text and a call": lambda p: _parts(p)[1].update(text="x"),
    "a thought signature": lambda p: _parts(p)[1].update(thoughtSignature="sig"),
    "text after a call": lambda p: _parts(p).append({"text": "more"}),
    "an empty part": lambda p: _parts(p).append({}),
    "snake case": lambda p: _parts(p)[1].update(function_call=_parts(p)[1].pop("functionCall")),
    "code": lambda p: _parts(p).append({"executableCode": {"language": "PYTHON", "code": "1"}}),
    "a call not an object": lambda p: _parts(p)[1].update(functionCall=[]),
    "a call without id": lambda p: _inner(p).pop("id"),
    "an empty call id": lambda p: _inner(p).update(id=""),
    "a numeric call id": lambda p: _inner(p).update(id=1),
    "a call id used twice": lambda p: _inner(p, 2).update(id="c1"),
    "a call without args": lambda p: _inner(p).pop("args"),
    "null args": lambda p: _inner(p).update(args=None),
    "list args": lambda p: _inner(p).update(args=[1]),
    "an empty name": lambda p: _inner(p).update(name=""),
    "a numeric name": lambda p: _inner(p).update(name=1),
    "an unknown call field": lambda p: _inner(p).update(willContinue=True),
    "another field for the call id": lambda p: _inner(p).update(willContinue=_inner(p).pop("id")),
    "another field for the role": lambda p: _candidate(p)["content"].update(
        x=_candidate(p)["content"].pop("role")
    ),
    "usage as a list": lambda p: p.update(usageMetadata=[]),
    "null usage": lambda p: p.update(usageMetadata=None),
    "a usage count as a string": lambda p: p["usageMetadata"].update(promptTokenCount="10"),
    "a numeric creation time": lambda p: p.update(createTime=1700000000),
}


def _deep(depth: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for _ in range(depth):
        out = {"a": out}
    return out


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", TAKEN)
def test_plain_shapes_take_the_lane(name: str, target: str) -> None:
    payload = plain()
    TAKEN[name](payload)
    assert same_both_ways(payload, GEMINI, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", FALLS_BACK)
def test_other_shapes_take_the_general_path(name: str, target: str) -> None:
    payload = plain()
    FALLS_BACK[name](payload)
    assert not same_both_ways(payload, GEMINI, target)


def test_a_non_object_or_arguments_too_deep_take_the_general_path() -> None:
    assert read_response([plain()]) is None
    payload = plain()
    _inner(payload).update(args=_deep(1100))  # too deep for the general path's copies
    assert read_response(payload) is None
    del _inner(payload)["args"]["a"]
    assert read_response(payload) is not None


def test_the_reader_reads_the_decoder_s_values() -> None:
    got = read_response({**plain(), "createTime": "2025-01-02T03:04:05Z"})
    assert got is not None
    assert (got.id, got.model, got.stop, got.raw_stop, got.created) == (
        "resp-9",
        "gemini-2.5-flash",
        "tool_calls",
        "STOP",
        1735787045,
    )
    assert got.text == "Checking."
    assert got.calls == [("c1", "f", '{"a":1,"b":[true,null]}'), ("c2", "g", "{}")]
    assert got.usage is not None and (got.usage.input_tokens, got.usage.output_tokens) == (10, 7)


WRITER_FALLS_BACK: dict[str, str] = {
    "arguments not JSON": "{",
    "list arguments": "[1]",
    "string arguments": '"x"',
}


@pytest.mark.parametrize("name", WRITER_FALLS_BACK)
def test_arguments_not_an_object_take_the_general_path(name: str) -> None:
    payload = chat_plain()
    payload["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"] = WRITER_FALLS_BACK[name]
    assert not same_both_ways(payload, "openai-chat", GEMINI)


def _from(**fields: Any) -> PlainResponse:
    return plain_response("tool_calls", **fields)


def test_object_arguments_are_written_as_the_decoder_s_text_parsed() -> None:
    got = write_response(_from(calls=[("c1", "f", {"a": [1, {"b": None}]}), ("c2", "g", "")]))
    assert got is not None
    assert [part["functionCall"] for part in got["candidates"][0]["content"]["parts"]] == [
        {"name": "f", "args": {"a": [1, {"b": None}]}, "id": "c1"},
        {"name": "g", "id": "c2"},
    ]
    assert list(got) == ["candidates", "modelVersion", "responseId", "usageMetadata"]
    assert write_response(_from(calls=[("c1", "f", _deep(1100))])) is None
    assert write_response(_from(calls=[("c1", "f", {"a": object()})])) is None


def test_the_plain_response_to_gemini() -> None:
    out = translate_response(chat_plain(), source="openai-chat", target=GEMINI, policy="drop")
    parts = out.payload["candidates"][0]["content"]["parts"]
    assert parts == [
        {"text": "Checking."},
        {"functionCall": {"name": "f", "args": {"a": 1}, "id": "c1"}},
        {"functionCall": {"name": "g", "args": {}, "id": "c2"}},
    ]
    assert out.payload["candidates"][0]["finishReason"] == "STOP"
    assert out.payload["usageMetadata"] == {
        "promptTokenCount": 10,
        "candidatesTokenCount": 4,
        "totalTokenCount": 15,
        "cachedContentTokenCount": 2,
        "thoughtsTokenCount": 1,
    }
    assert any(note.kind == "dropped" for note in out.notes)  # the creation time


class _Level(enum.IntEnum):
    HIGH = 3


def test_arguments_of_scalars_reach_anthropic_as_a_copy_of_the_object() -> None:
    """The Anthropic lane's reader keeps a call's ``args`` of scalars as a copy of the object
    (what its text parses back to), its own: not the source's."""
    payload = plain()
    args = {"s": "x", "i": -3, "b": False, "n": None}
    _inner(payload)["args"] = args
    got = read_response_objects(payload)
    assert got is not None
    assert got.calls[0][2] == args and type(got.calls[0][2]) is dict and got.calls[0][2] is not args
    assert got.calls[1][2] == {}  # the second call's empty object
    assert read_response(payload).calls[0][2] == '{"s":"x","i":-3,"b":false,"n":null}'  # type: ignore[union-attr]
    assert same_both_ways(payload, GEMINI, "anthropic")
    out = translate_response(payload, source=GEMINI, target="anthropic", policy="drop").payload
    assert out["content"][1]["input"] == args and out["content"][1]["input"] is not args


@pytest.mark.parametrize(
    "args",
    [{"f": 1.5}, {"a": [1]}, {"o": {"k": "v"}}, {1: "x"}, {"e": _Level.HIGH}],
    ids=["a float", "a list", "an object", "an integer key", "an int subclass"],
)
def test_other_arguments_reach_anthropic_as_their_text(args: dict[Any, Any]) -> None:
    """A float, a nested value, a key not a string, a value of a subclass: the text, which
    the writer parses (what the general path writes, whatever that is)."""
    payload = plain()
    _inner(payload)["args"] = args
    got = read_response_objects(payload)
    assert got is not None and type(got.calls[0][2]) is str
    same_both_ways(payload, GEMINI, "anthropic")
