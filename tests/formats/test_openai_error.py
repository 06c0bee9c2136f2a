"""The OpenAI error object is one codec for Chat and Responses (``formats/_openai_error.py``):
the same status, type and exception for the same error, whichever of the two formats says it."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import InvalidRequestError, OverloadedError, PayloadError, ProviderError, RateLimitError
from toolwire.formats import openai_chat, openai_responses
from toolwire.ir import ErrorInfo
from toolwire.ir.notes import Notes

CODECS = [openai_chat, openai_responses]


@pytest.mark.parametrize("codec", CODECS, ids=["chat", "responses"])
@pytest.mark.parametrize(
    ("err", "status", "kind", "code", "note"),
    [
        # Anthropic's 404 type: OpenAI sends a 404 as invalid_request_error (code model_not_found)
        (
            ErrorInfo(message="m", status=404, type="not_found_error", origin="anthropic"),
            404,
            "invalid_request_error",
            "not_found_error",
            "renamed",
        ),
        # a 4xx no table lists: still an OpenAI type, the foreign one kept as the code
        (
            ErrorInfo(message="m", status=418, type="teapot", origin="anthropic"),
            418,
            "invalid_request_error",
            "teapot",
            "renamed",
        ),
        # the code is taken: the foreign type is approximated, with a note
        (
            ErrorInfo(message="m", status=413, type="request_too_large", code="big", origin="anthropic"),
            413,
            "invalid_request_error",
            "big",
            "approximated",
        ),
        (
            ErrorInfo(message="m", status=503, type="UNAVAILABLE", origin="gemini"),
            503,
            "server_error",
            "UNAVAILABLE",
            "renamed",
        ),
        (
            ErrorInfo(message="m", status=429, type="rate_limit_error", origin="anthropic"),
            429,
            "rate_limit_error",
            None,
            None,
        ),
        # no status: from the type, else HTTP 500 with a note
        (
            ErrorInfo(message="m", type="rate_limit_error", origin="anthropic"),
            429,
            "rate_limit_error",
            None,
            None,
        ),
        (ErrorInfo(message="m", type="odd", origin="gemini"), 500, "server_error", "odd", "synthesized"),
    ],
)
def test_an_error_of_another_format(
    codec: Any, err: ErrorInfo, status: int, kind: str, code: str | None, note: str | None
) -> None:
    notes = Notes()
    got_status, body = codec.encode_error(err, notes)
    assert got_status == status
    assert body == {"error": {"message": "m", "type": kind, "code": code, "param": None}}
    assert note is None or note in [n.kind for n in notes]
    assert note is not None or not list(notes)


@pytest.mark.parametrize("codec", CODECS, ids=["chat", "responses"])
@pytest.mark.parametrize(
    ("error", "status", "expected", "cls"),
    [
        ({"message": "m", "code": 429}, None, 429, RateLimitError),  # OpenRouter: the status as code
        ({"message": "m", "code": 200}, None, None, ProviderError),  # not an error status
        ({"message": "m", "type": "tokens"}, None, 429, RateLimitError),  # OpenAI's rate-limit types
        ({"message": "m", "code": "model_not_found"}, None, 404, InvalidRequestError),
        ({"message": "m", "type": "server_error"}, 503, 503, OverloadedError),
        ({"message": "m", "type": "overloaded_error"}, 500, 500, OverloadedError),
        ({"message": "m"}, 413, 413, InvalidRequestError),
    ],
)
def test_status_and_exception(
    codec: Any, error: dict[str, Any], status: int | None, expected: int | None, cls: type
) -> None:
    info = codec.decode_error({"error": error}, status, Notes())
    assert info.status == expected
    assert type(codec.error_to_exception(info)) is cls
    assert codec.encode_error(info, Notes())[1] == {"error": error}


@pytest.mark.parametrize("codec", CODECS, ids=["chat", "responses"])
def test_a_code_of_another_json_type_is_refused_with_its_path(codec: Any) -> None:
    with pytest.raises(PayloadError, match=r"\$\.error\.code: expected a string or an integer, got array"):
        codec.decode_error({"error": {"message": "m", "code": [1]}}, 400, Notes())
