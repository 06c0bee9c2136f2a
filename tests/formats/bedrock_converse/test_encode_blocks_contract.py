"""Bedrock request encoding of parts (issue 22): the ``ContentBlock`` each IR part of another
format becomes, the note each loss gets (path and kind), Bedrock's own blocks back byte-exact,
and every request produced valid for Bedrock."""

from __future__ import annotations

import re
from typing import Any

import pytest

from toolwire.formats import bedrock_converse as bedrock
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
from toolwire.translate import translate_request
from toolwire.validate import validate

PNG = "iVBORw0KGgoAAAANSUhEUg"
JPEG = "/9j/4AAQSkZJRgABAQ"
GIF = "R0lGODlhAQABAIAAAP"
WEBP = "UklGRiQAAABXRUJQVlA4"
PDF = "JVBERi0xLjQK"
Noted = list[tuple[str, str, bool]]


def request(*messages: Message, origin: str = "openai-chat") -> tuple[dict[str, Any], Notes]:
    """Encode IR messages decoded from another format; the body (checked valid) and the notes."""
    notes = Notes()
    body = bedrock.encode_request(Request(messages=messages, model="m", origin=origin), notes)  # type: ignore[arg-type]
    assert validate(body, format="bedrock-converse") == []
    return body, notes


def noted(notes: Notes) -> Noted:
    return [(n.path, n.kind, n.loss) for n in notes]


def user(*parts: Part) -> tuple[list[dict[str, Any]], Noted]:
    """One user message ``"look"`` + ``parts``: the wire content after the text, and the notes."""
    body, notes = request(Message(role="user", parts=(TextPart(text="look"), *parts)))
    (message,) = body["messages"]
    assert message["role"] == "user" and message["content"][0] == {"text": "look"}
    return message["content"][1:], noted(notes)


AT = "$.messages[0].parts[1]"


def same(messages: list[dict[str, Any]], **top: Any) -> tuple[dict[str, Any], Noted]:
    """A Bedrock request decoded and encoded again (the same format)."""
    notes = Notes()
    payload = {"messages": messages, **top}
    req = bedrock.decode_request(payload, notes, model="m")
    return bedrock.encode_request(req, notes), noted(notes)


# ---------------------------------------------------------------- images


@pytest.mark.parametrize(
    ("data", "fmt"), [(PNG, "png"), (JPEG, "jpeg"), (GIF, "gif"), (WEBP, "webp")], ids=str
)
def test_an_image_without_a_media_type_takes_the_format_its_bytes_show(data: str, fmt: str) -> None:
    assert user(ImagePart(data=data)) == ([{"image": {"format": fmt, "source": {"bytes": data}}}], [])


def test_an_image_whose_bytes_show_no_known_format_is_dropped() -> None:
    assert user(ImagePart(data="AAAAAAAA")) == ([], [(AT, "dropped", True)])


def test_an_image_of_a_type_bedrock_lacks_is_dropped_even_with_known_bytes() -> None:
    assert user(ImagePart(data=PNG, media_type="image/tiff")) == ([], [(AT, "dropped", True)])


def test_the_declared_media_type_wins_over_the_bytes() -> None:
    content, notes = user(ImagePart(data=PNG, media_type="image/jpeg"))
    assert content == [{"image": {"format": "jpeg", "source": {"bytes": PNG}}}] and notes == []


@pytest.mark.parametrize(
    ("part", "fmt", "data"),
    [
        (ImagePart(url=f"data:image/png;base64,{PNG}"), "png", PNG),
        (ImagePart(url=f"data:image/webp;base64,{WEBP}", media_type="image/png"), "webp", WEBP),
        (ImagePart(url=f"data:;base64,{GIF}", media_type="image/gif"), "gif", GIF),
    ],
    ids=["typed", "url-type-wins", "untyped-url"],
)
def test_a_data_url_image_is_sent_as_its_bytes(part: ImagePart, fmt: str, data: str) -> None:
    assert user(part) == ([{"image": {"format": fmt, "source": {"bytes": data}}}], [])


@pytest.mark.parametrize(
    ("part", "why"),
    [
        (ImagePart(url="https://example.com/a.png", media_type="image/png"), "URL"),
        (ImagePart(url=f"data:image/png,{PNG}"), "URL"),  # not base64: no bytes to send
        (ImagePart(file_id="file-abc", media_type="image/png"), "file id"),
    ],
    ids=["http", "data-not-base64", "file-id"],
)
def test_an_image_bedrock_cannot_fetch_is_dropped(part: ImagePart, why: str) -> None:
    notes = Notes()
    body = bedrock.encode_request(
        Request(messages=(Message(role="user", parts=(TextPart(text="look"), part)),), origin="openai-chat"),
        notes,
    )
    assert body["messages"][0]["content"] == [{"text": "look"}]
    ((path, kind, message),) = [(n.path, n.kind, n.message) for n in notes]
    assert (path, kind) == (AT, "dropped") and why in message


def test_an_image_detail_is_dropped_and_noted_at_the_detail() -> None:
    assert user(ImagePart(data=PNG, media_type="image/png", detail="low")) == (
        [{"image": {"format": "png", "source": {"bytes": PNG}}}],
        [(AT + ".detail", "dropped", True)],
    )


# ---------------------------------------------------------------- documents


def test_a_pdf_becomes_a_document_with_its_bytes_and_name() -> None:
    part = FilePart(data=PDF, media_type="application/pdf", filename="Q3 report")
    assert user(part) == (
        [{"document": {"format": "pdf", "name": "Q3 report", "source": {"bytes": PDF}}}],
        [],
    )


def test_a_data_url_file_takes_the_type_of_its_url() -> None:
    part = FilePart(url="data:text/csv;base64,YSxi", media_type="application/pdf", filename="t")
    assert user(part) == ([{"document": {"format": "csv", "name": "t", "source": {"bytes": "YSxi"}}}], [])


@pytest.mark.parametrize(
    ("media_type", "fmt"), [(None, "txt"), ("text/markdown", "md"), ("text/html", "html")], ids=str
)
def test_a_text_file_becomes_a_text_document(media_type: str | None, fmt: str) -> None:
    part = FilePart(text="hello", media_type=media_type, filename="notes")
    assert user(part) == ([{"document": {"format": fmt, "name": "notes", "source": {"text": "hello"}}}], [])


def test_a_name_outside_bedrocks_rule_is_fitted_and_noted() -> None:
    part = FilePart(data=PDF, media_type="application/pdf", filename="my_report.v2  (final).pdf")
    content, notes = user(part)
    assert content[0]["document"]["name"] == "my-report-v2 (final)-pdf"
    assert notes == [(AT + ".filename", "renamed", False)]


def test_documents_without_a_usable_name_are_numbered_in_order() -> None:
    parts = (
        FilePart(data=PDF, media_type="application/pdf"),
        FilePart(data=PDF, media_type="application/pdf", filename="kept"),
        FilePart(data=PDF, media_type="application/pdf", filename="   "),
    )
    content, notes = user(*parts)
    assert [b["document"]["name"] for b in content] == ["document-1", "kept", "document-3"]
    assert notes == [
        ("$.messages[0].parts[1].filename", "renamed", False),
        ("$.messages[0].parts[3].filename", "renamed", False),
    ]


@pytest.mark.parametrize(
    ("part", "why"),
    [
        (FilePart(data="UEsDBA", media_type="application/zip", filename="a.zip"), "application/zip"),
        (FilePart(data=PDF, filename="a.pdf"), "None"),
        (FilePart(url="https://example.com/a.pdf", media_type="application/pdf"), "URL or file id"),
        (FilePart(file_id="file-1", media_type="application/pdf"), "URL or file id"),
    ],
    ids=["zip", "untyped", "url", "file-id"],
)
def test_a_file_bedrock_cannot_take_is_dropped(part: FilePart, why: str) -> None:
    notes = Notes()
    body = bedrock.encode_request(
        Request(messages=(Message(role="user", parts=(TextPart(text="look"), part)),), origin="anthropic"),
        notes,
    )
    assert body["messages"][0]["content"] == [{"text": "look"}]
    ((path, kind, message),) = [(n.path, n.kind, n.message) for n in notes]
    assert (path, kind) == (AT, "dropped") and why in message


# ---------------------------------------------------------------- text, audio, refusals, reasoning


def test_empty_text_is_omitted_without_a_note() -> None:
    assert user(TextPart(text=""), TextPart(text="more")) == ([{"text": "more"}], [])


def test_a_gemini_thought_signature_on_text_is_dropped_and_the_text_kept() -> None:
    assert user(TextPart(text="hi", thought_signature="c2ln")) == (
        [{"text": "hi"}],
        [(AT, "dropped", True)],
    )


def test_audio_is_dropped() -> None:
    assert user(AudioPart(data="UklGRg", format="wav")) == ([], [(AT, "dropped", True)])


def test_a_refusal_is_sent_as_text() -> None:
    body, notes = request(
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=(RefusalPart(text="I can't."), RefusalPart(text=""))),
    )
    assert body["messages"][1] == {"role": "assistant", "content": [{"text": "I can't."}]}
    assert noted(notes) == [
        ("$.messages[1].parts[0]", "approximated", True),
        ("$.messages[1].parts[1]", "approximated", True),
    ]


@pytest.mark.parametrize("origin", ["anthropic", "openai-responses", None])
def test_reasoning_bedrock_did_not_make_is_dropped(origin: Any) -> None:
    body, notes = request(
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(
            role="assistant",
            parts=(ReasoningPart(text="hmm", signature="sig", origin=origin), TextPart(text="a")),
        ),
        origin="anthropic",
    )
    assert body["messages"][1]["content"] == [{"text": "a"}]
    ((path, kind, message),) = [(n.path, n.kind, n.message) for n in notes]
    assert (path, kind) == ("$.messages[1].parts[0]", "dropped")
    assert (origin or "unknown origin") in message


def test_bedrock_reasoning_returns_to_bedrock_from_another_format_with_its_signature() -> None:
    parts = (
        ReasoningPart(text="hmm", signature="U0lH", origin="bedrock-converse"),
        ReasoningPart(text="bare", origin="bedrock-converse"),
        ReasoningPart(redacted="cmVk", origin="bedrock-converse"),
        TextPart(text="a"),
    )
    body, notes = request(
        Message(role="user", parts=(TextPart(text="q"),)), Message(role="assistant", parts=parts)
    )
    assert body["messages"][1]["content"] == [
        {"reasoningContent": {"reasoningText": {"text": "hmm", "signature": "U0lH"}}},
        {"reasoningContent": {"reasoningText": {"text": "bare"}}},
        {"reasoningContent": {"redactedContent": "cmVk"}},
        {"text": "a"},
    ]
    assert noted(notes) == []


def test_a_reasoning_text_member_bedrock_added_comes_back_to_bedrock() -> None:
    messages = [
        {"role": "user", "content": [{"text": "q"}]},
        {
            "role": "assistant",
            "content": [
                {"reasoningContent": {"reasoningText": {"text": "t", "signature": "s", "future": 1}}},
                {"text": "a"},
            ],
        },
    ]
    assert same(messages) == ({"messages": messages}, [])


# ---------------------------------------------------------------- tool calls


def _turn(*calls: ToolCall, origin: str = "openai-chat") -> tuple[list[dict[str, Any]], Noted]:
    body, notes = request(
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=calls),
        origin=origin,
    )
    return [b["toolUse"] for b in body["messages"][1]["content"]], noted(notes)


def test_a_call_sends_its_arguments_as_the_input_object() -> None:
    calls, notes = _turn(
        ToolCall(name="f", id="call_1", arguments='{"city": "Paris", "n": [1, 2]}'),
        ToolCall(name="g", id="call_2"),
    )
    assert calls == [
        {"toolUseId": "call_1", "name": "f", "input": {"city": "Paris", "n": [1, 2]}},
        {"toolUseId": "call_2", "name": "g", "input": {}},
    ]
    assert [n for n in notes if n[0].startswith("$.messages")] == []


@pytest.mark.parametrize("arguments", ["[1, 2]", '"x"', "{broken", "null"])
def test_arguments_that_are_no_json_object_are_sent_as_an_empty_object(arguments: str) -> None:
    calls, notes = _turn(ToolCall(name="f", id="c", arguments=arguments))
    assert calls == [{"toolUseId": "c", "name": "f", "input": {}}]
    assert ("$.messages[1].parts[0].arguments", "approximated", True) in notes


def test_a_bedrock_call_whose_input_is_no_object_comes_back_as_it_was() -> None:
    messages = [
        {"role": "user", "content": [{"text": "q"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": [1, "a"]}}]},
    ]
    tools = {"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}]}
    assert same(messages, toolConfig=tools) == ({"messages": messages, "toolConfig": tools}, [])


def test_a_custom_call_sends_its_text_as_input_input() -> None:
    calls, notes = _turn(
        ToolCall(name="patch", id="c", arguments="*** Begin", kind="custom"), origin="openai-responses"
    )
    assert calls == [{"toolUseId": "c", "name": "patch", "input": {"input": "*** Begin"}}]
    assert ("$.messages[1].parts[0]", "approximated", True) in notes


def test_a_gemini_thought_signature_on_a_call_is_dropped() -> None:
    calls, notes = _turn(
        ToolCall(name="f", id="c", arguments="{}", thought_signature="c2ln"), origin="gemini"
    )
    assert calls == [{"toolUseId": "c", "name": "f", "input": {}}]
    sig = [n for n in notes if n[0] == "$.messages[1].parts[0]"]
    assert sig == [("$.messages[1].parts[0]", "dropped", True)]
    gemini = {
        "contents": [
            {"role": "user", "parts": [{"text": "q"}]},
            {
                "role": "model",
                "parts": [{"functionCall": {"name": "f", "args": {}}, "thoughtSignature": "c2ln"}],
            },
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"ok": 1}}}]},
        ]
    }
    out = translate_request(gemini, source="gemini", target="bedrock-converse", model="m")
    (note,) = [n for n in out.notes if n.kind == "dropped"]
    assert note.path == "$.contents[1].parts[0]" and "thought signature" in note.message


def test_another_formats_builtin_call_and_result_are_dropped() -> None:
    body, notes = request(
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(
            role="assistant",
            parts=(ToolCall(name="web_search", id="ws_1", kind="builtin"), TextPart(text="found")),
        ),
        Message(role="user", parts=(ToolResult(call_id="ws_1", kind="builtin"), TextPart(text="ok"))),
        origin="anthropic",
    )
    assert body["messages"][1:] == [
        {"role": "assistant", "content": [{"text": "found"}]},
        {"role": "user", "content": [{"text": "ok"}]},
    ]
    assert noted(notes) == [
        ("$.messages[1].parts[0]", "dropped", True),
        ("$.messages[2].parts[0]", "dropped", True),
    ]


def _pair(call_id: str) -> tuple[str, str, Noted]:
    body, notes = request(
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=(ToolCall(name="f", id=call_id, arguments="{}"),)),
        Message(role="tool", parts=(ToolResult(call_id=call_id, content=(TextPart(text="ok"),)),)),
    )
    call = body["messages"][1]["content"][0]["toolUse"]["toolUseId"]
    result = body["messages"][2]["content"][0]["toolResult"]["toolUseId"]
    return call, result, [n for n in noted(notes) if n[0] != "$.tools"]


@pytest.mark.parametrize("call_id", ["toolu_01A", "call.1:a-b", "x" * 64])
def test_an_id_bedrock_accepts_is_sent_unchanged(call_id: str) -> None:
    assert _pair(call_id) == (call_id, call_id, [])


def test_an_id_with_other_characters_is_escaped_the_same_in_call_and_result() -> None:
    call, result, notes = _pair("call a/1")
    assert call == result and re.fullmatch(r"call-20a-2f1--[0-9a-f]{16}", call)
    assert notes == [("$.messages[1].parts[0]", "renamed", False)]  # once per id


@pytest.mark.parametrize("length", [65, 80, 300])
def test_an_id_too_long_for_bedrock_is_hashed_the_same_in_call_and_result(length: int) -> None:
    call, result, notes = _pair("c" * length)
    assert call == result and re.fullmatch(r"tw_[0-9a-f]{32}", call)
    assert notes == [("$.messages[1].parts[0]", "renamed", False)]
    assert _pair("d" * length)[0] != call  # different ids stay different


def test_calls_and_results_without_ids_are_paired_by_name_in_order() -> None:
    body, notes = request(
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=(ToolCall(name="f", arguments="{}"), ToolCall(name="g"))),
        Message(
            role="user",
            parts=(
                ToolResult(call_id=None, name="g", content=(TextPart(text="G"),)),
                ToolResult(call_id=None, name="f", content=(TextPart(text="F"),)),
            ),
        ),
        origin="gemini",
    )
    calls = [b["toolUse"]["toolUseId"] for b in body["messages"][1]["content"]]
    results = [
        (b["toolResult"]["toolUseId"], b["toolResult"]["content"]) for b in body["messages"][2]["content"]
    ]
    assert calls == ["tooluse_1_0", "tooluse_1_1"]
    assert results == [("tooluse_1_1", [{"text": "G"}]), ("tooluse_1_0", [{"text": "F"}])]
    synthesized = [n for n in noted(notes) if n[1] == "synthesized" and n[0] != "$.tools"]
    assert synthesized == [
        ("$.messages[1].parts[0].id", "synthesized", False),
        ("$.messages[1].parts[1].id", "synthesized", False),
        ("$.messages[2].parts[0]", "synthesized", True),
        ("$.messages[2].parts[1]", "synthesized", True),
    ]


# ---------------------------------------------------------------- tool results


def _result(result: ToolResult, origin: str = "openai-chat") -> tuple[dict[str, Any], Noted]:
    body, notes = request(
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=(ToolCall(name="f", id="c1", arguments="{}"),)),
        Message(role="tool", parts=(result,)),
        origin=origin,
    )
    return body["messages"][2]["content"][0]["toolResult"], [n for n in noted(notes) if n[0] != "$.tools"]


def test_a_result_sends_its_text_image_and_document_items() -> None:
    content = (
        TextPart(text="line"),
        TextPart(text=""),
        ImagePart(data=PNG, media_type="image/png"),
        FilePart(text="log", filename="run log"),
    )
    assert _result(ToolResult(call_id="c1", content=content)) == (
        {
            "toolUseId": "c1",
            "content": [
                {"text": "line"},
                {"image": {"format": "png", "source": {"bytes": PNG}}},
                {"document": {"format": "txt", "name": "run log", "source": {"text": "log"}}},
            ],
        },
        [],
    )


def test_a_result_item_bedrock_cannot_take_is_dropped_at_its_content_path() -> None:
    result = ToolResult(
        call_id="c1", content=(ImagePart(url="https://example.com/a.png"), TextPart(text="x"))
    )
    assert _result(result) == (
        {"toolUseId": "c1", "content": [{"text": "x"}]},
        [("$.messages[2].parts[0].content[0]", "dropped", True)],
    )


@pytest.mark.parametrize(("is_error", "status"), [(None, None), (False, None), (True, "error")])
def test_only_a_failed_result_of_another_format_gets_a_status(
    is_error: bool | None, status: str | None
) -> None:
    wire, _ = _result(ToolResult(call_id="c1", content=(TextPart(text="x"),), is_error=is_error))
    assert wire.get("status") == status and ("status" in wire) == (status is not None)


@pytest.mark.parametrize("status", ["success", "error"])
def test_a_bedrock_result_status_comes_back_as_it_was(status: str) -> None:
    messages = [
        {"role": "user", "content": [{"text": "q"}]},
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]},
        {
            "role": "user",
            "content": [
                {
                    "toolResult": {
                        "toolUseId": "t1",
                        "content": [
                            {"text": ""},
                            {"json": {"a": [1]}},
                            {"video": {"format": "mp4", "source": {"bytes": "AAAA"}}},
                            {"text": "x"},
                        ],
                        "status": status,
                        "future": {"b": 2},
                    }
                }
            ],
        },
    ]
    tools = {"tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}]}
    assert same(messages, toolConfig=tools) == ({"messages": messages, "toolConfig": tools}, [])


def test_a_result_member_of_another_format_is_dropped_and_noted() -> None:
    result = ToolResult(
        call_id="c1", content=(TextPart(text="x"),), extra={"cache_control": {"type": "ephemeral"}}
    )
    wire, notes = _result(result, origin="anthropic")
    assert wire == {"toolUseId": "c1", "content": [{"text": "x"}]}
    assert notes == [("$.messages[2].parts[0].cache_control", "dropped", True)]


def test_a_chat_request_with_every_part_kind_translates_valid() -> None:
    chat = {
        "model": "m",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "see"},
                    {
                        "type": "image_url",
                        "image_url": {"url": f"data:image/jpeg;base64,{JPEG}", "detail": "high"},
                    },
                    {
                        "type": "file",
                        "file": {"file_data": f"data:application/pdf;base64,{PDF}", "filename": "a.pdf"},
                    },
                ],
            },
            {"role": "assistant", "content": None, "refusal": "no"},
        ],
    }
    out = translate_request(chat, source="openai-chat", target="bedrock-converse")
    assert validate(out.payload, format="bedrock-converse") == []
    assert out.payload["messages"] == [
        {
            "role": "user",
            "content": [
                {"text": "see"},
                {"image": {"format": "jpeg", "source": {"bytes": JPEG}}},
                {"document": {"format": "pdf", "name": "a-pdf", "source": {"bytes": PDF}}},
            ],
        },
        {"role": "assistant", "content": [{"text": "no"}]},
    ]
    assert {(n.path, n.kind) for n in out.notes} >= {
        ("$.messages[0].content[1].image_url.detail", "dropped"),
        ("$.messages[1].refusal", "approximated"),
    }


def test_a_member_bedrock_lacks_on_a_result_item_is_noted_at_its_source_path() -> None:
    """Anthropic's cache_control on a text block inside a tool_result: dropped, noted (as it is on
    a text block outside one)."""
    anthropic = {
        "model": "m",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "input": {}}]},
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": "t1",
                        "content": [{"type": "text", "text": "x", "cache_control": {"type": "ephemeral"}}],
                    }
                ],
            },
        ],
    }
    out = translate_request(anthropic, source="anthropic", target="bedrock-converse")
    assert out.payload["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": "t1", "content": [{"text": "x"}]}}
    ]
    dropped = [n.path for n in out.notes if n.kind == "dropped"]
    assert dropped == ["$.messages[2].content[0].content[0].cache_control"]


def test_bedrock_images_and_documents_come_back_with_their_format_as_it_was() -> None:
    """Formats Bedrock may add later (or none, for a document) are kept for Bedrock itself."""
    messages = [
        {
            "role": "user",
            "content": [
                {"image": {"format": "heic", "source": {"bytes": PNG}}},
                {
                    "image": {
                        "format": "png",
                        "source": {"s3Location": {"uri": "s3://b/k", "bucketOwner": "1"}},
                    }
                },
                {"document": {"name": "n", "source": {"bytes": PDF}}},
                {"document": {"format": "rtf", "name": "n", "source": {"text": "t"}}},
                {"document": {"format": "pdf", "name": "n", "source": {"s3Location": {"uri": "s3://b/d"}}}},
            ],
        }
    ]
    assert same(messages) == ({"messages": messages}, [])


def test_a_bedrock_call_with_cut_off_arguments_is_sent_with_an_empty_input() -> None:
    """A Bedrock call whose arguments are no JSON object (a stream cut at max_tokens, say) sent back
    to Bedrock: ``input`` must be an object, so ``{}`` goes, noted."""
    for arguments in ('{"city": "Par', "[1]"):
        notes = Notes()
        req = Request(
            messages=(
                Message(role="user", parts=(TextPart(text="q"),)),
                Message(role="assistant", parts=(ToolCall(name="f", id="t1", arguments=arguments),)),
            ),
            origin="bedrock-converse",
        )
        body = bedrock.encode_request(req, notes)
        assert body["messages"][1]["content"] == [{"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}]
        assert [(n.path, n.kind) for n in notes] == [("$.messages[1].parts[0].arguments", "approximated")]


def test_a_system_block_of_no_string_text_is_not_taken_for_text() -> None:
    payload = {
        "system": [{"text": 5}, {"text": "A"}],
        "messages": [{"role": "user", "content": [{"text": "q"}]}],
    }
    out = translate_request(payload, source="bedrock-converse", target="anthropic", model="m")
    assert out.payload["system"] == "A"
    assert [(n.path, n.kind) for n in out.notes if n.loss] == [("$.system", "dropped")]
    notes = Notes()
    assert bedrock.encode_request(bedrock.decode_request(payload, notes, model="m"), notes) == payload
