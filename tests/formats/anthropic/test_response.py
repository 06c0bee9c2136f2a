"""Anthropic responses (stop reasons, usage, cross-format encoding) and error bodies."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from toolwire.errors import (
    AuthenticationError,
    InvalidRequestError,
    OverloadedError,
    PayloadError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
)
from toolwire.formats.anthropic import (
    decode_error,
    decode_response,
    encode_error,
    encode_response,
    error_to_exception,
)
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


def _message(**fields: Any) -> dict[str, Any]:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": "Hi"}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    body.update(fields)
    return body


def _round_trip(body: dict[str, Any]) -> Response:
    notes = Notes("strict")
    resp = decode_response(body, notes)
    assert encode_response(resp, notes) == body
    return resp


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        ("end_turn", "end_turn"),
        ("max_tokens", "max_tokens"),
        ("stop_sequence", "stop_sequence"),
        ("tool_use", "tool_calls"),
        ("pause_turn", "pause"),
        ("refusal", "refusal"),
        ("model_context_window_exceeded", "max_tokens"),
        ("compaction", "pause"),
        ("something_new", "other"),
        (None, None),
    ],
)
def test_stop_reasons(raw: str | None, normalized: str | None) -> None:
    resp = _round_trip(_message(stop_reason=raw))
    assert (resp.stop_reason, resp.raw_stop_reason) == (normalized, raw)


def test_stop_sequence_is_kept() -> None:
    resp = _round_trip(_message(stop_reason="stop_sequence", stop_sequence="```"))
    assert resp.extra == {"stop_sequence": "```"}


def test_usage_includes_cache_in_input_tokens() -> None:
    usage = {
        "input_tokens": 10,
        "cache_creation_input_tokens": 200,
        "cache_read_input_tokens": 3000,
        "output_tokens": 50,
        "output_tokens_details": {"thinking_tokens": 20},
        "cache_creation": {"ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 0},
        "service_tier": "standard",
    }
    resp = _round_trip(_message(usage=usage))
    assert resp.usage == Usage(
        input_tokens=3210,
        output_tokens=50,
        cached_tokens=3000,
        cache_creation_tokens=200,
        reasoning_tokens=20,
        extra={
            "cache_creation": {"ephemeral_5m_input_tokens": 200, "ephemeral_1h_input_tokens": 0},
            "service_tier": "standard",
        },
    )


def test_usage_nulls_and_odd_details_are_kept() -> None:
    usage = {
        "input_tokens": 1,
        "output_tokens": 2,
        "cache_read_input_tokens": None,
        "output_tokens_details": {"thinking_tokens": 1, "other": 3},
    }
    resp = _round_trip(_message(usage=usage))
    assert resp.usage is not None
    assert resp.usage.input_tokens == 1
    assert resp.usage.cached_tokens is None


def test_response_blocks() -> None:
    content = [
        {"type": "thinking", "thinking": "t", "signature": "s=="},
        {"type": "text", "text": "a", "citations": [{"type": "char_location", "cited_text": "x"}]},
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_fetch", "input": {"url": "u"}},
        {"type": "web_fetch_tool_result", "tool_use_id": "srvtoolu_1", "content": {"type": "x"}},
        {"type": "container_upload", "file_id": "f"},
        {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}, "caller": {"type": "direct"}},
    ]
    resp = _round_trip(_message(content=content, stop_reason="tool_use", container={"id": "c"}))
    assert [type(p).__name__ for p in resp.parts] == [
        "ReasoningPart",
        "TextPart",
        "ToolCall",
        "ToolResult",
        "ToolCall",
    ]
    assert resp.tool_calls[1] == ToolCall(
        id="toolu_1", name="f", arguments="{}", extra={"caller": {"type": "direct"}}
    )
    assert resp.extra == {
        "container": {"id": "c"},
        "opaque_blocks": [[4, {"type": "container_upload", "file_id": "f"}]],
    }


def test_missing_required_fields_are_remembered() -> None:
    body = _message()
    del body["stop_sequence"]
    assert _round_trip(body).extra == {"~absent": ["stop_sequence"]}


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ([], "$"),
        ({"id": "x"}, "$.content"),
        (_message(content={}), "$.content"),
        (_message(content=[{"type": "tool_use", "id": "a", "name": "f"}]), "$.content[0].input"),
        (_message(usage=[]), "$.usage"),
        (_message(usage={"input_tokens": "1"}), "$.usage.input_tokens"),
        (_message(stop_reason=1), "$.stop_reason"),
    ],
)
def test_malformed_responses(body: Any, path: str) -> None:
    with pytest.raises(PayloadError) as err:
        decode_response(body, Notes())
    assert err.value.path == path


# ---------------------------------------------------------------- cross-format responses


def test_chat_response_becomes_a_message() -> None:
    resp = Response(
        id="chatcmpl-1",
        model="gpt-4o",
        parts=(TextPart(text="Let me check."), ToolCall(id="call_1", name="f", arguments='{"a":1}')),
        stop_reason="tool_calls",
        raw_stop_reason="tool_calls",
        usage=Usage(
            input_tokens=100, output_tokens=20, total_tokens=120, cached_tokens=80, reasoning_tokens=5
        ),
        created=1700000000,
        origin="openai-chat",
        extra={"system_fingerprint": "fp"},
    )
    notes = Notes("warn")
    assert encode_response(resp, notes) == {
        "id": "chatcmpl-1",
        "type": "message",
        "role": "assistant",
        "model": "gpt-4o",
        "content": [
            {"type": "text", "text": "Let me check."},
            {"type": "tool_use", "id": "call_1", "name": "f", "input": {"a": 1}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {
            "input_tokens": 20,
            "output_tokens": 20,
            "cache_read_input_tokens": 80,
            "output_tokens_details": {"thinking_tokens": 5},
        },
    }
    assert [(n.path, n.kind) for n in notes] == [("$.system_fingerprint", "dropped")]


def test_gemini_stop_with_calls_becomes_tool_use() -> None:
    resp = Response(
        id="r", model="gemini", parts=(ToolCall(id="c", name="f"),), stop_reason="end_turn", origin="gemini"
    )
    out = encode_response(resp, Notes("warn"))
    assert out["stop_reason"] == "tool_use"
    assert out["usage"] == {"input_tokens": 0, "output_tokens": 0}


def test_cross_format_response_losses_are_noted() -> None:
    resp = Response(
        parts=(
            ReasoningPart(text="thinking", origin="gemini", signature="sig"),
            RefusalPart(text="I can't."),
            ImagePart(url="https://x/img.png"),
        ),
        stop_reason="content_filter",
        error=ErrorInfo(message="bad"),
        origin="openai-responses",
    )
    notes = Notes("warn")
    out = encode_response(resp, notes)
    assert out["id"] == "msg_unknown"
    assert out["content"] == [{"type": "text", "text": "I can't."}]
    assert out["stop_reason"] == "refusal"
    assert [(n.path, n.kind, n.target, n.loss) for n in notes][:3] == [
        ("$", "synthesized", "$.id", False),
        ("$", "synthesized", "$.model", False),
        ("$", "synthesized", "$.usage", False),
    ]
    assert [(n.path, n.kind) for n in notes][3:] == [
        ("$.parts[0]", "dropped"),
        ("$.parts[1]", "approximated"),
        ("$.parts[2]", "dropped"),
        ("$.stop_reason", "approximated"),
        ("$.error", "dropped"),
    ]


def test_cached_tokens_above_input_are_clamped() -> None:
    resp = Response(
        id="r", model="m", usage=Usage(input_tokens=5, output_tokens=1, cached_tokens=9), origin="gemini"
    )
    notes = Notes("warn")
    assert encode_response(resp, notes)["usage"]["input_tokens"] == 0
    assert [n.kind for n in notes] == ["approximated"]


# ---------------------------------------------------------------- errors


def test_error_body_round_trip_and_status() -> None:
    body = {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "Overloaded"},
        "request_id": "req_1",
    }
    err = decode_error(body, None, Notes("strict"))
    assert err == ErrorInfo(
        message="Overloaded",
        status=529,
        type="overloaded_error",
        origin="anthropic",
        extra={"request_id": "req_1"},
    )
    assert encode_error(err, Notes("strict")) == (529, body)


@pytest.mark.parametrize(
    ("kind", "status", "exception"),
    [
        ("invalid_request_error", 400, InvalidRequestError),
        ("authentication_error", 401, AuthenticationError),
        ("billing_error", 402, ProviderError),
        ("permission_error", 403, PermissionDeniedError),
        ("not_found_error", 404, InvalidRequestError),
        ("request_too_large", 413, InvalidRequestError),
        ("rate_limit_error", 429, RateLimitError),
        ("api_error", 500, ServerError),
        ("timeout_error", 504, ServerError),
        ("overloaded_error", 529, OverloadedError),
    ],
)
def test_error_types(kind: str, status: int, exception: type[ProviderError]) -> None:
    body = {"type": "error", "error": {"type": kind, "message": "m"}}
    err = decode_error(body, None, Notes("strict"))
    assert err.status == status
    exc = error_to_exception(err)
    assert type(exc) is exception
    assert (exc.status, exc.type, exc.message) == (status, kind, "m")
    assert encode_error(err, Notes("strict")) == (status, body)


def test_error_from_another_format() -> None:
    err = ErrorInfo(
        message="Rate limit reached",
        status=429,
        type="requests",
        code="rate_limit_exceeded",
        origin="openai-chat",
    )
    notes = Notes("strict")
    assert encode_error(err, notes) == (
        429,
        {"type": "error", "error": {"type": "rate_limit_error", "message": "Rate limit reached"}},
    )
    assert [(n.path, n.kind) for n in notes] == [("$.code", "dropped")]
    gemini = ErrorInfo(message="unavailable", status=503, type="UNAVAILABLE", origin="gemini")
    assert encode_error(gemini, Notes())[1]["error"]["type"] == "overloaded_error"
    assert encode_error(ErrorInfo(message="?"), Notes()) == (
        500,
        {"type": "error", "error": {"type": "api_error", "message": "?"}},
    )


def test_plain_text_error_body() -> None:
    err = decode_error("Bad Gateway", 502, Notes())
    assert (err.message, err.status, err.type) == ("Bad Gateway", 502, "api_error")
    assert type(error_to_exception(err)) is ServerError


@pytest.mark.parametrize(
    ("body", "path"),
    [
        (None, "$"),
        ({"type": "error"}, "$.error"),
        ({"error": "x"}, "$.error"),
        ({"error": {"message": 3}}, "$.error.message"),
    ],
)
def test_malformed_error_bodies(body: Any, path: str) -> None:
    with pytest.raises(PayloadError) as err:
        decode_error(body, 400, Notes())
    assert err.value.path == path


def test_odd_error_shapes_round_trip() -> None:
    body = {"error": {"type": "invalid_request_error", "detail": "x"}}
    err = decode_error(body, 400, Notes("strict"))
    assert err.message == ""
    assert encode_error(err, Notes("strict")) == (400, body)


def test_exception_by_status_when_type_unknown() -> None:
    assert type(error_to_exception(ErrorInfo(message="m", status=503))) is OverloadedError
    # an unlisted 4xx is the plain status error, as in the official SDKs (toolwire.errors table)
    assert type(error_to_exception(ErrorInfo(message="m", status=418))) is ProviderError
    assert type(error_to_exception(ErrorInfo(message="m", status=413))) is InvalidRequestError
    assert type(error_to_exception(ErrorInfo(message="m"))) is ProviderError


_COUNTS = ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")


@pytest.mark.parametrize("present", [c for r in range(5) for c in itertools.combinations(_COUNTS, r)])
def test_usage_of_counts_only_decodes_as_the_general_code_does(present: tuple[str, ...]) -> None:
    """A usage of integer counts only takes a shortcut; the same counts as floats (which the
    shortcut leaves to the general code) give the same IR: the cached and cache-write counts are
    added to the input count, each count is kept, absent ones stay ``None``."""
    from toolwire.formats.anthropic._usage import decode_usage

    usage = {key: 7 * index + 3 for index, key in enumerate(present)}
    fast = decode_usage(usage)
    assert fast == decode_usage({key: float(value) for key, value in usage.items()})
    if "input_tokens" in usage:
        extra = usage.get("cache_read_input_tokens", 0) + usage.get("cache_creation_input_tokens", 0)
        assert fast.input_tokens == usage["input_tokens"] + extra
    assert fast.output_tokens == usage.get("output_tokens")
    assert fast.cached_tokens == usage.get("cache_read_input_tokens")
    assert fast.cache_creation_tokens == usage.get("cache_creation_input_tokens")
    with pytest.raises(PayloadError):  # a boolean is not a count: the general code says so
        decode_usage({**usage, "output_tokens": True})
