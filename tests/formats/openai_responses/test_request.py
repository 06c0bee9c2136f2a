"""Responses requests: decoding into the IR, and encoding IR that came from other formats."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError
from toolwire.formats import openai_responses as resp
from toolwire.ir import (
    AudioPart,
    FilePart,
    ImagePart,
    Message,
    Notes,
    ReasoningConfig,
    ReasoningPart,
    Request,
    ResponseFormat,
    TextPart,
    Tool,
    ToolCall,
    ToolChoice,
    ToolResult,
)

CONVERSATION: dict[str, Any] = {
    "model": "gpt-5",
    "instructions": "Be brief.",
    "input": [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "look"},
                {"type": "input_image", "image_url": "https://example.com/a.png", "detail": "high"},
                {"type": "input_file", "file_data": "data:application/pdf;base64,QUJD", "filename": "a.pdf"},
            ],
        },
        {
            "type": "reasoning",
            "id": "rs_1",
            "summary": [{"type": "summary_text", "text": "hm"}],
            "encrypted_content": "E",
        },
        {
            "type": "message",
            "id": "msg_1",
            "status": "completed",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "Let me check.", "annotations": []}],
        },
        {"type": "function_call", "id": "fc_1", "call_id": "c1", "name": "w", "arguments": '{"c":"P"}'},
        {"type": "function_call", "id": "fc_2", "call_id": "c2", "name": "w", "arguments": '{"c":"R"}'},
        {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
        {
            "type": "function_call_output",
            "call_id": "c2",
            "output": [
                {"type": "input_text", "text": "rain"},
                {"type": "input_image", "image_url": "data:image/png;base64,AAA"},
            ],
        },
        {"type": "item_reference", "id": "msg_old"},
        {"role": "developer", "content": "answer in French"},
        {"type": "custom_tool_call", "call_id": "c3", "name": "patch", "input": "*** Begin"},
        {"type": "custom_tool_call_output", "call_id": "c3", "output": "ok"},
        {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search"}},
    ],
    "text": {
        "format": {"type": "json_schema", "name": "out", "schema": {"type": "object"}},
        "verbosity": "low",
    },
    "reasoning": {"effort": "low", "summary": "auto"},
    "max_output_tokens": 500,
    "store": False,
    "include": ["reasoning.encrypted_content"],
}


def test_conversation_decodes_into_grouped_messages() -> None:
    notes = Notes("strict")
    req = resp.decode_request(CONVERSATION, notes)
    shape = [(m.role, [type(p).__name__ for p in m.parts]) for m in req.messages]
    assert shape == [
        ("system", ["TextPart"]),
        ("user", ["TextPart", "ImagePart", "FilePart"]),
        ("assistant", ["ReasoningPart", "TextPart", "ToolCall", "ToolCall"]),
        ("tool", ["ToolResult", "ToolResult"]),
        ("user", []),  # the item_reference, kept verbatim for this format
        ("developer", ["TextPart"]),
        ("assistant", ["ToolCall"]),
        ("tool", ["ToolResult"]),
        ("assistant", ["ToolCall"]),
    ]
    assistant = req.messages[2]
    assert assistant.id == "msg_1"
    reasoning, _, call, _ = assistant.parts
    assert reasoning == ReasoningPart(
        summary=("hm",), encrypted="E", id="rs_1", origin="openai-responses", extra=reasoning.extra
    )
    assert isinstance(call, ToolCall)
    assert (call.id, call.item_id, call.arguments) == ("c1", "fc_1", '{"c":"P"}')
    file_part = req.messages[1].parts[2]
    assert isinstance(file_part, FilePart)
    assert (file_part.media_type, file_part.data, file_part.filename) == ("application/pdf", "QUJD", "a.pdf")
    results = req.messages[3].parts
    assert isinstance(results[1], ToolResult)
    assert [type(p).__name__ for p in results[1].content] == ["TextPart", "ImagePart"]
    custom = req.messages[6].parts[0]
    assert isinstance(custom, ToolCall) and (custom.kind, custom.arguments) == ("custom", "*** Begin")
    builtin = req.messages[8].parts[0]
    assert isinstance(builtin, ToolCall) and (builtin.kind, builtin.name) == ("builtin", "web_search_call")
    assert req.response_format == ResponseFormat(type="json_schema", name="out", schema={"type": "object"})
    assert req.reasoning == ReasoningConfig(effort="low", summary="auto")
    assert req.max_tokens == 500
    assert req.extra == {
        "text": {"verbosity": "low"},
        "store": False,
        "include": ["reasoning.encrypted_content"],
    }
    assert resp.encode_request(req, notes) == CONVERSATION
    assert not notes.items


def test_string_input_and_typed_messages_round_trip() -> None:
    payloads: list[dict[str, Any]] = [
        {"model": "m", "input": "hi"},
        {"model": "m", "input": [{"type": "message", "role": "user", "content": "hi"}]},
        {"model": "m", "input": [{"role": "assistant", "content": ""}, {"role": "user", "content": []}]},
        {"model": "m", "instructions": None, "input": []},
        {"model": "m", "previous_response_id": "resp_1"},
    ]
    for payload in payloads:
        notes = Notes("strict")
        assert resp.encode_request(resp.decode_request(payload, notes), notes) == payload


def test_string_input_is_a_user_message() -> None:
    req = resp.decode_request({"model": "m", "input": "hi"}, Notes())
    assert req.messages == (Message(role="user", parts=(TextPart(text="hi"),), extra={"~input": True}),)


def _kinds(notes: Notes) -> list[tuple[str, str]]:
    return [(n.path, n.kind) for n in notes]


def test_cross_format_request_with_parallel_calls_images_and_foreign_reasoning() -> None:
    req = Request(
        origin="anthropic",
        model="m",
        max_tokens=100,
        stop=("END",),
        reasoning=ReasoningConfig(enabled=True, budget_tokens=4000),
        messages=(
            Message(role="system", parts=(TextPart(text="sys"),)),
            Message(role="user", parts=(TextPart(text="weather?"),)),
            Message(
                role="assistant",
                parts=(
                    ReasoningPart(text="hmm", signature="SIG", origin="anthropic"),
                    TextPart(text="Checking."),
                    ToolCall(id="t1", name="w", arguments='{"c":"P"}'),
                    ToolCall(id="t2", name="w", arguments='{"c":"R"}'),
                ),
            ),
            Message(
                role="user",
                parts=(
                    ToolResult(call_id="t1", content=(TextPart(text="sunny"),)),
                    ToolResult(
                        call_id="t2",
                        content=(TextPart(text="rain"), ImagePart(data="AAA", media_type="image/png")),
                        is_error=True,
                    ),
                    TextPart(text="thanks"),
                ),
            ),
            Message(role="system", parts=(TextPart(text="answer in French"),)),
        ),
        tools=(Tool(name="w", parameters={"type": "object"}),),
        tool_choice=ToolChoice(mode="required"),
        parallel_tool_calls=True,
    )
    notes = Notes()
    assert resp.encode_request(req, notes) == {
        "model": "m",
        "instructions": "sys",
        "input": [
            {"role": "user", "content": "weather?"},
            {"role": "assistant", "content": "Checking."},
            {"type": "function_call", "call_id": "t1", "name": "w", "arguments": '{"c":"P"}'},
            {"type": "function_call", "call_id": "t2", "name": "w", "arguments": '{"c":"R"}'},
            {"type": "function_call_output", "call_id": "t1", "output": "sunny"},
            {
                "type": "function_call_output",
                "call_id": "t2",
                "output": [
                    {"type": "input_text", "text": "rain"},
                    {"type": "input_image", "image_url": "data:image/png;base64,AAA", "detail": "auto"},
                ],
            },
            {"role": "user", "content": "thanks"},
            {"role": "system", "content": "answer in French"},
        ],
        "tools": [{"type": "function", "name": "w", "parameters": {"type": "object"}, "strict": False}],
        "tool_choice": "required",
        "parallel_tool_calls": True,
        "max_output_tokens": 100,
        "reasoning": {"effort": "medium"},
    }
    assert _kinds(notes) == [
        ("$.messages[2].parts[0]", "dropped"),
        ("$.messages[3].parts[1]", "dropped"),
        ("$.tools[0].strict", "synthesized"),
        ("$.stop", "dropped"),
        ("$.reasoning.effort", "approximated"),
    ]
    with pytest.raises(ConversionError) as info:
        resp.encode_request(req, Notes("strict"))
    assert info.value.path == "$.messages[2].parts[0]"


def test_missing_call_ids_are_synthesized_and_paired_by_name() -> None:
    req = Request(
        origin="gemini",
        model="m",
        messages=(
            Message(role="user", parts=(TextPart(text="go"),)),
            Message(role="assistant", parts=(ToolCall(name="a"), ToolCall(name="b", arguments="{}"))),
            Message(
                role="user", parts=(ToolResult(call_id=None, name="b"), ToolResult(call_id=None, name="a"))
            ),
        ),
    )
    notes = Notes()
    items = resp.encode_request(req, notes)["input"]
    assert [(i.get("type"), i.get("call_id")) for i in items] == [
        (None, None),
        ("function_call", "call_0"),
        ("function_call", "call_1"),
        ("function_call_output", "call_1"),
        ("function_call_output", "call_0"),
    ]
    assert items[3]["output"] == "" and items[1]["arguments"] == ""
    assert [n.kind for n in notes] == ["synthesized"] * 4


def test_foreign_reasoning_of_this_origin_is_replayed_and_others_dropped() -> None:
    own = ReasoningPart(id="rs_9", encrypted="ENC", summary=("s",), origin="openai-responses")
    foreign = ReasoningPart(text="t", signature="sig", origin="anthropic")
    req = Request(origin="openai-chat", messages=(Message(role="assistant", parts=(own, foreign)),))
    notes = Notes()
    assert resp.encode_request(req, notes)["input"] == [
        {
            "type": "reasoning",
            "id": "rs_9",
            "summary": [{"type": "summary_text", "text": "s"}],
            "encrypted_content": "ENC",
        }
    ]
    assert _kinds(notes) == [("$.model", "dropped"), ("$.messages[0].parts[1]", "dropped")]


def test_unsupported_parts_are_dropped_or_approximated_with_notes() -> None:
    req = Request(
        origin="anthropic",
        model="m",
        messages=(
            Message(
                role="user",
                parts=(
                    AudioPart(data="UklG", format="wav"),
                    FilePart(text="plain document"),
                    FilePart(data="JVBE"),
                    TextPart(text="and?"),
                ),
            ),
            Message(role="tool", parts=(TextPart(text="stray"),)),
        ),
    )
    notes = Notes()
    assert resp.encode_request(req, notes)["input"] == [
        {
            "role": "user",
            "content": [
                {"type": "input_text", "text": "plain document"},
                {"type": "input_file", "file_data": "data:application/pdf;base64,JVBE"},
                {"type": "input_text", "text": "and?"},
            ],
        }
    ]
    assert _kinds(notes) == [
        ("$.messages[0].parts[0]", "dropped"),
        ("$.messages[0].parts[1]", "approximated"),
        ("$.messages[0].parts[2]", "approximated"),
        ("$.messages[1].parts[0]", "dropped"),
    ]


def test_generation_controls_from_another_format() -> None:
    req = Request(
        origin="gemini",
        model="m",
        messages=(Message(role="user", parts=(TextPart(text="x"),)),),
        temperature=0.2,
        top_p=0.9,
        top_k=40,
        stream=True,
        user="u1",
        metadata={"k": "v"},
        response_format=ResponseFormat(type="json_schema", schema={"type": "object"}),
        reasoning=ReasoningConfig(include_thoughts=True, budget_tokens=0, enabled=False),
    )
    notes = Notes()
    out = resp.encode_request(req, notes)
    assert out == {
        "model": "m",
        "input": [{"role": "user", "content": "x"}],
        "temperature": 0.2,
        "top_p": 0.9,
        "text": {"format": {"type": "json_schema", "name": "response", "schema": {"type": "object"}}},
        "reasoning": {"summary": "auto"},
        "stream": True,
        "user": "u1",
        "metadata": {"k": "v"},
    }
    assert _kinds(notes) == [
        ("$.top_k", "dropped"),
        ("$", "synthesized"),
        ("$.reasoning.summary", "approximated"),
        ("$.reasoning", "dropped"),
    ]


def test_chat_system_message_with_hints_only_becomes_instructions() -> None:
    req = Request(
        origin="openai-chat",
        model="m",
        messages=(
            Message(role="system", parts=(TextPart(text="sys"),), extra={"~content": "string"}),
            Message(role="developer", parts=(TextPart(text="dev"), TextPart(text="more"))),
        ),
    )
    assert resp.encode_request(req, Notes("strict")) == {
        "model": "m",
        "instructions": "sys",
        "input": [
            {
                "role": "developer",
                "content": [{"type": "input_text", "text": "dev"}, {"type": "input_text", "text": "more"}],
            }
        ],
    }


def test_unknown_item_and_part_types_are_kept_verbatim_for_this_format_only() -> None:
    future_part = {"type": "input_video", "video_url": "https://example.com/v.mp4"}
    payload = {
        "model": "m",
        "input": [
            {"role": "user", "content": [{"type": "input_text", "text": "see"}, future_part]},
            {"id": "msg_old"},
            {"type": "compaction", "id": "cmp_1", "encrypted_content": "E"},
            {"type": "shell_call_output", "call_id": "sh_1", "output": []},
        ],
    }
    notes = Notes("strict")
    req = resp.decode_request(payload, notes)
    user, reference, compaction, shell = req.messages
    assert user.parts == (TextPart(text="see"),)
    assert reference.parts == () and reference.extra == {"~item": {"id": "msg_old"}}
    assert isinstance(compaction.parts[0], ToolCall) and compaction.parts[0].kind == "builtin"
    assert isinstance(shell.parts[0], ToolResult) and shell.parts[0].call_id == "sh_1"
    assert resp.encode_request(req, notes) == payload

    other = Request(origin="openai-chat", model="m", messages=req.messages)
    cross = Notes()
    assert resp.encode_request(other, cross)["input"] == [{"role": "user", "content": "see"}]
    assert _kinds(cross) == [
        ("$.messages[0]", "dropped"),
        ("$.messages[1]", "dropped"),
        ("$.messages[2].parts[0]", "dropped"),
        ("$.messages[3].parts[0]", "dropped"),
    ]


def test_function_call_output_parts_and_names_round_trip() -> None:
    payload = {
        "model": "m",
        "input": [
            {"type": "function_call", "call_id": "c", "name": "f", "arguments": "", "namespace": "crm"},
            {
                "type": "function_call_output",
                "id": "fco_1",
                "call_id": "c",
                "name": "f",
                "status": "completed",
                "output": [
                    {"type": "input_text", "text": "t"},
                    {"type": "input_file", "file_id": "file_1", "filename": "r.pdf"},
                ],
            },
        ],
    }
    notes = Notes("strict")
    req = resp.decode_request(payload, notes)
    call = req.messages[0].parts[0]
    assert isinstance(call, ToolCall) and call.namespace == "crm" and call.arguments == ""
    result = req.messages[1].parts[0]
    assert isinstance(result, ToolResult) and result.name == "f"
    assert result.content == (TextPart(text="t"), FilePart(file_id="file_1", filename="r.pdf"))
    assert resp.encode_request(req, notes) == payload
