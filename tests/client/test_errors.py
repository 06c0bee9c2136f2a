"""Provider error answers of every format become typed errors (over HTTP), mapped in one place."""

from __future__ import annotations

import pytest

from tests.client.conftest import KEY, Server
from tests.client.payloads import MODELS, PROVIDER_FORMATS, native
from toolwire.client import Client, RetryPolicy
from toolwire.client._errors import map_http_error
from toolwire.errors import (
    AuthenticationError,
    InvalidRequestError,
    OverloadedError,
    ProviderError,
    RateLimitError,
    ServerError,
)

# fault -> the exception class every format must give (a subclass may be more specific)
EXPECTED: dict[str, type[ProviderError]] = {
    "429": RateLimitError,
    "401": AuthenticationError,
    "500": ServerError,
    "529": OverloadedError,
}
PROVIDER_TYPES = {  # the error type field as each provider spells it, for 429
    "openai-chat": "rate_limit_error",
    "openai-responses": "rate_limit_error",
    "anthropic": "rate_limit_error",
    "gemini": "RESOURCE_EXHAUSTED",
}


def once(server: Server, provider: str) -> Client:
    return Client(
        provider, base_url=server.url, api_key=KEY, model=MODELS[provider], retry=RetryPolicy(max_attempts=1)
    )


@pytest.mark.parametrize("provider", PROVIDER_FORMATS)
@pytest.mark.parametrize("fault", sorted(EXPECTED))
def test_status_faults_are_typed(server: Server, provider: str, fault: str) -> None:
    server.recorder.schedule(fault)
    with once(server, provider) as client, pytest.raises(ProviderError) as info:
        client.create(native(provider))
    exc = info.value
    assert isinstance(exc, EXPECTED[fault])
    assert exc.status == int(fault)
    assert exc.request_id == "req_1"
    assert exc.message
    assert isinstance(exc.body, dict)
    if fault == "429":
        assert exc.type == PROVIDER_TYPES[provider]
        assert getattr(exc, "retry_after", None) == 1.0


@pytest.mark.parametrize("provider", ["openai-chat", "openai-responses"])
def test_invalid_request_names_param(server: Server, provider: str) -> None:
    body = native(provider)
    if provider == "openai-chat":
        body["tools"][0]["function"]["name"] = "get weather!"
        param = "tools[0].function.name"
    else:
        body["tools"][0]["name"] = "get weather!"
        param = "tools[0].name"
    client = Client(provider, base_url=server.url, api_key=KEY, validate=False)
    with client, pytest.raises(InvalidRequestError) as info:
        client.create(body)
    assert info.value.param == param
    assert info.value.status == 400


def test_anthropic_invalid_request(server: Server) -> None:
    body = native("anthropic")
    body["tools"][0]["name"] = "get weather!"
    client = Client("anthropic", base_url=server.url, api_key=KEY, validate=False)
    with client, pytest.raises(InvalidRequestError) as info:
        client.create(body)
    assert info.value.type == "invalid_request_error"
    assert "tools.0" in info.value.message


def test_non_json_error_body_is_typed_by_status() -> None:
    exc = map_http_error("anthropic", 502, {"x-request-id": "r9"}, b"<html>Bad gateway</html>")
    assert isinstance(exc, ServerError)
    assert (exc.status, exc.request_id, exc.body) == (502, "r9", None)
    assert "Bad gateway" in exc.message


def test_foreign_error_shape_is_typed_by_status() -> None:
    exc = map_http_error("gemini", 429, {}, b'{"detail": "slow down"}')
    assert isinstance(exc, RateLimitError)
    assert exc.body == {"detail": "slow down"}


def test_retry_after_ms_header_is_read() -> None:
    exc = map_http_error("openai-chat", 429, {"retry-after-ms": "250"}, b"{}")
    assert getattr(exc, "retry_after", None) == 0.25
