"""The Bedrock Converse reader and writer of the response lanes
(``toolwire._plain.bedrock_response``).

Every corpus goes to and from Bedrock through both paths in ``test_response_lane.py`` and the
sources' own tests; here, the writer's own refusals (what the encoder would rename, approximate
or refuse goes to the general path) and the body it writes, pinned field by field; the shapes
the reader takes and leaves, to every target, and what it makes of a body that names no id or
model.
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
from toolwire import translate_response, translate_response_bytes
from toolwire._codecs import format_module
from toolwire._plain._response_lane import RESPONSE_WRITERS, typed_response_lane
from toolwire._plain.bedrock_response import read_response, write_response, write_response_objects
from toolwire._plain.gemini_response import read_response_objects
from toolwire.ir.notes import Notes
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
    "a total other than the sum": lambda p: p["usage"].update(total_tokens=99),
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


# --- the reader ------------------------------------------------------------------------------


def bedrock_plain() -> dict[str, Any]:
    """A Bedrock ``Converse`` response of every shape the reader takes."""
    return {
        "output": {
            "message": {
                "role": "assistant",
                "content": [
                    {"text": "Checking."},
                    {"toolUse": {"toolUseId": "t1", "name": "f", "input": {"a": 1, "b": [1.5, None]}}},
                    {"toolUse": {"toolUseId": "t2", "name": "g", "input": {}}},
                ],
            }
        },
        "stopReason": "tool_use",
        "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 17, "cacheReadInputTokens": 2},
        "metrics": {"latencyMs": 120},
    }


def _content(p: dict[str, Any]) -> list[dict[str, Any]]:
    content: list[dict[str, Any]] = p["output"]["message"]["content"]
    return content


def _text_only(p: dict[str, Any], stop: str = "end_turn") -> None:
    del _content(p)[1:]
    p["stopReason"] = stop


TARGETS = [t for t in RESPONSE_WRITERS if t != BEDROCK]

READ: dict[str, Callable[[dict[str, Any]], None]] = {
    "as it is": lambda p: None,
    "text only": _text_only,
    "calls only": lambda p: _content(p).pop(0),
    "no usage": lambda p: p.pop("usage"),
    "a null usage": lambda p: p.update(usage=None),
    "no metrics": lambda p: p.pop("metrics"),
    "a cache write": lambda p: p["usage"].update(cacheWriteInputTokens=3),
    "a usage without its total": lambda p: p["usage"].pop("totalTokens"),
    "cut at the length limit": lambda p: _text_only(p, "max_tokens"),
    "filtered": lambda p: _text_only(p, "content_filtered"),
    "a stop Bedrock added later": lambda p: _text_only(p, "something_new"),
}

NOT_READ: dict[str, Callable[[dict[str, Any]], None]] = {
    "an unknown top field": lambda p: p.update(additionalModelResponseFields={}),
    "another output field": lambda p: p["output"].update(extra=1),
    "a user message": lambda p: p["output"]["message"].update(role="user"),
    "another message field": lambda p: p["output"]["message"].update(id="m"),
    "no content": lambda p: p["output"]["message"].pop("content"),
    "an empty content": lambda p: p["output"]["message"].update(content=[]),
    "an empty text": lambda p: _content(p)[0].update(text=""),
    "a text after a call": lambda p: _content(p).append({"text": "more"}),
    "a block of two fields": lambda p: _content(p)[0].update(cachePoint={}),
    "a block of a text and a call": lambda p: _content(p)[1].update(text="x"),
    "a reasoning block": lambda p: _content(p).insert(
        0, {"reasoningContent": {"reasoningText": {"text": "x"}}}
    ),
    "an input not an object": lambda p: _content(p)[1]["toolUse"].update(input=[1]),
    "a server tool call": lambda p: _content(p)[1]["toolUse"].update(type="server_tool_use"),
    "an empty call id": lambda p: _content(p)[1]["toolUse"].update(toolUseId=""),
    "an empty name": lambda p: _content(p)[1]["toolUse"].update(name=""),
    "a call id used twice": lambda p: _content(p)[2]["toolUse"].update(toolUseId="t1"),
    "calls under end_turn": lambda p: p.update(stopReason="end_turn"),
    "tool_use without calls": lambda p: _text_only(p, "tool_use"),
    "no stop reason": lambda p: p.pop("stopReason"),
    "a null stop reason": lambda p: p.update(stopReason=None),
    "a usage count as a string": lambda p: p["usage"].update(inputTokens="10"),
    "usage as a list": lambda p: p.update(usage=[]),
}


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", READ)
def test_plain_bedrock_responses_take_the_lane(name: str, target: str) -> None:
    payload = bedrock_plain()
    READ[name](payload)
    assert same_both_ways(payload, BEDROCK, target)


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", NOT_READ)
def test_other_bedrock_responses_take_the_general_path(name: str, target: str) -> None:
    payload = bedrock_plain()
    NOT_READ[name](payload)
    assert not same_both_ways(payload, BEDROCK, target)


def test_what_the_reader_makes() -> None:
    """The decoder's id (``bedrock_`` and a hash of the body: another body, another id), no
    model (``""``) or time, the input as the decoder's compact text, the stop as it maps it."""
    payload = bedrock_plain()
    plain = read_response(payload)
    decoded = format_module(BEDROCK).decode_response(copy.deepcopy(payload), Notes("drop"))
    assert plain is not None and plain.id == decoded.id and plain.id.startswith("bedrock_")
    assert (plain.model, plain.created, plain.text) == ("", None, "Checking.")
    assert plain.calls == [("t1", "f", '{"a":1,"b":[1.5,null]}'), ("t2", "g", "{}")]
    assert (plain.stop, plain.raw_stop) == ("tool_calls", "tool_use")
    assert plain.usage == decoded.usage
    payload["metrics"]["latencyMs"] = 121
    assert read_response(payload).id != plain.id  # type: ignore[union-attr]


def _reordered(value: Any) -> Any:
    """``value`` with every object's keys in reverse order."""
    if type(value) is dict:
        return {key: _reordered(value[key]) for key in reversed(value)}
    if type(value) is list:
        return [_reordered(item) for item in value]
    return value


@pytest.mark.parametrize("target", TARGETS)
def test_the_id_is_of_the_json_object_whatever_its_text(target: str) -> None:
    """The id hashes the body's JSON with sorted keys: the same body with its keys in another
    order, spaced, gives the same id by the dict's lane, the bytes API's Structs and the general
    path; another value, another id."""
    payload = bedrock_plain()
    compact = orjson.dumps(payload)
    spaced = orjson.dumps(_reordered(payload), option=orjson.OPT_INDENT_2)
    assert typed_response_lane(spaced, BEDROCK, target, "drop") is not None  # the Structs' lane
    key = _ID[target]
    ids = {
        orjson.loads(translate_response_bytes(body, source=BEDROCK, target=target, policy=policy))[key]
        for body in (compact, spaced)
        for policy in ("drop", "warn")  # the lanes, and the general path
    }
    reordered = translate_response(_reordered(payload), source=BEDROCK, target=target, policy="drop")
    ids.add(reordered.payload[key])
    assert len(ids) == 1
    payload["metrics"]["latencyMs"] = 121
    changed = translate_response_bytes(orjson.dumps(payload), source=BEDROCK, target=target, policy="drop")
    assert orjson.loads(changed)[key] not in ids


_ID = {"openai-chat": "id", "openai-responses": "id", "anthropic": "id", "gemini": "responseId"}


def test_no_model_is_what_each_encoder_writes_for_none() -> None:
    """Chat and Gemini write ``unknown`` (Gemini after the fields it has, as the encoder adds
    it last), Anthropic and Responses ``""``."""
    got = {
        target: translate_response(bedrock_plain(), source=BEDROCK, target=target, policy="drop").payload
        for target in TARGETS
    }
    assert got["openai-chat"]["model"] == "unknown"
    assert got["anthropic"]["model"] == "" and got["openai-responses"]["model"] == ""
    assert list(got["gemini"]) == ["candidates", "usageMetadata", "responseId", "modelVersion"]
    assert got["gemini"]["modelVersion"] == "unknown"
    bare = bedrock_plain()
    bare.pop("usage")
    gemini = translate_response(bare, source=BEDROCK, target="gemini", policy="drop").payload
    assert list(gemini) == ["candidates", "responseId", "usageMetadata", "modelVersion"]
