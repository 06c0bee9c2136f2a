"""Encoding IR that came from other formats: valid Chat payloads, every loss noted."""

from __future__ import annotations

import re

import pytest

from toolwire.errors import ConversionError, ToolwireError
from toolwire.formats import openai_chat as chat
from toolwire.ir import (
    FilePart,
    ImagePart,
    Message,
    Notes,
    ReasoningConfig,
    ReasoningPart,
    Request,
    ResponseFormat,
    TextPart,
    ToolCall,
    ToolResult,
)
from toolwire.translate import translate_request


def _kinds(notes: Notes) -> list[tuple[str, str]]:
    return [(n.path, n.kind) for n in notes]


def test_parallel_calls_from_separate_messages_and_results_in_user_turn() -> None:
    """Responses-style split assistant items and Anthropic-style results inside a user turn."""
    req = Request(
        origin="anthropic",
        model="m",
        messages=(
            Message(role="system", parts=(TextPart(text="sys"),)),
            Message(role="user", parts=(TextPart(text="weather in Paris and Rome?"),)),
            Message(role="assistant", parts=(TextPart(text="Checking."),)),
            Message(
                role="assistant", parts=(ToolCall(id="t1", name="weather", arguments='{"city":"Paris"}'),)
            ),
            Message(
                role="assistant", parts=(ToolCall(id="t2", name="weather", arguments='{"city":"Rome"}'),)
            ),
            Message(
                role="user",
                parts=(
                    ToolResult(call_id="t1", content=(TextPart(text="sunny"),)),
                    ToolResult(call_id="t2", content=(TextPart(text="rain"), TextPart(text="12C"))),
                    TextPart(text="thanks"),
                ),
            ),
            Message(role="system", parts=(TextPart(text="answer in French"),)),
        ),
    )
    notes = Notes("strict")
    assert chat.encode_request(req, notes)["messages"] == [
        {"role": "system", "content": "sys"},
        {"role": "user", "content": "weather in Paris and Rome?"},
        {
            "role": "assistant",
            "content": "Checking.",
            "tool_calls": [
                {
                    "id": "t1",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city":"Paris"}'},
                },
                {
                    "id": "t2",
                    "type": "function",
                    "function": {"name": "weather", "arguments": '{"city":"Rome"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "t1", "content": "sunny"},
        {
            "role": "tool",
            "tool_call_id": "t2",
            "content": [{"type": "text", "text": "rain"}, {"type": "text", "text": "12C"}],
        },
        {"role": "user", "content": "thanks"},
        {"role": "system", "content": "answer in French"},
    ]
    assert not notes.items


def test_images_in_tool_results_move_to_a_user_message() -> None:
    req = Request(
        origin="anthropic",
        model="m",
        messages=(
            Message(
                role="assistant",
                parts=(
                    ToolCall(id="a", name="shot", arguments="{}"),
                    ToolCall(id="b", name="shot", arguments="{}"),
                ),
            ),
            Message(
                role="tool",
                parts=(
                    ToolResult(
                        call_id="a",
                        content=(TextPart(text="done"), ImagePart(data="AAA", media_type="image/png")),
                    ),
                ),
            ),
            Message(
                role="tool", parts=(ToolResult(call_id="b", content=(ImagePart(url="https://x/y.png"),)),)
            ),
            Message(role="user", parts=(TextPart(text="and?"),)),
        ),
    )
    notes = Notes("warn")
    messages = chat.encode_request(req, notes)["messages"]
    assert messages[1:] == [
        {"role": "tool", "tool_call_id": "a", "content": "done"},
        {
            "role": "tool",
            "tool_call_id": "b",
            "content": "(non-text content of this result follows in the next user message)",
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "The content returned by tool call a follows:"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAA"}},
                {"type": "text", "text": "The content returned by tool call b follows:"},
                {"type": "image_url", "image_url": {"url": "https://x/y.png"}},
            ],
        },
        {"role": "user", "content": "and?"},
    ]
    # IR paths (the part each note is about): translate maps them to the source payload
    assert _kinds(notes) == [
        ("$.messages[1].parts[0]", "approximated"),
        ("$.messages[2].parts[0]", "approximated"),
    ]
    with pytest.raises(ConversionError):
        chat.encode_request(req, Notes("strict"))


def test_user_turn_with_results_and_images_keeps_order() -> None:
    req = Request(
        origin="anthropic",
        messages=(
            Message(role="assistant", parts=(ToolCall(id="a", name="f", arguments="{}"),)),
            Message(
                role="user",
                parts=(
                    ToolResult(call_id="a", content=(ImagePart(url="https://i"),), is_error=True),
                    TextPart(text="look"),
                ),
            ),
        ),
    )
    notes = Notes("warn")
    assert chat.encode_request(req, notes)["messages"][1:] == [
        {
            "role": "tool",
            "tool_call_id": "a",
            "content": "(non-text content of this result follows in the next user message)",
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "The content returned by tool call a follows:"},
                {"type": "image_url", "image_url": {"url": "https://i"}},
                {"type": "text", "text": "look"},
            ],
        },
    ]
    assert _kinds(notes) == [
        ("$.messages[1].parts[0]", "approximated"),
        ("$.messages[1].parts[0]", "approximated"),
    ]
    assert "is_error" in notes.items[1].message


def test_reasoning_of_other_origin_is_dropped_never_replayed() -> None:
    req = Request(
        origin="anthropic",
        messages=(
            Message(
                role="assistant",
                parts=(
                    ReasoningPart(text="let me think", signature="sig==", origin="anthropic"),
                    TextPart(text="Hi"),
                ),
            ),
        ),
    )
    notes = Notes("warn")
    assert chat.encode_request(req, notes)["messages"] == [{"role": "assistant", "content": "Hi"}]
    assert _kinds(notes) == [("$.messages[0].parts[0]", "dropped")]


def test_missing_call_ids_are_synthesized_and_paired_by_name() -> None:
    req = Request(
        origin="gemini",
        messages=(
            Message(
                role="assistant",
                parts=(ToolCall(name="a", arguments='{"x":1}'), ToolCall(name="b", arguments="")),
            ),
            Message(
                role="user",
                parts=(
                    ToolResult(call_id=None, name="b", content=(TextPart(text="B"),)),
                    ToolResult(call_id=None, name="a", content=(TextPart(text="A"),)),
                ),
            ),
        ),
    )
    notes = Notes("warn")
    messages = chat.encode_request(req, notes)["messages"]
    assert messages == [
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_0_0", "type": "function", "function": {"name": "a", "arguments": '{"x":1}'}},
                {"id": "call_0_1", "type": "function", "function": {"name": "b", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_0_1", "content": "B"},
        {"role": "tool", "tool_call_id": "call_0_0", "content": "A"},
    ]
    assert [k for _, k in _kinds(notes)] == ["synthesized"] * 4


def test_mistral_dialect() -> None:
    req = Request(
        origin="anthropic",
        model="mistral-large-latest",
        max_tokens=100,
        messages=(
            Message(role="developer", parts=(TextPart(text="be terse"),)),
            Message(
                role="assistant",
                parts=(ToolCall(id="toolu_01A09q90qw90lq917835lq9", name="f", arguments="{}"),),
            ),
            Message(
                role="tool",
                parts=(ToolResult(call_id="toolu_01A09q90qw90lq917835lq9", content=(TextPart(text="ok"),)),),
            ),
        ),
    )
    out = chat.encode_request(req, Notes("strict"), dialect="mistral")
    call_id = out["messages"][1]["tool_calls"][0]["id"]
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", call_id)
    assert call_id == chat.mistral_call_id("toolu_01A09q90qw90lq917835lq9")
    assert out["messages"][2]["tool_call_id"] == call_id
    assert out["messages"][0] == {"role": "system", "content": "be terse"}
    assert out["max_tokens"] == 100 and "max_completion_tokens" not in out
    assert chat.mistral_call_id("abcDEF123") == "abcDEF123"
    with pytest.raises(ToolwireError, match="unknown Chat dialect 'klingon'"):
        chat.encode_request(req, Notes(), dialect="klingon")


def test_request_controls_from_other_formats() -> None:
    req = Request(
        origin="anthropic",
        model="m",
        max_tokens=1024,
        top_k=5,
        stop=("a", "b", "c", "d", "e"),
        reasoning=ReasoningConfig(enabled=True, budget_tokens=4000),
        response_format=ResponseFormat(type="json_schema", schema={"type": "object"}),
        metadata={"user_id": "u"},
        extra={"anthropic_beta": ["x"], "~hint": 1},
    )
    notes = Notes("warn")
    out = chat.encode_request(req, notes)
    assert out == {
        "model": "m",
        "messages": [],
        "max_completion_tokens": 1024,
        "stop": ["a", "b", "c", "d"],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "response", "schema": {"type": "object"}},
        },
        "reasoning_effort": "medium",
        "metadata": {"user_id": "u"},
    }
    assert _kinds(notes) == [
        ("$.top_k", "dropped"),
        ("$.stop", "dropped"),
        ("$", "synthesized"),
        ("$.reasoning_effort", "approximated"),
        ("$.anthropic_beta", "dropped"),
    ]


def test_assistant_content_forms_across_formats() -> None:
    req = Request(
        origin="openai-responses",
        messages=(
            Message(role="assistant", parts=(TextPart(text="a"), TextPart(text="b")), id="msg_1"),
            Message(role="user", parts=(FilePart(url="https://x/doc.pdf"), TextPart(text="q"))),
            Message(role="assistant", parts=()),
        ),
    )
    notes = Notes("warn")
    assert chat.encode_request(req, notes)["messages"] == [
        {"role": "assistant", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        {"role": "user", "content": [{"type": "text", "text": "q"}]},
        {"role": "assistant", "content": ""},
    ]
    # hand-built IR has no source payload: notes name IR parts, as every other note on a part does
    assert _kinds(notes) == [("$.messages[0]", "dropped"), ("$.messages[1].parts[0]", "dropped")]
    assert notes.items[0].message == "message id 'msg_1'"  # info: never raises


def test_a_note_on_content_names_the_source_block_not_its_place_among_the_kept() -> None:
    """A tool_result first in an Anthropic user turn goes out as its own Chat message, so the
    image is the first kept part; the note on the URL document still names the third block."""
    src = {
        "model": "claude-x",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"},
                    {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}},
                    {"type": "document", "source": {"type": "url", "url": "https://x/a.pdf"}},
                ],
            },
        ],
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
    }
    out = translate_request(src, source="anthropic", target="openai-chat")
    assert [(n.path, n.kind) for n in out.notes] == [("$.messages[2].content[2]", "dropped")]
    assert out.payload["messages"][-1] == {
        "role": "user",
        "content": [{"type": "image_url", "image_url": {"url": "https://x/a.png"}}],
    }


def test_chat_ir_to_chat_with_other_origin_uses_canonical_forms() -> None:
    """Hints of a decoded Chat request are ignored once the IR claims another origin."""
    payload = {
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}]},
            {"role": "assistant", "function_call": {"name": "f", "arguments": ""}},
            {"role": "function", "name": "f", "content": "ok"},
        ],
        "functions": [{"name": "f"}],
        "max_tokens": 3,
        "stop": "x",
    }
    ir = chat.decode_request(payload, Notes("strict"))
    import msgspec

    other = msgspec.structs.replace(ir, origin="anthropic")
    out = chat.encode_request(other, Notes("warn"))
    assert out == {
        "model": "m",
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "call_1_0", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "call_1_0", "content": "ok"},
        ],
        "tools": [{"type": "function", "function": {"name": "f"}}],
        "max_completion_tokens": 3,
        "stop": ["x"],
    }


def test_audio_and_files_from_other_formats() -> None:
    from toolwire.ir import AudioPart

    req = Request(
        origin="gemini",
        messages=(
            Message(
                role="user",
                parts=(
                    AudioPart(data="AAA", media_type="audio/mpeg"),
                    AudioPart(data="BBB", media_type="audio/ogg"),
                    FilePart(data="JVBE", media_type="application/pdf", filename="a.pdf"),
                    FilePart(text="plain document"),
                    ImagePart(file_id="file-9"),
                ),
            ),
        ),
    )
    notes = Notes("warn")
    assert chat.encode_request(req, notes)["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "input_audio", "input_audio": {"data": "AAA", "format": "mp3"}},
                {
                    "type": "file",
                    "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBE"},
                },
                {"type": "text", "text": "plain document"},
                {"type": "file", "file": {"file_id": "file-9"}},
            ],
        }
    ]
    assert _kinds(notes) == [
        ("$.messages[0].parts[1]", "dropped"),
        ("$.messages[0].parts[3]", "approximated"),
        ("$.messages[0].parts[4]", "approximated"),
    ]


def test_a_note_on_a_part_moved_after_a_result_names_the_source_block() -> None:
    """A result's image moves to a user message after the tool message, and the turn's other blocks
    follow it there: the note on the URL document names the third block, not its place among them."""
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
    src = {
        "model": "claude-x",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "toolu_1", "content": [image]},
                    {"type": "text", "text": "see"},
                    {"type": "document", "source": {"type": "url", "url": "https://x/a.pdf"}},
                ],
            },
        ],
        "tools": [{"name": "f", "input_schema": {"type": "object"}}],
    }
    out = translate_request(src, source="anthropic", target="openai-chat")
    assert [(n.path, n.kind) for n in out.notes] == [
        ("$.messages[2].content[0]", "approximated"),
        ("$.messages[2].content[2]", "dropped"),
    ]
    assert out.payload["messages"][-1]["content"][1:] == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
        {"type": "text", "text": "see"},
    ]
