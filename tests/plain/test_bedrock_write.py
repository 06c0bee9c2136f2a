"""The Bedrock Converse writer of the pair lanes (``_plain.bedrock_write``) agrees with the general
path.

Every corpus request of the four other formats goes into Bedrock both ways (the harness: same
payload, notes, IR, error, ``noted`` exactly); the writer is held to the general path's Bedrock
body for the Plain of the IR of every corpus request, of generated conversations and of mutated
corpus requests. A hand-written Chat request pins the body field by field, and one-spot changes
of it pin each guard and each note.
"""

from __future__ import annotations

import copy
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.plain import harness
from tests.plain.harness import bench_requests, corpus, same_both_ways, set_at
from tests.plain.test_gemini import plain_chat as gemini_plain_chat
from tests.translate.test_properties import _encode, requests
from tests.translate.test_valid_or_refused_mutated import mutated
from toolwire import translate_request, translate_request_bytes
from toolwire._json import dumps
from toolwire._plain import READERS, WIRE_WRITERS, WRITERS
from toolwire._plain._form import ASSISTANT, CALL, RESULT, RESULTS, SYSTEM, USER, Plain
from toolwire._plain.bedrock_write import _ids_ok, write, write_wire
from toolwire.formats.bedrock_converse._keys import TOOL_USE_ID
from toolwire.translate import pair_lane

FMT: Final = "bedrock-converse"
SOURCES = ("openai-chat", "openai-responses", "anthropic", "gemini")
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def writes_as_the_general_path(payload: Any, source: str) -> bool:
    """The harness's check of the Bedrock writer (from ``source``)."""
    return harness.writes_as_the_general_path(write, payload, source, FMT)


def test_the_tables_hold_the_bedrock_writer() -> None:
    assert WRITERS[FMT] is write
    assert WIRE_WRITERS[FMT] is write_wire  # the bytes API's: the messages as Structs


TAKEN = {  # corpus requests the lane takes, at least (under drop; under warn and strict)
    "openai-chat": (25, 20),
    "openai-responses": (15, 12),
    "anthropic": (60, 35),
    "gemini": (8, 8),
}


@pytest.mark.parametrize("policy", ["warn", "drop", "strict"])
@pytest.mark.parametrize("source", SOURCES)
def test_every_corpus_request_translates_the_same_both_ways(source: str, policy: str) -> None:
    taken = [same_both_ways(payload, source, FMT, policy) for payload in corpus(source)]
    least = TAKEN[source][0 if policy == "drop" else 1]
    assert sum(taken) >= least, (sum(taken), least)


def test_the_lane_takes_the_benchmark_conversations() -> None:
    for source in SOURCES:
        for payload in bench_requests(source):
            assert same_both_ways(payload, source, FMT, "drop"), source
            assert writes_as_the_general_path(payload, source), source


@pytest.mark.parametrize("source", SOURCES)
def test_every_corpus_request_writes_as_the_general_path(source: str) -> None:
    assert sum(writes_as_the_general_path(payload, source) for payload in corpus(source)) >= 8


def test_mutated_corpus_requests_agree() -> None:
    @SETTINGS
    @given(st.sampled_from(SOURCES), st.data())
    def check(source: str, data: st.DataObject) -> None:
        sample = data.draw(mutated(source))
        writes_as_the_general_path(sample.payload, source)
        same_both_ways(sample.payload, source, FMT, "drop", sample.model)

    check()


def test_generated_conversations_agree() -> None:
    @SETTINGS
    @given(requests(), st.sampled_from(SOURCES))
    def check(request: Any, source: str) -> None:
        payload = _encode(request, source)
        writes_as_the_general_path(payload, source)
        same_both_ways(payload, source, FMT, "drop")

    check()


# ---------------------------------------------------------------- hand-written shapes

_OBJECT = {"type": "object", "properties": {"city": {"type": "string"}}}


def plain_chat() -> dict[str, Any]:
    """A Chat request of the shapes the writer takes: two calls answered, then a user text
    (:mod:`tests.plain.test_gemini`'s, its numbers in Bedrock's ranges, a schema, a stream)."""
    payload = gemini_plain_chat()
    payload["model"] = "anthropic.claude-sonnet-4"
    payload["tools"][0]["function"]["parameters"] = _OBJECT
    payload.update(temperature=1, top_p=0.5, stream=True)
    return payload


EXPECTED: dict[str, Any] = {
    "messages": [
        {"role": "user", "content": [{"text": "Weather?"}]},
        {
            "role": "assistant",
            "content": [
                {"text": "Looking."},
                {"toolUse": {"toolUseId": "c1", "name": "weather", "input": {"city": "Oslo"}}},
                {"toolUse": {"toolUseId": "c2", "name": "time", "input": {}}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "c1", "content": [{"text": "sunny"}]}},
                {"toolResult": {"toolUseId": "c2", "content": [{"text": "noon"}]}},
                {"text": "Thanks."},
            ],
        },
    ],
    "system": [{"text": "Be brief."}],
    "inferenceConfig": {"maxTokens": 100, "temperature": 1, "topP": 0.5},
    "toolConfig": {
        "tools": [
            {"toolSpec": {"name": "weather", "description": "W", "inputSchema": {"json": _OBJECT}}},
            {"toolSpec": {"name": "time", "inputSchema": {"json": {"type": "object", "properties": {}}}}},
        ],
        "toolChoice": {"tool": {"name": "weather"}},
    },
}


def test_the_plain_chat_request_is_written_field_by_field() -> None:
    plain = READERS["openai-chat"](plain_chat(), None)
    assert plain is not None
    assert write(plain) == EXPECTED and not plain.noted
    assert list(write(plain) or {}) == list(EXPECTED)
    assert same_both_ways(plain_chat(), "openai-chat", FMT, "strict")
    raw = translate_request_bytes(dumps(plain_chat()), source="openai-chat", target=FMT, policy="strict")
    assert raw == dumps(EXPECTED)
    body = copy.deepcopy(EXPECTED)
    body["messages"][2]["content"].pop()  # results only: a plain Bedrock body
    assert READERS[FMT](body, "m") is not None
    assert pair_lane(body, FMT, FMT, "drop", "m") is None  # same format: no lane


def test_a_one_call_conversation_and_the_tool_choices() -> None:
    payload = plain_chat()
    payload["messages"][2] = {
        "role": "assistant",
        "content": None,
        "tool_calls": payload["messages"][2]["tool_calls"][:1],
    }
    del payload["messages"][4]
    payload["messages"][4]["content"] = "more"
    for choice, wire in (("auto", {"auto": {}}), ("required", {"any": {}}), (None, None)):
        if choice is None:
            del payload["tool_choice"]
        else:
            payload["tool_choice"] = choice
        assert same_both_ways(payload, "openai-chat", FMT, "strict"), choice
        out = translate_request(payload, source="openai-chat", target=FMT, policy="strict").payload
        assert out["toolConfig"].get("toolChoice") == wire
        assert out["messages"][1]["content"] == [EXPECTED["messages"][1]["content"][1]]
        assert out["messages"][2]["content"] == [EXPECTED["messages"][2]["content"][0], {"text": "more"}]


def _chat_call(index: int) -> tuple[Any, ...]:
    return ("messages", 2, "tool_calls", index, "function")


def _two_user_turns(p: dict[str, Any]) -> None:
    p["messages"][1:1] = [{"role": "user", "content": "Hello."}]


def _call_id(call_id: str) -> Any:
    """The second call's id, and its result's, set to ``call_id``."""

    def change(p: dict[str, Any]) -> None:
        set_at(("messages", 2, "tool_calls", 1, "id"), call_id)(p)
        set_at(("messages", 4, "tool_call_id"), call_id)(p)

    return change


WRITER_GUARDS: dict[str, Any] = {
    "arguments not an object": set_at((*_chat_call(0), "arguments"), "[1]"),
    "arguments not JSON": set_at((*_chat_call(0), "arguments"), "{"),
    "a call name Bedrock renames": set_at((*_chat_call(0), "name"), "get.weather"),
    "a tool name Bedrock renames": set_at(("tools", 1, "function", "name"), "get time"),
    "a call id Bedrock escapes": _call_id("c 2"),
    "a call id over 64 characters": _call_id("c" * 65),
    "a temperature above 1": set_at(("temperature",), 1.5),
    "a top_p above 1": set_at(("top_p",), 1.5),
    "max_tokens 0": set_at(("max_tokens",), 0),
    "tool choice none": set_at(("tool_choice",), "none"),
}


@pytest.mark.parametrize("name", sorted(WRITER_GUARDS))
def test_each_writer_guard_leaves_a_one_spot_change_to_the_general_path(name: str) -> None:
    payload = plain_chat()
    WRITER_GUARDS[name](payload)
    assert READERS["openai-chat"](payload, None) is not None  # the reader takes it: the writer refuses
    assert not same_both_ways(payload, "openai-chat", FMT, "drop")


def _results_turn(plain: Plain) -> int:
    return next(i for i, turn in enumerate(plain.turns) if turn[0] == RESULTS)


PLAIN_GUARDS: dict[str, Any] = {  # what no Chat request reads to (the Chat reader leaves it)
    "an empty result": lambda plain: plain.turns.__setitem__(
        _results_turn(plain), (RESULTS, (("c1", "sunny"), ("c2", "")))
    ),
    "a result of no text": lambda plain: plain.turns.__setitem__(
        _results_turn(plain), (RESULTS, (("c1", "sunny"), ("c2", ["noon"])))
    ),
    "results after a user turn": lambda plain: plain.turns.insert(_results_turn(plain), (USER, "Hm?")),
    "no results": lambda plain: plain.turns.__setitem__(_results_turn(plain), (RESULTS, ())),
    "a choice of no tool": lambda plain: setattr(plain, "choice", ("tool", "nope")),
    "two tools of one name": lambda plain: setattr(plain, "tools", plain.tools + plain.tools[:1]),
    "a choice without tools": lambda plain: setattr(plain, "tools", None),
    "parallel calls without tools": lambda plain: [
        setattr(plain, "tools", []),
        setattr(plain, "choice", None),
        setattr(plain, "parallel", True),
    ],
    "an empty user text": lambda plain: plain.turns.__setitem__(1, (USER, "")),
    "an empty system text": lambda plain: plain.turns.__setitem__(0, (SYSTEM, "system", "")),
    "an empty assistant text": lambda plain: plain.turns.__setitem__(2, (ASSISTANT, "", plain.turns[2][2])),
    "an assistant turn of nothing": lambda plain: plain.turns.__setitem__(2, (ASSISTANT, None, ())),
    "two assistant turns in a row": lambda plain: plain.turns.insert(2, (ASSISTANT, "Hm.", ())),
    "a call turn after an assistant turn": lambda plain: plain.turns.insert(3, (CALL, "c9", "time", "")),
    "a result turn after no call": lambda plain: plain.turns.insert(2, (RESULT, "c1", "sunny")),
    "a call unanswered before a user turn": lambda plain: plain.turns.__setitem__(
        _results_turn(plain), (USER, "Hm?")
    ),
    "a call unanswered last": lambda plain: plain.turns.append((CALL, "c3", "time", "")),
    "a call id used twice": lambda plain: plain.turns.extend([(CALL, "c1", "time", ""), (RESULT, "c1", "x")]),
    "a call id used twice in a turn": lambda plain: [
        plain.turns.__setitem__(2, (ASSISTANT, None, [("c1", "weather", "{}"), ("c1", "time", "")])),
        plain.turns.__setitem__(_results_turn(plain), (RESULTS, (("c1", "sunny"),))),
    ],
    "results of one of two calls": lambda plain: plain.turns.__setitem__(
        _results_turn(plain), (RESULTS, (("c1", "sunny"),))
    ),
    "a result of another call": lambda plain: plain.turns.__setitem__(
        _results_turn(plain), (RESULTS, (("c1", "sunny"), ("c9", "noon")))
    ),
    "one result of two calls": lambda plain: plain.turns.__setitem__(
        _results_turn(plain), (RESULT, "c1", "sunny")
    ),
    "a result answered twice": lambda plain: plain.turns.__setitem__(
        _results_turn(plain), (RESULTS, (("c1", "sunny"), ("c1", "noon")))
    ),
    "a result of another one-call turn": lambda plain: plain.turns.extend(
        [(CALL, "c3", "time", ""), (RESULT, "c4", "x")]
    ),
    "an empty result turn": lambda plain: plain.turns.extend([(CALL, "c3", "time", ""), (RESULT, "c3", "")]),
}


def test_the_plain_guards_no_chat_request_reaches() -> None:
    plain = READERS["openai-chat"](plain_chat(), None)
    assert plain is not None and write(copy.deepcopy(plain)) == EXPECTED
    for name, change in PLAIN_GUARDS.items():
        changed = copy.deepcopy(plain)
        change(changed)
        assert write(changed) is None, name


WRITER_NOTES: dict[str, Any] = {
    "a system message later": lambda p: p["messages"].append({"role": "system", "content": "Short."}),
    "parallel calls off": set_at(("parallel_tool_calls",), False),
    "parallel calls on": set_at(("parallel_tool_calls",), True),
    "a user": set_at(("user",), "u-1"),
    "metadata of a number": set_at(("metadata",), {"k": "v", "n": "1", "x": 2}),
    "metadata of numbers only": set_at(("metadata",), {"x": 2}),
    "an empty description": set_at(("tools", 0, "function", "description"), ""),
    "no tools for the calls": lambda p: [p.pop("tools"), p.pop("tool_choice")],
}


@pytest.mark.parametrize("name", sorted(WRITER_NOTES))
def test_what_the_general_path_notes_is_noted(name: str) -> None:
    payload = plain_chat()
    WRITER_NOTES[name](payload)
    assert same_both_ways(payload, "openai-chat", FMT, "drop")
    assert not same_both_ways(payload, "openai-chat", FMT, "warn")


def test_what_the_notes_leave_is_written() -> None:
    def body(change: Any) -> dict[str, Any]:
        payload = plain_chat()
        change(payload)
        return translate_request(payload, source="openai-chat", target=FMT, policy="drop").payload

    assert body(WRITER_NOTES["metadata of a number"])["requestMetadata"] == {"k": "v", "n": "1"}
    assert "requestMetadata" not in body(WRITER_NOTES["metadata of numbers only"])
    assert body(WRITER_NOTES["an empty description"])["toolConfig"]["tools"][0]["toolSpec"] == {
        "name": "weather",
        "inputSchema": {"json": _OBJECT},
    }
    assert body(WRITER_NOTES["no tools for the calls"])["toolConfig"] == {
        "tools": [
            {"toolSpec": {"name": "weather", "inputSchema": {"json": {"type": "object"}}}},
            {"toolSpec": {"name": "time", "inputSchema": {"json": {"type": "object"}}}},
        ]
    }
    later = body(WRITER_NOTES["a system message later"])
    assert later["system"] == [{"text": "Be brief."}, {"text": "Short."}]
    assert later["messages"] == EXPECTED["messages"]
    assert "user" not in str(body(WRITER_NOTES["a user"]).keys())


def test_turns_of_one_role_merge_and_an_empty_conversation_is_left() -> None:
    payload = plain_chat()
    _two_user_turns(payload)
    assert same_both_ways(payload, "openai-chat", FMT, "strict")
    out = translate_request(payload, source="openai-chat", target=FMT, policy="strict").payload
    assert out["messages"][0] == {"role": "user", "content": [{"text": "Hello."}, {"text": "Weather?"}]}
    only_system = {"model": "m", "messages": [{"role": "system", "content": "Be brief."}]}
    assert READERS["openai-chat"](only_system, None) is not None
    assert not same_both_ways(only_system, "openai-chat", FMT, "drop")  # refused: no turn


def test_the_caller_payload_is_not_changed_and_no_template_is_shared() -> None:
    payload = plain_chat()
    del payload["tools"][1]["function"]["name"], payload["tool_choice"]
    payload["tools"][1]["function"]["name"] = "time"
    before = copy.deepcopy(payload)
    first = translate_request(payload, source="openai-chat", target=FMT, policy="strict").payload
    first["toolConfig"]["tools"][1]["toolSpec"]["inputSchema"]["json"]["x"] = 1
    second = translate_request(payload, source="openai-chat", target=FMT, policy="strict").payload
    assert second["toolConfig"]["tools"][1]["toolSpec"]["inputSchema"]["json"] == {
        "type": "object",
        "properties": {},
    }
    assert payload == before


IDS = (
    *({"a"}, {"a" * 64}, {"a" * 65}, {"a b"}, {"a.b:c-d_e"}, {"a", "b c"}, {"a", "b" * 65}),
    *({""}, {"a", ""}, {"tooluse_01"}, {"é"}, {"a\n"}, {1}, {"a", 1}, set()),
)


@pytest.mark.parametrize("ids", IDS, ids=[repr(sorted(map(str, ids)))[:40] for ids in IDS])
def test_the_ids_are_checked_together_as_the_encoder_checks_each(ids: set[Any]) -> None:
    each = all(type(call_id) is str and TOOL_USE_ID.fullmatch(call_id) is not None for call_id in ids)
    assert _ids_ok(ids) is each
