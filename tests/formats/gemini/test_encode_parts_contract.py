"""Gemini request encoding of parts (issue 22): the wire ``parts`` a request gets, same-format
spelling kept byte-exact, and every loss of a cross-format part noted with its kind."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from toolwire.errors import ConversionError
from toolwire.formats import gemini
from toolwire.ir.content import (
    AudioPart,
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
from toolwire.ir.response import Response
from toolwire.translate import translate_request
from toolwire.validate import validate

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


def _idless_history(calls: tuple[str, ...], results: int) -> Request:
    return Request(
        messages=(
            Message(role="user", parts=(TextPart(text="go"),)),
            Message(role="assistant", parts=tuple(ToolCall(name=n, arguments="{}") for n in calls)),
            Message(
                role="tool",
                parts=tuple(
                    ToolResult(call_id=None, content=(TextPart(text=f"r{i}"),)) for i in range(results)
                ),
            ),
        ),
        model="m",
    )


def test_nameless_idless_results_take_the_names_of_the_calls_at_their_positions() -> None:
    notes = Notes()
    out = gemini.encode_request(_idless_history(("lookup", "fetch"), 2), notes)
    assert out["contents"][2]["parts"] == [
        {"functionResponse": {"name": "lookup", "response": {"output": "r0"}}},
        {"functionResponse": {"name": "fetch", "response": {"output": "r1"}}},
    ]
    assert validate(out, format="gemini") == []
    assert [n.kind for n in notes] == ["approximated", "approximated"]  # the response.output wraps only


def test_a_named_idless_result_keeps_its_name_and_its_place_in_the_pairing() -> None:
    req = _idless_history(("lookup", "fetch"), 2)
    first = msgspec.structs.replace(req.messages[2].parts[0], name="lookup")
    tool = msgspec.structs.replace(req.messages[2], parts=(first, req.messages[2].parts[1]))
    req = msgspec.structs.replace(req, messages=(*req.messages[:2], tool))
    out = gemini.encode_request(req, Notes())
    assert [p["functionResponse"]["name"] for p in out["contents"][2]["parts"]] == ["lookup", "fetch"]


def test_a_nameless_result_with_ids_on_both_sides_takes_its_calls_name() -> None:
    call = ToolCall(name="lookup", arguments="{}", id="c1")
    messages = (
        Message(role="user", parts=(TextPart(text="go"),)),
        Message(role="assistant", parts=(ToolCall(name="first", arguments="{}"), call)),
        Message(
            role="tool",
            parts=(
                ToolResult(call_id="c1", content=(TextPart(text="a"),)),
                ToolResult(call_id=None, content=(TextPart(text="b"),)),
            ),
        ),
    )
    out = gemini.encode_request(Request(messages=messages, model="m"), Notes())
    assert [p["functionResponse"]["name"] for p in out["contents"][2]["parts"]] == ["lookup", "first"]


# ---------------------------------------------------------------- cross format: URLs, files, results


@pytest.mark.parametrize(
    ("part", "wire"),
    [
        (
            ImagePart(url="data:image/jpeg;base64,AAAA"),
            {"inlineData": {"mimeType": "image/jpeg", "data": "AAAA"}},
        ),
        (ImagePart(url=f"data:;base64,{GIF}"), {"inlineData": {"mimeType": "image/gif", "data": GIF}}),
        (
            FilePart(url="data:;base64,JVBERi0x", media_type="application/pdf"),
            {"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0x"}},
        ),
        (
            ImagePart(data=UNKNOWN, media_type="image/jpeg"),
            {"inlineData": {"mimeType": "image/jpeg", "data": UNKNOWN}},
        ),
        (
            AudioPart(data="UklGRgAA", format="wav"),
            {"inlineData": {"mimeType": "audio/wav", "data": "UklGRgAA"}},
        ),
        (
            ImagePart(url="https://example.com/cat.jpg"),
            {"fileData": {"fileUri": "https://example.com/cat.jpg", "mimeType": "image/jpeg"}},
        ),
        (FilePart(url="https://example.com/blob"), {"fileData": {"fileUri": "https://example.com/blob"}}),
        (
            FilePart(url="https://example.com/a.pdf", text="the text"),
            {"fileData": {"fileUri": "https://example.com/a.pdf", "mimeType": "application/pdf"}},
        ),
    ],
    ids=[
        "data-url",
        "data-url-sniffed",
        "data-url-part-type",
        "given-type",
        "audio",
        "url",
        "url-no-type",
        "url-and-text",
    ],
)
def test_media_of_another_format_go_inline_or_by_uri_without_loss(part: Part, wire: dict[str, Any]) -> None:
    parts, notes = cross(part)
    assert parts == [wire]
    assert notes == []


@pytest.mark.parametrize(
    ("part", "wire", "note"),
    [
        (
            ImagePart(url="data:text/plain,hello"),
            [],
            ("dropped", "a data: URL that is not base64 has no Gemini form"),
        ),
        (
            FilePart(file_id="file-1"),
            [],
            ("dropped", "a file referenced by provider file id has no Gemini form"),
        ),
        (
            ImagePart(url="https://example.com/cat.png", detail="high"),
            [{"fileData": {"fileUri": "https://example.com/cat.png", "mimeType": "image/png"}}],
            ("dropped", "image detail 'high'"),
        ),
        (
            FilePart(url="https://example.com/a.pdf", filename="a.pdf"),
            [{"fileData": {"fileUri": "https://example.com/a.pdf", "mimeType": "application/pdf"}}],
            ("dropped", "file name 'a.pdf'"),
        ),
        (
            FilePart(text="a plain document"),
            [{"text": "a plain document"}],
            ("approximated", "a text document sent as a text part"),
        ),
        (
            FilePart(data="AAAA"),
            [{"inlineData": {"mimeType": "application/octet-stream", "data": "AAAA"}}],
            ("synthesized", "inline data without a MIME type sent as application/octet-stream"),
        ),
        (RefusalPart(text="I can't"), [{"text": "I can't"}], ("approximated", "a refusal sent as text")),
    ],
    ids=["data-url-not-base64", "file-id", "detail", "filename", "text-document", "untyped-file", "refusal"],
)
def test_a_lossy_part_of_another_format_is_noted_at_its_path(
    part: Part, wire: list[dict[str, Any]], note: tuple[str, str]
) -> None:
    notes = Notes()
    req = Request(messages=(Message(role="user", parts=(TextPart(text="see"), part)),), model="m")
    out = gemini.encode_request(req, notes)
    assert out["contents"][0]["parts"] == [{"text": "see"}, *wire]
    assert [(n.path, n.kind, n.message) for n in notes] == [("$.messages[0].parts[1]", *note)]


def _answer(*content: Part, is_error: bool | None = None) -> dict[str, Any]:
    call = Message(role="assistant", parts=(ToolCall(name="shot", arguments="{}", id="c1"),))
    result = ToolResult(call_id="c1", content=content, is_error=is_error)
    req = Request(messages=(call, Message(role="tool", parts=(result,))), model="m")
    out: dict[str, Any] = gemini.encode_request(req, Notes())["contents"][1]["parts"][0]
    return out


def test_a_failed_tool_result_goes_as_response_error() -> None:
    assert _answer(TextPart(text="boom"), is_error=True) == {
        "functionResponse": {"name": "shot", "id": "c1", "response": {"error": "boom"}}
    }


def test_media_of_a_tool_result_go_in_function_response_parts() -> None:
    assert _answer(TextPart(text="here"), ImagePart(data=PNG), RefusalPart(text="and no more")) == {
        "functionResponse": {
            "name": "shot",
            "id": "c1",
            "response": {"output": "here\nand no more"},
            "parts": [{"inlineData": {"mimeType": "image/png", "data": PNG}}],
        }
    }


def test_a_result_in_a_response_that_answers_no_call_is_named_unknown_with_a_loss_note() -> None:
    result = ToolResult(call_id="zz", content=(TextPart(text="x"),))
    notes = Notes()
    out = gemini.encode_response(Response(parts=(result,), model="m"), notes)
    [part] = out["candidates"][0]["content"]["parts"]
    assert part == {"functionResponse": {"name": "unknown", "id": "zz", "response": {"output": "x"}}}
    [note] = [n for n in notes if n.kind == "synthesized" and n.path == "$.parts[0]"]
    assert note.loss and note.message == "tool result 'zz' answers no known call; name 'unknown'"
    with pytest.raises(ConversionError):
        gemini.encode_response(Response(parts=(result,), model="m"), Notes("strict"))


@pytest.mark.parametrize(
    "part",
    [
        {"functionCall": {"name": "f", "args": {}, "futureField": 1}},
        {"inlineData": {"mimeType": "image/png", "data": PNG, "displayName": "shot"}},
    ],
    ids=["call", "inline-data"],
)
def test_unknown_fields_inside_a_gemini_part_go_back_in_place(part: dict[str, Any]) -> None:
    contents = [{"role": "user", "parts": [{"text": "hi"}]}, {"role": "model", "parts": [part]}]
    out, notes = same(contents)
    assert out["contents"] == contents
    assert notes == []


def test_gemini_reasoning_keeps_its_unknown_fields_in_any_request() -> None:
    part = ReasoningPart(text="think", signature="c2ln", origin="gemini", extra={"futureField": 1})
    parts, notes = cross(part, role="assistant")
    assert parts == [{"text": "think", "thought": True, "thoughtSignature": "c2ln", "futureField": 1}]
    assert notes == []
