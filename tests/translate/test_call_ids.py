"""Call ids across hops: reversible sanitizing (property-tested), ids unique across turns, and
the streamed ``input`` text of custom calls sent upstream as functions."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire._callids import restore_call_id, sanitize_call_id, synthesized_call_id
from toolwire._input_text import InputText
from toolwire.translate import Exchange

_ANTHROPIC_ID = re.compile(r"^[a-zA-Z0-9_-]+$")  # the tool_use id pattern of the Anthropic spec

# Ids that differ only in characters Anthropic rejects, or that look like our own escapes.
_NEAR = st.sampled_from(
    ["a.b", "a:b", "a_b", "a-b", "a b", "a/b", "a-2eb", "a--b", "", "é", "call_1", "x--0000abcd", "a-2e"]
)
_CALL_IDS = st.one_of(_NEAR, st.text(max_size=24), st.from_regex(r"[a-z_.:\-]{1,12}", fullmatch=True))


@settings(max_examples=400, deadline=None)
@given(st.sets(_CALL_IDS, max_size=12))
def test_sanitized_ids_are_valid_distinct_and_restored(ids: set[str]) -> None:
    wire = {call_id: sanitize_call_id(call_id) for call_id in ids}
    assert all(_ANTHROPIC_ID.match(w) for w in wire.values())
    assert len(set(wire.values())) == len(ids), "two ids share a wire id"
    assert {restore_call_id(w): c for c, w in wire.items()} == {c: c for c in ids}


@settings(max_examples=200, deadline=None)
@given(_CALL_IDS)
def test_sanitizing_is_stateless_and_keeps_valid_ids(call_id: str) -> None:
    wire = sanitize_call_id(call_id)
    assert sanitize_call_id(call_id) == wire  # stateless: every gateway agrees
    assert sanitize_call_id(wire) == wire  # a valid id (an escape too) passes unchanged
    assert (wire == call_id) == bool(_ANTHROPIC_ID.match(call_id))


@pytest.mark.parametrize(
    ("call_id", "wire"),
    [
        ("toolu_01A09q90qw90lq917835lq9", "toolu_01A09q90qw90lq917835lq9"),  # valid: unchanged
        ("call_abc-123", "call_abc-123"),
        ("functions.get:0", re.compile(r"functions-2eget-3a0--[0-9a-f]{16}")),  # '.' 2e, ':' 3a
        ("a-b c", re.compile(r"a-2db-20c--[0-9a-f]{16}")),  # '-' escaped too once anything is
        ("é", re.compile(r"-c3-a9--[0-9a-f]{16}")),  # per UTF-8 byte
    ],
)
def test_sanitizing_cases(call_id: str, wire: str | re.Pattern[str]) -> None:
    got = sanitize_call_id(call_id)
    if isinstance(wire, str):
        assert got == wire
    else:
        assert wire.fullmatch(got), got
    assert restore_call_id(got) == call_id


def test_restoring_leaves_ids_that_only_look_escaped() -> None:
    assert restore_call_id("a-2eb--0000000000000000") == "a-2eb--0000000000000000"  # wrong hash
    assert restore_call_id("toolu_01--abcdef12") == "toolu_01--abcdef12"


def test_synthesized_ids_differ_across_responses_and_calls_and_repeat_for_the_same() -> None:
    ids = {synthesized_call_id("call_", seed, index) for seed in ("r1", "r2") for index in (0, 1)}
    assert len(ids) == 4
    assert synthesized_call_id("toolu_", "r1", 0) == synthesized_call_id("toolu_", "r1", 0)
    assert synthesized_call_id("toolu_", "r1", 0).startswith("toolu_")
    assert all(_ANTHROPIC_ID.match(i) for i in ids)


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(["a", '"', "\\", "\n", "é", "😀", "\ud800", "\udc00", "/", " "])),
    ascii_only=st.booleans(),
    spacing=st.sampled_from(["", " ", "\n  "]),
    cuts=st.lists(st.integers(min_value=1, max_value=7), max_size=200),
)
def test_input_text_decodes_streamed_arguments(
    text: str, ascii_only: bool, spacing: str, cuts: list[int]
) -> None:
    args = (
        "{" + spacing + '"input"' + spacing + ":" + spacing + json.dumps(text, ensure_ascii=ascii_only) + "}"
    )
    decoder = InputText()
    out, pos = [], 0
    for cut in [*cuts, len(args)]:
        out.append(decoder.feed(args[pos : pos + cut]))
        pos += cut
    assert "".join(out) == json.loads(args)["input"] == decoder.sent
    assert decoder.done and not decoder.broken


@pytest.mark.parametrize("args", ['{"path": "a", "input": "x"}', "[1]", '{"input": 3}'])
def test_input_text_stops_on_other_shapes(args: str) -> None:
    decoder = InputText()
    out = "".join(decoder.feed(args[i : i + 3]) for i in range(0, len(args), 3))
    assert out == ""
    assert decoder.broken or not decoder.done


@settings(max_examples=100, deadline=None)
@given(st.lists(_CALL_IDS, min_size=1, max_size=6, unique=True))
def test_random_ids_through_an_anthropic_hop_and_back(ids: list[str]) -> None:
    """Chat history with these ids -> Anthropic: valid, distinct ``tool_use`` ids, each result
    still with its call; an Anthropic client echoing them -> Chat gets the originals back."""
    calls = [{"id": i, "type": "function", "function": {"name": "f", "arguments": "{}"}} for i in ids]
    history = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": calls},
        *({"role": "tool", "tool_call_id": i, "content": f"r{n}"} for n, i in enumerate(ids)),
    ]
    request = {"model": "m", "max_completion_tokens": 9, "messages": history}
    body = Exchange("openai-chat", "anthropic", policy="strict").request(request)
    uses = [b["id"] for b in body["messages"][1]["content"]]
    assert all(_ANTHROPIC_ID.match(u) for u in uses) and len(set(uses)) == len(ids)
    pairs = [(b["tool_use_id"], b["content"]) for b in body["messages"][2]["content"]]
    assert pairs == [(u, f"r{n}") for n, u in enumerate(uses)]
    echoed = {**body, "model": "m"}
    back = Exchange("anthropic", "openai-chat", policy="strict").request(echoed)
    assert [c["id"] for c in back["messages"][1]["tool_calls"]] == ids
    assert [m["tool_call_id"] for m in back["messages"][2:]] == ids
