"""Chat content parts (issue 22): what a Chat request's content decodes to and how it comes back
in its own spelling, and the Chat shape (with its notes) of parts from other formats."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.formats import openai_chat
from toolwire.ir.content import (
    AudioPart,
    FilePart,
    ImagePart,
    Message,
    Part,
    ReasoningPart,
    TextPart,
    ToolCall,
    ToolResult,
)
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import translate_request

Noted = list[tuple[str, str, str]]
PDF = "JVBERi0xLjQ="


def same(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], Noted, Request]:
    """A Chat request's messages decoded and encoded again, the notes, and the decoded IR."""
    notes = Notes()
    req = openai_chat.decode_request({"model": "m", "messages": messages}, notes)
    out = openai_chat.encode_request(req, notes)
    return out["messages"], [(n.path, n.kind, n.message) for n in notes], req


def encode_user(*parts: Part) -> tuple[Any, list[tuple[str, str]]]:
    """The Chat content of a user message of another format holding ``parts``, and the notes
    (kind, message)."""
    notes = Notes()
    req = Request(messages=(Message(role="user", parts=parts),), model="m")
    out = openai_chat.encode_request(req, notes)
    return out["messages"][0].get("content"), [(n.kind, n.message) for n in notes]


# ---------------------------------------------------------------- the same format


@pytest.mark.parametrize(
    "content",
    ["", "plain", [], [{"type": "text", "text": "one part"}]],
    ids=["empty-string", "string", "empty-list", "one-text-part-list"],
)
def test_user_content_comes_back_in_its_own_spelling(content: Any) -> None:
    messages, notes, _ = same([{"role": "user", "content": content}])
    assert messages == [{"role": "user", "content": content}]
    assert notes == []


def test_a_refusal_content_part_stays_a_content_part() -> None:
    chat = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]},
    ]
    messages, notes, req = same(chat)
    assert messages == chat
    assert notes == []
    assert [p.text for p in req.messages[1].parts] == ["no"]


def test_a_mistral_thinking_chunk_is_reasoning_and_comes_back_as_written() -> None:
    thinking = {
        "type": "thinking",
        "thinking": [{"type": "text", "text": "first, "}, {"type": "text", "text": "then"}],
    }
    chat = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [thinking, {"type": "text", "text": "answer"}]},
    ]
    messages, notes, req = same(chat)
    assert messages == chat
    assert notes == []
    reasoning = req.messages[1].parts[0]
    assert isinstance(reasoning, ReasoningPart) and reasoning.text == "first, then"


def test_an_unknown_content_part_is_skipped_with_a_note_at_its_type() -> None:
    messages, notes, req = same(
        [{"role": "user", "content": [{"type": "hologram", "x": 1}, {"type": "text", "text": "hi"}]}]
    )
    assert req.messages[0].parts == (TextPart(text="hi"),)
    assert messages == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert [(p, k) for p, k, _ in notes] == [("$.messages[0].content[0].type", "skipped")]
    assert "'hologram'" in notes[0][2]


def test_a_data_url_file_goes_to_another_format_as_typed_data() -> None:
    chat = {
        "model": "m",
        "max_tokens": 10,
        "messages": [
            {
                "role": "user",
                "content": [
                    {
                        "type": "file",
                        "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"},
                    },
                    {"type": "text", "text": "summarize"},
                ],
            }
        ],
    }
    result = translate_request(chat, source="openai-chat", target="anthropic")
    document = result.payload["messages"][0]["content"][0]
    assert document["source"] == {"type": "base64", "media_type": "application/pdf", "data": PDF}


# ---------------------------------------------------------------- parts of other formats


def test_images_of_other_formats_get_a_url_a_file_or_a_note() -> None:
    content, notes = encode_user(
        ImagePart(data="iVBOR"), ImagePart(url="https://x.test/a.png", detail="high")
    )
    assert content == [
        {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBOR"}},
        {"type": "image_url", "image_url": {"url": "https://x.test/a.png", "detail": "high"}},
    ]
    assert [k for k, _ in notes] == ["synthesized"] and "image/png" in notes[0][1]
    content, notes = encode_user(ImagePart(file_id="file-1"), ImagePart(), TextPart(text="see"))
    assert content == [{"type": "file", "file": {"file_id": "file-1"}}, {"type": "text", "text": "see"}]
    assert [k for k, _ in notes] == ["approximated", "dropped"]
    assert "file" in notes[0][1] and "without url" in notes[1][1]


def test_audio_without_a_known_format_is_assumed_wav_noted() -> None:
    content, notes = encode_user(AudioPart(data="UklGR"), AudioPart(data="SUQz", format="mp3"))
    assert content == [
        {"type": "input_audio", "input_audio": {"data": "UklGR", "format": "wav"}},
        {"type": "input_audio", "input_audio": {"data": "SUQz", "format": "mp3"}},
    ]
    assert [k for k, _ in notes] == ["synthesized"] and "wav" in notes[0][1]


def test_files_of_other_formats_get_data_a_text_part_or_a_note() -> None:
    content, notes = encode_user(
        FilePart(data=PDF, filename="a.pdf"),
        FilePart(text="plain words"),
        FilePart(url="https://x.test/a.pdf"),
    )
    assert content == [
        {"type": "file", "file": {"filename": "a.pdf", "file_data": PDF}},
        {"type": "text", "text": "plain words"},
    ]
    assert [k for k, _ in notes] == ["approximated", "dropped"]
    assert "text part" in notes[0][1] and "URL" in notes[1][1]


def test_a_lone_text_part_of_another_format_is_a_string_noting_what_it_loses() -> None:
    content, notes = encode_user(TextPart(text="hi", thought_signature="sig"))
    assert content == "hi"
    assert [k for k, _ in notes] == ["dropped"] and "thought signature" in notes[0][1]
    content, notes = encode_user(TextPart(text="hi", extra={"cache_control": {"type": "ephemeral"}}))
    assert content == "hi"
    assert [k for k, _ in notes] == ["dropped"] and "cache_control" in notes[0][1]


def test_a_part_that_cannot_be_content_is_dropped_noted() -> None:
    notes = Notes()
    messages = (
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="c1"),)),
        Message(
            role="tool",
            parts=(
                ToolResult(call_id="c1", content=(TextPart(text="ok"),)),
                ToolCall(name="g", arguments="{}", id="c2"),
                ReasoningPart(text="hm"),
            ),
        ),
    )
    out = openai_chat.encode_request(Request(messages=messages, model="m"), notes)
    assert out["messages"][2:] == [{"role": "tool", "tool_call_id": "c1", "content": "ok"}]
    dropped = [(n.path, n.message) for n in notes if n.kind == "dropped"]
    assert dropped == [
        ("$.messages[2].parts[1]", "ToolCall cannot be message content"),
        ("$.messages[2].parts[2]", "reasoning cannot be Chat message content"),
    ]
