"""The Chat reader and writer of the pair lanes (``toolwire._plain.chat_read`` / ``chat_write``).

The reader must give the :class:`Plain` of the IR the Chat decoder makes (``plain_of_ir``), with
no decoding note, or ``None``; the writer must write what the Chat encoder writes (and the
sendable checks pass) for the IR a :class:`Plain` stands for, with no note, or ``None``; and
behind the Responses reader it must write what the old Responses -> Chat lane writes. Every
request of the corpora, cut-down, mutated and generated requests go through them, and through
every pair the harness has a lane for; hand-written one-spot changes pin each guard of the reader
(the writer's are in ``test_chat_write``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.plain._ir_plain import plain_of_ir
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
from toolwire._json import dumps, dumps_str, loads
from toolwire._plain._form import ASSISTANT, CALL, PLAIN_FIELDS, RESULT, RESULTS, SYSTEM, USER, Plain
from toolwire._plain.chat_read import read
from toolwire._plain.chat_write import write
from toolwire.errors import ToolwireError
from toolwire.formats._sendable import refuse_unsendable_request
from toolwire.formats.openai_chat.request import decode_request, encode_request
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import _general_request, format_module, translate_request

CHAT = "openai-chat"
OTHERS = ("openai-responses", "anthropic", "gemini")
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
READ_FIELDS = (
    *("model", "messages", "tools", "tool_choice", "parallel_tool_calls", "max_tokens"),
    *("max_completion_tokens", "temperature", "top_p", "stream", "user", "metadata"),
)


# ---------------------------------------------------------------- the checks


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
    assert plain == plain_of_ir(ir)
    assert not plain.noted
    # the history is whole: no target's history checks refuse it (Responses checks the least)
    _general_request(payload, CHAT, "openai-responses", "drop", model, None, None)  # type: ignore[arg-type]
    return True


def _with_objects(plain: Plain) -> Plain:
    """``plain`` with each call's arguments an object where the text is one in compact form
    (what the Anthropic and Gemini readers give)."""
    turns: list[tuple[Any, ...]] = []
    for turn in plain.turns:
        if turn[0] == ASSISTANT:
            calls = []
            for call_id, name, arguments in turn[2]:
                value = loads(arguments) if arguments else None
                if type(value) is dict and dumps_str(value) == arguments:
                    arguments = value
                calls.append((call_id, name, arguments))
            turn = (ASSISTANT, turn[1], tuple(calls))
        turns.append(turn)
    out = Plain(plain.model, turns)
    for name in PLAIN_FIELDS:
        if name != "turns":
            setattr(out, name, getattr(plain, name))
    return out


def writer_agrees(ir: Request) -> bool:
    """Assert that :func:`write` writes what the Chat encoder writes for ``ir`` (of another
    format) with no note, or ``None``; return whether it wrote it."""
    plain = plain_of_ir(ir)
    if plain is None:
        return False
    got = write(plain)
    assert write(_with_objects(plain)) == got
    if got is None:
        return False
    notes = Notes("warn")
    expected = encode_request(ir, notes)
    refuse_unsendable_request(expected, ir, CHAT)
    assert not notes.items
    assert not plain.noted
    same_bytes(dumps(got), dumps(expected))
    return True


def writer_agrees_from(payload: Any, source: str) -> bool:
    """:func:`writer_agrees` on the IR the general path encodes for ``payload`` (``source``)."""
    try:
        translation = _general_request(payload, source, CHAT, "drop", None, None, None)  # type: ignore[arg-type]
    except (ToolwireError, ValueError):
        return False
    took = writer_agrees(translation.ir)
    if took and not translation.notes:
        assert write(plain_of_ir(translation.ir)) == translation.payload  # type: ignore[arg-type]
    elif took:  # what the general path notes, its decoder notes (the source's reader's part)
        decoded = Notes("warn")
        format_module(source).decode_request(payload, decoded)
        assert decoded.items
    return took


def _cut_down(payload: Any) -> Any:
    if type(payload) is not dict:
        return payload
    return {key: value for key, value in payload.items() if key in READ_FIELDS}


# ---------------------------------------------------------------- corpora


def test_the_reader_agrees_with_the_decoder_on_every_chat_request() -> None:
    requests_ = corpus(CHAT)
    assert len(requests_) > 100
    taken = [reader_agrees(p) for p in requests_]
    cut = [reader_agrees(_cut_down(p)) for p in requests_]
    assert sum(taken) >= 10 and sum(cut) >= sum(taken)


def test_the_reader_takes_the_benchmark_conversations() -> None:
    for payload in bench_requests(CHAT):
        assert reader_agrees(payload)


@pytest.mark.parametrize("source", OTHERS)
def test_the_writer_agrees_with_the_encoder_on_every_request(source: str) -> None:
    requests_ = corpus(source)
    taken = [writer_agrees_from(p, source) for p in requests_]
    assert sum(taken) >= 4
    for payload in bench_requests(source):
        assert writer_agrees_from(payload, source)


def test_every_pair_with_a_lane_translates_the_same_both_ways() -> None:
    pairs = lane_pairs(CHAT)
    for source, target in pairs:
        for payload in corpus(source):
            for policy in ("warn", "drop"):
                same_both_ways(payload, source, target, policy)
        for payload in bench_requests(source):
            assert same_both_ways(payload, source, target, "drop")


# ---------------------------------------------------------------- mutated and generated


def test_mutated_chat_requests() -> None:
    @SETTINGS
    @given(mutated(CHAT), st.booleans())
    def check(sample: Any, cut: bool) -> None:
        reader_agrees(_cut_down(sample.payload) if cut else sample.payload)

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
        chat = _encode(request, CHAT)
        reader_agrees(_cut_down(chat) if cut else chat)
        writer_agrees_from(_encode(request, source), source)

    check()


# ---------------------------------------------------------------- hand-written shapes: the reader


def _tool(name: str, **fields: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "description": f"{name} it", **fields}}


def _calls(*ids: str, name: str = "weather") -> list[dict[str, Any]]:
    return [{"id": i, "type": "function", "function": {"name": name, "arguments": "{}"}} for i in ids]


def chat() -> dict[str, Any]:
    """A Chat request of every shape the reader takes."""
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "developer", "content": "Use tools."},
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": "Looking.",
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "weather", "arguments": '{"city":"Oslo"}'},
                    },
                    {"id": "c2", "type": "function", "function": {"name": "time", "arguments": ""}},
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            {"role": "tool", "tool_call_id": "c2", "content": "noon"},
            {"role": "assistant", "content": "Sunny at noon."},
            {"role": "system", "content": "Keep it short."},
            {"role": "user", "content": "And now?"},
            {"role": "assistant", "content": None, "tool_calls": _calls("c3")},
            {"role": "tool", "tool_call_id": "c3", "content": "rain"},
        ],
        "tools": [
            _tool("weather", parameters={"type": "object", "properties": {}}, strict=True),
            {"type": "function", "function": {"name": "time"}},
            _tool("not_called", strict=False),
        ],
        "tool_choice": {"type": "function", "function": {"name": "weather"}},
        "parallel_tool_calls": False,
        "max_completion_tokens": 1,
        "temperature": 2,
        "top_p": 0.0,
        "stream": True,
        "user": "u-1",
        "metadata": {"session": "s-1"},
    }


def test_the_plain_chat_request_is_read() -> None:
    plain = read(chat(), None)
    assert plain is not None
    assert reader_agrees(chat())
    assert [t[0] for t in plain.turns] == [
        *(SYSTEM, SYSTEM, USER, ASSISTANT, RESULTS, ASSISTANT, SYSTEM, USER, CALL, RESULT)
    ]
    assert plain.turns[4] == (RESULTS, (("c1", "sunny"), ("c2", "noon")))
    assert plain.choice == ("tool", "weather") and plain.max_tokens == 1 and plain.parallel is False
    legacy = chat()
    legacy["max_tokens"] = legacy.pop("max_completion_tokens")
    assert read(legacy, None) == plain
    unnamed = chat()
    del unnamed["model"]
    assert reader_agrees(unnamed, "from-url")
    assert read(unnamed, "from-url").model == "from-url"  # type: ignore[union-attr]


def _insert(index: int, item: Any) -> Callable[[dict[str, Any]], None]:
    return lambda payload: payload["messages"].insert(index, item)


NOT_READ: dict[str, Callable[[dict[str, Any]], None]] = {
    "not an object": lambda p: p.clear(),
    "unknown field": _set(("seed",), 1),
    "null field": _set(("user",), None),
    "model not a string": _set(("model",), 3),
    "empty model": _set(("model",), ""),
    "messages not a list": _set(("messages",), {}),
    "no messages": _set(("messages",), []),
    "message not an object": _insert(0, "hi"),
    "extra message field": _set(("messages", 2, "name"), "bob"),
    "unknown role": _set(("messages", 2, "role"), "function"),
    "tool role of two fields": _insert(0, {"role": "tool", "content": "x"}),
    "text not a string": _set(("messages", 2, "content"), [{"type": "text", "text": "Weather?"}]),
    "empty text": _set(("messages", 2, "content"), ""),
    "empty assistant text with calls": _set(("messages", 3, "content"), ""),
    "assistant content not text": _set(("messages", 3, "content"), 3),
    "three fields, no content": _set(
        ("messages", 9), {"role": "assistant", "refusal": None, "tool_calls": []}
    ),
    "user of three fields": _set(("messages", 2, "name"), "bob"),
    "calls not a list": _set(("messages", 9, "tool_calls"), {}),
    "no calls": _set(("messages", 9, "tool_calls"), []),
    "call not an object": _set(("messages", 9, "tool_calls", 0), "c3"),
    "extra call field": _set(("messages", 9, "tool_calls", 0, "index"), 0),
    "custom call": _set(("messages", 9, "tool_calls", 0, "type"), "custom"),
    "function not an object": _set(("messages", 9, "tool_calls", 0, "function"), "weather"),
    "extra function field": _set(("messages", 9, "tool_calls", 0, "function", "x"), 1),
    "call id not a string": _set(("messages", 9, "tool_calls", 0, "id"), 3),
    "empty call id": _set(("messages", 9, "tool_calls", 0, "id"), ""),
    "empty call name": _set(("messages", 9, "tool_calls", 0, "function", "name"), ""),
    "call name not a string": _set(("messages", 9, "tool_calls", 0, "function", "name"), 3),
    "arguments not a string": _set(("messages", 9, "tool_calls", 0, "function", "arguments"), {}),
    "call id used twice": _set(("messages", 9, "tool_calls", 0, "id"), "c1"),
    "call id twice in a turn": _set(("messages", 3, "tool_calls", 1, "id"), "c1"),
    "results out of call order": _set(("messages", 4, "tool_call_id"), "c2"),
    "result of no call": _set(("messages", 10, "tool_call_id"), "c9"),
    "empty result": _set(("messages", 10, "content"), ""),
    "result of another role": _set(("messages", 10, "role"), "user"),
    "result with an extra field": _set(("messages", 10, "name"), "weather"),
    "result of three fields, no content": lambda p: p["messages"][10].update(content=None),
    "empty text of a one-call turn": _set(("messages", 9, "content"), ""),
    "text not a string in a one-call turn": _set(("messages", 9, "content"), ["Looking."]),
    "result not text": _set(("messages", 10, "content"), [{"type": "text", "text": "rain"}]),
    "unanswered call": _drop(("messages", 10)),
    "call answered late": _insert(5, {"role": "user", "content": "wait"}),
    "result without a call turn": _insert(7, {"role": "tool", "tool_call_id": "c2", "content": "x"}),
    "two assistant messages": _insert(7, {"role": "assistant", "content": "More."}),
    "assistant text then calls": _insert(9, {"role": "assistant", "content": "More."}),
    "tools not a list": _set(("tools",), {}),
    "no tools": _set(("tools",), []),
    "tool not an object": _set(("tools", 1), "time"),
    "custom tool": _set(("tools", 1), {"type": "custom", "custom": {"name": "time"}}),
    "extra tool field": _set(("tools", 1, "x"), 1),
    "tool function not an object": _set(("tools", 1, "function"), "time"),
    "extra function field of a tool": _set(("tools", 1, "function", "x"), 1),
    "tool name not a string": _set(("tools", 1, "function", "name"), 3),
    "empty tool name": _set(("tools", 1, "function", "name"), ""),
    "two tools of one name": _set(("tools", 2, "function", "name"), "time"),
    "description not a string": _set(("tools", 0, "function", "description"), 3),
    "null description": _set(("tools", 0, "function", "description"), None),
    "parameters not an object": _set(("tools", 0, "function", "parameters"), []),
    "empty parameters": _set(("tools", 0, "function", "parameters"), {}),
    "null parameters": _set(("tools", 0, "function", "parameters"), None),
    "strict not a boolean": _set(("tools", 0, "function", "strict"), 1),
    "null strict": _set(("tools", 0, "function", "strict"), None),
    "choice without tools": _drop(("tools",)),
    "unknown mode": _set(("tool_choice",), "any"),
    "choice of no tool": _set(("tool_choice", "function", "name"), "nope"),
    "choice name not a string": _set(("tool_choice", "function", "name"), 3),
    "custom choice": _set(("tool_choice", "type"), "custom"),
    "extra choice field": _set(("tool_choice", "x"), 1),
    "extra choice function field": _set(("tool_choice", "function", "x"), 1),
    "choice function not an object": _set(("tool_choice", "function"), "weather"),
    "choice not a mode or object": _set(("tool_choice",), 3),
    "parallel not a boolean": _set(("parallel_tool_calls",), 1),
    "both token limits": _set(("max_tokens",), 5),
    "token limit not an integer": _set(("max_completion_tokens",), 1.0),
    "temperature not a number": _set(("temperature",), "2"),
    "temperature a boolean": _set(("temperature",), True),
    "top_p not a number": _set(("top_p",), "0"),
    "stream not a boolean": _set(("stream",), 1),
    "user not a string": _set(("user",), 1),
    "metadata not an object": _set(("metadata",), []),
    # a message, a call or a tool of the size of an inline shape, a field missing (read by subscript)
    "message of two fields without role": _set(("messages", 2), {"name": "user", "content": "Weather?"}),
    "message of two fields without content": _set(("messages", 2), {"role": "user", "text": "Weather?"}),
    "assistant of three fields without calls": _set(
        ("messages", 9), {"role": "assistant", "content": None, "function_call": {}}
    ),
    "message of three fields without role": _set(
        ("messages", 9), {"author": "assistant", "content": None, "tool_calls": _calls("c3")}
    ),
    "one call without type": _set(
        ("messages", 9, "tool_calls", 0), {"id": "c3", "kind": "function", "function": {}}
    ),
    "one call without function": lambda p: p["messages"][9]["tool_calls"][0].update(
        function=None, name="weather"
    ),
    "one call's function without arguments": _set(
        ("messages", 9, "tool_calls", 0, "function"), {"name": "weather", "args": "{}"}
    ),
    "one call's result without its id": _set(
        ("messages", 10), {"role": "tool", "id": "c3", "content": "rain"}
    ),
    "one call's result without role": _set(
        ("messages", 10), {"author": "tool", "tool_call_id": "c3", "content": "rain"}
    ),
    "one call and no result": _drop(("messages", 10)),
    "a tool of four function fields, one unknown": _set(
        ("tools", 0, "function"), {"name": "weather", "description": "d", "parameters": {"a": 1}, "x": True}
    ),
    "a tool of four function fields, empty parameters": _set(
        ("tools", 0, "function"), {"name": "weather", "description": "d", "parameters": {}, "strict": True}
    ),
    "a tool of three function fields, empty parameters": _set(
        ("tools", 0, "function"), {"name": "weather", "description": "d", "parameters": {}}
    ),
    "a tool of three function fields, description not a string": _set(
        ("tools", 0, "function"), {"name": "weather", "description": 3, "parameters": {"a": 1}}
    ),
    "a tool of three function fields, one unknown": _set(
        ("tools", 0, "function"), {"name": "weather", "description": "d", "x": 1}
    ),
    "a tool without type": _set(("tools", 1), {"kind": "function", "function": {"name": "time"}}),
    "a tool without function": _set(("tools", 1), {"type": "function", "fn": {"name": "time"}}),
}


@pytest.mark.parametrize("change", NOT_READ.values(), ids=NOT_READ.keys())
def test_each_reader_guard(change: Callable[[dict[str, Any]], None]) -> None:
    payload = chat()
    change(payload)
    assert read(payload, None) is None
    reader_agrees(payload)


def test_parallel_without_tools_is_not_read() -> None:
    payload = chat()
    del payload["tools"], payload["tool_choice"]
    assert read(payload, None) is None
    del payload["parallel_tool_calls"]
    assert reader_agrees(payload)


def test_legacy_token_limit_alone_is_read() -> None:
    payload = chat()
    payload["max_tokens"] = payload.pop("max_completion_tokens")
    assert reader_agrees(payload)


def test_a_chat_request_to_chat_takes_the_general_path() -> None:
    """Chat has a reader and a writer, but a same-format request keeps its forms (here the
    legacy ``max_tokens``), which only the general path knows."""
    payload = chat()
    payload["max_tokens"] = payload.pop("max_completion_tokens")
    assert read(payload, None) is not None
    assert not same_both_ways(payload, CHAT, CHAT)
    assert translate_request(payload, source=CHAT, target=CHAT).payload["max_tokens"] == 1


def test_a_tool_of_three_function_fields_without_strict_is_read() -> None:
    """The common tool without ``strict`` (read by subscript) reads as the IR, its ``strict``
    unset; a tool of three fields without ``description`` is read field by field."""
    payload = chat()
    payload["tools"][0]["function"] = {"name": "weather", "description": "d", "parameters": {"a": 1}}
    assert reader_agrees(payload)
    plain = read(payload, None)
    assert plain is not None and plain.tools[0] == ("weather", "d", {"a": 1}, None)
    payload["tools"][0]["function"] = {"name": "weather", "parameters": {"a": 1}, "strict": True}
    assert reader_agrees(payload)
