"""Chat ``messages`` built from the IR of other formats (issue 22): call ids made up and paired,
merged assistant turns, parts a Chat message cannot hold, and the notes that say so, each at
the IR path of the part it concerns."""

from __future__ import annotations

from typing import Any

from toolwire.formats import openai_chat
from toolwire.ir.content import (
    ImagePart,
    Message,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    ToolResult,
)
from toolwire.ir.notes import Notes
from toolwire.ir.request import Request
from toolwire.ir.response import Response
from toolwire.translate import translate_request, translate_response
from toolwire.validate import validate

Noted = list[tuple[str, str, str]]


def encode(*messages: Message, dialect: str | None = None) -> tuple[list[dict[str, Any]], Noted]:
    """Chat messages and notes (path, kind, message) for IR messages of another format."""
    notes = Notes()
    out = openai_chat.encode_request(Request(messages=messages, model="m"), notes, dialect=dialect)
    return out["messages"], [(n.path, n.kind, n.message) for n in notes]


def same(messages: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], Noted]:
    """A Chat request's messages decoded and encoded again (the same format)."""
    notes = Notes()
    payload = {"model": "m", "messages": messages}
    out = openai_chat.encode_request(openai_chat.decode_request(payload, notes), notes)
    return out["messages"], [(n.path, n.kind, n.message) for n in notes]


def user(text: str = "q") -> Message:
    return Message(role="user", parts=(TextPart(text=text),))


def valid(messages: list[dict[str, Any]]) -> None:
    assert validate({"model": "m", "messages": messages}, format="openai-chat") == []


# ---------------------------------------------------------------- call ids


def test_an_id_less_call_gets_a_synthesized_id_its_result_answers() -> None:
    messages, notes = encode(
        user(),
        Message(role="assistant", parts=(ToolCall(name="f", arguments="{}"),)),
        Message(role="tool", parts=(ToolResult(call_id=None, name="f", content=(TextPart(text="ok"),)),)),
    )
    call_id = messages[1]["tool_calls"][0]["id"]
    assert messages[2] == {"role": "tool", "tool_call_id": call_id, "content": "ok"}
    assert [(p, k) for p, k, _ in notes] == [
        ("$.messages[1].parts[0]", "synthesized"),
        ("$.messages[2].parts[0]", "synthesized"),
    ]
    assert call_id in notes[0][2] and "'f'" in notes[0][2]
    valid(messages)


def test_id_less_results_pair_with_id_less_calls_by_name_then_by_order() -> None:
    calls = Message(
        role="assistant",
        parts=(ToolCall(name="a", arguments="{}"), ToolCall(name="b", arguments="{}")),
    )
    ids = {}
    by_name = Message(
        role="tool",
        parts=(
            ToolResult(call_id=None, name="b", content=(TextPart(text="B"),)),
            ToolResult(call_id=None, name="a", content=(TextPart(text="A"),)),
        ),
    )
    messages, _ = encode(user(), calls, by_name)
    ids = {c["function"]["name"]: c["id"] for c in messages[1]["tool_calls"]}
    assert ids["a"] != ids["b"]
    assert [(m["tool_call_id"], m["content"]) for m in messages[2:]] == [(ids["b"], "B"), (ids["a"], "A")]
    by_order = Message(
        role="tool",
        parts=(
            ToolResult(call_id=None, content=(TextPart(text="1"),)),
            ToolResult(call_id=None, content=(TextPart(text="2"),)),
        ),
    )
    messages, _ = encode(user(), calls, by_order)
    assert [(m["tool_call_id"], m["content"]) for m in messages[2:]] == [(ids["a"], "1"), (ids["b"], "2")]
    valid(messages)


def test_a_custom_call_keeps_its_type() -> None:
    messages, notes = encode(
        user(),
        Message(role="assistant", parts=(ToolCall(name="sh", arguments="ls", id="c1", kind="custom"),)),
        Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="a.txt"),)),)),
    )
    assert messages[1]["tool_calls"] == [
        {"id": "c1", "type": "custom", "custom": {"name": "sh", "input": "ls"}}
    ]
    assert notes == []


def test_what_a_call_of_another_format_carries_and_chat_cannot_is_noted() -> None:
    call = ToolCall(
        name="f", arguments="{}", id="c1", thought_signature="sig", namespace="ns", item_id="fc_1"
    )
    messages, notes = encode(
        user(),
        Message(role="assistant", parts=(call,)),
        Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),)),)),
    )
    assert messages[1]["tool_calls"] == [
        {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    ]
    assert [(p, k) for p, k, _ in notes] == [("$.messages[1].parts[0]", "dropped")] * 3
    assert "thought signature" in notes[0][2] and "'ns'" in notes[1][2] and "'fc_1'" in notes[2][2]


def test_a_legacy_function_call_round_trips_in_its_own_spelling() -> None:
    chat = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": None, "function_call": {"name": "f", "arguments": "{}"}},
        {"role": "function", "name": "f", "content": "ok"},
    ]
    messages, notes = same(chat)
    assert messages == chat
    assert notes == []


# ---------------------------------------------------------------- merged assistant turns


def test_consecutive_assistant_messages_become_one_and_notes_keep_their_ir_paths() -> None:
    messages, notes = encode(
        user(),
        Message(role="assistant", parts=(TextPart(text="a"),)),
        Message(
            role="assistant", parts=(ReasoningPart(text="why"), ToolCall(name="f", arguments="{}", id="c1"))
        ),
        Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),)),)),
    )
    assert messages[:2] == [
        {"role": "user", "content": "q"},
        {
            "role": "assistant",
            "content": "a",
            "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}],
        },
    ]
    assert notes == [
        ("$.messages[2].parts[0]", "dropped", "reasoning: Chat messages have no reasoning field")
    ]
    valid(messages)


# ---------------------------------------------------------------- roles


def test_a_system_message_keeps_its_name_and_a_developer_message_its_role() -> None:
    messages, notes = encode(
        Message(role="system", parts=(TextPart(text="s"),), name="boss"),
        Message(role="developer", parts=(TextPart(text="d"),)),
        user(),
    )
    assert messages == [
        {"role": "system", "content": "s", "name": "boss"},
        {"role": "developer", "content": "d"},
        {"role": "user", "content": "q"},
    ]
    assert notes == []


def test_parts_beside_tool_results_in_a_user_message_follow_them() -> None:
    call = Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="c1"),))
    result = ToolResult(call_id="c1", content=(TextPart(text="ok"),))
    messages, notes = encode(
        user(),
        call,
        Message(role="user", parts=(result, ReasoningPart(text="hm"), TextPart(text="and?"))),
    )
    assert messages[2:] == [
        {"role": "tool", "tool_call_id": "c1", "content": "ok"},
        {"role": "user", "content": "and?"},
    ]
    assert notes == [
        ("$.messages[2].parts[1]", "dropped", "ReasoningPart cannot appear in this Chat message role")
    ]
    valid(messages)


def test_text_beside_a_tool_result_with_media_follows_the_moved_media() -> None:
    call = Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="c1"),))
    result = ToolResult(call_id="c1", content=(ImagePart(url="https://x.test/a.png"),))
    messages, notes = encode(user(), call, Message(role="user", parts=(result, TextPart(text="and?"))))
    assert messages[2:] == [
        {
            "role": "tool",
            "tool_call_id": "c1",
            "content": "(non-text content of this result follows in the next user message)",
        },
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "The content returned by tool call c1 follows:"},
                {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}},
                {"type": "text", "text": "and?"},
            ],
        },
    ]
    assert [(p, k) for p, k, _ in notes] == [("$.messages[2].parts[0]", "approximated")]
    valid(messages)


# ---------------------------------------------------------------- assistant content


def test_one_refusal_is_the_refusal_field_and_several_are_joined_noted() -> None:
    one, notes = encode(user(), Message(role="assistant", parts=(RefusalPart(text="no"),)))
    assert one[1] == {"role": "assistant", "content": None, "refusal": "no"}
    assert notes == []
    two, notes = encode(
        user(), Message(role="assistant", parts=(RefusalPart(text="no"), RefusalPart(text="never")))
    )
    assert two[1] == {"role": "assistant", "content": None, "refusal": "no\nnever"}
    assert notes == [("$.messages[1]", "approximated", "several refusals joined into one")]


def test_an_assistant_turn_of_text_and_calls_in_order_has_no_note() -> None:
    messages, notes = encode(
        user(),
        Message(
            role="assistant", parts=(TextPart(text="let me see"), ToolCall(name="f", arguments="{}", id="c1"))
        ),
        Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),)),)),
    )
    assert messages[1]["content"] == "let me see"
    assert notes == []


def test_reasoning_of_another_provider_is_dropped_noted() -> None:
    reasoning = ReasoningPart(
        text="why", origin="openai-chat", extra={"~field": "reasoning_content", "~dialect": "deepseek"}
    )
    messages, notes = encode(user(), Message(role="assistant", parts=(reasoning, TextPart(text="a"))))
    assert messages[1] == {"role": "assistant", "content": "a"}
    assert notes == [
        ("$.messages[1].parts[0]", "dropped", "reasoning: Chat messages have no reasoning field")
    ]
    messages, notes = encode(user(), Message(role="assistant", parts=(reasoning,)), user("again"))
    assert messages[1] == {"role": "assistant", "content": ""}
    assert [(p, k) for p, k, _ in notes] == [("$.messages[1].parts[0]", "dropped")]


def tool_loop(reasoning: ReasoningPart, dialect: str) -> tuple[list[dict[str, Any]], Noted]:
    return encode(
        user(),
        Message(role="assistant", parts=(reasoning, ToolCall(name="f", arguments="{}", id="c1"))),
        Message(role="tool", parts=(ToolResult(call_id="c1", content=(TextPart(text="ok"),)),)),
        dialect=dialect,
    )


def test_reasoning_goes_back_only_to_the_provider_that_wrote_it() -> None:
    deepseek = ReasoningPart(
        text="why", origin="openai-chat", extra={"~field": "reasoning_content", "~dialect": "deepseek"}
    )
    messages, notes = tool_loop(deepseek, "deepseek")
    assert messages[1]["reasoning_content"] == "why"
    assert notes == []
    messages, notes = tool_loop(deepseek, "openrouter")
    assert "reasoning_content" not in messages[1] and "reasoning" not in messages[1]
    assert notes == [
        ("$.messages[1].parts[0]", "dropped", "reasoning: Chat messages have no reasoning field")
    ]
    details = [{"type": "reasoning.encrypted", "data": "opaque"}]
    openrouter = ReasoningPart(
        text="why",
        origin="openai-chat",
        extra={"~field": "reasoning", "reasoning_details": details, "~dialect": "openrouter"},
    )
    messages, notes = tool_loop(openrouter, "openrouter")
    assert (messages[1]["reasoning"], messages[1]["reasoning_details"]) == ("why", details)
    assert notes == []


# ---------------------------------------------------------------- tool results


def test_a_refusal_or_error_in_a_tool_result_is_sent_as_text_noted() -> None:
    call = Message(role="assistant", parts=(ToolCall(name="f", arguments="{}", id="c1"),))
    result = ToolResult(call_id="c1", content=(RefusalPart(text="denied"),), is_error=True)
    messages, notes = encode(user(), call, Message(role="tool", parts=(result,)))
    assert messages[2] == {"role": "tool", "tool_call_id": "c1", "content": "denied"}
    assert [(p, k) for p, k, _ in notes] == [("$.messages[2].parts[0]", "approximated")] * 2
    assert "refusal" in notes[0][2] and "is_error" in notes[1][2]
    valid(messages)


# ---------------------------------------------------------------- a response message


def test_a_response_message_from_another_format_has_string_content_and_a_null_refusal() -> None:
    resp = Response(
        parts=(
            ReasoningPart(text="why", signature="s1"),
            TextPart(text="a"),
            TextPart(text="b"),
        ),
        model="m",
        id="r1",
    )
    notes = Notes()
    out = openai_chat.encode_response(resp, notes)
    assert out["choices"][0]["message"] == {"role": "assistant", "content": "ab", "refusal": None}
    assert [(n.path, n.kind) for n in notes if n.path.startswith("$.parts")] == [("$.parts[0]", "dropped")]


def test_a_dropped_part_of_a_translated_response_is_noted_where_the_source_had_it() -> None:
    anthropic = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [
            {"type": "thinking", "thinking": "why", "signature": "s1"},
            {"type": "text", "text": "a"},
        ],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    result = translate_response(anthropic, source="anthropic", target="openai-chat")
    assert result.payload["choices"][0]["message"]["content"] == "a"
    assert [(n.path, n.kind) for n in result.notes if n.loss] == [("$.content[0]", "dropped")]


def test_a_translated_request_with_a_developer_message_stays_valid() -> None:
    responses = {
        "model": "m",
        "input": [
            {"role": "developer", "content": "be brief"},
            {"role": "user", "content": "q"},
        ],
    }
    result = translate_request(responses, source="openai-responses", target="openai-chat")
    assert result.payload["messages"][0] == {"role": "developer", "content": "be brief"}
    valid(result.payload["messages"])


def test_an_id_less_result_of_hand_built_chat_ir_gets_a_made_up_id_noted() -> None:
    result = ToolResult(call_id=None, name="f", content=(TextPart(text="x"),))
    notes = Notes()
    req = Request(messages=(Message(role="tool", parts=(result,)),), model="m", origin="openai-chat")
    (message,) = openai_chat.encode_request(req, notes)["messages"]
    assert message["role"] == "tool" and message["tool_call_id"]
    assert [(n.path, n.kind) for n in notes] == [("$.messages[0].parts[0]", "synthesized")]
    assert repr(message["tool_call_id"]) in next(iter(notes)).message
