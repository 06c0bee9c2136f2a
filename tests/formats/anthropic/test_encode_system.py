"""Anthropic request encoding of system prompts and message-level fields (issue 22): nothing a
request carried is lost without a note."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from toolwire.formats import anthropic
from toolwire.ir.content import ImagePart, Message, TextPart, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import translate_request

CACHE = {"type": "ephemeral"}
BASE = {"model": "claude", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}


def same(payload: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    notes = Notes()
    out = anthropic.encode_request(anthropic.decode_request(payload, notes), notes)
    return out, [(n.path, n.kind) for n in notes]


def encode(req: Request) -> tuple[dict[str, Any], list[tuple[str, str, str]]]:
    notes = Notes()
    out = anthropic.encode_request(req, notes)
    return out, [(n.path, n.kind, n.message) for n in notes]


def with_system(system: Message) -> Request:
    req = anthropic.decode_request({**BASE, "system": "sys"}, Notes())
    return msgspec.structs.replace(req, messages=(system, *req.messages[1:]))


def notes_of(payload: dict[str, Any], source: str) -> list[tuple[str, str]]:
    return [(n.path, n.kind) for n in translate_request(payload, source=source, target="anthropic").notes]


# ---------------------------------------------------------------- same format


@pytest.mark.parametrize(
    "system",
    [
        "be brief",
        [{"type": "text", "text": "be brief"}],
        [{"type": "text", "text": "be brief", "cache_control": CACHE}],
        [{"type": "text", "text": "a"}, {"type": "text", "text": "b", "cache_control": CACHE}],
        [{"type": "text", "text": "a"}, {"type": "future_block", "x": 1}, {"type": "text", "text": "b"}],
    ],
)
def test_a_system_prompt_round_trips_in_its_own_form(system: Any) -> None:
    out, notes = same({**BASE, "system": system})
    assert out["system"] == system
    assert notes == []


def test_cache_control_added_to_a_string_system_prompt_forces_the_block_form() -> None:
    req = anthropic.decode_request({**BASE, "system": "sys"}, Notes())
    system = req.messages[0]
    text = msgspec.structs.replace(system.parts[0], extra={"cache_control": CACHE})
    out, notes = encode(with_system(msgspec.structs.replace(system, parts=(text,))))
    assert out["system"] == [{"type": "text", "text": "sys", "cache_control": CACHE}]
    assert notes == []


def test_a_field_on_the_system_message_itself_is_noted_not_silently_lost() -> None:
    system = Message(
        role="system", parts=(TextPart(text="sys"),), extra={"~system": "string", "cache_control": CACHE}
    )
    out, notes = encode(with_system(system))
    assert out["system"] == [{"type": "text", "text": "sys"}]
    assert notes == [("$.messages[0].cache_control", "dropped", "field 'cache_control' of a system message")]


def test_a_string_system_prompt_with_two_parts_becomes_blocks() -> None:
    system = Message(
        role="system", parts=(TextPart(text="a"), TextPart(text="b")), extra={"~system": "string"}
    )
    out, _ = encode(with_system(system))
    assert out["system"] == [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]


def test_an_image_before_the_text_of_a_system_prompt_is_noted_and_the_text_kept() -> None:
    image = ImagePart(data="iVBORw0KGgo=", media_type="image/png")
    system = Message(role="system", parts=(image, TextPart(text="rules"), TextPart(text="more")))
    out, notes = encode(with_system(system))
    assert out["system"] == [{"type": "text", "text": "rules"}, {"type": "text", "text": "more"}]
    assert notes == [("$.messages[0].parts[0]", "dropped", "ImagePart in a system message")]


def test_an_inline_system_message_stays_in_place() -> None:
    payload = {**BASE, "messages": [{"role": "user", "content": "a"}, {"role": "system", "content": "s"}]}
    out, notes = same(payload)
    assert out["messages"] == payload["messages"] and "system" not in out
    assert notes == []


def test_message_fields_round_trip_in_the_same_format() -> None:
    payload = {**BASE, "messages": [{"role": "user", "content": "hi", "x_custom": 1}]}
    out, notes = same(payload)
    assert out["messages"] == payload["messages"] and notes == []


# ---------------------------------------------------------------- other formats


def test_an_image_before_the_text_of_a_chat_system_message_keeps_the_text() -> None:
    image = {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
    chat = {
        "model": "m",
        "messages": [
            {
                "role": "system",
                "content": [image, {"type": "text", "text": "be nice"}, {"type": "text", "text": "!"}],
            },
            {"role": "user", "content": "hi"},
        ],
    }
    out = translate_request(chat, source="openai-chat", target="anthropic")
    assert out.payload["system"] == [{"type": "text", "text": "be nice"}, {"type": "text", "text": "!"}]
    assert [n.kind for n in out.notes if "ImagePart in a system message" in n.message] == ["dropped"]


def test_a_single_plain_system_text_from_another_format_is_sent_as_a_string() -> None:
    chat = {"model": "m", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}]}
    assert translate_request(chat, source="openai-chat", target="anthropic").payload["system"] == "s"


def test_system_and_developer_messages_are_hoisted_in_order_with_a_note_when_mid_conversation() -> None:
    chat = {
        "model": "m",
        "messages": [
            {"role": "developer", "content": "d"},
            {"role": "user", "content": "hi"},
            {"role": "system", "content": "s"},
        ],
    }
    out = translate_request(chat, source="openai-chat", target="anthropic")
    assert out.payload["system"] == [{"type": "text", "text": "d"}, {"type": "text", "text": "s"}]
    assert out.payload["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert ("$.messages[2]", "approximated") in [(n.path, n.kind) for n in out.notes]
    assert ("$.messages[0]", "approximated") not in [(n.path, n.kind) for n in out.notes]


@pytest.mark.parametrize("role", ["system", "user", "assistant"])
def test_message_level_fields_dropped_across_formats_are_noted(role: str) -> None:
    chat = {
        "model": "m",
        "messages": [{"role": role, "content": "x", "x_field": 1}, {"role": "user", "content": "hi"}],
    }
    assert ("$.messages[0].x_field", "dropped") in notes_of(chat, "openai-chat")


def test_a_participant_name_dropped_across_formats_is_noted() -> None:
    chat = {"model": "m", "messages": [{"role": "user", "content": "hi", "name": "bob"}]}
    assert ("$.messages[0].name", "dropped") in notes_of(chat, "openai-chat")


def test_a_null_message_field_is_not_reported_as_a_loss() -> None:
    chat = {"model": "m", "messages": [{"role": "user", "content": "hi", "x_field": None}]}
    assert [p for p, _ in notes_of(chat, "openai-chat") if "x_field" in p] == []


def test_a_system_message_added_mid_conversation_joins_a_string_system_prompt() -> None:
    req = anthropic.decode_request({**BASE, "system": "first"}, Notes())
    later = Message(role="system", parts=(TextPart(text="second"),))
    out, notes = encode(msgspec.structs.replace(req, messages=(*req.messages, later)))
    assert out["system"] == [{"type": "text", "text": "first"}, {"type": "text", "text": "second"}]
    assert out["messages"] == BASE["messages"]
    assert [(path, kind) for path, kind, _ in notes] == [("$.messages[2]", "approximated")]


# ---------------------------------------------------------------- turns


def test_tool_results_lead_every_user_turn_they_join() -> None:
    """Built as IR (a translation would refuse the second turn's order before encoding)."""
    messages = (
        Message(role="user", parts=(TextPart(text="go"),)),
        Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="a"),)),
        Message(role="tool", parts=(ToolResult(call_id="a", content=(TextPart(text="ra"),)),)),
        Message(role="user", parts=(TextPart(text="x"),)),
        Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="b"),)),
        Message(
            role="user", parts=(TextPart(text="y"), ToolResult(call_id="b", content=(TextPart(text="rb"),)))
        ),
    )
    out, notes = encode(Request(model="m", messages=messages, origin="openai-chat"))
    turns = [
        (m["role"], [b.get("text") or b.get("tool_use_id") or b["id"] for b in m["content"]])
        for m in out["messages"]
    ]
    assert turns == [
        ("user", ["go"]),
        ("assistant", ["a"]),
        ("user", ["a", "x"]),
        ("assistant", ["b"]),
        ("user", ["b", "y"]),  # moved before the text that came first
    ]
    moved = [(path, kind) for path, kind, message in notes if message.startswith("tool result moved before")]
    assert moved == [("$.messages[5].parts[1]", "approximated")]
