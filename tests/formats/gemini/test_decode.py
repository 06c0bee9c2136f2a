"""What Gemini payloads become in the IR (beyond the lossless round trip)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.corpus import samples
from toolwire.errors import (
    AuthenticationError,
    ConversionError,
    InvalidRequestError,
    OverloadedError,
    RateLimitError,
)
from toolwire.formats import gemini
from toolwire.ir import (
    ImagePart,
    Message,
    Notes,
    ReasoningConfig,
    ReasoningPart,
    ResponseFormat,
    TextPart,
    ToolCall,
    ToolResult,
    Usage,
)


def test_mixed_spelling_request() -> None:
    payload = {
        "contents": [
            {"role": "user", "parts": [{"text": "5 times 3?"}]},
            {
                "role": "model",
                "parts": [
                    {
                        "function_call": {"name": "multiply", "args": {"y": 3, "x": 5}},
                        "thoughtSignature": "Et0B",
                    }
                ],
            },
            {
                "role": "user",
                "parts": [{"function_response": {"name": "multiply", "response": {"output": "15"}}}],
            },
        ],
        "system_instruction": {"parts": [{"text": "Be exact."}]},
        "generationConfig": {
            "response_mime_type": "application/json",
            "thinkingConfig": {"thinking_budget": 0},
        },
    }
    notes = Notes("strict")
    req = gemini.decode_request(payload, notes, model="gemini-2.5-flash")
    assert req.model == "gemini-2.5-flash"
    assert [m.role for m in req.messages] == ["system", "user", "assistant", "user"]
    call = req.messages[2].parts[0]
    assert isinstance(call, ToolCall)
    assert (call.id, call.name, call.arguments, call.thought_signature) == (
        None,
        "multiply",
        '{"y":3,"x":5}',
        "Et0B",
    )
    result = req.messages[3].parts[0]
    assert isinstance(result, ToolResult)
    assert (result.call_id, result.name, result.content, result.is_error) == (
        None,
        "multiply",
        (TextPart(text="15"),),
        None,
    )
    assert req.response_format == ResponseFormat(type="json_object")
    assert req.reasoning is not None
    assert (req.reasoning.enabled, req.reasoning.budget_tokens) == (False, 0)
    assert gemini.encode_request(req, notes) == payload


@pytest.mark.parametrize(
    ("response", "text", "is_error"),
    [
        ({"output": "ok"}, "ok", None),
        ({"error": "boom"}, "boom", True),
        ({"error": {"code": 3}}, '{"error":{"code":3}}', True),
        ({"temp": 20, "unit": "C"}, '{"temp":20,"unit":"C"}', None),
        ({"return_value": [1, 2]}, '{"return_value":[1,2]}', None),
        ({}, "{}", None),
    ],
)
def test_function_response_as_text(response: dict[str, Any], text: str, is_error: bool | None) -> None:
    part = {"functionResponse": {"name": "f", "response": response}}
    req = gemini.decode_request({"contents": [{"role": "user", "parts": [part]}]}, Notes("strict"))
    result = req.messages[0].parts[0]
    assert isinstance(result, ToolResult)
    assert result.content == (TextPart(text=text),)
    assert result.is_error is is_error
    out = gemini.encode_request(req, Notes("strict"))
    assert out["contents"][0]["parts"][0] == part


def test_function_response_media_parts() -> None:
    part = {
        "functionResponse": {
            "id": "c1",
            "name": "shot",
            "response": {"output": "taken"},
            "parts": [{"inlineData": {"mimeType": "image/png", "data": "iVBOR"}}],
        }
    }
    req = gemini.decode_request({"contents": [{"role": "user", "parts": [part]}]}, Notes("strict"))
    assert req.messages[0].parts[0] == ToolResult(
        call_id="c1",
        name="shot",
        content=(TextPart(text="taken"), ImagePart(data="iVBOR", media_type="image/png")),
        extra={"~wrap": "output"},
    )
    assert gemini.encode_request(req, Notes("strict"))["contents"][0]["parts"][0] == part


def test_thinking_response_and_signatures() -> None:
    sample = next(
        s
        for s in samples(format="gemini", kind="response")
        if s.id.endswith(
            "gemini-developer-api/unary-success-thinking-function-call-thought-summary-signature.json"
        )
    )
    resp = gemini.decode_response(sample.payload, Notes("strict"))
    wire_parts = sample.payload["candidates"][0]["content"]["parts"]
    assert isinstance(resp.parts[0], ReasoningPart) and resp.parts[0].origin == "gemini"
    call = next(p for p in resp.parts if isinstance(p, ToolCall))
    signed = next(p for p in wire_parts if "functionCall" in p)
    assert call.thought_signature == signed["thoughtSignature"]
    assert (resp.stop_reason, resp.raw_stop_reason) == ("tool_calls", "STOP")
    usage = sample.payload["usageMetadata"]
    assert resp.usage is not None
    assert resp.usage.output_tokens == usage["candidatesTokenCount"] + usage["thoughtsTokenCount"]
    assert resp.usage.reasoning_tokens == usage["thoughtsTokenCount"]


def test_blocked_prompt_is_content_filter() -> None:
    payload = {
        "promptFeedback": {"blockReason": "SAFETY", "safetyRatings": []},
        "usageMetadata": {"promptTokenCount": 8},
    }
    resp = gemini.decode_response(payload, Notes("strict"))
    assert (resp.parts, resp.stop_reason, resp.raw_stop_reason) == ((), "content_filter", "SAFETY")
    assert resp.usage == Usage(input_tokens=8)
    assert gemini.encode_response(resp, Notes("strict")) == payload


@pytest.mark.parametrize(
    ("finish", "stop"),
    [
        ("STOP", "end_turn"),
        ("MAX_TOKENS", "max_tokens"),
        ("RECITATION", "content_filter"),
        ("MALFORMED_FUNCTION_CALL", "error"),
        ("LANGUAGE", "other"),
        ("SOMETHING_NEW", "other"),
    ],
)
def test_finish_reasons(finish: str, stop: str) -> None:
    payload = {
        "candidates": [{"content": {"role": "model", "parts": [{"text": "x"}]}, "finishReason": finish}]
    }
    resp = gemini.decode_response(payload, Notes("strict"))
    assert (resp.stop_reason, resp.raw_stop_reason) == (stop, finish)


def test_usage_with_tool_use_prompt_and_no_candidates_count() -> None:
    usage = {
        "promptTokenCount": 10,
        "toolUsePromptTokenCount": 5,
        "thoughtsTokenCount": 7,
        "totalTokenCount": 22,
    }
    resp = gemini.decode_response({"candidates": [], "usageMetadata": usage}, Notes("strict"))
    assert resp.usage is not None
    assert (resp.usage.input_tokens, resp.usage.output_tokens, resp.usage.reasoning_tokens) == (15, 7, 7)
    assert gemini.encode_response(resp, Notes("strict"))["usageMetadata"] == usage


def test_generation_config_fields() -> None:
    gc = {
        "maxOutputTokens": 64,
        "temperature": 0,
        "topP": 0.5,
        "topK": 3,
        "stopSequences": ["x"],
        "responseMimeType": "text/x.enum",
        "responseSchema": {"type": "STRING", "enum": ["a", "b"]},
        "thinkingConfig": {"thinkingLevel": "LOW", "includeThoughts": True},
        "seed": 1,
        "candidateCount": 1,
    }
    req = gemini.decode_request({"contents": [], "generationConfig": gc}, Notes("strict"))
    assert (req.max_tokens, req.temperature, req.top_p, req.top_k, req.stop) == (64, 0, 0.5, 3, ("x",))
    assert req.response_format == ResponseFormat(
        type="json_schema",
        schema={"type": "string", "enum": ["a", "b"]},
        extra={"~field": "responseSchema", "~mime": "text/x.enum", "~openapi": gc["responseSchema"]},
    )
    assert req.reasoning == ReasoningConfig(effort="low", include_thoughts=True)
    assert req.extra["generationConfig"] == {"seed": 1, "candidateCount": 1}
    assert gemini.encode_request(req, Notes("strict")) == {"contents": [], "generationConfig": gc}
    notes = Notes("warn")
    hi = Message(role="user", parts=(TextPart(text="hi"),))
    other = gemini.encode_request(req.__class__(messages=(hi,), extra=req.extra), notes)
    assert other == {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    with pytest.raises(ConversionError, match="Gemini needs at least one user or model turn"):
        gemini.encode_request(req.__class__(messages=(Message(role="user"),), extra=req.extra), Notes("drop"))
    assert [(n.path, n.kind) for n in notes] == [("$.generationConfig", "dropped")]


def test_errors_and_exceptions() -> None:
    body = [{"error": {"code": 429, "message": "Quota", "status": "RESOURCE_EXHAUSTED"}}]
    info = gemini.decode_error(body, 429, Notes("strict"))
    assert (info.status, info.type, info.message) == (429, "RESOURCE_EXHAUSTED", "Quota")
    assert gemini.encode_error(info, Notes("strict")) == (429, body)
    assert isinstance(gemini.error_to_exception(info), RateLimitError)
    key = next(
        s
        for s in samples(format="gemini", kind="error")
        if s.id.endswith("developer-api/unary-failure-api-key.json")
    )
    info = gemini.decode_error(key.payload, key.status, Notes("strict"))
    assert (info.code, info.type) == ("API_KEY_INVALID", "INVALID_ARGUMENT")
    exc = gemini.error_to_exception(info)
    assert isinstance(exc, InvalidRequestError) and exc.code == "API_KEY_INVALID"
    unauth = gemini.decode_error(
        {"error": {"code": 401, "message": "x", "status": "UNAUTHENTICATED"}}, None, Notes()
    )
    assert isinstance(gemini.error_to_exception(unauth), AuthenticationError)
    busy = gemini.decode_error(
        {"error": {"code": 503, "message": "overloaded", "status": "UNAVAILABLE"}}, None, Notes()
    )
    assert isinstance(gemini.error_to_exception(busy), OverloadedError)


def test_endpoint_helpers_and_model_in_body() -> None:
    assert gemini.model_path("gemini-2.5-flash") == "models/gemini-2.5-flash"
    assert gemini.model_path("models/x") == "models/x"
    assert gemini.endpoint_path("gemini-2.5-flash") == "models/gemini-2.5-flash:generateContent"
    assert gemini.endpoint_path("m", stream=True) == "models/m:streamGenerateContent?alt=sse"
    payload = {"model": "models/gemini-pro", "contents": [{"role": "user", "parts": [{"text": "hi"}]}]}
    req = gemini.decode_request(payload, Notes("strict"))
    assert req.model == "models/gemini-pro"
    assert gemini.encode_request(req, Notes("strict")) == payload
    from_url = gemini.decode_request(payload, Notes("strict"), model="gemini-2.5-pro")
    assert from_url.model == "gemini-2.5-pro"
    assert gemini.encode_request(from_url, Notes("strict")) == payload
