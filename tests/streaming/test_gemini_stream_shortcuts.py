"""The Gemini stream decoder's shortcuts give exactly what its general path gives: the text hot
path (``hot_frame``: subscripts and unpacking, no type tests) on chunks of every JSON shape, and
the chunk of plain function calls (``_stream_calls.plain_calls``) on calls of every shape."""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest

import toolwire.formats.gemini.stream as gemini_stream
from tests.compiled import pure_only
from tests.corpus import STREAM_FORMATS as FORMATS
from tests.streaming._matrix import benchmark_stream_in
from tests.streaming.test_hot_paths import _Uuids, assert_same
from toolwire.formats.gemini._stream_calls import plain_calls
from toolwire.formats.gemini.stream import StreamDecoder
from toolwire.ir.notes import Notes

_ARGS = {"city": "Paris", "n": [1, 2.5, None, True], "u": "é\u2028"}
_CALL = {"name": "get_weather", "args": _ARGS, "id": "c1"}


def _part(**fields: Any) -> dict[str, Any]:
    return {"functionCall": {**_CALL, **fields}}


def _without(*keys: str) -> dict[str, Any]:
    return {"functionCall": {k: v for k, v in _CALL.items() if k not in keys}}


def _chunk(parts: Any, **top: Any) -> dict[str, Any]:
    candidates = [{"content": {"role": "model", "parts": parts}}]
    return {"candidates": candidates, "modelVersion": "m", "responseId": "r", **top}


def _text(parts: Any = None, **top: Any) -> dict[str, Any]:
    return {"candidates": [{"content": {"parts": [{"text": "a"}] if parts is None else parts}}], **top}


CALL_CHUNKS: dict[str, Any] = {
    "plain": _chunk([_part()]),
    "no-args": _chunk([_without("args")]),
    "empty-args": _chunk([_part(args={})]),
    "null-args": _chunk([_part(args=None)]),
    "args-a-list": _chunk([_part(args=[1])]),
    "no-id": _chunk([_without("id")]),
    "null-id": _chunk([_part(id=None)]),
    "id-a-number": _chunk([_part(id=5)]),
    "empty-id": _chunk([_part(id="")]),
    "empty-name": _chunk([_part(name="")]),
    "no-name": _chunk([_without("name")]),
    "other-field": _chunk([_part(fooBar=1)]),
    "will-continue": _chunk([_part(willContinue=True)]),
    "signed": _chunk([{**_part(), "thoughtSignature": "c2ln"}]),
    "snake-case": _chunk([{"function_call": _CALL}]),
    "two-calls": _chunk([_part(), _part(name="get_time", id="c2")]),
    "call-then-text": _chunk([_part(), {"text": "hi"}]),
    "not-an-object": _chunk([_part(), 5]),
    "no-parts": _chunk([]),
    "lone-surrogate": _chunk([_part(args={"x": "\ud800"})]),
    "candidate-index": {"candidates": [{"content": {"parts": [_part()]}, "index": 0}]},
    "with-finish": {"candidates": [{"content": {"parts": [_part()]}, "finishReason": "STOP"}]},
    "two-candidates": {"candidates": [{"content": {"parts": [_part()]}}, {"content": {"parts": []}}]},
    "with-usage": _chunk([_part()], usageMetadata={"promptTokenCount": 3}),
    "model-null": _chunk([_part()], modelVersion=None),
    "create-time": _chunk([_part()], createTime="2026-01-01T00:00:00Z"),
    "bare": {"candidates": [{"content": {"parts": [_part()]}}]},
}
"""Chunks of function calls, plain (the shortcut's) and not (the general path's)."""

TEXT_CHUNKS: dict[str, Any] = {
    "one-field": _text(),
    "two-fields": _text(modelVersion="m"),
    "two-fields-null": _text(responseId=None),
    "two-other-fields": _text(foo=1, bar=2),
    "three-fields-one-other": _text(modelVersion="m", foo=2),
    "four-fields": _text(modelVersion="m", responseId="r", usageMetadata={"promptTokenCount": 1}),
    "candidates-an-object": {"candidates": {"content": 1}},
    "candidates-a-string": {"candidates": "x"},
    "parts-an-object": _text({"text": "a"}),
    "parts-a-string": _text("t"),
    "part-a-string": _text(["t"]),
    "content-a-list": {"candidates": [{"content": ["parts"]}]},
    "candidate-a-list": {"candidates": [["content"]]},
    "candidate-a-string": {"candidates": ["c"]},
    "two-parts": _text([{"text": "a"}, {"text": "b"}]),
    "thought": _text([{"text": "a", "thought": True}]),
    "thought-false": _text([{"text": "a", "thought": False}]),
    "a-list-of-keys": ["candidates", "modelVersion"],
    "a-list-of-one-key": ["candidates"],
    "a-string": "candidates",
    "empty": {},
}
"""Chunks shaped like a hot text chunk in some way, not in another."""


@pytest.fixture(autouse=True)
def uuids(monkeypatch: pytest.MonkeyPatch) -> _Uuids:
    fake = _Uuids()
    monkeypatch.setattr(uuid, "uuid4", fake)
    return fake


def _stream(chunk: Any, at: int, thought: bool = False) -> list[Any]:
    events: list[Any] = benchmark_stream_in("gemini")
    if thought:  # a thought run open where the chunk comes
        part = {"text": "t", "thought": True}
        events = [_chunk([part]), _chunk([part]), *events[1:]]
    return [*events[:at], copy.deepcopy(chunk), copy.deepcopy(chunk), *events[at:]]


@pytest.mark.parametrize("name", list(CALL_CHUNKS) + list(TEXT_CHUNKS))
@pytest.mark.parametrize("dst", FORMATS)
def test_odd_chunks_mid_stream(name: str, dst: str, uuids: _Uuids) -> None:
    """Mid-text (and mid-thought) chunks of every shape give what the general paths give."""
    chunk = CALL_CHUNKS.get(name, TEXT_CHUNKS.get(name))
    assert_same(_stream(chunk, 3), "gemini", dst, uuids)
    assert_same(_stream(chunk, 2, thought=True), "gemini", dst, uuids)


def _decoded(chunks: list[Any]) -> tuple[list[Any], dict[Any, Any]]:
    notes = Notes("drop")
    decoder = StreamDecoder(notes)
    events = [event for chunk in chunks for event in decoder.feed(copy.deepcopy(chunk))]
    return [*events, *decoder.close()], dict(notes.origins)


@pure_only
@pytest.mark.parametrize("name", list(CALL_CHUNKS))
def test_plain_calls_decode_as_the_part_decoders_do(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """With and without the shortcut: the same IR events (calls, skeletons, the open run's end)
    and the same origins, for chunks after text, first in the stream and twice in a row."""
    events = benchmark_stream_in("gemini")
    chunk = CALL_CHUNKS[name]
    streams = [[*events[:3], chunk, *events[3:]], [chunk, *events], [*events[:3], chunk, chunk, *events[3:]]]
    fast = [_decoded(stream) for stream in streams]
    monkeypatch.setattr(gemini_stream, "plain_calls", lambda event: None)
    assert fast == [_decoded(stream) for stream in streams]


@pure_only
def test_a_plain_call_chunk_takes_the_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    """The part decoders are not called for a chunk of plain calls."""

    def refuse(*args: Any) -> None:
        raise AssertionError("general path")

    def calls_after_text() -> list[Any]:
        decoder = StreamDecoder(Notes("drop"))
        for chunk in benchmark_stream_in("gemini")[:3]:
            decoder.feed(copy.deepcopy(chunk))
        monkeypatch.setattr(gemini_stream, "decode_part", refuse)
        events = decoder.feed(copy.deepcopy(CALL_CHUNKS["two-calls"]))
        monkeypatch.undo()
        return events

    kinds = [type(event).__name__ for event in calls_after_text()]
    call = ["PartStart", "ToolCallDelta", "PartEnd"]
    assert kinds == ["PartEnd", *call, *call]


def test_plain_calls_reads_names_arguments_and_ids() -> None:
    """The shortcut's reading, and the chunks it leaves to the general path."""
    arguments = '{"city":"Paris","n":[1,2.5,null,true],"u":"é\u2028"}'
    assert plain_calls(CALL_CHUNKS["plain"]) == [("get_weather", arguments, "c1")]
    assert plain_calls(CALL_CHUNKS["no-args"]) == [("get_weather", "", "c1")]
    assert plain_calls(CALL_CHUNKS["no-id"]) == [("get_weather", arguments, None)]
    assert plain_calls(CALL_CHUNKS["bare"]) == [("get_weather", arguments, "c1")]
    taken = {"plain", "no-args", "empty-args", "no-id", "empty-id", "two-calls", "bare"}
    assert {name for name, chunk in CALL_CHUNKS.items() if plain_calls(chunk) is not None} == taken
