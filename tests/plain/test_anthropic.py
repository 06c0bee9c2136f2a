"""The Anthropic reader and writer of the pair lanes (``toolwire._plain.anthropic_read``, ``_write``).

The reader must give the :class:`Plain` of the IR the Anthropic decoder makes (``plain_of_ir``,
a user message of results then text read as two turns), with no decoding note, or ``None``; the
writer must write what the Anthropic encoder writes (and the sendable checks pass) for the IR a
:class:`Plain` stands for, noted exactly when the encoder notes, or ``None``. Every request of
the corpora, mutated and generated requests go through them, and through every pair the harness
has a lane for; hand-written one-spot changes pin each guard.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.compiled import pure_only
from tests.plain._ir_plain import _FIELDS, plain_of_ir, spelled_as_ir
from tests.plain.harness import (
    bench_requests,
    corpus,
    lane_pairs,
    same_both_ways,
    same_bytes,
)
from tests.plain.harness import drop_at as _drop
from tests.plain.harness import set_at as _set
from tests.translate.test_properties import _encode, requests
from tests.translate.test_valid_or_refused_mutated import mutated
from toolwire._json import dumps
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain
from toolwire._plain.anthropic_read import read
from toolwire._plain.anthropic_write import write
from toolwire.errors import ToolwireError
from toolwire.formats._sendable import refuse_unsendable_request
from toolwire.formats.anthropic.request import decode_request, encode_request
from toolwire.ir.content import Message, TextPart, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import _general_request

ANTHROPIC = "anthropic"
OTHERS = ("openai-chat", "openai-responses", "gemini")
SETTINGS = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
READ_FIELDS = (
    *("model", "system", "messages", "max_tokens", "temperature", "top_p", "stream", "metadata"),
    *("tools", "tool_choice"),
)


# ---------------------------------------------------------------- the checks


def _split(ir: Request) -> Request:
    """``ir`` with each user message of results then a text as two messages (the two turns)."""
    messages: list[Message] = []
    for message in ir.messages:
        parts = message.parts
        split = len(parts) > 1 and type(parts[0]) is ToolResult and type(parts[-1]) is TextPart
        if message.role == "user" and split:
            messages.append(msgspec.structs.replace(message, parts=parts[:-1]))
            messages.append(msgspec.structs.replace(message, parts=parts[-1:]))
        else:
            messages.append(message)
    return msgspec.structs.replace(ir, messages=tuple(messages))


def reader_agrees(payload: Any, model: str | None = None) -> bool:
    """Assert that :func:`read` gives the :class:`Plain` of the decoded IR with no note, or
    ``None``; return whether it read ``payload``."""
    before = copy.deepcopy(payload)
    plain = read(payload, model)
    assert payload == before
    if plain is None:
        return False
    notes = Notes("warn")
    ir = decode_request(payload, notes, model=model)
    assert not notes.items
    assert spelled_as_ir(plain) == plain_of_ir(_split(ir))
    assert not plain.noted
    # the history is whole: no target's history checks refuse it (Responses checks the least)
    _general_request(payload, ANTHROPIC, "openai-responses", "drop", model, None, None)  # type: ignore[arg-type]
    return True


def writer_agrees(ir: Request) -> bool:
    """Assert that :func:`write` writes what the Anthropic encoder writes for ``ir`` (of another
    format), noted exactly when the encoder notes, or ``None``; return whether it wrote it."""
    plain = plain_of_ir(ir)
    if plain is None:
        return False
    got = write(plain)
    if got is None:
        return False
    notes = Notes("warn")
    expected = encode_request(ir, notes)
    refuse_unsendable_request(expected, ir, ANTHROPIC)
    assert plain.noted == bool(notes.items), notes.items
    same_bytes(dumps(got), dumps(expected))
    return True


def writer_agrees_from(payload: Any, source: str) -> bool:
    """:func:`writer_agrees` on the IR the general path encodes for ``payload`` (``source``)."""
    try:
        translation = _general_request(payload, source, ANTHROPIC, "drop", None, None, None)  # type: ignore[arg-type]
    except (ToolwireError, ValueError):
        return False
    return writer_agrees(translation.ir)


def _cut_down(payload: Any) -> Any:
    if type(payload) is not dict:
        return payload
    return {key: value for key, value in payload.items() if key in READ_FIELDS}


# ---------------------------------------------------------------- corpora


def test_the_reader_agrees_with_the_decoder_on_every_anthropic_request() -> None:
    requests_ = corpus(ANTHROPIC)
    assert len(requests_) > 100
    taken = [reader_agrees(p) for p in requests_]
    cut = [reader_agrees(_cut_down(p)) for p in requests_]
    assert sum(taken) >= 10 and sum(cut) >= sum(taken)


def test_the_reader_takes_the_benchmark_conversations() -> None:
    for payload in bench_requests(ANTHROPIC):
        assert reader_agrees(payload)


@pytest.mark.parametrize("source", OTHERS)
def test_the_writer_agrees_with_the_encoder_on_every_request(source: str) -> None:
    requests_ = corpus(source)
    taken = [writer_agrees_from(p, source) for p in requests_]
    assert sum(taken) >= 4
    for payload in bench_requests(source):
        assert writer_agrees_from(payload, source)


def test_every_pair_with_a_lane_translates_the_same_both_ways() -> None:
    pairs = lane_pairs(ANTHROPIC)
    assert ("anthropic", "openai-chat") in pairs and ("openai-responses", "anthropic") in pairs
    for source, target in pairs:
        for payload in corpus(source):
            for policy in ("warn", "drop"):
                same_both_ways(payload, source, target, policy)
        for payload in bench_requests(source):
            assert same_both_ways(payload, source, target, "drop")


# ---------------------------------------------------------------- mutated and generated


def test_mutated_anthropic_requests() -> None:
    targets = [target for source, target in lane_pairs(ANTHROPIC) if source == ANTHROPIC]

    @SETTINGS
    @given(mutated(ANTHROPIC), st.booleans(), st.sampled_from(targets))
    def check(sample: Any, cut: bool, target: str) -> None:
        payload = _cut_down(sample.payload) if cut else sample.payload
        reader_agrees(payload)
        same_both_ways(payload, ANTHROPIC, target, "drop")

    check()


@pytest.mark.parametrize("source", OTHERS)
def test_mutated_requests_of_other_formats(source: str) -> None:
    @SETTINGS
    @given(mutated(source))
    def check(sample: Any) -> None:
        writer_agrees_from(sample.payload, source)

    check()


def test_generated_conversations() -> None:
    @SETTINGS
    @given(requests(), st.sampled_from(OTHERS), st.booleans())
    def check(request: Any, source: str, cut: bool) -> None:
        payload = _encode(request, ANTHROPIC)
        reader_agrees(_cut_down(payload) if cut else payload)
        writer_agrees_from(_encode(request, source), source)

    check()


# ---------------------------------------------------------------- hand-written shapes: the reader


def anthropic() -> dict[str, Any]:
    """An Anthropic request of every shape the reader takes."""
    return {
        "model": "claude-x",
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Looking."},
                    {"type": "tool_use", "id": "c1", "name": "weather", "input": {"city": "Oslo"}},
                    {"type": "tool_use", "id": "c2", "name": "time", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "c2", "content": "noon"},
                    {
                        "type": "tool_result",
                        "tool_use_id": "c1",
                        "content": [{"type": "text", "text": "sunny"}],
                    },
                    {"type": "text", "text": "And?"},
                ],
            },
            {"role": "assistant", "content": "Sunny at noon."},
            {"role": "user", "content": [{"type": "text", "text": "And now?"}]},
            {"role": "user", "content": "Quick."},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "c3", "name": "weather", "input": {}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c3", "content": "rain"}]},
        ],
        "max_tokens": 1024,
        "temperature": 1,
        "top_p": 0.5,
        "stream": True,
        "metadata": {"user_id": "u-1", "session": "s-1"},
        "tools": [
            {"name": "weather", "description": "w", "input_schema": {"type": "object"}, "strict": True},
            {"name": "time", "input_schema": {}},
            {"name": "not_called", "description": "n", "input_schema": {}, "strict": False},
        ],
        "tool_choice": {"type": "tool", "name": "weather", "disable_parallel_tool_use": True},
    }


@pure_only  # a compiled class has no __slots__
def test_the_ir_spelling_copies_every_field_of_a_plain() -> None:
    assert set(_FIELDS) == set(Plain.__slots__) - {"model", "turns"}


def test_the_plain_anthropic_request_is_read() -> None:
    plain = read(anthropic(), None)
    assert plain is not None
    assert reader_agrees(anthropic())
    assert [t[0] for t in plain.turns] == [
        *(SYSTEM, USER, ASSISTANT, RESULTS, USER, ASSISTANT, USER, USER, CALL, RESULT)
    ]
    assert plain.turns[3] == (RESULTS, [("c2", "noon"), ("c1", "sunny")])
    assert plain.choice == ("tool", "weather") and plain.parallel is False
    assert plain.user == "u-1" and plain.metadata == {"session": "s-1"}
    for source, target in lane_pairs(ANTHROPIC):
        if source == ANTHROPIC:  # drop: a target that notes (Responses: strict unset) still takes it
            assert same_both_ways(anthropic(), source, target, "drop")


def _one_call_after_text(result_id: str, output: str) -> Callable[[dict[str, Any]], None]:
    """Message 1 a text and one call (c1), message 2 its one result, of ``result_id`` and ``output``."""

    def change(payload: dict[str, Any]) -> None:
        payload["messages"][1]["content"].pop()
        payload["messages"][2]["content"] = [
            {"type": "tool_result", "tool_use_id": result_id, "content": output}
        ]

    return change


def _insert(index: int, item: Any) -> Callable[[dict[str, Any]], None]:
    return lambda payload: payload["messages"].insert(index, item)


def _pop(*keys: str) -> Callable[[dict[str, Any]], None]:
    return lambda payload: [payload.pop(key) for key in keys]


READ: dict[str, Callable[[dict[str, Any]], None]] = {
    "system as one block": _set(("system",), [{"type": "text", "text": "Be brief."}]),
    "no system": _pop("system"),
    "no tools": _pop("tools", "tool_choice"),
    "no tool_choice": _pop("tool_choice"),
    "choice auto": _set(("tool_choice",), {"type": "auto"}),
    "choice any, parallel": _set(("tool_choice",), {"type": "any", "disable_parallel_tool_use": False}),
    "choice none": _set(("tool_choice",), {"type": "none"}),
    "no numbers": _pop("max_tokens", "temperature", "top_p"),
    "float temperature": _set(("temperature",), 0.2),
    "numbers at their bounds": lambda p: [p.update(max_tokens=16, temperature=0, top_p=1.0)],
    "a tool of three fields without strict": _set(
        ("tools", 1), {"name": "time", "description": "t", "input_schema": {"type": "object"}}
    ),
    "a tool of three fields without description": _set(
        ("tools", 1), {"name": "time", "input_schema": {}, "strict": False}
    ),
    "stream false": _set(("stream",), False),
    "metadata without user": _set(("metadata",), {"session": "s"}),
    "metadata of the user only": _set(("metadata",), {"user_id": "u"}),
    "empty metadata": _set(("metadata",), {}),
    "results without text": _drop(("messages", 2, "content", 2)),
    "assistant text block alone": _set(("messages", 3, "content"), [{"type": "text", "text": "Ok."}]),
    "no last call turn": lambda p: [p["messages"].pop(), p["messages"].pop()],
    "the one result of a text turn of one call": _one_call_after_text("c1", "sunny"),
    "one result of one text block": _set(
        ("messages", 7, "content", 0, "content"), [{"type": "text", "text": "r"}]
    ),
}
"""One-spot changes of :func:`anthropic` the reader still reads."""


@pytest.mark.parametrize("change", READ.values(), ids=READ.keys())
def test_each_shape_the_reader_reads(change: Callable[[dict[str, Any]], None]) -> None:
    payload = anthropic()
    change(payload)
    assert reader_agrees(payload)


NOT_READ: dict[str, Callable[[dict[str, Any]], None]] = {
    "not an object": lambda p: p.clear(),
    "unknown field": _set(("top_k",), 5),
    "stop sequences": _set(("stop_sequences",), ["x"]),
    "no model": _pop("model"),
    "empty model": _set(("model",), ""),
    "model not a string": _set(("model",), 3),
    "messages not a list": _set(("messages",), {}),
    "no messages": _set(("messages",), []),
    "empty system": _set(("system",), ""),
    "system of two blocks": _set(("system",), [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]),
    "system block with cache control": _set(
        ("system",), [{"type": "text", "text": "a", "cache_control": {"type": "ephemeral"}}]
    ),
    "system not text": _set(("system",), 3),
    "message not an object": _insert(0, "hi"),
    "message field": _set(("messages", 0, "id"), "m"),
    "system role": _insert(0, {"role": "system", "content": "x"}),
    "unknown role": _set(("messages", 0, "role"), "tool"),
    "empty user text": _set(("messages", 0, "content"), ""),
    "empty text block": _set(("messages", 4, "content", 0, "text"), ""),
    "text block not a string": _set(("messages", 4, "content", 0, "text"), 3),
    "text block field": _set(("messages", 4, "content", 0, "cache_control"), {"type": "ephemeral"}),
    "two text blocks": lambda p: p["messages"][4]["content"].append({"type": "text", "text": "x"}),
    "image block": _set(("messages", 4, "content", 0), {"type": "image", "source": {}}),
    "user content not text": _set(("messages", 0, "content"), 3),
    "empty assistant text": _set(("messages", 3, "content"), ""),
    "empty assistant content": _set(("messages", 3, "content"), []),
    "assistant content not text": _set(("messages", 3, "content"), 3),
    "two assistant messages": _insert(4, {"role": "assistant", "content": "More."}),
    "two assistant messages, one block": _insert(
        4, {"role": "assistant", "content": [{"type": "text", "text": "M"}]}
    ),
    "a call turn after an assistant message": _insert(6, {"role": "assistant", "content": "Ok."}),
    "unknown role of a text block": _set(("messages", 4, "role"), "system"),
    "one result of another call": _set(("messages", 7, "content", 0, "tool_use_id"), "c1"),
    "the one result of a text turn of one call, of another call": _one_call_after_text("c3", "sunny"),
    "the one result of a text turn of one call, empty": _one_call_after_text("c1", ""),
    "one result of an empty text block": _set(
        ("messages", 7, "content", 0, "content"), [{"type": "text", "text": ""}]
    ),
    "one call answered by a text block": _set(("messages", 7, "content"), [{"type": "text", "text": "rain"}]),
    "a call turn while results are due": _insert(
        7, {"role": "assistant", "content": [{"type": "tool_use", "id": "c9", "name": "time", "input": {}}]}
    ),
    "text after calls": lambda p: p["messages"][1]["content"].append({"type": "text", "text": "x"}),
    "two texts then calls": _set(("messages", 1, "content", 1), {"type": "text", "text": "x"}),
    "thinking block": _set(
        ("messages", 1, "content", 0), {"type": "thinking", "thinking": "t", "signature": "s"}
    ),
    "call field": _set(("messages", 1, "content", 1, "cache_control"), {"type": "ephemeral"}),
    "call id not a string": _set(("messages", 6, "content", 0, "id"), 3),
    "empty call id": lambda p: [
        _set(("messages", 6, "content", 0, "id"), "")(p),
        _set(("messages", 7, "content", 0, "tool_use_id"), "")(p),
    ],
    "escaped call id": lambda p: [
        _set(("messages", 6, "content", 0, "id"), "c--3")(p),
        _set(("messages", 7, "content", 0, "tool_use_id"), "c--3")(p),
    ],
    "call id used twice": lambda p: [
        _set(("messages", 6, "content", 0, "id"), "c1")(p),
        _set(("messages", 7, "content", 0, "tool_use_id"), "c1")(p),
    ],
    "empty call name": _set(("messages", 6, "content", 0, "name"), ""),
    "call name not a string": _set(("messages", 6, "content", 0, "name"), 3),
    "input not an object": _set(("messages", 6, "content", 0, "input"), "{}"),
    "unanswered call": lambda p: p["messages"].pop(),
    "call answered by text": _set(("messages", 7, "content"), "rain"),
    "call answered after a text": _set(
        ("messages", 7, "content"),
        [{"type": "text", "text": "x"}, {"type": "tool_result", "tool_use_id": "c3", "content": "rain"}],
    ),
    "a call left unanswered": _drop(("messages", 2, "content", 1)),
    "a call unanswered in a message of fewer blocks": _set(
        ("messages", 2, "content"), [{"type": "tool_result", "tool_use_id": "c2", "content": "noon"}]
    ),
    "result of another call": _set(("messages", 2, "content", 0, "tool_use_id"), "c3"),
    "result id not a string": _set(("messages", 7, "content", 0, "tool_use_id"), ["c3"]),
    "result twice": _set(("messages", 2, "content", 0, "tool_use_id"), "c1"),
    "result without a call turn": _insert(
        4, {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "x"}]}
    ),
    "result is_error": _set(("messages", 7, "content", 0, "is_error"), False),
    "empty result": _set(("messages", 7, "content", 0, "content"), ""),
    "result of no content": _drop(("messages", 7, "content", 0, "content")),
    "result of two texts": _set(
        ("messages", 2, "content", 1, "content"),
        [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}],
    ),
    "result not an object": _set(("messages", 7, "content", 0), "rain"),
    "two texts after results": lambda p: p["messages"][2]["content"].append({"type": "text", "text": "x"}),
    "call answered by a message of results and a call": _set(
        ("messages", 2, "content", 2), {"type": "tool_use", "id": "c9", "name": "time", "input": {}}
    ),
    "assistant while results are due": _insert(7, {"role": "assistant", "content": "wait"}),
    "tools not a list": _set(("tools",), {}),
    "empty tools": lambda p: [p.pop("tool_choice"), _set(("tools",), [])(p)],
    "tool not an object": _set(("tools", 1), "time"),
    "tool type": _set(("tools", 1, "type"), "custom"),
    "server tool": _set(("tools", 2), {"type": "web_search_20250305", "name": "web_search"}),
    "tool field": _set(("tools", 1, "cache_control"), {"type": "ephemeral"}),
    "tool name not a string": _set(("tools", 1, "name"), 3),
    "empty tool name": _set(("tools", 1, "name"), ""),
    "empty name of a tool of every field": _set(("tools", 0, "name"), ""),
    "name not a string of a tool of every field": _set(("tools", 0, "name"), ["weather"]),
    "input_schema not an object of a tool of every field": _set(("tools", 0, "input_schema"), "{}"),
    "a tool of four fields, one unknown": lambda p: [
        _drop(("tools", 0, "strict"))(p),
        _set(("tools", 0, "cache_control"), {"type": "ephemeral"})(p),
    ],
    "two tools of one name": _set(("tools", 2, "name"), "time"),
    "description not a string of a tool of three fields": _set(
        ("tools", 1), {"name": "time", "description": 3, "input_schema": {}}
    ),
    "input_schema not an object of a tool of three fields": _set(
        ("tools", 1), {"name": "time", "description": "t", "input_schema": "{}"}
    ),
    "a tool of three fields, one unknown": _set(
        ("tools", 1), {"name": "time", "description": "t", "cache_control": {"type": "ephemeral"}}
    ),
    "no input_schema": _drop(("tools", 1, "input_schema")),
    "input_schema not an object": _set(("tools", 1, "input_schema"), []),
    "description not a string": _set(("tools", 0, "description"), 3),
    "null description": _set(("tools", 0, "description"), None),
    "strict not a boolean": _set(("tools", 0, "strict"), 1),
    "null strict": _set(("tools", 0, "strict"), None),
    "choice without tools": _pop("tools"),
    "choice not an object": _set(("tool_choice",), "auto"),
    "unknown choice type": _set(("tool_choice", "type"), "function"),
    "choice type not a string": _set(("tool_choice", "type"), 3),
    "choice of no tool": _set(("tool_choice", "name"), "nope"),
    "choice name not a string": _set(("tool_choice", "name"), 3),
    "choice field": _set(("tool_choice", "x"), 1),
    "named field on a mode": _set(("tool_choice",), {"type": "auto", "name": "weather"}),
    "parallel switch not a boolean": _set(("tool_choice", "disable_parallel_tool_use"), 1),
    "parallel switch on none": _set(("tool_choice",), {"type": "none", "disable_parallel_tool_use": True}),
    "max_tokens a float": _set(("max_tokens",), 1024.0),
    "max_tokens below every target's range": _set(("max_tokens",), 15),
    "temperature above 1": _set(("temperature",), 1.5),
    "temperature negative": _set(("temperature",), -0.1),
    "temperature a boolean": _set(("temperature",), True),
    "top_p above 1": _set(("top_p",), 2),
    "stream not a boolean": _set(("stream",), 1),
    "metadata not an object": _set(("metadata",), []),
    "user id not a string": _set(("metadata", "user_id"), 3),
    "max_tokens a boolean": _set(("max_tokens",), True),
    "top_p negative": _set(("top_p",), -0.5),
    "top_p not a number": _set(("top_p",), "0.5"),
    "top_p not a number (NaN)": _set(("top_p",), float("nan")),
    # a message or block of the size of an inline shape, a field missing (read by subscript)
    "message of two keys without role": lambda p: p["messages"].__setitem__(
        4, {"name": "x", "content": [{"type": "text", "text": "And now?"}]}
    ),
    "message of two keys without content": _set(("messages", 4), {"role": "user", "text": "And now?"}),
    "text block of two keys without text": _set(("messages", 4, "content", 0), {"type": "text", "txt": "x"}),
    "block of two keys without type": _set(("messages", 4, "content", 0), {"kind": "text", "text": "x"}),
    "call block of four keys without input": _set(
        ("messages", 6, "content", 0), {"type": "tool_use", "id": "c3", "name": "weather", "args": {}}
    ),
    "call block of four keys without id": _set(
        ("messages", 6, "content", 0), {"type": "tool_use", "ref": "c3", "name": "weather", "input": {}}
    ),
    "one result of three keys without content": _set(
        ("messages", 7, "content", 0), {"type": "tool_result", "tool_use_id": "c3", "is_error": False}
    ),
    "one result of three keys without its id": _set(
        ("messages", 7, "content", 0), {"type": "tool_result", "id": "c3", "content": "rain"}
    ),
}
"""One-spot changes of :func:`anthropic` the reader leaves to the general path."""


@pytest.mark.parametrize("change", NOT_READ.values(), ids=NOT_READ.keys())
def test_each_reader_guard(change: Callable[[dict[str, Any]], None]) -> None:
    payload = anthropic()
    change(payload)
    assert read(payload, None) is None
    reader_agrees(payload)
