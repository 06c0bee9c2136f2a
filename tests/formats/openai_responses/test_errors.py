"""Responses HTTP error bodies and the typed exceptions they map to."""

from __future__ import annotations

import pytest

from toolwire.errors import (
    AuthenticationError,
    InvalidRequestError,
    OverloadedError,
    PayloadError,
    ProviderError,
    RateLimitError,
    ServerError,
)
from toolwire.formats import openai_responses as resp
from toolwire.ir import ErrorInfo, Notes

BODY = {
    "error": {
        "message": "Unsupported parameter: 'temperature'.",
        "type": "invalid_request_error",
        "param": "temperature",
        "code": None,
    }
}


def test_decode_and_encode_error() -> None:
    notes = Notes("strict")
    info = resp.decode_error(BODY, None, notes)
    assert (info.status, info.type, info.param, info.code) == (
        400,
        "invalid_request_error",
        "temperature",
        None,
    )
    assert resp.encode_error(info, notes) == (400, BODY)
    assert isinstance(resp.error_to_exception(info), InvalidRequestError)


@pytest.mark.parametrize(
    ("status", "kind", "cls"),
    [
        (401, "authentication_error", AuthenticationError),
        (429, "insufficient_quota", RateLimitError),
        (529, "overloaded_error", OverloadedError),
        (503, "server_error", OverloadedError),  # one status table for every format (toolwire.errors)
        (500, "server_error", ServerError),
        (413, "invalid_request_error", InvalidRequestError),
        (418, None, ProviderError),
    ],
)
def test_exception_mapping(status: int, kind: str | None, cls: type) -> None:
    info = resp.decode_error({"error": {"message": "x", "type": kind}}, status, Notes())
    exc = resp.error_to_exception(info)
    assert type(exc) is cls and exc.status == status and exc.type == kind


def test_error_of_another_format() -> None:
    info = ErrorInfo(message="Overloaded", status=529, type="overloaded_error", origin="anthropic")
    notes = Notes()
    status, body = resp.encode_error(info, notes)
    assert (status, body) == (
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
    assert [n.kind for n in notes] == ["renamed"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ([], "$"),
        ({"detail": "x"}, "$.error"),
        ({"error": "text"}, "$.error"),
        ({"error": {"code": []}}, "$.error.code"),
    ],
)
def test_malformed_error_bodies(body: object, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        resp.decode_error(body, 500, Notes())
    assert info.value.path == path
