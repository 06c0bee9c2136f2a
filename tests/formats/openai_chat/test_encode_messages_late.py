"""Chat request encoder: a same-format user turn holding results and text, and notes on the parts
of an assistant turn merged from three (mutation survivors after the note-path fix, issue 22)."""

from __future__ import annotations

from toolwire.formats import openai_chat as chat
from toolwire.ir import ImagePart, Message, TextPart, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request


def test_a_chat_user_turn_with_a_result_and_text_becomes_a_tool_message_then_a_user_message() -> None:
    req = Request(
        origin="openai-chat",
        messages=(
            Message(
                role="user",
                parts=(
                    ToolResult(call_id="call_1", content=(TextPart(text="ok"),)),
                    TextPart(text="and more"),
                ),
            ),
        ),
    )
    notes = Notes("warn")
    assert chat.encode_request(req, notes)["messages"] == [
        {"role": "tool", "tool_call_id": "call_1", "content": [{"type": "text", "text": "ok"}]},
        {"role": "user", "content": [{"type": "text", "text": "and more"}]},
    ]
    assert notes.items == []


def test_notes_on_parts_of_three_merged_assistant_turns_name_each_turns_own_part() -> None:
    req = Request(
        origin="anthropic",
        messages=(
            Message(role="user", parts=(TextPart(text="q"),)),
            Message(role="assistant", parts=(ImagePart(url="https://x/0.png"), TextPart(text="a"))),
            Message(role="assistant", parts=(TextPart(text="b"),)),
            Message(role="assistant", parts=(ImagePart(url="https://x/a.png"),)),
        ),
    )
    notes = Notes("warn")
    messages = chat.encode_request(req, notes)["messages"]
    assert messages[1]["role"] == "assistant" and len(messages) == 2
    assert [(n.path, n.kind) for n in notes.items] == [
        ("$.messages[1].parts[0]", "dropped"),
        ("$.messages[3].parts[0]", "dropped"),
    ]
