"""Issue 13: every note's ``path`` is a path in the payload the user passed in.

A note about a value the source does not hold (a required ``max_tokens``, a response's
``created`` time) points at the source as a whole (``$``) and names the target path in
``target``; over the whole corpus every ``path`` is one the source holds and every ``target``
one the output holds. The focused tests pin the exact source element for notes made while
encoding (a dropped block, a usage field, a reasoning item, a tool flag, a strict refusal).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import require_corpus, samples
from toolwire._jsonpath import locate
from toolwire.errors import ConversionError
from toolwire.streaming import StreamTranslator
from toolwire.translate import translate_request, translate_response

from .test_strict_is_loss import _translate
from .test_valid_or_refused import PAIRS


@pytest.mark.parametrize(("kind", "source", "target"), PAIRS)
def test_target_paths_are_in_the_output(kind: str, source: str, target: str) -> None:
    require_corpus()
    for sample in samples(source, kind):
        try:
            result = _translate(sample, target, "drop")
        except ConversionError:
            continue
        for note in result.notes:
            if note.target is not None:
                assert locate(result.payload, note.target)[2], (sample.id, note)
                assert locate(sample.payload, note.path)[2], (sample.id, note)


def test_chat_requests_to_anthropic_name_the_made_up_max_tokens() -> None:
    require_corpus()
    for sample in samples("openai-chat", "request"):
        if sample.payload.get("max_tokens") is None and sample.payload.get("max_completion_tokens") is None:
            try:
                notes = _translate(sample, "anthropic", "drop").notes
            except ConversionError:
                continue
            assert [n.path for n in notes if n.target == "$.max_tokens"] == ["$"], sample.id


def test_made_up_response_metadata_points_at_the_target() -> None:
    anthropic: dict[str, Any] = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [{"type": "text", "text": "hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    notes = translate_response(anthropic, source="anthropic", target="openai-chat").notes
    assert [(n.path, n.kind, n.target, n.loss) for n in notes] == [("$", "synthesized", "$.created", False)]


# ---------------------------------------------------------------- issue 13: every path is in the source


@pytest.mark.parametrize(("kind", "source", "target"), PAIRS)
def test_every_note_path_is_in_the_source(kind: str, source: str, target: str) -> None:
    """Every note of every corpus translation names a path the payload passed in holds, and a
    ``target`` the output holds; a strict refusal names the path of the first loss."""
    require_corpus()
    checked = 0
    for sample in samples(source, kind):
        try:
            result = _translate(sample, target, "warn")
        except ConversionError:
            continue
        for note in result.notes:
            assert locate(sample.payload, note.path)[2], (sample.id, note)
            if note.target is not None:
                assert locate(result.payload, note.target)[2], (sample.id, note)
            checked += 1
        losses = [note for note in result.notes if note.loss]
        if losses:
            with pytest.raises(ConversionError) as refused:
                _translate(sample, target, "strict")
            assert refused.value.path == losses[0].path, sample.id
    assert checked > 0 or not samples(source, kind), "not vacuous"


_CODE_EXECUTION = {
    "type": "server_tool_use",
    "id": "srvtoolu_1",
    "name": "code_execution",
    "input": {"code": "print(1)"},
}


def _anthropic_message(content: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": content,
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini"])
def test_a_dropped_anthropic_block_points_at_the_block(target: str) -> None:
    payload = _anthropic_message([{"type": "text", "text": "running"}, _CODE_EXECUTION])
    notes = translate_response(payload, source="anthropic", target=target, policy="warn").notes  # type: ignore[arg-type]
    assert [n.path for n in notes if "code_execution" in n.message] == ["$.content[1]"]
    with pytest.raises(ConversionError) as refused:
        translate_response(payload, source="anthropic", target=target, policy="strict")  # type: ignore[arg-type]
    assert refused.value.path == "$.content[1]"


def test_an_extra_field_of_a_block_points_at_the_field_in_the_block() -> None:
    text = {"type": "text", "text": "see", "citations": [{"type": "char_location", "cited_text": "x"}]}
    payload = _anthropic_message([_CODE_EXECUTION, text])
    notes = translate_response(payload, source="anthropic", target="openai-chat").notes
    assert [n.path for n in notes if "citations" in n.message] == ["$.content[1].citations"]


def test_a_dropped_block_after_the_system_prompt_counts_the_source_messages() -> None:
    """The IR puts ``system`` first; the note names the source's ``messages[1]``."""
    payload = {
        "model": "claude",
        "max_tokens": 10,
        "system": "be brief",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "text", "text": "ok"}, _CODE_EXECUTION]},
            {"role": "user", "content": "and?"},
        ],
    }
    notes = translate_request(payload, source="anthropic", target="openai-chat").notes
    assert [n.path for n in notes if "code_execution" in n.message] == ["$.messages[1].content[1]"]


def test_a_dropped_block_of_a_merged_assistant_turn_names_its_own_message() -> None:
    """Chat holds one assistant message per turn: two Anthropic ones are merged, and a note
    about a block of the second names that block, not the merged message's first."""
    payload = {
        "model": "claude",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "text", "text": "one"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "two"}, _CODE_EXECUTION]},
            {"role": "user", "content": "and?"},
        ],
    }
    result = translate_request(payload, source="anthropic", target="openai-chat")
    assert [m["role"] for m in result.payload["messages"]] == ["user", "assistant", "user"]
    assert [n.path for n in result.notes if "code_execution" in n.message] == ["$.messages[2].content[1]"]


def test_gemini_usage_details_point_at_the_usage_metadata() -> None:
    payload = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}],
        "usageMetadata": {
            "promptTokenCount": 3,
            "candidatesTokenCount": 1,
            "totalTokenCount": 4,
            "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 3}],
        },
        "modelVersion": "gemini-2.5-flash",
        "responseId": "r1",
    }
    for target in ("openai-chat", "openai-responses", "anthropic"):
        notes = translate_response(payload, source="gemini", target=target).notes  # type: ignore[arg-type]
        assert [n.path for n in notes if "promptTokensDetails" in n.message] == [
            "$.usageMetadata.promptTokensDetails"
        ], target


def test_a_responses_reasoning_item_points_at_the_item() -> None:
    payload = {
        "id": "resp_1",
        "object": "response",
        "created_at": 1,
        "status": "completed",
        "model": "gpt-5",
        "output": [
            {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "opaque"},
            {
                "type": "message",
                "id": "msg_1",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": "hi", "annotations": []}],
            },
        ],
        "usage": {"input_tokens": 1, "output_tokens": 1, "total_tokens": 2},
    }
    for target in ("anthropic", "gemini", "openai-chat"):
        notes = translate_response(payload, source="openai-responses", target=target).notes  # type: ignore[arg-type]
        assert [n.path for n in notes if "reasoning" in n.message] == ["$.output[0]"], target


def test_a_chat_tool_strict_flag_points_at_the_flag() -> None:
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}, "strict": True}}
    payload = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "tools": [tool]}
    notes = translate_request(payload, source="openai-chat", target="gemini").notes
    assert [n.path for n in notes if "strict" in n.message] == ["$.tools[0].function.strict"]
    with pytest.raises(ConversionError) as refused:
        translate_request(payload, source="openai-chat", target="gemini", policy="strict")
    assert refused.value.path == "$.tools[0].function.strict"
    assert [n.path for n in refused.value.notes] == ["$.tools[0].function.strict"]


def test_a_responses_reasoning_input_item_is_named_through_the_merged_chat_turn() -> None:
    """Reasoning and a call are two items, one IR assistant message: the note names the item."""
    payload = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "go"},
            {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "plan"}]},
            {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "c1", "output": "ok"},
        ],
    }
    notes = translate_request(payload, source="openai-responses", target="openai-chat").notes
    assert [n.path for n in notes if "reasoning" in n.message] == ["$.input[1]"]


# ---------------------------------------------------------------- streams: the event that started the part

_ANTHROPIC_STREAM: list[dict[str, Any]] = [
    {"type": "message_start", "message": {**_anthropic_message([]), "stop_reason": None}},
    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
    {"type": "content_block_stop", "index": 0},
    {"type": "content_block_start", "index": 1, "content_block": {**_CODE_EXECUTION, "input": {}}},
    {"type": "content_block_delta", "index": 1, "delta": {"type": "input_json_delta", "partial_json": "{}"}},
    {"type": "content_block_stop", "index": 1},
    {"type": "message_delta", "delta": {"stop_reason": "end_turn", "stop_sequence": None}, "usage": {}},
    {"type": "message_stop"},
]


@pytest.mark.parametrize("target", ["openai-chat", "openai-responses", "gemini"])
def test_a_stream_note_about_a_part_names_the_event_that_started_it(target: str) -> None:
    translator = StreamTranslator("anthropic", target)  # type: ignore[arg-type]
    for event in _ANTHROPIC_STREAM:
        translator.feed(event)
    translator.close()
    assert [n.path for n in translator.notes if "code_execution" in n.message] == ["$[4]"]
    assert _ANTHROPIC_STREAM[4]["content_block"]["name"] == "code_execution"
