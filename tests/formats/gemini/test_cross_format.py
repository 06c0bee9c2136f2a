"""Encoding IR of other formats to Gemini: exact wire output and the notes taken."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import ConversionError
from toolwire.formats import gemini
from toolwire.ir import (
    AudioPart,
    BuiltinTool,
    ErrorInfo,
    FilePart,
    ImagePart,
    Message,
    Notes,
    ReasoningConfig,
    ReasoningPart,
    RefusalPart,
    Request,
    Response,
    ResponseFormat,
    TextPart,
    Tool,
    ToolCall,
    ToolChoice,
    ToolResult,
    Usage,
)

WEATHER = Tool(
    name="weather",
    description="Get the weather",
    parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
)


def _notes(notes: Notes) -> list[tuple[str, str]]:
    return [(n.path, n.kind) for n in notes]


def test_chat_conversation_with_parallel_calls() -> None:
    req = Request(
        origin="openai-chat",
        model="gpt-4o",
        messages=(
            Message(role="system", parts=(TextPart(text="Be brief."),)),
            Message(role="user", parts=(TextPart(text="Paris and Rome?"),)),
            Message(
                role="assistant",
                parts=(
                    ToolCall(id="call_1", name="weather", arguments='{"city":"Paris"}'),
                    ToolCall(id="call_2", name="weather", arguments='{"city":"Rome"}'),
                ),
            ),
            Message(role="tool", parts=(ToolResult(call_id="call_1", content=(TextPart(text="sunny"),)),)),
            Message(
                role="tool",
                parts=(ToolResult(call_id="call_2", content=(TextPart(text="no data"),), is_error=True),),
            ),
        ),
        tools=(WEATHER,),
        tool_choice=ToolChoice(mode="required"),
        parallel_tool_calls=True,
    )
    notes = Notes("warn")
    assert gemini.encode_request(req, notes) == {
        "systemInstruction": {"parts": [{"text": "Be brief."}]},
        "contents": [
            {"role": "user", "parts": [{"text": "Paris and Rome?"}]},
            {
                "role": "model",
                "parts": [
                    {"functionCall": {"name": "weather", "args": {"city": "Paris"}, "id": "call_1"}},
                    {"functionCall": {"name": "weather", "args": {"city": "Rome"}, "id": "call_2"}},
                ],
            },
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "name": "weather",
                            "id": "call_1",
                            "response": {"output": "sunny"},
                        }
                    },
                    {
                        "functionResponse": {
                            "name": "weather",
                            "id": "call_2",
                            "response": {"error": "no data"},
                        }
                    },
                ],
            },
        ],
        "tools": [
            {
                "functionDeclarations": [
                    {
                        "name": "weather",
                        "description": "Get the weather",
                        "parametersJsonSchema": WEATHER.parameters,
                    }
                ]
            }
        ],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY"}},
    }
    # ids go in functionCall.id / functionResponse.id, result names come from the calls,
    # output wrapping is info.
    assert _notes(notes) == [("$.messages[3].parts[0]", "approximated")]
    gemini.encode_request(req, Notes("strict"))  # info notes never raise


def test_anthropic_turn_with_thinking_images_and_mid_system() -> None:
    req = Request(
        origin="anthropic",
        messages=(
            Message(
                role="user", parts=(TextPart(text="Look"), ImagePart(data="iVBORw0KGgo", media_type=None))
            ),
            Message(
                role="assistant",
                parts=(
                    ReasoningPart(text="hmm", signature="EqQB...", origin="anthropic"),
                    ToolCall(id="toolu_1", name="zoom", arguments=""),
                ),
            ),
            Message(
                role="user",
                parts=(
                    ToolResult(
                        call_id="toolu_1",
                        name="zoom",
                        content=(
                            TextPart(text="zoomed"),
                            ImagePart(data="/9j/4AAQ", media_type="image/jpeg"),
                            ImagePart(url="https://example.com/a.webp"),
                        ),
                    ),
                    TextPart(text="what now?"),
                ),
            ),
            Message(role="system", parts=(TextPart(text="Answer in French."),)),
        ),
    )
    notes = Notes("warn")
    assert gemini.encode_request(req, notes) == {
        "systemInstruction": {"parts": [{"text": "Answer in French."}]},
        "contents": [
            {
                "role": "user",
                "parts": [{"text": "Look"}, {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo"}}],
            },
            {"role": "model", "parts": [{"functionCall": {"name": "zoom", "id": "toolu_1"}}]},
            {
                "role": "user",
                "parts": [
                    {
                        "functionResponse": {
                            "name": "zoom",
                            "id": "toolu_1",
                            "response": {"output": "zoomed"},
                            "parts": [
                                {"inlineData": {"mimeType": "image/jpeg", "data": "/9j/4AAQ"}},
                                {
                                    "fileData": {
                                        "fileUri": "https://example.com/a.webp",
                                        "mimeType": "image/webp",
                                    }
                                },
                            ],
                        }
                    },
                    {"text": "what now?"},
                ],
            },
        ],
    }
    assert _notes(notes) == [
        ("$.messages[1].parts[0]", "dropped"),
        ("$.messages[2].parts[0]", "approximated"),
        ("$.messages[3]", "approximated"),
    ]
    with pytest.raises(ConversionError) as info:
        gemini.encode_request(req, Notes("strict"))
    assert info.value.path == "$.messages[1].parts[0]"


def test_media_and_odd_parts() -> None:
    req = Request(
        origin="openai-chat",
        messages=(
            Message(
                role="user",
                name="bob",
                parts=(
                    ImagePart(url="data:image/gif;base64,R0lGODlh", detail="high"),
                    AudioPart(data="UklGRg==", format="wav"),
                    FilePart(url="data:application/pdf;base64,JVBERi0=", filename="a.pdf"),
                    FilePart(text="plain document"),
                    FilePart(file_id="file-abc"),
                ),
            ),
            Message(role="assistant", parts=(RefusalPart(text="I can't"),)),
            Message(role="assistant", parts=(ToolCall(id="c", name="f", arguments="{oops"),)),
        ),
    )
    notes = Notes("warn")
    assert gemini.encode_request(req, notes)["contents"] == [
        {
            "role": "user",
            "parts": [
                {"inlineData": {"mimeType": "image/gif", "data": "R0lGODlh"}},
                {"inlineData": {"mimeType": "audio/wav", "data": "UklGRg=="}},
                {"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0="}},
                {"text": "plain document"},
            ],
        },
        {
            "role": "model",
            "parts": [{"text": "I can't"}, {"functionCall": {"name": "f", "args": {}, "id": "c"}}],
        },
    ]
    assert _notes(notes) == [
        ("$.messages[0].parts[0]", "dropped"),  # detail
        ("$.messages[0].parts[2]", "dropped"),  # filename
        ("$.messages[0].parts[3]", "approximated"),  # text document
        ("$.messages[0].parts[4]", "dropped"),  # file id
        ("$.messages[0].name", "dropped"),
        ("$.messages[1].parts[0]", "approximated"),  # refusal
        ("$.messages[2].parts[0].arguments", "approximated"),  # invalid JSON (the IR field)
    ]


def test_gemini_state_is_replayed_only_to_gemini_and_kept_when_same() -> None:
    parts = (
        ReasoningPart(text="plan", signature="c2ln", origin="gemini"),
        TextPart(text="ok", thought_signature="dGV4dA=="),
        ToolCall(id="abc", name="f", arguments='{"x":1}', thought_signature="Y2FsbA=="),
    )
    req = Request(origin="anthropic", messages=(Message(role="assistant", parts=parts),))
    notes = Notes("strict")
    assert gemini.encode_request(req, notes)["contents"] == [
        {
            "role": "model",
            "parts": [
                {"text": "plan", "thought": True, "thoughtSignature": "c2ln"},
                {"text": "ok", "thoughtSignature": "dGV4dA=="},
                {
                    "functionCall": {"name": "f", "args": {"x": 1}, "id": "abc"},
                    "thoughtSignature": "Y2FsbA==",
                },
            ],
        }
    ]
    same = Request(origin="gemini", messages=(Message(role="assistant", parts=parts),))
    out = gemini.encode_request(same, Notes("strict"))
    assert out["contents"][0]["parts"][2] == {
        "functionCall": {"name": "f", "args": {"x": 1}, "id": "abc"},
        "thoughtSignature": "Y2FsbA==",
    }


def test_generation_controls_from_other_formats() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "integer"}}}
    req = Request(
        origin="openai-responses",
        messages=(Message(role="user", parts=(TextPart(text="hi"),)),),
        max_tokens=256,
        temperature=0.5,
        top_p=0.9,
        stop=("END",),
        response_format=ResponseFormat(type="json_schema", name="out", schema=schema, strict=True),
        reasoning=ReasoningConfig(effort="medium", summary="auto"),
        user="u-1",
        metadata={"k": "v"},
        tools=(
            BuiltinTool(origin="openai-responses", wire_type="web_search", payload={"type": "web_search"}),
        ),
    )
    notes = Notes("warn")
    out = gemini.encode_request(req, notes)
    assert out["generationConfig"] == {
        "maxOutputTokens": 256,
        "temperature": 0.5,
        "topP": 0.9,
        "stopSequences": ["END"],
        "responseMimeType": "application/json",
        "responseJsonSchema": schema,
        "thinkingConfig": {"thinkingLevel": "MEDIUM", "includeThoughts": True},
    }
    assert "tools" not in out
    assert _notes(notes) == [
        ("$.tools[0]", "dropped"),
        ("$.generationConfig.responseMimeType", "dropped"),  # schema name (info)
        ("$.generationConfig.thinkingConfig", "approximated"),
        ("$.user", "dropped"),
        ("$.metadata", "dropped"),
    ]


@pytest.mark.parametrize(
    ("reasoning", "expected"),
    [
        (
            ReasoningConfig(enabled=True, budget_tokens=2048),
            {"thinkingBudget": 2048, "includeThoughts": True},
        ),
        (ReasoningConfig(enabled=False), {"thinkingBudget": 0}),
        (ReasoningConfig(effort="none"), {"thinkingBudget": 0}),
        (
            ReasoningConfig(effort="high", include_thoughts=False),
            {"thinkingLevel": "HIGH", "includeThoughts": False},
        ),
    ],
)
def test_reasoning_mapping(reasoning: ReasoningConfig, expected: dict[str, Any]) -> None:
    req = Request(
        origin="anthropic", messages=(Message(role="user", parts=(TextPart(text="x"),)),), reasoning=reasoning
    )
    assert gemini.encode_request(req, Notes("drop"))["generationConfig"] == {"thinkingConfig": expected}


def test_response_from_another_format() -> None:
    resp = Response(
        origin="anthropic",
        id="msg_1",
        model="claude-x",
        parts=(
            ReasoningPart(text="hmm", signature="s", origin="anthropic"),
            TextPart(text="Calling."),
            ToolCall(id="toolu_1", name="weather", arguments='{"city":"Oslo"}'),
        ),
        stop_reason="tool_calls",
        raw_stop_reason="tool_use",
        usage=Usage(input_tokens=100, output_tokens=40, reasoning_tokens=10, cached_tokens=20),
        created=1700000000,
    )
    notes = Notes("warn")
    assert gemini.encode_response(resp, notes) == {
        "candidates": [
            {
                "content": {
                    "role": "model",
                    "parts": [
                        {"text": "Calling."},
                        {"functionCall": {"name": "weather", "args": {"city": "Oslo"}, "id": "toolu_1"}},
                    ],
                },
                "finishReason": "STOP",
            }
        ],
        "usageMetadata": {
            "promptTokenCount": 100,
            "candidatesTokenCount": 30,
            "totalTokenCount": 140,
            "cachedContentTokenCount": 20,
            "thoughtsTokenCount": 10,
        },
        "modelVersion": "claude-x",
        "responseId": "msg_1",
    }  # no createTime: Vertex-only (an Anthropic message has no time: the Exchange's is not noted)
    assert _notes(notes) == [
        ("$.parts[0]", "dropped"),  # the IR part: translate maps it to the source
    ]


def test_response_has_what_gemini_always_returns() -> None:
    """usageMetadata and modelVersion are in every Gemini API response: made up when missing;
    a Chat creation time has no AI Studio field (createTime is Vertex's): left out. Neither is a
    loss (a hop's timestamps are its own: the Exchange makes one up when a response has none)."""
    resp = Response(origin="openai-chat", parts=(TextPart(text="x"),), stop_reason="end_turn", created=1)
    notes = Notes("warn")
    out = gemini.encode_response(resp, notes)
    assert out["usageMetadata"] == {"promptTokenCount": 0, "totalTokenCount": 0}
    assert out["modelVersion"] == "unknown" and "createTime" not in out
    assert [(n.path, n.kind, n.target, n.loss) for n in notes] == [
        ("$", "synthesized", "$.usageMetadata", False),
        ("$", "synthesized", "$.modelVersion", False),
        ("$.created", "dropped", None, False),
    ]
    assert gemini.encode_response(resp, Notes("strict")) == out


@pytest.mark.parametrize(
    ("stop", "finish"),
    [("end_turn", "STOP"), ("max_tokens", "MAX_TOKENS"), ("content_filter", "SAFETY"), ("other", "OTHER")],
)
def test_stop_reason_to_finish_reason(stop: Any, finish: str) -> None:
    resp = Response(origin="openai-chat", parts=(TextPart(text="x"),), stop_reason=stop)
    assert gemini.encode_response(resp, Notes("strict"))["candidates"][0]["finishReason"] == finish


def test_error_from_another_format() -> None:
    err = ErrorInfo(
        origin="openai-chat",
        status=400,
        message="bad tools",
        type="invalid_request_error",
        param="tools[0].name",
        code="bad_name",
    )
    notes = Notes("strict")
    status, body = gemini.encode_error(err, notes)
    assert status == 400
    assert body == {
        "error": {
            "code": 400,
            "message": "bad tools",
            "status": "INVALID_ARGUMENT",
            "details": [
                {
                    "@type": "type.googleapis.com/google.rpc.BadRequest",
                    "fieldViolations": [{"field": "tools[0].name", "description": "bad tools"}],
                }
            ],
        }
    }
    assert _notes(notes) == [("$.error.status", "renamed"), ("$.error", "dropped")]
    status, body = gemini.encode_error(ErrorInfo(origin="anthropic", status=529, message="Overloaded"), notes)
    assert (status, body["error"]["status"]) == (529, "UNAVAILABLE")
