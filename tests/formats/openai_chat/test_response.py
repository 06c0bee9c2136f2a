"""Chat responses and errors: IR mapping, cross-format encoding, malformed bodies."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import (
    AuthenticationError,
    ConversionError,
    InvalidRequestError,
    OverloadedError,
    PayloadError,
    RateLimitError,
    ServerError,
)
from toolwire.formats import openai_chat as chat
from toolwire.ir import (
    ErrorInfo,
    ImagePart,
    Notes,
    ReasoningPart,
    RefusalPart,
    Response,
    TextPart,
    ToolCall,
    Usage,
)

COMPLETION: dict[str, Any] = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1700000000,
    "model": "gpt-4o",
    "choices": [
        {
            "index": 0,
            "message": {
                "role": "assistant",
                "content": None,
                "refusal": None,
                "tool_calls": [
                    {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": '{"x":1}'}},
                    {"id": "call_b", "type": "custom", "custom": {"name": "g", "input": "raw"}},
                ],
                "annotations": [{"type": "url_citation", "url_citation": {"url": "u"}}],
            },
            "logprobs": {"content": [], "refusal": None},
            "finish_reason": "tool_calls",
        }
    ],
    "usage": {
        "prompt_tokens": 100,
        "completion_tokens": 20,
        "total_tokens": 120,
        "prompt_tokens_details": {"cached_tokens": 64, "audio_tokens": 0},
        "completion_tokens_details": {"reasoning_tokens": 8, "accepted_prediction_tokens": 0},
    },
    "system_fingerprint": "fp_1",
    "service_tier": "default",
}


def test_response_ir_and_round_trip() -> None:
    notes = Notes("strict")
    ir = chat.decode_response(COMPLETION, notes)
    assert ir.parts == (
        ToolCall(id="call_a", name="f", arguments='{"x":1}'),
        ToolCall(id="call_b", name="g", arguments="raw", kind="custom"),
    )
    assert (ir.stop_reason, ir.raw_stop_reason, ir.id, ir.model, ir.created) == (
        "tool_calls",
        "tool_calls",
        "chatcmpl-1",
        "gpt-4o",
        1700000000,
    )
    assert ir.usage is not None
    assert (
        ir.usage.input_tokens,
        ir.usage.output_tokens,
        ir.usage.cached_tokens,
        ir.usage.reasoning_tokens,
    ) == (
        100,
        20,
        64,
        8,
    )
    assert ir.extra["annotations"] == COMPLETION["choices"][0]["message"]["annotations"]  # lifted, visible
    assert chat.encode_response(ir, notes) == COMPLETION


@pytest.mark.parametrize(
    ("finish", "stop"),
    [
        ("stop", "end_turn"),
        ("length", "max_tokens"),
        ("function_call", "tool_calls"),
        ("content_filter", "content_filter"),
        ("weird", "other"),
        (None, None),
    ],
)
def test_finish_reasons(finish: str | None, stop: str | None) -> None:
    body = {
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}, "finish_reason": finish}]
    }
    ir = chat.decode_response(body, Notes("strict"))
    assert (ir.stop_reason, ir.raw_stop_reason) == (stop, finish)
    assert chat.encode_response(ir, Notes("strict")) == body


def test_more_choices_are_kept_and_noted_elsewhere() -> None:
    second = {"index": 1, "message": {"role": "assistant", "content": "b"}, "finish_reason": "stop"}
    body = {
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": "a"}, "finish_reason": "stop"},
            second,
        ]
    }
    ir = chat.decode_response(body, Notes("strict"))
    assert ir.text == "a" and ir.extra["more_choices"] == [second]
    assert chat.encode_response(ir, Notes("strict")) == body


def test_response_from_another_format() -> None:
    ir = Response(
        origin="anthropic",
        id="msg_1",
        model="claude",
        parts=(
            ReasoningPart(text="hmm", signature="sig", origin="anthropic"),
            TextPart(text="Let me "),
            TextPart(text="check."),
            ToolCall(id="toolu_1", name="f", arguments='{"a":1}'),
            ToolCall(name="g", arguments=""),
        ),
        stop_reason="tool_calls",
        raw_stop_reason="tool_use",
        usage=Usage(input_tokens=50, output_tokens=10, cached_tokens=20, cache_creation_tokens=5),
        extra={"container": None, "~hint": 1, "stop_sequence": "x"},
    )
    notes = Notes("warn")
    assert chat.encode_response(ir, notes) == {
        "id": "msg_1",
        "object": "chat.completion",
        "created": 0,
        "model": "claude",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": "Let me check.",
                    "refusal": None,
                    "tool_calls": [
                        {
                            "id": "toolu_1",
                            "type": "function",
                            "function": {"name": "f", "arguments": '{"a":1}'},
                        },
                        {"id": "call_0_1", "type": "function", "function": {"name": "g", "arguments": "{}"}},
                    ],
                },
                "finish_reason": "tool_calls",
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": 50,
            "completion_tokens": 10,
            "total_tokens": 60,
            "prompt_tokens_details": {"cached_tokens": 20, "cache_write_tokens": 5},
        },
    }
    assert _kinds(notes) == [
        ("$.parts[0]", "dropped"),  # IR paths of the parts: translate maps them to the source
        ("$.parts[4]", "synthesized"),
        ("$.created", "synthesized"),
        ("$.stop_sequence", "dropped"),  # the null "container" carries nothing: no note
    ]


def _kinds(notes: Notes) -> list[tuple[str, str]]:
    return [(n.path, n.kind) for n in notes]


def test_cross_format_stop_reasons_and_refusals() -> None:
    ir = Response(origin="gemini", parts=(TextPart(text="x"), ImagePart(url="u")), stop_reason="refusal")
    notes = Notes("warn")
    out = chat.encode_response(ir, notes)
    assert out["choices"][0]["finish_reason"] == "content_filter"
    assert out["choices"][0]["message"] == {"role": "assistant", "content": "x", "refusal": None}
    assert [k for _, k in _kinds(notes)] == [
        "dropped",
        "synthesized",
        "synthesized",
        "synthesized",
        "approximated",
    ]
    synthesized = [(n.path, n.target) for n in notes if n.kind == "synthesized"]
    assert synthesized == [("$.id", None), ("$.created", None), ("$", "$.model")]
    assert out["id"].startswith("chatcmpl-") and out["model"] == "unknown"
    refusal = Response(origin="openai-responses", parts=(RefusalPart(text="no"),), stop_reason="end_turn")
    message = chat.encode_response(refusal, Notes("strict"))["choices"][0]["message"]
    assert message == {"role": "assistant", "content": None, "refusal": "no"}
    with pytest.raises(ConversionError):
        chat.encode_response(Response(origin="gemini", parts=(TextPart(text="x"),)), Notes("strict"))


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ([], "$"),
        ({"id": "x"}, "$.choices"),
        ({"choices": [1]}, "$.choices[0]"),
        ({"choices": [{"finish_reason": "stop"}]}, "$.choices[0].message"),
        ({"choices": [{"message": {"content": 1}}]}, "$.choices[0].message.content"),
        (
            {"choices": [{"message": {"tool_calls": [{"type": "function", "function": {"name": 1}}]}}]},
            "$.choices[0].message.tool_calls[0].function.name",
        ),
        ({"choices": [{"message": {}, "finish_reason": 3}]}, "$.choices[0].finish_reason"),
        ({"choices": [], "usage": {"prompt_tokens": "x"}}, "$.usage.prompt_tokens"),
        (
            {"choices": [], "usage": {"prompt_tokens_details": {"cached_tokens": []}}},
            "$.usage.prompt_tokens_details.cached_tokens",
        ),
        ({"choices": [], "created": "now"}, "$.created"),
    ],
)
def test_malformed_responses(body: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        chat.decode_response(body, Notes())
    assert info.value.path == path


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("body", "status", "expected_status", "exc"),
    [
        (
            {"error": {"message": "bad", "type": "invalid_request_error", "param": "x", "code": None}},
            None,
            400,
            InvalidRequestError,
        ),
        (
            {
                "error": {
                    "message": "key",
                    "type": "invalid_request_error",
                    "param": None,
                    "code": "invalid_api_key",
                }
            },
            401,
            401,
            AuthenticationError,
        ),
        (
            {"error": {"message": "slow down", "type": "requests", "param": None, "code": None}},
            None,
            429,
            RateLimitError,
        ),
        (
            {"error": {"message": "oops", "type": "server_error", "param": None, "code": None}},
            None,
            500,
            ServerError,
        ),
        (
            {"error": {"code": 400, "message": "Provider returned error", "metadata": {"raw": "x"}}},
            None,
            400,
            InvalidRequestError,
        ),
        ({"error": "plain text", "request_id": "r"}, 503, 503, OverloadedError),  # one table: 503 overloaded
        ({"error": "plain text"}, 502, 502, ServerError),
        (
            {"object": "error", "message": "no model", "type": "NotFoundError", "param": None, "code": 404},
            None,
            404,
            InvalidRequestError,
        ),
    ],
)
def test_error_shapes(body: Any, status: int | None, expected_status: int, exc: type) -> None:
    notes = Notes("strict")
    info = chat.decode_error(body, status, notes)
    assert info.status == expected_status
    assert chat.encode_error(info, notes) == (expected_status, body)
    error = chat.error_to_exception(info)
    assert isinstance(error, exc) and error.status == expected_status and error.message == info.message


def test_error_from_another_format() -> None:
    notes = Notes("warn")
    overloaded = ErrorInfo(message="Overloaded", status=529, type="overloaded_error", origin="anthropic")
    assert chat.encode_error(overloaded, notes) == (
        529,
        {
            "error": {
                "message": "Overloaded",
                "type": "server_error",
                "code": "overloaded_error",
                "param": None,
            }
        },
    )
    gemini = ErrorInfo(message="bad arg", status=400, type="INVALID_ARGUMENT", code="400", origin="gemini")
    assert chat.encode_error(gemini, notes) == (
        400,
        {"error": {"message": "bad arg", "type": "invalid_request_error", "code": "400", "param": None}},
    )
    assert [k for _, k in _kinds(notes)] == ["renamed", "approximated"]
    assert isinstance(chat.error_to_exception(overloaded), OverloadedError)
    unknown = ErrorInfo(message="?", origin="gemini")
    assert chat.encode_error(unknown, Notes("drop"))[0] == 500


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ([], "$"),
        ({}, "$.error"),
        ({"error": 3}, "$.error"),
        ({"error": {"message": 1}}, "$.error.message"),
        ({"error": {"message": "m", "code": []}}, "$.error.code"),
    ],
)
def test_malformed_errors(body: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        chat.decode_error(body, 400, Notes())
    assert info.value.path == path


def test_empty_choices_and_null_usage_round_trip() -> None:
    body = {"id": "x", "object": "chat.completion", "choices": [], "usage": None}
    ir = chat.decode_response(body, Notes("strict"))
    assert ir.parts == () and ir.usage is None
    assert chat.encode_response(ir, Notes("strict")) == body
    partial = {"choices": [{"message": {"role": "assistant", "content": "x"}}]}  # no index, no finish_reason
    assert chat.encode_response(chat.decode_response(partial, Notes("strict")), Notes("strict")) == partial
