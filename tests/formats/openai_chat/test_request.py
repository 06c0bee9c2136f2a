"""Chat request decoding/encoding on hand-made payloads: every message shape and field."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError, PayloadError, ToolwireError
from toolwire.formats import openai_chat as chat
from toolwire.ir import (
    AudioPart,
    FilePart,
    ImagePart,
    Notes,
    ReasoningPart,
    RefusalPart,
    TextPart,
    ToolCall,
    ToolResult,
)

PNG = "iVBORw0KGgo="
FULL: dict[str, Any] = {
    "model": "gpt-4.1",
    "messages": [
        {"role": "developer", "content": [{"type": "text", "text": "Be brief."}], "name": "ops"},
        {"role": "system", "content": "You are helpful."},
        {
            "role": "user",
            "name": "ann",
            "content": [
                {"type": "text", "text": "What is this?"},
                {"type": "image_url", "image_url": {"url": f"data:image/png;base64,{PNG}", "detail": "high"}},
                {"type": "image_url", "image_url": {"url": "https://example.com/a.jpg"}},
                {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": "wav"}},
                {
                    "type": "file",
                    "file": {"file_data": "data:application/pdf;base64,JVBERi0=", "filename": "a.pdf"},
                },
                {"type": "file", "file": {"file_id": "file-abc"}},
            ],
        },
        {
            "role": "assistant",
            "content": "",
            "refusal": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": ""}},
                {"id": "call_2", "type": "custom", "custom": {"name": "math", "input": "1+1"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": [{"type": "text", "text": "a cat"}]},
        {"role": "tool", "tool_call_id": "call_2", "content": "2"},
        {
            "role": "assistant",
            "content": [{"type": "refusal", "refusal": "I can't."}],
            "audio": {"id": "audio_1"},
        },
        {"role": "assistant", "content": None, "refusal": "No."},
        {"role": "assistant", "function_call": {"name": "lookup", "arguments": "{}"}},
        {"role": "function", "name": "lookup", "content": None},
    ],
    "tools": [{"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}],
    "tool_choice": "auto",
    "parallel_tool_calls": True,
    "max_completion_tokens": 300,
    "temperature": 0.5,
    "top_p": 1,
    "stop": "END",
    "response_format": {
        "type": "json_schema",
        "json_schema": {"name": "answer", "schema": {"type": "object"}, "strict": True, "description": "d"},
    },
    "reasoning_effort": "low",
    "metadata": {"k": "v"},
    "user": "u-1",
    "seed": 7,
    "n": 1,
    "logprobs": False,
    "stream": True,
    "stream_options": {"include_usage": True},
    "store": None,
}


def test_full_request_round_trip() -> None:
    notes = Notes("strict")
    ir = chat.decode_request(FULL, notes)
    assert chat.encode_request(ir, notes) == FULL
    assert not notes.items


def test_full_request_ir() -> None:
    ir = chat.decode_request(FULL, Notes("strict"))
    assert [m.role for m in ir.messages] == [
        "developer",
        "system",
        "user",
        "assistant",
        "tool",
        "tool",
        "assistant",
        "assistant",
        "assistant",
        "tool",
    ]
    user = ir.messages[2]
    assert user.name == "ann"
    text, image, url_image, audio, pdf, file_ref = user.parts
    assert text == TextPart(text="What is this?")
    assert (
        isinstance(image, ImagePart)
        and image.url == f"data:image/png;base64,{PNG}"
        and image.detail == "high"
    )
    assert isinstance(url_image, ImagePart) and url_image.url == "https://example.com/a.jpg"
    assert isinstance(audio, AudioPart) and audio.format == "wav"
    assert isinstance(pdf, FilePart) and (pdf.media_type, pdf.data, pdf.filename) == (
        "application/pdf",
        "JVBERi0=",
        "a.pdf",
    )
    assert isinstance(file_ref, FilePart) and file_ref.file_id == "file-abc"
    lookup, math = ir.messages[3].parts
    assert isinstance(lookup, ToolCall) and lookup.arguments == "" and lookup.id == "call_1"
    assert isinstance(math, ToolCall) and (math.kind, math.arguments) == ("custom", "1+1")
    result = ir.messages[5].parts[0]
    assert isinstance(result, ToolResult) and (result.call_id, result.name, result.kind) == (
        "call_2",
        "math",
        "custom",
    )
    assert ir.messages[6].parts == (RefusalPart(text="I can't.", extra={"~field": "content"}),)
    assert ir.messages[7].parts == (RefusalPart(text="No."),)
    legacy = ir.messages[8].parts[0]
    assert isinstance(legacy, ToolCall) and legacy.id is None and legacy.extra.get("~legacy")
    function_result = ir.messages[9].parts[0]
    assert isinstance(function_result, ToolResult) and function_result.name == "lookup"
    assert (ir.max_tokens, ir.stop, ir.temperature, ir.user, ir.stream) == (300, ("END",), 0.5, "u-1", True)
    assert ir.reasoning is not None and ir.reasoning.effort == "low"
    assert ir.response_format is not None and ir.response_format.name == "answer"
    assert ir.extra["seed"] == 7 and ir.extra["stream_options"] == {"include_usage": True}


@pytest.mark.parametrize(
    "fields",
    [
        {"max_tokens": 10},
        {"max_tokens": 10, "max_completion_tokens": 20},
        {"stop": ["a", "b"]},
        {"stop": None},
        {"response_format": {"type": "json_object"}},
        {"response_format": {"type": "text"}},
        {"response_format": {"type": "grammar", "grammar": "x"}},
        {"top_k": 3},
        {"tools": [], "tool_choice": None},
        {"functions": [{"name": "f"}], "tools": [{"type": "function", "function": {"name": "g"}}]},
    ],
)
def test_field_spellings_round_trip(fields: dict[str, Any]) -> None:
    payload = {"model": "m", "messages": [{"role": "user", "content": "hi"}], **fields}
    notes = Notes("strict")
    assert chat.encode_request(chat.decode_request(payload, notes), notes) == payload


def test_max_tokens_spelling_is_remembered() -> None:
    legacy = chat.decode_request({"model": "m", "messages": [], "max_tokens": 5}, Notes())
    assert legacy.max_tokens == 5
    modern = chat.decode_request({"model": "m", "messages": [], "max_completion_tokens": 5}, Notes())
    assert modern.max_tokens == 5
    both = chat.decode_request(
        {"model": "m", "messages": [], "max_completion_tokens": 5, "max_tokens": 9}, Notes()
    )
    assert both.max_tokens == 5 and both.extra["max_tokens"] == 9


def test_compatible_reasoning_fields_round_trip() -> None:
    payload = {
        "model": "deepseek-reasoner",
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": "hello", "reasoning_content": "think"},
        ],
    }
    ir = chat.decode_request(payload, Notes("strict"))
    assert ir.messages[1].parts[0] == ReasoningPart(text="think", extra={"~field": "reasoning_content"})
    assert chat.encode_request(ir, Notes("strict")) == payload


def test_model_argument_is_a_fallback() -> None:
    assert chat.decode_request({"messages": []}, Notes(), model="m").model == "m"
    assert chat.decode_request({"model": "x", "messages": []}, Notes(), model="m").model == "x"


# ---------------------------------------------------------------- malformed input


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ([], "$"),
        ({"model": "m"}, "$.messages"),
        ({"messages": {"role": "user"}}, "$.messages"),
        ({"messages": [None]}, "$.messages[0]"),
        ({"messages": [{"content": "x"}]}, "$.messages[0].role"),
        ({"messages": [{"role": "robot", "content": "x"}]}, "$.messages[0].role"),
        ({"messages": [{"role": "user", "content": 5}]}, "$.messages[0].content"),
        ({"messages": [{"role": "user", "content": [{"type": "text"}]}]}, "$.messages[0].content[0].text"),
        (
            {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": "u"}]}]},
            "$.messages[0].content[0].image_url",
        ),
        (
            {"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {}}]}]},
            "$.messages[0].content[0].image_url.url",
        ),
        ({"messages": [{"role": "user", "content": ["hi"]}]}, "$.messages[0].content[0]"),
        ({"messages": [{"role": "tool", "content": "x"}]}, "$.messages[0].tool_call_id"),
        ({"messages": [{"role": "function", "content": "x"}]}, "$.messages[0].name"),
        ({"messages": [{"role": "assistant", "tool_calls": {}}]}, "$.messages[0].tool_calls"),
        (
            {"messages": [{"role": "assistant", "tool_calls": [{"id": "c", "type": "function"}]}]},
            "$.messages[0].tool_calls[0].function",
        ),
        (
            {
                "messages": [
                    {"role": "assistant", "tool_calls": [{"type": "function", "function": {"name": "f"}}]}
                ]
            },
            "$.messages[0].tool_calls[0].function.arguments",
        ),
        (
            {"messages": [{"role": "assistant", "tool_calls": [{"type": "mcp"}]}]},
            "$.messages[0].tool_calls[0].type",
        ),
        ({"messages": [{"role": "assistant", "function_call": "f"}]}, "$.messages[0].function_call"),
        ({"messages": [{"role": "assistant", "refusal": 1}]}, "$.messages[0].refusal"),
        ({"messages": [], "temperature": "hot"}, "$.temperature"),
        ({"messages": [], "max_tokens": 1.5}, "$.max_tokens"),
        ({"messages": [], "stop": [1]}, "$.stop[0]"),
        ({"messages": [], "stop": 1}, "$.stop"),
        ({"messages": [], "response_format": {"type": "json_schema"}}, "$.response_format.json_schema"),
        (
            {"messages": [], "response_format": {"type": "json_schema", "json_schema": {"schema": 1}}},
            "$.response_format.json_schema.schema",
        ),
        ({"messages": [], "metadata": []}, "$.metadata"),
        ({"messages": [], "parallel_tool_calls": "yes"}, "$.parallel_tool_calls"),
        ({"messages": [], "function_call": "required"}, "$.function_call"),
        ({"messages": [], "functions": "f"}, "$.functions"),
    ],
)
def test_malformed_requests(payload: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        chat.decode_request(payload, Notes())
    assert info.value.path == path


def test_unknown_content_part_is_skipped_or_refused() -> None:
    payload = {
        "messages": [
            {"role": "user", "content": [{"type": "video", "video": {}}, {"type": "text", "text": "x"}]}
        ]
    }
    with pytest.raises(ConversionError) as info:
        chat.decode_request(payload, Notes("strict"))
    assert info.value.path == "$.messages[0].content[0].type"
    notes = Notes("drop")
    assert chat.decode_request(payload, notes).messages[0].parts == (TextPart(text="x"),)
    assert [n.kind for n in notes] == ["skipped"]


def _nest(depth: int) -> Any:
    value: Any = "x"
    for _ in range(depth):
        value = {"a": [value]}
    return value


@pytest.mark.parametrize(
    "payload",
    [
        {"messages": [{"role": "user", "content": [_nest(200)]}]},
        {"messages": [{"role": "assistant", "tool_calls": [_nest(200)]}]},
        {"messages": [], "tools": [_nest(200)]},
        {"messages": [_nest(300)]},
        {"messages": [{"role": "user", "content": "x", "deep": _nest(500)}], "x": _nest(500)},
    ],
)
def test_deep_or_odd_input_only_raises_toolwire_errors(payload: Any) -> None:
    for policy in ("strict", "drop"):
        notes = Notes(policy)  # type: ignore[arg-type]
        try:
            ir = chat.decode_request(payload, notes)
        except ToolwireError as exc:
            assert exc.path is not None and exc.path.startswith("$")
        else:
            if not notes.items:
                assert chat.encode_request(ir, Notes("strict")) == payload
