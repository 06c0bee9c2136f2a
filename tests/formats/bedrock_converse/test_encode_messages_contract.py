"""Bedrock request encoding of messages (issue 22): how another format's conversation becomes
Bedrock's ``system`` and alternating ``messages`` (hoisted, merged, reordered, refused), the note
each change gets, Bedrock's own requests back byte-exact, and the output valid for Bedrock."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError
from toolwire.formats import bedrock_converse as bedrock
from toolwire.ir.content import ImagePart, Message, Part, TextPart, ToolCall, ToolResult
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.translate import translate_request
from toolwire.validate import validate

Noted = list[tuple[str, str, bool]]


def encode(*messages: Message, origin: str = "openai-chat") -> tuple[dict[str, Any], Noted]:
    """Encode IR messages decoded from another format; the body (checked valid) and the notes."""
    notes = Notes()
    body = bedrock.encode_request(Request(messages=messages, model="m", origin=origin), notes)  # type: ignore[arg-type]
    assert validate(body, format="bedrock-converse") == []
    return body, [(n.path, n.kind, n.loss) for n in notes]


def msg(role: str, *parts: Part, **fields: Any) -> Message:
    return Message(role=role, parts=parts, **fields)  # type: ignore[arg-type]


def text(value: str) -> TextPart:
    return TextPart(text=value)


def from_chat(messages: list[dict[str, Any]]) -> tuple[dict[str, Any], Noted]:
    out = translate_request(
        {"model": "m", "messages": messages}, source="openai-chat", target="bedrock-converse"
    )
    assert validate(out.payload, format="bedrock-converse") == []
    return out.payload, [(n.path, n.kind, n.loss) for n in out.notes]


# ---------------------------------------------------------------- system


def test_system_and_developer_messages_become_the_system_list_in_order() -> None:
    body, notes = from_chat(
        [
            {"role": "system", "content": "A"},
            {"role": "developer", "content": "B"},
            {"role": "user", "content": "hi"},
        ]
    )
    assert body == {
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "system": [{"text": "A"}, {"text": "B"}],
    }
    assert notes == []


@pytest.mark.parametrize("role", ["system", "developer"])
def test_an_instruction_mid_conversation_moves_to_system_noted(role: str) -> None:
    body, notes = from_chat(
        [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello"},
            {"role": role, "content": "Be brief."},
            {"role": "user", "content": "more"},
        ]
    )
    assert body["system"] == [{"text": "Be brief."}]
    assert body["messages"] == [
        {"role": "user", "content": [{"text": "hi"}]},
        {"role": "assistant", "content": [{"text": "hello"}]},
        {"role": "user", "content": [{"text": "more"}]},
    ]
    assert notes == [("$.messages[2]", "approximated", False)]


def test_empty_system_text_is_left_out() -> None:
    body, notes = encode(msg("system", text("")), msg("user", text("hi")))
    assert "system" not in body and notes == []
    body, _ = encode(msg("system", text(""), text("A")), msg("user", text("hi")))
    assert body["system"] == [{"text": "A"}]


def test_a_system_part_that_is_not_text_is_dropped_at_its_path() -> None:
    image = ImagePart(data="iVBORw0KGgo", media_type="image/png")
    body, notes = encode(msg("system", text("A"), image, text("B")), msg("user", text("hi")))
    assert body["system"] == [{"text": "A"}, {"text": "B"}]
    assert notes == [("$.messages[0].parts[1]", "dropped", True)]


def test_a_system_message_member_of_another_format_is_dropped_and_noted() -> None:
    body, notes = encode(msg("system", text("A"), extra={"cache": 1}), msg("user", text("hi")))
    assert body["system"] == [{"text": "A"}]
    assert notes == [("$.messages[0].cache", "dropped", True)]


def test_bedrock_system_blocks_come_back_as_they_were_empty_text_included() -> None:
    payload = {
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "system": [{"text": ""}, {"cachePoint": {"type": "default"}}, {"text": "A"}],
    }
    notes = Notes()
    assert bedrock.encode_request(bedrock.decode_request(payload, notes, model="m"), notes) == payload
    assert notes.items == []


# ---------------------------------------------------------------- names and members


@pytest.mark.parametrize("role", ["system", "user", "assistant"])
def test_a_participant_name_is_dropped_and_noted_on_every_role(role: str) -> None:
    messages = [{"role": role, "content": "x", "name": "bob"}, {"role": "user", "content": "go on"}]
    _, notes = from_chat(messages)
    assert notes == [("$.messages[0].name", "dropped", True)]


def test_a_message_member_of_another_format_is_dropped_and_noted() -> None:
    body, notes = encode(msg("user", text("hi"), extra={"cache": 1, "unset": None}))
    assert body["messages"] == [{"role": "user", "content": [{"text": "hi"}]}]
    assert notes == [("$.messages[0].cache", "dropped", True)]


def test_a_bedrock_message_member_comes_back_to_bedrock() -> None:
    payload = {"messages": [{"role": "user", "content": [{"text": "hi"}], "future": {"a": 1}}]}
    notes = Notes()
    assert bedrock.encode_request(bedrock.decode_request(payload, notes, model="m"), notes) == payload
    assert notes.items == []


# ---------------------------------------------------------------- turns


def test_consecutive_messages_of_one_role_are_merged() -> None:
    body, notes = encode(
        msg("user", text("a")),
        msg("user", text("b")),
        msg("assistant", text("c")),
        msg("assistant", text("d")),
        msg("user", text("e")),
    )
    assert body["messages"] == [
        {"role": "user", "content": [{"text": "a"}, {"text": "b"}]},
        {"role": "assistant", "content": [{"text": "c"}, {"text": "d"}]},
        {"role": "user", "content": [{"text": "e"}]},
    ]
    assert notes == []


def test_a_message_left_without_content_is_omitted_noted_and_its_neighbours_merged() -> None:
    body, notes = encode(msg("user", text("a")), msg("assistant", text("")), msg("user", text("b")))
    assert body["messages"] == [{"role": "user", "content": [{"text": "a"}, {"text": "b"}]}]
    assert notes == [("$.messages[1]", "dropped", False)]


def test_a_message_without_parts_is_omitted_silently() -> None:
    body, notes = encode(msg("user", text("a")), msg("assistant"), msg("user", text("b")))
    assert body["messages"] == [{"role": "user", "content": [{"text": "a"}, {"text": "b"}]}]
    assert notes == []


def test_tool_messages_join_the_user_turn_with_results_first() -> None:
    call = ToolCall(name="f", id="c1", arguments="{}")
    result = ToolResult(call_id="c1", content=(text("ok"),))
    body, _ = encode(
        msg("user", text("q")),
        msg("assistant", text("calling"), call),
        msg("tool", result),
        msg("user", text("also this")),
    )
    assert body["messages"][1:] == [
        {
            "role": "assistant",
            "content": [{"text": "calling"}, {"toolUse": {"toolUseId": "c1", "name": "f", "input": {}}}],
        },
        {
            "role": "user",
            "content": [
                {"toolResult": {"toolUseId": "c1", "content": [{"text": "ok"}]}},
                {"text": "also this"},
            ],
        },
    ]


def test_a_user_message_with_text_before_its_results_is_reordered_results_first() -> None:
    calls = (ToolCall(name="f", id="c1"), ToolCall(name="g", id="c2"))
    body, _ = encode(
        msg("user", text("q")),
        msg("assistant", *calls),
        msg("user", text("x"), ToolResult(call_id="c1"), text("y"), ToolResult(call_id="c2")),
    )
    assert body["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": "c1", "content": []}},
        {"toolResult": {"toolUseId": "c2", "content": []}},
        {"text": "x"},
        {"text": "y"},
    ]


def test_a_conversation_that_starts_with_the_assistant_is_sent_as_it_is() -> None:
    body, _ = encode(msg("assistant", text("Hello!")), msg("user", text("hi")))
    assert [m["role"] for m in body["messages"]] == ["assistant", "user"]


@pytest.mark.parametrize(
    "messages",
    [
        (msg("system", text("A")),),
        (msg("user", text("")), msg("developer", text("B"))),
        (),
    ],
    ids=["system-only", "empty-user", "none"],
)
def test_a_conversation_without_a_turn_is_refused_at_messages(messages: tuple[Message, ...]) -> None:
    with pytest.raises(ConversionError) as info:
        bedrock.encode_request(Request(messages=messages, model="m", origin="openai-chat"), Notes())
    assert info.value.path == "$.messages"


# ---------------------------------------------------------------- tool blocks need toolConfig


def test_a_history_that_only_calls_a_tool_gets_stand_in_tools() -> None:
    body, notes = encode(
        msg("user", text("q")), msg("assistant", ToolCall(name="look_up", id="c1", arguments="{}"))
    )
    assert body["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "look_up", "inputSchema": {"json": {"type": "object"}}}}]
    }
    assert notes == [("$.tools", "synthesized", True)]


def test_a_history_without_tool_blocks_gets_no_tool_config() -> None:
    body, notes = encode(msg("user", text("q")), msg("assistant", text("a")), msg("user", text("b")))
    assert "toolConfig" not in body and notes == []


@pytest.mark.parametrize("target", ["openai-chat", "anthropic", "gemini", "openai-responses"])
def test_a_plain_bedrock_conversation_translates_without_a_note(target: str) -> None:
    payload = {
        "system": [{"text": "Be brief."}],
        "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": "assistant", "content": [{"text": "hello"}]},
            {"role": "user", "content": [{"text": "bye"}]},
        ],
        "inferenceConfig": {"maxTokens": 100},
    }
    out = translate_request(payload, source="bedrock-converse", target=target, model="m", policy="strict")
    assert validate(out.payload, format=target) == []  # type: ignore[arg-type]
    assert [n for n in out.notes if n.path.startswith("$.messages")] == []
