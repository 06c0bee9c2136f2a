"""Chat message content (issue 22): part fields round-trip in their own spelling, and parts from
other formats get the Chat shape (audio formats from media types) without stray notes."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from toolwire.formats import openai_chat
from toolwire.ir.content import AudioPart, ImagePart, Message, TextPart, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import translate_request

WAV = "UklGRiQAAABXQVZFZm10"


def same(content: list[dict[str, Any]]) -> tuple[Any, list[tuple[str, str]]]:
    notes = Notes()
    payload = {"model": "m", "messages": [{"role": "user", "content": content}]}
    out = openai_chat.encode_request(openai_chat.decode_request(payload, notes), notes)
    return out["messages"][0]["content"], [(n.kind, n.message) for n in notes]


@pytest.mark.parametrize(
    "part",
    [
        {
            "type": "image_url",
            "image_url": {"url": "https://x.test/a.png", "detail": "low", "x_crop": [0, 0]},
        },
        {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav", "x_rate": 16000}},
    ],
    ids=["image-inner-field", "audio-inner-field"],
)
def test_unknown_fields_inside_a_part_round_trip(part: dict[str, Any]) -> None:
    content, notes = same([{"type": "text", "text": "look"}, part])
    assert content == [{"type": "text", "text": "look"}, part]
    assert notes == []


@pytest.mark.parametrize(
    "part",
    [
        {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
        {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav"}},
    ],
    ids=["image", "audio"],
)
def test_a_chat_media_part_translates_without_notes(part: dict[str, Any]) -> None:
    payload = {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}, part]}],
    }
    result = translate_request(payload, source="openai-chat", target="gemini")
    assert len(result.payload["contents"][0]["parts"]) == 2
    assert result.notes == ()


@pytest.mark.parametrize(
    ("media_type", "fmt"),
    [
        ("audio/wav", "wav"),
        ("audio/x-wav", "wav"),
        ("audio/wave", "wav"),
        ("audio/mpeg", "mp3"),
        ("audio/mp3", "mp3"),
    ],
)
def test_audio_of_another_format_gets_its_chat_format(media_type: str, fmt: str) -> None:
    notes = Notes()
    req = Request(
        messages=(Message(role="user", parts=(AudioPart(data=WAV, media_type=media_type),)),), model="m"
    )
    out = openai_chat.encode_request(req, notes)
    assert out["messages"][0]["content"] == [
        {"type": "input_audio", "input_audio": {"data": WAV, "format": fmt}}
    ]
    assert list(notes) == []


def test_a_plain_image_part_decodes_to_a_bare_image() -> None:
    payload = {
        "model": "m",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "image_url", "image_url": {"url": "https://x.test/a.png", "detail": "low"}}
                ],
            }
        ],
    }
    req = openai_chat.decode_request(payload, Notes())
    assert req.messages[0].parts == (ImagePart(url="https://x.test/a.png", detail="low"),)


def test_a_plain_audio_part_decodes_to_bare_audio() -> None:
    part = {"type": "input_audio", "input_audio": {"data": WAV, "format": "wav"}}
    req = openai_chat.decode_request(
        {"model": "m", "messages": [{"role": "user", "content": [part]}]}, Notes()
    )
    assert req.messages[0].parts == (AudioPart(data=WAV, format="wav"),)


def test_raw_file_data_stays_raw_once_its_media_type_is_known() -> None:
    part = {"type": "file", "file": {"file_data": "JVBERi0xLjQ=", "filename": "a.pdf"}}
    notes = Notes()
    req = openai_chat.decode_request({"model": "m", "messages": [{"role": "user", "content": [part]}]}, notes)
    (decoded,) = req.messages[0].parts
    typed = msgspec.structs.replace(decoded, media_type="application/pdf")
    message = msgspec.structs.replace(req.messages[0], parts=(typed,))
    out = openai_chat.encode_request(msgspec.structs.replace(req, messages=(message,)), notes)
    assert out["messages"][0]["content"] == [part]


# ---------------------------------------------------------------- messages from other formats


def encode(*messages: Message) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
    notes = Notes()
    out = openai_chat.encode_request(Request(messages=messages, model="m"), notes)
    return out["messages"], [(n.kind, n.message) for n in notes]


IMAGE = ImagePart(url="https://x.test/a.png")
CALL = Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="c1"),))


def test_media_of_a_tool_result_follows_in_a_user_message_before_the_next_turn() -> None:
    result = Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="shot"), IMAGE)),))
    tail = [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "The content returned by tool call c1 follows:"},
                {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
            ],
        },
    ]
    messages, notes = encode(Message(role="user", parts=(TextPart(text="q"),)), CALL, result)
    assert messages[2:] == [{"role": "tool", "tool_call_id": "c1", "content": "shot"}, *tail]
    assert notes == [("approximated", "non-text tool result content moved to a following user message")]
    messages, _ = encode(
        Message(role="user", parts=(TextPart(text="q"),)),
        CALL,
        result,
        Message(role="assistant", parts=(TextPart(text="seen"),)),
    )
    assert messages[3:] == [*tail, {"role": "assistant", "content": "seen"}]


def test_built_in_parts_are_dropped_and_an_emptied_assistant_turn_omitted() -> None:
    builtin_call = ToolCall(name="web_search", arguments="{}", id="ws1", kind="builtin")
    builtin_result = ToolResult(
        call_id="ws1", name="web_search", kind="builtin", content=(TextPart(text="r"),)
    )
    messages, notes = encode(
        Message(role="user", parts=(TextPart(text="q"),)),
        Message(role="assistant", parts=(builtin_call,)),
        Message(role="tool", parts=(builtin_result,)),
    )
    assert messages == [{"role": "user", "content": "q"}]
    assert notes == [
        ("dropped", "built-in tool call 'web_search' has no Chat equivalent"),
        ("dropped", "assistant turn left empty by dropped parts omitted"),
        ("dropped", "built-in tool output 'web_search' has no Chat equivalent"),
    ]


def test_parts_a_role_cannot_hold_are_noted() -> None:
    messages, notes = encode(
        Message(role="system", parts=(TextPart(text="s"), IMAGE)),
        Message(role="user", parts=(TextPart(text="q"),)),
        CALL,
        Message(
            role="tool",
            parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),)), TextPart(text="aside")),
        ),
        Message(
            role="assistant",
            parts=(TextPart(text="a"), ToolCall(name="f", arguments="{}", id="c2"), TextPart(text="b")),
        ),
    )
    assert messages[0] == {"role": "system", "content": "s"}
    assert messages[4] == {"role": "user", "content": [{"type": "text", "text": "aside"}]}
    assert notes == [
        ("dropped", "ImagePart cannot appear in this Chat message role"),
        ("approximated", "TextPart of a tool message sent as user content"),
        ("approximated", "text between tool calls moved before all of them"),
    ]
