"""The bytes API's request writers (``write_wire``, issue 18): the Anthropic, Gemini, Chat and
Bedrock writers build msgspec Structs (:mod:`toolwire._plain._request_out`) where the dict API's
``write`` builds dicts, and ``translate_request_bytes`` encodes them.

For every request of the corpora, of each reader, and every one-spot change of the flat-turn
conversation (``test_flat_turns``), both writers give the same outcome: ``None`` for the same
requests, the same ``noted``, and the same bytes once encoded. The public bytes API is checked
against the general path by ``same_both_ways`` (every lane test); here, that it takes the Structs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.plain.harness import FORMATS, corpus, same_both_ways
from tests.plain.test_flat_turns import CHANGES, _plain, conversation
from toolwire import translate_request_bytes
from toolwire._json import dumps
from toolwire._plain import (
    READERS,
    WIRE_WRITERS,
    WRITERS,
    anthropic_write,
    bedrock_write,
    chat_write,
    gemini_write,
)
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, USER, Plain
from toolwire._plain._request_out import (
    AnthropicMessageOut,
    BedrockMessageOut,
    ChatCallMessageOut,
    ChatMessageOut,
    ChatToolMessageOut,
    GeminiContentOut,
)
from toolwire.errors import PayloadError
from toolwire.translate import pair_lane, translate_request

TARGETS = ("anthropic", "gemini", "openai-chat", "bedrock-converse")


def _both(target: str, make: Callable[[], Plain | None]) -> tuple[Any, Any]:
    """What ``write`` and ``write_wire`` give for a fresh :class:`Plain` each: the encoded
    payload and ``noted``, or ``None``, or the type of what they raise."""
    got = []
    for write in (WRITERS[target], WIRE_WRITERS[target]):
        plain = make()
        if plain is None:
            return None, None
        try:
            out = write(plain)
        except Exception as exc:
            got.append(type(exc))
            continue
        got.append(None if out is None else (dumps(out), plain.noted))
    return got[0], got[1]


@pytest.mark.parametrize("source", [f for f in FORMATS if f in READERS])
@pytest.mark.parametrize("target", TARGETS)
def test_the_corpora_are_written_the_same_both_ways(source: str, target: str) -> None:
    if source == target:
        return
    written = 0
    for payload in corpus(source):
        dict_out, wire_out = _both(
            target, lambda payload=payload: READERS[source](payload, "gemini-2.5-flash")
        )
        assert dict_out == wire_out
        written += dict_out is not None
    assert written


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("change", CHANGES.values(), ids=CHANGES.keys())
def test_each_flat_turn_change_is_written_the_same_both_ways(
    target: str, change: Callable[[list[Any]], None]
) -> None:
    turns = conversation()
    change(turns)
    dict_out, wire_out = _both(target, lambda: _plain(list(turns)))
    assert dict_out == wire_out


def _chat() -> dict[str, Any]:
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Weather?"},
            {"role": "user", "content": "In Oslo."},
            {"role": "assistant", "content": "Looking.", "tool_calls": [_call("c1", '{"city":"Oslo"}')]},
            {"role": "tool", "tool_call_id": "c1", "content": "sunny"},
            {"role": "assistant", "content": None, "tool_calls": [_call("c2", ""), _call("c3", "{}")]},
            {"role": "tool", "tool_call_id": "c2", "content": "rain"},
            {"role": "tool", "tool_call_id": "c3", "content": "noon"},
            {"role": "assistant", "content": "Sunny."},
        ],
        "tools": [{"type": "function", "function": {"name": "weather"}}],
    }


def _call(call_id: str, arguments: str) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": "weather", "arguments": arguments}}


def _anthropic() -> dict[str, Any]:
    """An Anthropic request (object arguments: the Chat writer writes their text)."""
    use = {"type": "tool_use", "name": "weather"}
    return {
        "model": "claude-sonnet-4-5",
        "system": "Be brief.",
        "max_tokens": 256,
        "messages": [
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Looking."},
                    {**use, "id": "c1", "input": {"city": "Oslo"}},
                ],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "sunny"}]},
            {
                "role": "assistant",
                "content": [{**use, "id": "c2", "input": {}}, {**use, "id": "c3", "input": {"a": [1]}}],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "c2", "content": "rain"},
                    {"type": "tool_result", "tool_use_id": "c3", "content": "noon"},
                ],
            },
            {"role": "assistant", "content": [{**use, "id": "c4", "input": {"city": "Bergen"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c4", "content": "fog"}]},
        ],
        "tools": [{"name": "weather", "input_schema": {"type": "object", "properties": {}}}],
    }


_SHAPES = {
    "anthropic": {AnthropicMessageOut},
    "gemini": {GeminiContentOut},
    "openai-chat": {ChatMessageOut, ChatCallMessageOut, ChatToolMessageOut},
    "bedrock-converse": {BedrockMessageOut},
}


@pytest.mark.parametrize(
    ("source", "target"),
    [
        ("openai-chat", "anthropic"),
        ("openai-chat", "gemini"),
        ("anthropic", "openai-chat"),
        ("openai-chat", "bedrock-converse"),
        ("anthropic", "bedrock-converse"),
    ],
)
def test_the_bytes_api_takes_the_structs(source: str, target: str) -> None:
    payload = _chat() if source == "openai-chat" else _anthropic()
    lane = pair_lane(payload, source, target, "drop", None, True)
    assert lane is not None
    conversation = lane[0]["contents" if target == "gemini" else "messages"]
    assert {type(item) for item in conversation} == _SHAPES[target]
    assert pair_lane(payload, source, target, "drop") == (
        translate_request(payload, source=source, target=target, policy="drop").payload,
        lane[1],
    )
    assert same_both_ways(payload, source, target, "drop")
    assert translate_request_bytes(dumps(payload), source=source, target=target, policy="drop") == dumps(
        translate_request(payload, source=source, target=target, policy="drop").payload
    )


@pytest.mark.parametrize("target", TARGETS)
def test_a_bad_body_still_raises_a_typed_error(target: str) -> None:
    body = dumps(_chat())
    with pytest.raises(PayloadError) as caught:
        translate_request_bytes(body[:-1], source="openai-chat", target=target, policy="drop")
    assert caught.value.path == "$"
    bad = _chat()
    bad["messages"][4]["tool_call_id"] = 3
    with pytest.raises(PayloadError) as caught:
        translate_request_bytes(dumps(bad), source="openai-chat", target=target, policy="drop")
    assert caught.value.path == "$.messages[4].tool_call_id"


def test_the_writers_name_their_wire_writers() -> None:
    assert WIRE_WRITERS["anthropic"] is anthropic_write.write_wire
    assert WIRE_WRITERS["gemini"] is gemini_write.write_wire
    assert WIRE_WRITERS["openai-chat"] is chat_write.write_wire
    assert WIRE_WRITERS["bedrock-converse"] is bedrock_write.write_wire
    assert {k: v for k, v in WIRE_WRITERS.items() if k not in TARGETS} == {
        k: v for k, v in WRITERS.items() if k not in TARGETS
    }


_TWO_CALLS = (ASSISTANT, None, (("c1", "weather", "{}"), ("c2", "time", "")))
HAND: dict[str, tuple[list[Any], bool]] = {
    "results in the calls' order": ([(USER, "Hi"), _TWO_CALLS, (RESULTS, (("c1", "a"), ("c2", "b")))], True),
    "results out of the calls' order": (
        [(USER, "Hi"), _TWO_CALLS, (RESULTS, (("c2", "b"), ("c1", "a")))],
        True,
    ),
    "results of a flat call turn, nested": (
        [(USER, "Hi"), (CALL, "c1", "weather", ""), (RESULTS, (("c1", "a"),))],
        True,
    ),
    "a model text first": ([(ASSISTANT, "Hello.", ()), (USER, "Hi")], True),
    "a model text then a call first": (
        [(ASSISTANT, "Hm.", ()), (CALL, "c1", "weather", ""), (RESULT, "c1", "a")],
        False,
    ),
    "a call first": ([(CALL, "c1", "weather", ""), (RESULT, "c1", "a")], False),
    "results of other calls": ([(USER, "Hi"), _TWO_CALLS, (RESULTS, (("c2", "b"), ("c9", "a")))], False),
    "user texts merged": ([(USER, "Hi"), (USER, "there"), (ASSISTANT, "Hello.", ())], True),
    "a user text after a result, merged": (
        [(USER, "Hi"), (CALL, "c1", "weather", ""), (RESULT, "c1", "a"), (USER, "thanks"), (USER, "bye")],
        True,
    ),
    "model texts then a call, merged": (
        [
            (USER, "Hi"),
            (ASSISTANT, "Hm.", ()),
            (ASSISTANT, "Wait.", ()),
            (CALL, "c1", "weather", ""),
            (RESULT, "c1", "a"),
        ],
        True,
    ),
    "a model text after calls, merged": (
        [
            (USER, "Hi"),
            (CALL, "c1", "weather", "{}"),
            (RESULT, "c1", "a"),
            (ASSISTANT, "Ok.", ()),
            (ASSISTANT, "So.", ()),
        ],
        True,
    ),
}
"""Hand-written conversations (and whether Gemini writes them): the results' helpers, the first
content's check (a Struct under ``write_wire``), turns merged into a message or content of one
block or part (a tuple under ``write_wire``)."""


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("name", sorted(HAND))
def test_hand_written_turns_are_written_the_same_both_ways(target: str, name: str) -> None:
    turns, by_gemini = HAND[name]
    dict_out, wire_out = _both(target, lambda: _plain(list(turns)))
    assert dict_out == wire_out
    if target == "gemini":
        assert (dict_out is not None) is by_gemini
