"""Anthropic request encoding of content blocks built by other formats (issue 22): media types
sniffed from inline data, documents Anthropic cannot take dropped with a note."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from toolwire.formats import anthropic
from toolwire.ir.content import (
    FilePart,
    ImagePart,
    Message,
    Part,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    ToolResult,
)
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.validate import validate

PDF = base64.b64encode(b"%PDF-1.4 minimal").decode()
ZIP = base64.b64encode(b"PK\x03\x04 not a document").decode()


def user_blocks(*parts: Part) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Encode one user message of IR parts built outside Anthropic; its blocks and the notes."""
    notes = Notes()
    req = Request(messages=(Message(role="user", parts=parts),), model="m", max_tokens=10)
    out = anthropic.encode_request(req, notes)
    return out["messages"][0]["content"] if out["messages"] else [], [(n.kind, n.message) for n in notes]


@pytest.mark.parametrize(
    ("data", "media_type"),
    [
        ("iVBORw0KGgoAAAANSUhEUg", "image/png"),
        ("/9j/4AAQSkZJRg", "image/jpeg"),
        ("R0lGODlhAQABAIAAAP", "image/gif"),
        ("UklGRiQAAABXRUJQVlA4", "image/webp"),
    ],
)
def test_an_image_without_a_media_type_is_sniffed(data: str, media_type: str) -> None:
    blocks, notes = user_blocks(ImagePart(data=data))
    assert blocks == [{"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}]
    assert notes == []


def test_a_pdf_without_a_media_type_is_sniffed() -> None:
    blocks, notes = user_blocks(FilePart(data=PDF))
    assert blocks == [
        {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": PDF}}
    ]
    assert notes == []


def test_a_document_of_unknown_bytes_is_dropped_with_a_note() -> None:
    blocks, notes = user_blocks(FilePart(data=ZIP))
    assert blocks == []
    assert ("dropped", "file of type None: Anthropic documents take PDF or plain text") in notes


def test_a_data_url_keeps_its_media_type() -> None:
    data = "AAAAAAAAAAAA"
    blocks, notes = user_blocks(ImagePart(url=f"data:image/gif;base64,{data}"))
    assert blocks == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/gif", "data": data}}
    ]
    assert notes == []


def test_a_plain_text_document_is_sent_as_text_and_bad_base64_is_dropped() -> None:
    good = base64.b64encode(b"hello").decode()
    blocks, notes = user_blocks(FilePart(data=good, media_type="text/plain"))
    assert blocks == [
        {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "hello"}}
    ]
    blocks, notes = user_blocks(FilePart(data="aGVs*bG8=", media_type="text/plain"))
    assert blocks == []
    assert notes == [("dropped", "file of type 'text/plain': Anthropic documents take PDF or plain text")]


def test_a_gemini_signature_on_text_is_dropped_with_a_note() -> None:
    blocks, notes = user_blocks(TextPart(text="hi", thought_signature="c2ln"))
    assert blocks == [{"type": "text", "text": "hi"}]
    assert notes == [("dropped", "Gemini thought signature on a text part")]


def test_a_result_without_call_id_answers_the_call_without_id() -> None:
    notes = Notes()
    call = Message(role="assistant", parts=(ToolCall(name="lookup", arguments="{}"),))
    result = Message(
        role="tool", parts=(ToolResult(call_id=None, name="lookup", content=(TextPart(text="ok"),)),)
    )
    req = Request(
        messages=(Message(role="user", parts=(TextPart(text="q"),)), call, result), model="m", max_tokens=9
    )
    out = anthropic.encode_request(req, notes)
    use, answer = out["messages"][1]["content"][0], out["messages"][2]["content"][0]
    assert answer == {"type": "tool_result", "tool_use_id": use["id"], "content": "ok"}
    paired = [
        (n.kind, n.loss) for n in notes if n.message.startswith("tool result without call id paired with")
    ]
    assert paired == [("synthesized", True)]


def test_a_refusal_is_sent_as_text_with_a_note() -> None:
    notes = Notes()
    turns = (
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=(RefusalPart(text="no"),)),
    )
    out = anthropic.encode_request(Request(messages=turns, model="m", max_tokens=9), notes)
    assert out["messages"][1] == {"role": "assistant", "content": [{"type": "text", "text": "no"}]}
    assert [(n.kind, n.message) for n in notes] == [("approximated", "a refusal sent as text")]


def test_turns_are_rebuilt_with_results_first_and_thinking_first() -> None:
    thinking = ReasoningPart(text="hmm", signature="sig", origin="anthropic")
    messages = (
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(
            role="assistant",
            parts=(
                ToolCall(name="f", arguments="{}", id="c1"),
                ToolResult(call_id="c1", content=(TextPart(text="42"),)),
            ),
        ),
        Message(role="assistant", parts=(TextPart(text="so"), thinking)),
    )
    notes = Notes()
    out = anthropic.encode_request(Request(messages=messages, model="m", max_tokens=9), notes)
    assert out["messages"][1:] == [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f", "input": {}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": "42"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hmm", "signature": "sig"},
                {"type": "text", "text": "so"},
            ],
        },
    ]
    assert [(n.kind, n.message) for n in notes] == [
        ("approximated", "thinking moved before other content of its turn")
    ]


def test_an_image_known_only_by_another_providers_file_id_is_dropped_with_a_note() -> None:
    notes = Notes()
    req = Request(
        messages=(Message(role="user", parts=(TextPart(text="see"), ImagePart(file_id="file-abc"))),),
        model="m",
        max_tokens=10,
    )
    out = anthropic.encode_request(req, notes)
    assert out["messages"][0]["content"] == [{"type": "text", "text": "see"}]
    assert [(n.path, n.kind, n.message) for n in notes] == [
        ("$.messages[0].parts[1]", "dropped", "image without inline data or URL (another provider's file id)")
    ]


def test_a_text_document_without_a_media_type_is_sent_as_plain_text() -> None:
    notes = Notes()
    part = FilePart(text="hello", filename="a.txt")
    req = Request(messages=(Message(role="user", parts=(part,)),), model="m", max_tokens=10)
    out = anthropic.encode_request(req, notes)
    assert out["messages"][0]["content"] == [
        {
            "type": "document",
            "source": {"type": "text", "media_type": "text/plain", "data": "hello"},
            "title": "a.txt",
        }
    ]
    assert list(notes) == []
    assert validate(out, format="anthropic") == []


def test_a_document_from_an_anthropic_file_id_round_trips_and_another_formats_is_dropped() -> None:
    document = {"type": "document", "source": {"type": "file", "file_id": "file_1"}, "title": "Q3"}
    payload = {
        "model": "m",
        "max_tokens": 5,
        "messages": [{"role": "user", "content": [document, {"type": "text", "text": "sum up"}]}],
    }
    notes = Notes()
    again = anthropic.encode_request(anthropic.decode_request(payload, notes), notes)
    assert again["messages"] == payload["messages"]
    assert list(notes) == []
    blocks, foreign = user_blocks(FilePart(file_id="file-x"), TextPart(text="sum up"))
    assert blocks == [{"type": "text", "text": "sum up"}]
    assert foreign == [("dropped", "file without inline data, text or URL (another provider's file id)")]
