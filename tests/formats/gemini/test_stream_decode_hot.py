"""Which Gemini stream chunks the decoder's hot path takes, and that both paths agree
(issue 22: a hot path that takes a chunk it should not would drop or misplace it)."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.formats.gemini import StreamDecoder
from toolwire.ir.accumulate import accumulate
from toolwire.ir.content import ReasoningPart, TextPart, ToolCall
from toolwire.ir.stream import ReasoningDelta, TextDelta


def chunk(*parts: Any, finish: str | None = None, **top: Any) -> dict[str, Any]:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}}
    if finish is not None:
        candidate["finishReason"] = finish
    return {"candidates": [candidate], "modelVersion": "g", "responseId": "r1", **top}


def plain(text: Any = "b") -> dict[str, Any]:
    return {"candidates": [{"content": {"parts": [{"text": text}]}}]}


def fed(*chunks: dict[str, Any]) -> StreamDecoder:
    decoder = StreamDecoder()
    for c in chunks:
        decoder.feed(c)
    return decoder


def test_a_plain_text_chunk_extending_the_open_text_takes_the_hot_path() -> None:
    assert fed(chunk({"text": "a"})).hot(plain()) == (TextDelta, 0, "b")
    assert fed(chunk({"text": "a"})).hot({**plain(), "modelVersion": "g", "responseId": "r1"}) == (
        TextDelta,
        0,
        "b",
    )
    assert fed(chunk({"text": "a"})).hot({**plain(), "responseId": "r1"}) == (TextDelta, 0, "b")
    assert fed(chunk({"text": "a"})).hot({**plain(), "modelVersion": "g"}) == (TextDelta, 0, "b")


def test_a_thought_chunk_extending_the_open_thought_takes_the_hot_path() -> None:
    decoder = fed(chunk({"text": "a", "thought": True}))
    assert decoder.hot(
        plain() | {"candidates": [{"content": {"parts": [{"text": "b", "thought": True}]}}]}
    ) == (
        ReasoningDelta,
        0,
        "b",
    )


@pytest.mark.parametrize(
    "event",
    [
        plain(""),
        plain(5),
        {"candidates": [{"content": {"parts": [{"text": "b", "thought": True}]}}]},  # a thought after text
        {"candidates": [{"content": {"parts": [{"text": "b"}, {"text": "c"}]}}]},
        {"candidates": [{"content": {"parts": [{"text": "b", "thoughtSignature": "s"}]}}]},
        {"candidates": [{"content": {"parts": {"text": "b"}}}]},
        {"candidates": [{"content": "b"}]},
        {"candidates": [{"content": {"parts": [{"text": "b"}]}, "finishReason": "STOP"}]},
        {"candidates": [{"content": {"parts": [{"text": "b"}]}}] * 2},
        {"candidates": [5]},
        {"candidates": {"content": {}}},
        {**plain(), "usageMetadata": {"totalTokenCount": 1}},
        {**plain(), "modelVersion": None},
        {**plain(), "responseId": None},
        {**plain(), "modelVersion": "g", "responseId": "r1", "usageMetadata": {"totalTokenCount": 1}},
        {**plain(), "responseId": "r1", "createTime": "t"},  # as many keys as with modelVersion
        [plain()],
    ],
)
def test_anything_else_takes_the_general_path(event: Any) -> None:
    assert fed(chunk({"text": "a"})).hot(event) is None


def test_text_after_a_thought_takes_the_general_path() -> None:
    assert fed(chunk({"text": "a", "thought": True})).hot(plain()) is None


def test_no_hot_path_before_a_run_or_after_the_end() -> None:
    assert StreamDecoder().hot(plain()) is None
    ended = fed(chunk({"text": "a"}, finish="STOP"))
    ended.close()
    assert ended.hot(plain()) is None
    assert fed(chunk({"functionCall": {"name": "f", "args": {}}})).hot(plain()) is None


def test_hot_and_general_paths_give_the_same_response() -> None:
    chunks = [
        chunk({"text": "t", "thought": True}),
        {"candidates": [{"content": {"parts": [{"text": "u", "thought": True}]}}]},
        chunk({"text": "a"}),
        plain("b"),
        plain("c"),
        chunk({"functionCall": {"name": "f", "args": {"x": 1}}}),
        chunk({"text": "d"}, finish="STOP"),
    ]
    hot, general = StreamDecoder(), StreamDecoder()
    via_hot = [e for c in chunks for e in hot.feed(c)] + hot.close()
    via_general = [e for c in chunks for e in general._feed(c)] + general.close()
    assert via_hot == via_general
    parts = accumulate(via_hot).parts
    assert [type(p) for p in parts] == [ReasoningPart, TextPart, ToolCall, TextPart]
    assert (parts[0].text, parts[1].text, parts[3].text) == ("tu", "abc", "d")  # type: ignore[union-attr]
