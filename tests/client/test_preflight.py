"""Invalid requests are refused locally with the validator's message and never sent."""

from __future__ import annotations

from typing import Any

import pytest

from tests.client.conftest import KEY, Server
from tests.client.payloads import MODELS, native
from toolwire.client import Client, RequestRejectedError, ResponsesOptions, check_request
from toolwire.validate import validate


def rejected(server: Server, provider: str, body: dict[str, Any], **kwargs: Any) -> RequestRejectedError:
    client = Client(provider, base_url=server.url, api_key=KEY, model=MODELS[provider], **kwargs)
    with client, pytest.raises(RequestRejectedError) as info:
        client.create(body)
    assert server.requests == []  # never sent
    return info.value


def test_responses_needs_input(server: Server) -> None:
    body = native("openai-responses")
    del body["input"]
    exc = rejected(server, "openai-responses", body)
    assert exc.path == "$.input"
    assert exc.problems[0].code == "missing_field"


def test_responses_needs_instructions_when_required(server: Server) -> None:
    body = native("openai-responses")
    del body["instructions"]
    exc = rejected(server, "openai-responses", body, options=ResponsesOptions(require_instructions=True))
    assert exc.path == "$.instructions"


def test_bad_tool_name_is_refused(server: Server) -> None:
    body = native("anthropic")
    body["tools"][0]["name"] = "get weather!"
    exc = rejected(server, "anthropic", body)
    assert exc.path == "$.tools[0].name"
    assert exc.problems[0].code == "invalid_tool_name"


def test_gemini_needs_contents(server: Server) -> None:
    exc = rejected(server, "gemini", {"contents": []})
    assert exc.path == "$.contents"


def test_conformance_validator_message_is_used(server: Server) -> None:
    body = native("openai-chat")
    body["messages"].append({"role": "tool", "tool_call_id": "call_missing", "content": "18C"})
    expected = validate({**body, "stream": False}, format="openai-chat")
    assert expected, "the validator is expected to reject an orphan tool message"
    exc = rejected(server, "openai-chat", body)
    assert exc.problems == expected
    assert exc.path == expected[0].path
    assert expected[0].message in str(exc)


def test_translated_request_is_checked_in_the_provider_format(server: Server) -> None:
    body = native("openai-chat")
    # a schema root that is no object goes through translation as written; Anthropic refuses it
    body["tools"] = [{"type": "function", "function": {"name": "f", "parameters": {"type": "string"}}}]
    client = Client("anthropic", base_url=server.url, api_key=KEY)
    with client, pytest.raises(RequestRejectedError) as info:
        client.create(body, format="openai-chat")
    assert info.value.path == "$.tools[0].input_schema.type"
    assert server.requests == []


def test_validation_can_be_turned_off(server: Server) -> None:
    body = native("openai-responses")
    del body["instructions"]
    with Client("openai-responses", base_url=server.url, api_key=KEY, validate=False) as client:
        client.create(body)
    assert len(server.requests) == 1


def test_check_request_accepts_valid_bodies() -> None:
    for fmt in ("openai-chat", "openai-responses", "anthropic", "gemini"):
        assert check_request(native(fmt), fmt) == []
