"""Memory flat in the number of argument deltas (issue 18), and the check that makes it so.

One tool call whose arguments stream in many small deltas, from an Anthropic source (the decoder
that held every delta to parse the arguments at the end): the ``tracemalloc`` peak of the whole
translation to Chat and Anthropic stays the same from 20k to 200k deltas (past ``HELD`` nothing
more is held); a Gemini target sends the call whole, so it holds the text, but about once, not
60 bytes per delta. The completeness note still comes, from a structural check past ``HELD``.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Iterator

import pytest

from toolwire._args_check import HELD, TRIM, ArgumentsCheck, _Shape, object_problem
from toolwire.formats._stream import WireEvent
from toolwire.streaming import StreamTranslator

PIECE = "abcdefgh"


def anthropic_call(deltas: int, *, piece: str = PIECE, close: bool = True) -> Iterator[WireEvent]:
    """An Anthropic stream of one ``write`` call: ``{"text": "`` + ``deltas`` pieces + ``"}``."""
    usage = {"input_tokens": 3, "output_tokens": 1}
    message = {
        "id": "msg_a",
        "type": "message",
        "role": "assistant",
        "model": "c",
        "content": [],
        "usage": usage,
    }
    yield {"type": "message_start", "message": message}
    block = {"type": "tool_use", "id": "toolu_1", "name": "write", "input": {}}
    yield {"type": "content_block_start", "index": 0, "content_block": block}
    for index in range(deltas + 2):  # lazily: the input must not count as stream memory
        text = '{"text": "' if index == 0 else piece if index <= deltas else '"}' if close else ""
        if text:
            delta = {"type": "input_json_delta", "partial_json": text}
            yield {"type": "content_block_delta", "index": 0, "delta": delta}
    yield {"type": "content_block_stop", "index": 0}
    yield {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}
    yield {"type": "message_stop"}


def _peak(target: str, deltas: int, piece: str = PIECE) -> int:
    StreamTranslator("anthropic", target)  # imports before tracing
    tracemalloc.start()
    try:
        translator = StreamTranslator("anthropic", target, policy="drop")
        for event in anthropic_call(deltas, piece=piece):
            translator.feed_frames(event)
        translator.close_frames()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("target", ["openai-chat", "anthropic"])
def test_peak_is_flat_in_argument_deltas(target: str) -> None:
    """20k deltas (160 KB of arguments, past HELD) and 200k deltas (1.6 MB) peak alike, well
    under the text (before: about 60 B per delta, 12 MB at 200k)."""
    small, big = _peak(target, 20_000), _peak(target, 200_000)
    assert big < small * 1.2 + 16 * 1024, f"peak {small} B at 20k deltas, {big} B at 200k"
    assert big < 400 * 1024


def test_gemini_holds_the_text_once_not_per_delta() -> None:
    """Gemini sends a call whole: the same 800 KB of arguments in 100k deltas or in 10k costs
    about the same, a few times the text (parsing it and writing it once), not 60 B a delta."""
    text = 100_000 * len(PIECE)
    many, few = _peak("gemini", 100_000), _peak("gemini", 10_000, PIECE * 10)
    assert many < few * 1.2 + 64 * 1024, f"peak {many} B in 100k deltas, {few} B in 10k"
    assert many < 4 * text


@pytest.mark.parametrize("close", [True, False])
def test_long_call_passes_through_with_its_note(close: bool) -> None:
    """Past HELD, the Chat client still gets every argument byte, and a cut-off call its note."""
    deltas = HELD // len(PIECE) * 2
    translator = StreamTranslator("anthropic", "openai-chat", policy="drop")
    sent: list[str] = []
    for event in [*anthropic_call(deltas, close=close)]:
        for out in translator.feed(event):
            if isinstance(out, dict):
                for call in out["choices"][0]["delta"].get("tool_calls", ()) if out.get("choices") else ():
                    sent.append(call["function"].get("arguments", ""))
    translator.close()
    expected = '{"text": "' + PIECE * deltas + ('"}' if close else "")
    assert "".join(sent) == expected
    notes = [n.message for n in translator.notes.items if "incomplete arguments" in n.message]
    if close:
        assert notes == []
    else:
        problem = "incomplete arguments (invalid JSON: unterminated string)"
        assert notes == [f"tool call 'write' ended with {problem}; kept as received"]


def test_anthropic_target_notes_a_cut_off_long_call() -> None:
    translator = StreamTranslator("anthropic", "anthropic", policy="drop")
    for event in anthropic_call(HELD // len(PIECE) * 2, close=False):
        translator.feed(event)
    translator.close()
    messages = [n.message for n in translator.notes.items if "not a complete JSON object" in n.message]
    problem = "not a complete JSON object (invalid JSON: unterminated string)"
    assert messages == [f"arguments of 'write' are {problem}; sent as received"]


def test_a_responses_target_still_gets_the_whole_call() -> None:
    """Responses repeats the call in output_item.done: its decoder keeps holding the arguments."""
    deltas = HELD // len(PIECE) * 2
    translator = StreamTranslator("anthropic", "openai-responses", policy="drop")
    done = [
        out
        for event in anthropic_call(deltas)
        for out in translator.feed(event)
        if isinstance(out, dict) and out.get("type") == "response.output_item.done"
    ]
    assert done[0]["item"]["arguments"] == '{"text": "' + PIECE * deltas + '"}'


DOCUMENTS = [
    {"text": 'quote " backslash \\ braces {[ ]} unicode é ☀', "n": [1, 2.5, -3e4, True, None]},
    {"a": {"b": {"c": [[], {}, [{"d": "}"}]]}}, "e": "\\\\"},
    {},
]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_shape_agrees_with_the_parser_on_every_cut(document: dict[str, object]) -> None:
    """Split every way into pieces of each size: the whole object passes, every proper prefix fails
    (the structural check past HELD says what the exact one says about a cut-off object)."""
    text = json.dumps(document, ensure_ascii=False)
    for size in (1, 2, 3, 5, 8, 13, len(text)):
        for end in range(len(text) + 1):
            shape = _Shape()
            for start in range(0, end, size):
                shape.feed(text[start : min(start + size, end)])
            whole = end in (0, len(text))  # "" counts as {}
            assert (shape.verdict() is None) == whole, (text[:end], size)
            assert (object_problem(text[:end]) is None) == whole


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[1, 2]", "not a JSON object"),
        ('{"a": 1} x', "invalid JSON: extra data after the object"),
        ('{"a": [1, {', "invalid JSON: 3 unclosed object(s) or array(s)"),
        ('{"a": "x\\', "invalid JSON: unterminated string"),
        ('  {"a": "}"}  ', None),
    ],
)
def test_shape_verdicts(text: str, problem: str | None) -> None:
    shape = _Shape()
    shape.feed(text)
    assert shape.verdict() == problem


def test_check_is_exact_until_held_then_structural() -> None:
    check = ArgumentsCheck()
    check.append('{"a": tru')
    check.append("e}")
    assert check.text() == '{"a": true}'
    assert check.problem() is None
    broken = ArgumentsCheck()
    for piece in ('{"a": tru', "x}"):
        broken.append(piece)
    assert broken.problem() is not None and broken.problem().startswith("invalid JSON")  # type: ignore[union-attr]
    long = ArgumentsCheck()
    long.append('{"a": "')
    for count in range(HELD // len(PIECE) + 128):
        long.append(PIECE)
        if count % TRIM == 0:  # as the stream codecs do
            long.trim()
            assert len(long) <= 1 or long.text() is None
    assert long.text() is None
    assert len(long) < TRIM
    assert long.problem() == "invalid JSON: unterminated string"
    long.append('"}')
    assert long.problem() is None
