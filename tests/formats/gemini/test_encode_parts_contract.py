"""Gemini request encoding of parts (issue 22): the wire ``parts`` a request gets, same-format
spelling kept byte-exact, and every loss of a cross-format part noted with its kind."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.formats import gemini
from toolwire.ir.content import ImagePart, Message, Part, ReasoningPart, TextPart, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import translate_request

PNG = "iVBORw0KGgoAAAANSUhEUg"
GIF = "R0lGODlhAQABAIAAAP"
WEBP = "UklGRiQAAABXRUJQVlA4"
UNKNOWN = "AAAAAAAAAAAAAAAAAAAA"


def same(contents: list[dict[str, Any]]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """Decode a Gemini request and encode it back (the same format)."""
    notes = Notes()
    req = gemini.decode_request({"contents": contents}, notes, model="gemini-2.5-flash")
    out = gemini.encode_request(req, notes)
    return out, [(n.kind, n.message) for n in notes]


def cross(*parts: Part, role: str = "user") -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    """Encode one message of IR parts built outside Gemini; the wire parts and the notes."""
    notes = Notes()
    req = Request(messages=(Message(role=role, parts=parts),), model="m")  # type: ignore[arg-type]
    out = gemini.encode_request(req, notes)
    return out["contents"][0]["parts"], [(n.kind, n.message) for n in notes]


# ---------------------------------------------------------------- same format: spelling kept


@pytest.mark.parametrize(
    "part",
    [
        {"text": "plain, not a thought", "thought": False},
        {"thoughtSignature": "c2ln"},
        {"inline_data": {"mime_type": "image/png", "data": PNG}},
        {"fileData": {"mimeType": "application/pdf", "fileUri": "gs://bucket/a.pdf"}},
        {"file_data": {"file_uri": "gs://bucket/a.pdf"}},
        {"executable_code": {"language": "PYTHON", "code": "print(1)"}},
    ],
    ids=["thought-false", "bare-signature", "snake-inline", "file-data", "snake-file-data", "snake-builtin"],
)
def test_a_gemini_part_goes_back_as_it_came(part: dict[str, Any]) -> None:
    role = "model" if "thoughtSignature" in part or "executable_code" in part else "user"
    contents = [{"role": "user", "parts": [{"text": "hi"}]}, {"role": role, "parts": [part]}]
    out, notes = same(contents)
    assert out["contents"] == contents
    assert notes == []


def test_a_function_response_with_one_media_object_keeps_it_an_object() -> None:
    response = {
        "functionResponse": {
            "name": "shot",
            "id": "c1",
            "response": {"output": "see image"},
            "parts": {"inlineData": {"mimeType": "image/png", "data": PNG}},
        }
    }
    contents = [
        {"role": "user", "parts": [{"text": "take a screenshot"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "shot", "id": "c1", "args": {}}}]},
        {"role": "user", "parts": [response]},
    ]
    out, notes = same(contents)
    assert out["contents"][2]["parts"] == [response]
    assert notes == []


# ---------------------------------------------------------------- cross format: media types


@pytest.mark.parametrize(
    ("data", "mime"),
    [(PNG, "image/png"), ("/9j/4AAQSkZJRg", "image/jpeg"), (GIF, "image/gif"), (WEBP, "image/webp")],
)
def test_inline_image_without_a_media_type_is_sniffed(data: str, mime: str) -> None:
    parts, notes = cross(ImagePart(data=data))
    assert parts == [{"inlineData": {"mimeType": mime, "data": data}}]
    assert notes == []


def test_inline_image_of_unknown_bytes_is_sent_as_png_and_noted() -> None:
    parts, notes = cross(ImagePart(data=UNKNOWN))
    assert parts == [{"inlineData": {"mimeType": "image/png", "data": UNKNOWN}}]
    assert notes == [("synthesized", "inline data without a MIME type sent as image/png")]


# ---------------------------------------------------------------- cross format: losses noted


def test_another_formats_text_hint_is_not_sent() -> None:
    parts, notes = cross(TextPart(text="x", extra={"~thought": False}))
    assert parts == [{"text": "x"}]
    assert notes == []


def test_gemini_reasoning_with_a_summary_drops_the_summary_with_a_note() -> None:
    part = ReasoningPart(text="think", summary=("short",), signature="c2ln", origin="gemini")
    parts, notes = cross(part, role="assistant")
    assert parts == [{"text": "think", "thought": True, "thoughtSignature": "c2ln"}]
    assert notes == [("dropped", "reasoning summary/opaque state other than a thought signature")]


def test_custom_tool_input_is_sent_as_args_input_and_noted() -> None:
    call = ToolCall(name="patch", arguments="*** Begin Patch", id="c1", kind="custom")
    parts, notes = cross(call, role="assistant")
    assert parts == [{"functionCall": {"name": "patch", "args": {"input": "*** Begin Patch"}, "id": "c1"}}]
    assert notes == [("approximated", "custom tool input of 'patch' sent as args.input")]


def test_several_text_parts_of_a_tool_result_are_joined_with_an_info_note() -> None:
    call = Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="c1"),))
    result = ToolResult(call_id="c1", name="f", content=(TextPart(text="a"), TextPart(text="b")))
    notes = Notes()
    req = Request(messages=(call, Message(role="tool", parts=(result,))), model="m")
    out = gemini.encode_request(req, notes)
    assert out["contents"][1]["parts"] == [
        {"functionResponse": {"name": "f", "id": "c1", "response": {"output": "a\nb"}}}
    ]
    joined = [n for n in notes if n.message == "2 text parts of a tool result joined"]
    assert [(n.kind, n.loss) for n in joined] == [("approximated", False)]


def test_a_result_answers_the_call_with_the_same_empty_id() -> None:
    call = Message(role="assistant", parts=(ToolCall(name="lookup", arguments="{}", id=""),))
    result = Message(role="tool", parts=(ToolResult(call_id="", content=(TextPart(text="ok"),)),))
    notes = Notes()
    out = gemini.encode_request(Request(messages=(call, result), model="m"), notes)
    assert out["contents"][1]["parts"][0]["functionResponse"]["name"] == "lookup"
    assert not [n for n in notes if n.kind == "synthesized"]


# ---------------------------------------------------------------- contents


def test_a_plain_gemini_conversation_translates_without_notes() -> None:
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [{"text": "hello"}]},
        ]
    }
    result = translate_request(payload, source="gemini", target="openai-chat", model="m")
    assert result.payload["messages"] == [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
    ]
    assert result.notes == ()


def test_plain_contents_decode_to_bare_messages_and_legacy_function_turns_to_tool() -> None:
    response = {"functionResponse": {"name": "f", "response": {"output": "ok"}}}
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "hi"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
            {"role": "function", "parts": [response]},
        ]
    }
    req = gemini.decode_request(payload, Notes(), model="m")
    assert req.messages[0] == Message(role="user", parts=(TextPart(text="hi"),))
    assert req.messages[1].role == "assistant"
    assert req.messages[1].extra == {}
    assert req.messages[2].role == "tool"
    out, notes = same(payload["contents"])
    assert out["contents"] == payload["contents"]
    assert notes == []


def test_every_system_message_goes_into_one_system_instruction() -> None:
    messages = (
        Message(role="system", parts=(TextPart(text="be brief"),)),
        Message(role="user", parts=(TextPart(text="hi"),)),
        Message(role="developer", parts=(TextPart(text="use metric units"),)),
    )
    notes = Notes()
    out = gemini.encode_request(Request(messages=messages, model="m"), notes)
    assert out["systemInstruction"] == {"parts": [{"text": "be brief"}, {"text": "use metric units"}]}
    assert out["contents"] == [{"role": "user", "parts": [{"text": "hi"}]}]
    assert [(n.kind, n.message) for n in notes] == [
        ("approximated", "system message moved to systemInstruction")
    ]
