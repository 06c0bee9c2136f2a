"""The Bedrock Converse writer of the response lanes (``toolwire._plain.bedrock_response``).

Every source's corpus goes to Bedrock through both paths in ``test_response_lane.py`` and the
source's own tests; here, the writer's own refusals (what the encoder would rename, approximate
or refuse goes to the general path) and the body it writes, pinned field by field.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, Final

import orjson
import pytest
from benchmarks.bench_pairs import _responses_in_each_format

from tests.plain.harness import plain_response
from tests.plain.test_response_lane import plain, same_both_ways
from toolwire import translate_response
from toolwire._plain.bedrock_response import write_response, write_response_objects
from toolwire._plain.gemini_response import read_response_objects
from toolwire.ir.response import Usage

BEDROCK: Final = "bedrock-converse"


def _call(p: dict[str, Any], index: int = 0) -> dict[str, Any]:
    call: dict[str, Any] = p["choices"][0]["message"]["tool_calls"][index]
    return call


TAKEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "as it is": lambda p: None,
    "a call id of every character Bedrock takes": lambda p: _call(p).update(id="tooluse_A-1.b:2"),
    "a call id of 64 characters": lambda p: _call(p).update(id="c" * 64),
    "no usage": lambda p: p.pop("usage"),
    "no cached count": lambda p: p["usage"].pop("prompt_tokens_details"),
    "every input token cached": lambda p: p["usage"]["prompt_tokens_details"].update(cached_tokens=10),
    "no total": lambda p: p["usage"].pop("total_tokens"),
    "arguments of nested objects": lambda p: _call(p)["function"].update(arguments='{"a": {"b": [1, {}]}}'),
    "text only": lambda p: [
        p["choices"][0]["message"].pop("tool_calls"),
        p["choices"][0].update(finish_reason="stop"),
    ],
    "cut at the length limit": lambda p: p["choices"][0].update(finish_reason="length"),
    "filtered": lambda p: p["choices"][0].update(finish_reason="content_filter"),
}

FALLS_BACK: dict[str, Callable[[dict[str, Any]], None]] = {
    "a call id with a space": lambda p: _call(p).update(id="call 1"),
    "a call id with a slash": lambda p: _call(p).update(id="call/1"),
    "a call id of 65 characters": lambda p: _call(p).update(id="c" * 65),
    "arguments of an array": lambda p: _call(p)["function"].update(arguments="[1]"),
    "arguments of a number": lambda p: _call(p)["function"].update(arguments="1"),
    "arguments not JSON": lambda p: _call(p)["function"].update(arguments="{"),
    "arguments nested too deeply": lambda p: _call(p)["function"].update(arguments="[" * 2000 + "]" * 2000),
    "more cached tokens than input tokens": lambda p: p["usage"]["prompt_tokens_details"].update(
        cached_tokens=11
    ),
}


@pytest.mark.parametrize("name", TAKEN)
def test_plain_shapes_take_the_lane(name: str) -> None:
    payload = plain()
    TAKEN[name](payload)
    assert same_both_ways(payload, "openai-chat", BEDROCK)


@pytest.mark.parametrize("name", FALLS_BACK)
def test_what_the_encoder_changes_takes_the_general_path(name: str) -> None:
    payload = plain()
    FALLS_BACK[name](payload)
    assert not same_both_ways(payload, "openai-chat", BEDROCK)


def test_the_body_written() -> None:
    out = translate_response(plain(), source="openai-chat", target=BEDROCK, policy="drop")
    assert out.payload == {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"text": "Checking."},
                    {"toolUse": {"toolUseId": "c1", "name": "f", "input": {"a": 1}}},
                    {"toolUse": {"toolUseId": "c2", "name": "g", "input": {}}},
                ],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 8, "outputTokens": 5, "totalTokens": 15, "cacheReadInputTokens": 2},
        "metrics": {"latencyMs": 0},
    }
    assert list(out.payload) == ["output", "stopReason", "usage", "metrics"]
    usage = ["inputTokens", "outputTokens", "totalTokens", "cacheReadInputTokens"]
    assert list(out.payload["usage"]) == usage
    kinds = {(note.path, note.kind) for note in out.notes}  # the general path's, made when read
    assert ("$.id", "dropped") in kinds and ("$", "synthesized") in kinds  # the latency made up


def test_an_anthropic_input_is_a_copy() -> None:
    """An object source's arguments come back as new objects: the caller's payload and the
    output share nothing a caller could change in one and see in the other."""
    payload = orjson.loads(_responses_in_each_format()["anthropic"])
    before = copy.deepcopy(payload)
    out = translate_response(payload, source="anthropic", target=BEDROCK, policy="drop").payload
    block = out["output"]["message"]["content"][1]["toolUse"]
    assert block["input"] == payload["content"][1]["input"]
    assert block["input"] is not payload["content"][1]["input"]
    block["input"]["qty"] = 99
    assert payload == before


def test_the_writer_alone() -> None:
    """What no reader hands it today: an empty text (left out, as the encoder leaves it), empty
    arguments (``{}``), a usage of the write count only, a stop without a Bedrock value."""
    usage = Usage(input_tokens=7, output_tokens=None, cache_creation_tokens=3)
    out = write_response(plain_response(text="", calls=[("c1", "f", "")], usage=usage, stop="tool_calls"))
    assert out is not None
    assert out["output"]["message"]["content"] == [{"toolUse": {"toolUseId": "c1", "name": "f", "input": {}}}]
    assert out["usage"] == {"inputTokens": 4, "outputTokens": 0, "totalTokens": 7, "cacheWriteInputTokens": 3}
    assert write_response(plain_response(text="x", usage=Usage())) == {
        "output": {"message": {"role": "assistant", "content": [{"text": "x"}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 0, "outputTokens": 0, "totalTokens": 0},
        "metrics": {"latencyMs": 0},
    }
    assert write_response(plain_response(text="x", stop="unknown")) is None
    assert write_response(plain_response(calls=[("c1", "f", 1)])) is None  # arguments neither text nor object


def test_gemini_arguments_objects_are_copied_once() -> None:
    """Gemini into Bedrock: the reader's copy of a call's ``args`` of scalars is the ``input``
    (not its text parsed back); a float among them takes the text's way; both equal the general
    path's (``same_both_ways``) and share nothing with the caller's payload."""
    payload = orjson.loads(_responses_in_each_format()["gemini"])
    args = payload["candidates"][0]["content"]["parts"][1]["functionCall"]["args"]
    for value in (1, 1.5):
        args["qty"] = value
        assert same_both_ways(payload, "gemini", BEDROCK)
        out = translate_response(payload, source="gemini", target=BEDROCK, policy="drop").payload
        block = out["output"]["message"]["content"][1]["toolUse"]
        assert block["input"] == args and block["input"] is not args
    assert type(read_response_objects(payload).calls[0][2]) is str  # type: ignore[union-attr]
    args["qty"] = 1
    plain = read_response_objects(payload)
    assert plain is not None and type(plain.calls[0][2]) is dict
    written = write_response_objects(plain)
    assert written is not None
    assert written["output"]["message"]["content"][1]["toolUse"]["input"] is plain.calls[0][2]
    copied = write_response(plain)  # the general writer: the text written and parsed back
    assert copied is not None
    assert copied["output"]["message"]["content"][1]["toolUse"]["input"] is not plain.calls[0][2]
