"""Encoding IR from other formats into Anthropic requests: exact wire output and notes."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from toolwire._callids import restore_call_id
from toolwire.errors import ConversionError
from toolwire.formats.anthropic import decode_request, decode_response, encode_request
from toolwire.ir import (
    AudioPart,
    FilePart,
    ImagePart,
    Message,
    Notes,
    ReasoningConfig,
    ReasoningPart,
    RefusalPart,
    Request,
    ResponseFormat,
    TextPart,
    Tool,
    ToolCall,
    ToolChoice,
    ToolResult,
)

_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}


def _encode(req: Request, policy: str = "warn") -> tuple[dict[str, Any], list[tuple[str, str]]]:
    notes = Notes(policy)  # type: ignore[arg-type]
    out = encode_request(req, notes)
    return out, [(n.path, n.kind) for n in notes]


def _chat(*messages: Message, **fields: Any) -> Request:
    fields.setdefault("max_tokens", 100)
    return Request(model="claude", messages=messages, origin="openai-chat", **fields)


def test_parallel_tool_calls_and_results_become_one_user_turn() -> None:
    req = _chat(
        Message(role="system", parts=(TextPart(text="Be brief."),)),
        Message(role="user", parts=(TextPart(text="Weather in Paris and Rome?"),)),
        Message(
            role="assistant",
            parts=(
                ToolCall(id="call_1", name="weather", arguments='{"city":"Paris"}'),
                ToolCall(id="call_2", name="weather", arguments='{"city":"Rome"}'),
            ),
        ),
        Message(
            role="tool",
            parts=(ToolResult(call_id="call_1", name="weather", content=(TextPart(text="20C"),)),),
        ),
        Message(
            role="tool",
            parts=(ToolResult(call_id="call_2", name="weather", content=(TextPart(text="25C"),)),),
        ),
        Message(role="user", parts=(TextPart(text="Which is warmer?"),)),
        tools=(Tool(name="weather", parameters=_SCHEMA),),
        parallel_tool_calls=True,
        tool_choice=ToolChoice(mode="auto"),
    )
    out, notes = _encode(req, "strict")
    assert out == {
        "model": "claude",
        "system": "Be brief.",
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "Weather in Paris and Rome?"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "tool_use", "id": "call_1", "name": "weather", "input": {"city": "Paris"}},
                    {"type": "tool_use", "id": "call_2", "name": "weather", "input": {"city": "Rome"}},
                ],
            },
            {
                "role": "user",
                "content": [
                    {"type": "tool_result", "tool_use_id": "call_1", "content": "20C"},
                    {"type": "tool_result", "tool_use_id": "call_2", "content": "25C"},
                    {"type": "text", "text": "Which is warmer?"},
                ],
            },
        ],
        "max_tokens": 100,
        "tools": [{"name": "weather", "input_schema": _SCHEMA}],
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": False},
    }
    assert notes == []


def test_max_tokens_is_synthesized() -> None:
    out, notes = _encode(Request(model="m", messages=(), origin="gemini"))
    assert out["max_tokens"] == 4096
    assert notes == [("$", "synthesized")]
    strict = Notes("strict")  # a required default is no loss: strict sends it, noted
    assert encode_request(Request(model="m", origin="gemini"), strict)["max_tokens"] == 4096
    (note,) = strict
    assert (note.target, note.loss) == ("$.max_tokens", False)


def test_parallel_false_without_choice() -> None:
    out, notes = _encode(_chat(parallel_tool_calls=False, tools=(Tool(name="f"),)), "strict")
    assert out["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    assert notes == [("$.tool_choice", "synthesized")]


def test_tool_result_with_image_keeps_the_image_block() -> None:
    png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"
    req = _chat(
        Message(role="assistant", parts=(ToolCall(id="c1", name="shot", arguments=""),)),
        Message(
            role="tool",
            parts=(
                ToolResult(
                    call_id="c1",
                    content=(TextPart(text="screenshot:"), ImagePart(url=f"data:image/png;base64,{png}")),
                    is_error=False,
                ),
            ),
        ),
    )
    out, notes = _encode(req, "strict")
    assert out["messages"] == [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "shot", "input": {}}]},
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "c1",
                    "content": [
                        {"type": "text", "text": "screenshot:"},
                        {
                            "type": "image",
                            "source": {"type": "base64", "media_type": "image/png", "data": png},
                        },
                    ],
                }
            ],
        },
    ]
    assert notes == []


def test_error_results_are_flagged_and_false_is_omitted() -> None:
    req = _chat(
        Message(role="assistant", parts=(ToolCall(id="a", name="f"), ToolCall(id="b", name="f"))),
        Message(
            role="tool", parts=(ToolResult(call_id="a", content=(TextPart(text="boom"),), is_error=True),)
        ),
        Message(role="tool", parts=(ToolResult(call_id="b", content=(), is_error=False),)),
    )
    out, _ = _encode(req, "strict")
    assert out["messages"][1]["content"] == [
        {"type": "tool_result", "tool_use_id": "a", "content": "boom", "is_error": True},
        {"type": "tool_result", "tool_use_id": "b"},
    ]


def test_reasoning_of_another_origin_is_dropped_anthropic_reasoning_kept() -> None:
    req = _chat(
        Message(role="user", parts=(TextPart(text="Q"),)),
        Message(
            role="assistant",
            parts=(
                ReasoningPart(summary=("thought",), encrypted="gAAA", id="rs_1", origin="openai-responses"),
                ReasoningPart(text="mine", signature="sig/+==", origin="anthropic"),
                ReasoningPart(redacted="red==", origin="anthropic"),
                TextPart(text="A"),
            ),
        ),
    )
    out, notes = _encode(req)
    assert out["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "mine", "signature": "sig/+=="},
        {"type": "redacted_thinking", "data": "red=="},
        {"type": "text", "text": "A"},
    ]
    assert notes == [("$.messages[1].parts[0]", "dropped")]


def test_mid_conversation_system_and_developer_are_hoisted() -> None:
    req = _chat(
        Message(role="developer", parts=(TextPart(text="Rule 1."),)),
        Message(role="user", parts=(TextPart(text="Hi"),)),
        Message(role="system", parts=(TextPart(text="Rule 2."),)),
        Message(role="user", parts=(TextPart(text="Again"),)),
    )
    out, notes = _encode(req)
    assert out["system"] == [{"type": "text", "text": "Rule 1."}, {"type": "text", "text": "Rule 2."}]
    assert out["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "Hi"}, {"type": "text", "text": "Again"}]}
    ]
    assert notes == [("$.messages[2]", "approximated")]


def test_anthropic_system_message_without_inline_hint_is_hoisted_too() -> None:
    req = Request(
        model="m",
        max_tokens=5,
        origin="anthropic",
        messages=(
            Message(role="user", parts=(TextPart(text="Hi"),), extra={"~content": "string"}),
            Message(role="system", parts=(TextPart(text="Late."),)),
            Message(role="system", parts=(TextPart(text="Inline."),), extra={"~inline": True}),
        ),
    )
    out, notes = _encode(req)
    assert out["system"] == [{"type": "text", "text": "Late."}]
    assert out["messages"] == [
        {"role": "user", "content": "Hi"},
        {"role": "system", "content": [{"type": "text", "text": "Inline."}]},
    ]
    assert notes == [("$.messages[1]", "approximated")]


def test_missing_call_ids_are_synthesized_and_paired_by_name() -> None:
    req = _chat(
        Message(
            role="assistant",
            parts=(ToolCall(name="a", arguments='{"x":1}'), ToolCall(name="b", arguments="{}")),
        ),
        Message(
            role="tool",
            parts=(
                ToolResult(call_id=None, name="b", content=(TextPart(text="B"),)),
                ToolResult(call_id=None, name="a", content=(TextPart(text="A"),)),
            ),
        ),
    )
    out, notes = _encode(req)
    calls = out["messages"][0]["content"]
    results = out["messages"][1]["content"]
    assert [c["id"] for c in calls] == ["toolu_0_0", "toolu_0_1"]
    assert [(r["tool_use_id"], r["content"]) for r in results] == [("toolu_0_1", "B"), ("toolu_0_0", "A")]
    assert [kind for _, kind in notes] == ["synthesized"] * 4


def test_invalid_call_ids_are_sanitized_consistently() -> None:
    req = _chat(
        Message(role="assistant", parts=(ToolCall(id="functions.get:0", name="get", arguments="{}"),)),
        Message(role="tool", parts=(ToolResult(call_id="functions.get:0", content=(TextPart(text="ok"),)),)),
    )
    out, notes = _encode(req, "strict")
    wire = out["messages"][0]["content"][0]["id"]
    # '.' and ':' escaped as their UTF-8 bytes, then a hash of the original: reversible, no merging
    assert re.fullmatch(r"functions-2eget-3a0--[0-9a-f]{16}", wire)
    assert out["messages"][1]["content"][0]["tool_use_id"] == wire
    assert restore_call_id(wire) == "functions.get:0"
    assert notes == [("$.messages[0].parts[0].id", "renamed")]


@pytest.mark.parametrize("arguments", ['{"a":', "[1, 2]", "42"])
def test_bad_arguments_become_empty_input_with_a_note(arguments: str) -> None:
    req = _chat(Message(role="assistant", parts=(ToolCall(id="c", name="f", arguments=arguments),)))
    out, notes = _encode(req)
    assert out["messages"][0]["content"][0]["input"] == {}
    assert notes == [("$.messages[0].parts[0].arguments", "approximated")]
    with pytest.raises(ConversionError) as err:
        encode_request(req, Notes("strict"))
    assert err.value.path == "$.messages[0].parts[0].arguments"


def test_custom_tool_call_input_is_wrapped() -> None:
    req = _chat(
        Message(
            role="assistant", parts=(ToolCall(id="c", name="patch", arguments="*** diff", kind="custom"),)
        )
    )
    out, notes = _encode(req)
    assert out["messages"][0]["content"][0]["input"] == {"input": "*** diff"}
    assert notes == [("$.messages[0].parts[0]", "approximated")]


def test_builtin_parts_of_another_format_are_dropped() -> None:
    req = _chat(
        Message(
            role="assistant",
            parts=(
                ToolCall(id="ws_1", name="web_search", kind="builtin", extra={"type": "web_search_call"}),
                TextPart(text="Found it."),
            ),
        )
    )
    out, notes = _encode(req)
    assert out["messages"] == [{"role": "assistant", "content": [{"type": "text", "text": "Found it."}]}]
    assert notes == [("$.messages[0].parts[0]", "dropped")]


def test_unsupported_parts_and_fields_are_noted() -> None:
    req = _chat(
        Message(
            role="user",
            name="alice",
            parts=(
                TextPart(text="hi", extra={"cache": 1}),
                AudioPart(data="UklGR", format="wav"),
                ImagePart(file_id="file-abc"),
                ImagePart(url="https://x/a.png", detail="high"),
                FilePart(data="aGVsbG8=", media_type="text/plain", filename="a.txt"),
                FilePart(data="UEsDB", media_type="application/zip"),
                TextPart(text=""),
            ),
        ),
        Message(role="assistant", parts=(RefusalPart(text="No."),)),
        extra={"seed": 7},
    )
    out, notes = _encode(req)
    assert out["messages"] == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "hi"},
                {"type": "image", "source": {"type": "url", "url": "https://x/a.png"}},
                {
                    "type": "document",
                    "source": {"type": "text", "media_type": "text/plain", "data": "hello"},
                    "title": "a.txt",
                },
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "No."}]},
    ]
    assert "seed" not in out
    assert notes == [
        ("$.messages[0].parts[0].cache", "dropped"),
        ("$.messages[0].parts[1]", "dropped"),
        ("$.messages[0].parts[2]", "dropped"),
        ("$.messages[0].parts[3].detail", "dropped"),
        ("$.messages[0].parts[5]", "dropped"),
        ("$.messages[0].name", "dropped"),
        ("$.messages[1].parts[0]", "approximated"),
        ("$.seed", "dropped"),
    ]


def test_images_and_pdfs_from_inline_data() -> None:
    req = _chat(
        Message(
            role="user",
            parts=(
                ImagePart(data="/9j/4AAQ"),
                ImagePart(data="AAAA"),
                FilePart(url="data:application/pdf;base64,JVBERi0x", filename="doc.pdf"),
                FilePart(data="JVBERi0x"),
            ),
        )
    )
    out, notes = _encode(req)
    assert out["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4AAQ"}},
        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"},
            "title": "doc.pdf",
        },
        {
            "type": "document",
            "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0x"},
        },
    ]
    assert notes == [("$.messages[0].parts[1]", "approximated")]


def test_empty_messages_are_skipped_and_neighbours_merged() -> None:
    req = _chat(
        Message(role="user", parts=(TextPart(text="a"),)),
        Message(role="assistant", parts=(TextPart(text=""),)),
        Message(role="user", parts=(TextPart(text="b"),)),
    )
    out, _ = _encode(req, "strict")
    assert out["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}
    ]


def test_tool_result_after_text_in_the_same_turn_moves_first() -> None:
    req = _chat(
        Message(role="assistant", parts=(ToolCall(id="c", name="f"),)),
        Message(
            role="user",
            parts=(TextPart(text="here:"), ToolResult(call_id="c", content=(TextPart(text="r"),))),
        ),
    )
    out, notes = _encode(req, "strict")
    assert out["messages"][1]["content"] == [
        {"type": "tool_result", "tool_use_id": "c", "content": "r"},
        {"type": "text", "text": "here:"},
    ]
    assert notes == [("$.messages[1].parts[1]", "approximated")]


# ---------------------------------------------------------------- generation controls


def test_effort_becomes_a_thinking_budget() -> None:
    req = Request(
        model="m",
        origin="openai-chat",
        reasoning=ReasoningConfig(effort="high"),
        temperature=0.2,
        top_k=5,
        top_p=0.97,
    )
    out, notes = _encode(req)
    assert out["thinking"] == {"type": "enabled", "budget_tokens": 16384}
    assert out["max_tokens"] == 4096 + 16384
    assert "temperature" not in out and "top_k" not in out
    assert out["top_p"] == 0.97
    assert notes == [
        ("$.reasoning.budget_tokens", "synthesized"),
        ("$", "synthesized"),
        ("$.temperature", "dropped"),
        ("$.top_k", "dropped"),
    ]


@pytest.mark.parametrize(
    ("reasoning", "max_tokens", "thinking", "kinds"),
    [
        (ReasoningConfig(budget_tokens=2000), 8000, {"type": "enabled", "budget_tokens": 2000}, []),
        (ReasoningConfig(budget_tokens=0), 8000, {"type": "disabled"}, []),
        (
            ReasoningConfig(budget_tokens=500),
            8000,
            {"type": "enabled", "budget_tokens": 1024},
            ["approximated"],
        ),
        (
            ReasoningConfig(budget_tokens=9000),
            8000,
            {"type": "enabled", "budget_tokens": 4000},
            ["approximated"],
        ),
        (ReasoningConfig(budget_tokens=9000), 1000, None, ["dropped"]),
        (ReasoningConfig(enabled=False), 8000, {"type": "disabled"}, []),
        (ReasoningConfig(effort="none"), 8000, {"type": "disabled"}, []),
        (
            ReasoningConfig(summary="auto", effort="low"),
            8000,
            {"type": "enabled", "budget_tokens": 2048},
            ["dropped", "synthesized"],
        ),
    ],
)
def test_reasoning_budgets(
    reasoning: ReasoningConfig, max_tokens: int, thinking: dict[str, Any] | None, kinds: list[str]
) -> None:
    out, notes = _encode(Request(model="m", origin="gemini", reasoning=reasoning, max_tokens=max_tokens))
    assert out.get("thinking") == thinking
    assert out["max_tokens"] == max_tokens
    assert [kind for _, kind in notes] == kinds


def test_structured_output() -> None:
    schema = {"type": "object", "properties": {}, "additionalProperties": False}
    req = _chat(response_format=ResponseFormat(type="json_schema", name="out", schema=schema, strict=True))
    out, notes = _encode(req, "strict")
    assert out["output_config"] == {"format": {"type": "json_schema", "schema": schema}}
    assert notes == [("$.response_format", "dropped")]  # the name, as information


def test_json_object_mode_is_dropped() -> None:
    out, notes = _encode(_chat(response_format=ResponseFormat(type="json_object")))
    assert "output_config" not in out
    assert notes == [("$.response_format", "dropped")]


def test_metadata_and_user() -> None:
    out, notes = _encode(_chat(user="u-9", metadata={"trace": "t"}, stop=("END",), stream=True))
    assert out["metadata"] == {"user_id": "u-9"}
    assert out["stop_sequences"] == ["END"]
    assert out["stream"] is True
    assert notes == [("$.metadata.trace", "dropped")]


def test_merged_assistant_turns_put_thinking_first() -> None:
    req = Request(
        model="m",
        max_tokens=10,
        messages=(
            Message(role="user", parts=(TextPart(text="q"),)),
            Message(role="assistant", parts=(TextPart(text="Let me think."),)),
            Message(
                role="assistant",
                parts=(
                    ReasoningPart(text="t", signature="s", origin="anthropic"),
                    ToolCall(id="c", name="f"),
                ),
            ),
        ),
    )
    out, notes = _encode(req, "strict")
    assert out["messages"][1]["content"] == [
        {"type": "thinking", "thinking": "t", "signature": "s"},
        {"type": "text", "text": "Let me think."},
        {"type": "tool_use", "id": "c", "name": "f", "input": {}},
    ]
    assert notes == [("$.messages[2].parts[0]", "approximated")]


def test_media_in_assistant_turns_is_dropped() -> None:
    req = _chat(
        Message(role="assistant", parts=(ImagePart(url="https://x/generated.png"), TextPart(text="Here.")))
    )
    out, notes = _encode(req)
    assert out["messages"] == [{"role": "assistant", "content": [{"type": "text", "text": "Here."}]}]
    assert notes == [("$.messages[0].parts[0]", "dropped")]


def test_same_format_history_extended_with_ir_turns() -> None:
    """A tool loop: an Anthropic request, the model's answer and a tool message appended in IR."""
    request = decode_request(
        {"model": "m", "max_tokens": 50, "messages": [{"role": "user", "content": "Weather?"}]}, Notes()
    )
    answer = decode_response(
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "m",
            "content": [
                {"type": "thinking", "thinking": "call it", "signature": "c2ln"},
                {"type": "tool_use", "id": "toolu_9", "name": "weather", "input": {"city": "Oslo"}},
            ],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 1, "output_tokens": 1},
        },
        Notes(),
    )
    history = (
        *request.messages,
        Message(role="assistant", parts=answer.parts),
        Message(role="tool", parts=(ToolResult(call_id="toolu_9", content=(TextPart(text="-3C"),)),)),
    )
    out, notes = _encode(msgspec.structs.replace(request, messages=history), "strict")
    assert out["messages"] == [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "call it", "signature": "c2ln"},
                {"type": "tool_use", "id": "toolu_9", "name": "weather", "input": {"city": "Oslo"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_9",
                    "content": [{"type": "text", "text": "-3C"}],
                }
            ],
        },
    ]
    assert notes == []
