"""Anthropic request encoding of content blocks built by other formats (issue 22): media types
sniffed from inline data, documents Anthropic cannot take dropped with a note."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from toolwire.formats import anthropic
from toolwire.ir.content import FilePart, ImagePart, Message, Part
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request

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
