"""Upstream error answers -> the client's status and error body (``Exchange.error``), 16 pairs."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.hop.cases import DOTTED, FORMATS, PAIRS, inbound
from toolwire import Exchange

LIMITED = "Rate limit reached for requests"

# Each provider's documented rate-limit answer.
RATE_LIMITED: dict[str, dict[str, Any]] = {
    "openai-chat": {
        "error": {
            "message": "Rate limit reached for requests",
            "type": "requests",
            "param": None,
            "code": "rate_limit_exceeded",
        }
    },
    "openai-responses": {
        "error": {
            "message": "Rate limit reached for requests",
            "type": "requests",
            "param": None,
            "code": "rate_limit_exceeded",
        }
    },
    "anthropic": {
        "type": "error",
        "error": {"type": "rate_limit_error", "message": "Rate limit reached for requests"},
    },
    "gemini": {
        "error": {"code": 429, "message": "Rate limit reached for requests", "status": "RESOURCE_EXHAUSTED"}
    },
}


def _shape(client: str, body: dict[str, Any]) -> tuple[str, Any]:
    """(message, the client format's error kind) of a client error body, checking its shape."""
    if client == "anthropic":
        assert body["type"] == "error" and set(body["error"]) == {"type", "message"}
        return body["error"]["message"], body["error"]["type"]
    if client == "gemini":
        assert set(body) == {"error"} and {"code", "message", "status"} <= set(body["error"])
        return body["error"]["message"], (body["error"]["code"], body["error"]["status"])
    assert set(body) == {"error"} and {"message", "type", "code", "param"} == set(body["error"])
    return body["error"]["message"], body["error"]["type"]


RATE_LIMIT_KIND = {
    "anthropic": "rate_limit_error",
    "gemini": (429, "RESOURCE_EXHAUSTED"),
}


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_a_rate_limit_reaches_each_client_in_its_own_shape(client: str, upstream: str) -> None:
    status, body = Exchange(client, upstream).error(429, json.dumps(RATE_LIMITED[upstream]).encode())
    assert status == 429
    message, kind = _shape(client, body)
    assert message == "Rate limit reached for requests"
    if client in RATE_LIMIT_KIND:
        assert kind == RATE_LIMIT_KIND[client]
    elif client == upstream:
        assert body == RATE_LIMITED[client]  # same format: the body passes unchanged


@pytest.mark.parametrize("client", FORMATS)
def test_anthropic_overloaded_is_503_for_other_clients(client: str) -> None:
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    status, body = Exchange(client, "anthropic").error(529, json.dumps(overloaded))
    assert status == (529 if client == "anthropic" else 503)
    message, kind = _shape(client, body)
    assert message == "Overloaded"
    if client == "gemini":
        assert kind == (503, "UNAVAILABLE")
    if client == "anthropic":
        assert kind == "overloaded_error"


@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_a_body_in_no_error_shape_keeps_its_status_and_text(client: str, upstream: str) -> None:
    status, body = Exchange(client, upstream).error(502, b"<html><body>Bad Gateway</body></html>")
    assert status == 502
    message, _ = _shape(client, body)
    assert message == "<html><body>Bad Gateway</body></html>"


@pytest.mark.parametrize("status", [500, 401, 404])
@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_an_empty_body_keeps_its_status(client: str, upstream: str, status: int) -> None:
    out, body = Exchange(client, upstream).error(status, b"")
    assert out == status
    message, _ = _shape(client, body)
    assert message == f"HTTP {status}"


@pytest.mark.parametrize("client", ["openai-chat", "openai-responses", "gemini"])
def test_an_error_names_the_tool_as_the_client_knows_it(client: str) -> None:
    ex = Exchange(client, "anthropic")
    call = ex.request_http(inbound(client, stream=False))
    sent = call.json()["tools"][0]["name"]
    assert sent != DOTTED
    error = {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": f"tool {sent}: bad schema"},
    }
    status, body = ex.error(400, json.dumps(error).encode())
    assert status == 400
    message, _ = _shape(client, body)
    assert message == f"tool {DOTTED}: bad schema"
