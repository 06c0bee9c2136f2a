"""Issue 13, first Done-when over generated payloads: corpus requests, mutated.

Hypothesis picks a corpus request and mutates it the way real histories vary: a turn dropped,
a turn duplicated, the turns truncated, the tool list shuffled, reversed or emptied. The
translation to every other format is then valid for the target, or a ``ConversionError``:
no class of invalid output is tolerated (the three that were, a call turn first for Gemini, an
empty Chat history and a call without its result, are refused by ``formats._sendable``).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.corpus import FORMATS, samples
from toolwire.translate import translate_request
from toolwire.validate import validate

from .test_valid_or_refused import outcome

HISTORY = {
    "openai-chat": "messages",
    "openai-responses": "input",
    "anthropic": "messages",
    "gemini": "contents",
    "bedrock-converse": "messages",
}
"""The key holding the turns of each format's request."""

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


def _requests(source: str) -> list[Any]:
    return [s for s in samples(source, "request") if isinstance(s.payload.get(HISTORY[source]), list)]


def _mutate_list(draw: st.DrawFn, items: list[Any], label: str) -> list[Any]:
    if not items:
        return items
    action = draw(
        st.sampled_from(["keep", "drop", "duplicate", "truncate", "shuffle", "reverse"]), label=label
    )
    index = draw(st.integers(0, len(items) - 1), label=f"{label} index")
    if action == "drop":
        return items[:index] + items[index + 1 :]
    if action == "duplicate":
        return [*items[: index + 1], copy.deepcopy(items[index]), *items[index + 1 :]]
    if action == "truncate":
        return items[: index + 1]
    if action == "shuffle":
        return draw(st.permutations(items), label=f"{label} order")
    if action == "reverse":
        return items[::-1]
    return items


@st.composite
def mutated(draw: st.DrawFn, source: str) -> Any:
    """A corpus request of ``source`` with its turns and tools mutated (a copy)."""
    sample = draw(st.sampled_from(_requests(source)), label="sample")
    payload = copy.deepcopy(sample.payload)
    key = HISTORY[source]
    payload[key] = _mutate_list(draw, payload[key], "turns")
    if isinstance(payload.get("tools"), list):
        payload["tools"] = _mutate_list(draw, payload["tools"], "tools")
    return type(sample)(**{**sample.__dict__, "payload": payload})


@pytest.mark.parametrize("source", FORMATS)
def test_mutated_corpus_requests_are_valid_or_refused(source: str) -> None:
    if not _requests(source):
        pytest.skip(f"no {source} request samples")

    @SETTINGS
    @given(mutated(source), st.sampled_from([f for f in FORMATS if f != source]))
    def check(sample: Any, target: str) -> None:
        result, details = outcome(sample, target)
        assert result != "invalid", details

    check()


def test_reasoning_moved_after_the_tool_result_still_turns_thinking_off() -> None:
    """Found by the property above: OpenAI reasoning echoed after a tool result forms a last
    assistant turn the Anthropic encoder drops; thinking must still go off for the tool turn."""
    encrypted = {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAA-opaque", "summary": []}
    request = {
        "model": "gpt-5",
        "reasoning": {"effort": "high"},
        "input": [
            {"role": "user", "content": "population of Pundora?"},
            {"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "123124"},
            encrypted,
        ],
        "tools": [{"type": "function", "name": "lookup", "parameters": {"type": "object", "properties": {}}}],
    }
    result = translate_request(request, source="openai-responses", target="anthropic")
    assert "thinking" not in result.payload
    assert [m["role"] for m in result.payload["messages"]] == ["user", "assistant", "user"]
    assert validate(result.payload, format="anthropic", kind="request") == []
    assert any(n.path == "$.reasoning" and "thinking turned off" in n.message for n in result.notes)
