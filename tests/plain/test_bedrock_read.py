"""The Bedrock Converse reader of the pair lanes (``_plain.bedrock_read``) agrees with the general
path.

Every Bedrock corpus request goes into each of the four other formats both ways (the harness:
same payload, notes, IR, error, ``noted`` exactly), with and without the URL's model; the reader
is held to the IR the Bedrock decoder makes (:func:`plain_of_ir`, the meaning a :class:`Plain`
must mirror) over the corpus, generated conversations and mutated corpus requests. A hand-written
body pins what is read, and one-spot changes of it pin each guard.
"""

from __future__ import annotations

import copy
from typing import Any, Final

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.plain._ir_plain import plain_of_ir, spelled_as_ir
from tests.plain.harness import bench_requests, corpus, drop_at, same_both_ways, set_at
from tests.translate.test_properties import _encode, requests
from tests.translate.test_valid_or_refused_mutated import mutated
from toolwire._plain import READERS
from toolwire._plain._form import CALL, RESULT, RESULTS, SYSTEM, USER
from toolwire._plain.bedrock_read import read
from toolwire.errors import ToolwireError
from toolwire.ir.notes import Notes
from toolwire.translate import format_module

FMT: Final = "bedrock-converse"
TARGETS = ("openai-chat", "openai-responses", "anthropic", "gemini")
MODEL = "anthropic.claude-sonnet-4-20250514-v1:0"
SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def reads_as_the_ir(payload: Any, model: str | None = None) -> bool:
    """Assert that the reader's Plain is the IR's (or that it leaves the request); whether it read it."""
    before = copy.deepcopy(payload)
    got = read(payload, model)
    assert payload == before
    if got is None:
        return False
    notes = Notes("drop")
    try:
        ir = format_module(FMT).decode_request(payload, notes, model=model)
    except (ToolwireError, ValueError) as exc:
        raise AssertionError(f"the reader took a request the decoder refuses: {exc}") from exc
    expected = plain_of_ir(ir)
    assert expected is not None, ir
    assert not notes.items and not got.noted
    assert spelled_as_ir(got) == expected
    return True


def both_ways_into_each(payload: Any, policy: str = "drop", model: str | None = None) -> int:
    """:func:`same_both_ways` into each target; how many took the lane."""
    return sum(same_both_ways(payload, FMT, target, policy, model) for target in TARGETS)


def test_the_tables_hold_the_bedrock_reader() -> None:
    assert READERS[FMT] is read


@pytest.mark.parametrize("model", [None, MODEL])
@pytest.mark.parametrize("policy", ["warn", "drop", "strict"])
def test_every_corpus_request_translates_the_same_both_ways(policy: str, model: str | None) -> None:
    taken = sum(both_ways_into_each(payload, policy, model) for payload in corpus(FMT))
    assert taken >= (60 if policy == "drop" else 20), taken


def test_every_bedrock_corpus_request_reads_as_its_ir() -> None:
    requests_ = corpus(FMT)
    assert len(requests_) > 20
    assert sum(reads_as_the_ir(payload, model) for payload in requests_ for model in (None, MODEL)) >= 30


def test_the_lane_takes_the_benchmark_conversations() -> None:
    for payload in bench_requests(FMT):
        assert reads_as_the_ir(payload, MODEL)
        assert both_ways_into_each(payload, "drop", MODEL) == len(TARGETS)


def test_mutated_corpus_requests_agree() -> None:
    @SETTINGS
    @given(st.data())
    def check(data: st.DataObject) -> None:
        sample = data.draw(mutated(FMT))
        reads_as_the_ir(sample.payload, sample.model)
        both_ways_into_each(sample.payload, "drop", sample.model)

    check()


def test_generated_conversations_agree() -> None:
    @SETTINGS
    @given(requests())
    def check(request: Any) -> None:
        payload = _encode(request, FMT)
        reads_as_the_ir(payload, MODEL)
        both_ways_into_each(payload, "drop", MODEL)

    check()


# ---------------------------------------------------------------- hand-written shapes

_OBJECT = {"type": "object", "properties": {"city": {"type": "string"}}}


def _use(call_id: str, name: str, args: Any) -> dict[str, Any]:
    return {"toolUse": {"toolUseId": call_id, "name": name, "input": args}}


def _result(call_id: str, text: str) -> dict[str, Any]:
    return {"toolResult": {"toolUseId": call_id, "content": [{"text": text}]}}


def plain_bedrock() -> dict[str, Any]:
    """A Bedrock body of every shape the reader takes."""
    return {
        "messages": [
            {"role": "user", "content": [{"text": "Weather?"}]},
            {
                "role": "assistant",
                "content": [
                    {"text": "Looking."},
                    _use("c1", "weather", {"city": "Oslo"}),
                    _use("c2", "time", {}),
                ],
            },
            {"role": "user", "content": [_result("c2", "noon"), _result("c1", "sunny")]},
            {"role": "assistant", "content": [{"text": "Sunny at noon."}]},
            {"role": "user", "content": [{"text": "And now?"}]},
            {"role": "assistant", "content": [_use("c3", "weather", {"city": "Oslo"})]},
            {"role": "user", "content": [_result("c3", "rain")]},
        ],
        "system": [{"text": "Be brief."}],
        "inferenceConfig": {"maxTokens": 100, "temperature": 1, "topP": 0.5},
        "toolConfig": {
            "tools": [
                {"toolSpec": {"name": "weather", "description": "W", "inputSchema": {"json": _OBJECT}}},
                {"toolSpec": {"name": "time", "inputSchema": {"json": {"type": "object"}}, "strict": True}},
            ],
            "toolChoice": {"tool": {"name": "weather"}},
        },
        "requestMetadata": {"k": "v"},
    }


def test_the_plain_body_reads_as_its_ir() -> None:
    payload = plain_bedrock()
    assert reads_as_the_ir(payload, MODEL)
    got = read(payload, MODEL)
    assert got is not None and got.model == MODEL
    assert got.turns[0] == (SYSTEM, "system", "Be brief.")
    assert got.turns[1] == (USER, "Weather?")
    assert got.turns[3] == (RESULTS, [("c2", "noon"), ("c1", "sunny")])
    assert got.turns[6] == (CALL, "c3", "weather", {"city": "Oslo"})
    assert got.turns[7] == (RESULT, "c3", "rain")
    assert got.tools == [("weather", "W", _OBJECT, None), ("time", None, {"type": "object"}, True)]
    assert got.choice == ("tool", "weather")
    assert (got.max_tokens, got.temperature, got.top_p, got.metadata) == (100, 1, 0.5, {"k": "v"})
    for wire, choice in (({"auto": {}}, "auto"), ({"any": {}}, "required")):
        payload["toolConfig"]["toolChoice"] = wire
        assert reads_as_the_ir(payload)
        assert read(payload, None).choice == choice  # type: ignore[union-attr]
    for key in ("system", "inferenceConfig", "requestMetadata", "toolConfig"):
        del payload[key]
        assert reads_as_the_ir(payload), key
    assert both_ways_into_each(payload, "drop", MODEL) == len(TARGETS)
    assert same_both_ways(payload, FMT, "openai-chat", "strict", MODEL)  # nothing to note into Chat


_M = "messages"


def _call_id(index: int, call_id: str) -> Any:
    """The id of the one call of message ``index`` and of its result (the next message) set."""

    def change(payload: dict[str, Any]) -> None:
        payload[_M][index]["content"][0]["toolUse"]["toolUseId"] = call_id
        payload[_M][index + 1]["content"][0]["toolResult"]["toolUseId"] = call_id

    return change


_TS = ("toolConfig", "tools")
_IC = "inferenceConfig"
GUARDS: dict[str, Any] = {
    "a modelId": set_at(("modelId",), MODEL),
    "an unknown field": set_at(("guardrailConfig",), {}),
    "no messages": set_at((_M,), []),
    "messages not a list": set_at((_M,), {}),
    "two system blocks": set_at(("system", 1), {"text": "More."}),
    "an empty system text": set_at(("system", 0, "text"), ""),
    "a system cache point": set_at(("system", 0), {"cachePoint": {"type": "default"}}),
    "a message field": set_at((_M, 0, "x"), 1),
    "a system role": set_at((_M, 0, "role"), "system"),
    "no content": set_at((_M, 0, "content"), []),
    "an empty user text": set_at((_M, 0, "content", 0, "text"), ""),
    "two user texts": set_at((_M, 0, "content", 1), {"text": "More."}),
    "an image": set_at((_M, 0, "content", 0), {"image": {"format": "png", "source": {"bytes": "AA=="}}}),
    "a text block field": set_at((_M, 0, "content", 0, "cachePoint"), {}),
    "an empty assistant text": set_at((_M, 1, "content", 0, "text"), ""),
    "text after a call": set_at((_M, 1, "content", 3), {"text": "More."}),
    "reasoning": set_at((_M, 1, "content", 0), {"reasoningContent": {"reasoningText": {"text": "t"}}}),
    "an empty id": set_at((_M, 1, "content", 1, "toolUse", "toolUseId"), ""),
    "an escaped id": _call_id(5, "c--3"),
    "a repeated id": _call_id(5, "c1"),
    "an empty name": set_at((_M, 1, "content", 1, "toolUse", "name"), ""),
    "input not an object": set_at((_M, 1, "content", 1, "toolUse", "input"), [1]),
    "a call field": set_at((_M, 1, "content", 1, "toolUse", "type"), "server_tool_use"),
    "a call without input": drop_at((_M, 1, "content", 1, "toolUse", "input")),
    "a result of no call": set_at((_M, 2, "content", 0, "toolResult", "toolUseId"), "c9"),
    "a result repeated": set_at((_M, 2, "content", 1), _result("c2", "noon")),
    "a result missing": lambda p: p[_M][2]["content"].pop(),
    "a result status": set_at((_M, 2, "content", 0, "toolResult", "status"), "error"),
    "a success status": set_at((_M, 2, "content", 0, "toolResult", "status"), "success"),
    "a json result": set_at((_M, 2, "content", 0, "toolResult", "content", 0), {"json": {"a": 1}}),
    "two result texts": set_at((_M, 2, "content", 0, "toolResult", "content", 1), {"text": "x"}),
    "an empty result text": set_at((_M, 2, "content", 0, "toolResult", "content", 0, "text"), ""),
    "text beside results": set_at((_M, 2, "content", 2), {"text": "More."}),
    "a call unanswered": set_at((_M, 2), {"role": "user", "content": [{"text": "Hm?"}]}),
    "a call turn last": lambda p: p[_M].pop(),
    "two assistant messages": lambda p: p[_M].insert(
        4, {"role": "assistant", "content": [{"text": "Wait."}]}
    ),
    "results first": lambda p: p[_M].insert(0, p[_M][2]),
    "tools empty": set_at(_TS, []),
    "no tools": set_at(("toolConfig",), {"toolChoice": {"auto": {}}}),
    "a config field": set_at(("toolConfig", "x"), 1),
    "a system tool": set_at((*_TS, 2), {"systemTool": {"name": "nova_grounding"}}),
    "a cache point tool": set_at((*_TS, 2), {"cachePoint": {"type": "default"}}),
    "a spec field": set_at((*_TS, 0, "toolSpec", "x"), 1),
    "a tool without name": drop_at((*_TS, 0, "toolSpec", "name")),
    "two tools of one name": set_at((*_TS, 1, "toolSpec", "name"), "weather"),
    "a null description": set_at((*_TS, 0, "toolSpec", "description"), None),
    "a null strict": set_at((*_TS, 1, "toolSpec", "strict"), None),
    "a schema box field": set_at((*_TS, 0, "toolSpec", "inputSchema", "x"), 1),
    "a schema not an object": set_at((*_TS, 0, "toolSpec", "inputSchema", "json"), True),
    "a choice of no tool": set_at(("toolConfig", "toolChoice", "tool", "name"), "nope"),
    "a choice field": set_at(("toolConfig", "toolChoice", "tool", "x"), 1),
    "an auto choice field": set_at(("toolConfig", "toolChoice"), {"auto": {"x": 1}}),
    "two choices": set_at(("toolConfig", "toolChoice", "any"), {}),
    "a null choice": set_at(("toolConfig", "toolChoice"), None),
    "stop sequences": set_at((_IC, "stopSequences"), ["END"]),
    "a small token limit": set_at((_IC, "maxTokens"), 15),
    "a float token limit": set_at((_IC, "maxTokens"), 100.0),
    "a null temperature": set_at((_IC, "temperature"), None),
    "a temperature above 1": set_at((_IC, "temperature"), 1.5),
    "a boolean top_p": set_at((_IC, "topP"), True),
    "metadata not an object": set_at(("requestMetadata",), []),
    "additional fields": set_at(("additionalModelRequestFields",), {"top_k": 5}),
}


@pytest.mark.parametrize("name", sorted(GUARDS))
def test_each_guard_leaves_a_one_spot_change_to_the_general_path(name: str) -> None:
    payload = plain_bedrock()
    GUARDS[name](payload)
    assert read(payload, MODEL) is None
    assert not both_ways_into_each(payload, "drop", MODEL)
