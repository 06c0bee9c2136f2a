"""The official SDKs see each fault through the gateway as their own provider's error.

Each SDK (openai Chat and Responses, anthropic, google-genai) calls the ASGI gateway on loopback
and through :class:`~toolwire.gateway.Transport` in-process (``Transport.client()`` for the
openai and anthropic SDKs, which take an ``httpx2`` client), with SDK retries off. The exception
type is the one the SDK raises for that status from its own provider; a stream broken midway
raises (or, for Responses, ends with) the SDK's own error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import anthropic
import httpx
import openai
import pytest
from google import genai
from google.genai import errors as genai_errors
from google.genai import types

from tests.gateway._faultkit import (
    ENV,
    FORMATS,
    GATEWAY_KEY,
    MAX_BODY,
    TEXT,
    TOOL,
    UPSTREAM_KEY,
    WRONG_KEY,
    assert_clean,
    fault_config,
    model_name,
    no_key_in_logs,
    watchdog,
)
from tests.gateway.test_faults import MID_STREAM, STATUS, _upstream
from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.gateway import Transport
from toolwire.gateway import create_app as gateway_app
from toolwire.hop._config import HopConfig

__all__ = ["no_key_in_logs", "watchdog"]

SDK_ERROR: dict[str, dict[int, type[Exception]]] = {
    "openai": {401: openai.AuthenticationError, 413: openai.APIStatusError, 429: openai.RateLimitError,
               500: openai.InternalServerError, 502: openai.InternalServerError,
               503: openai.InternalServerError, 504: openai.InternalServerError},
    "anthropic": {401: anthropic.AuthenticationError, 413: anthropic.ContentTooLargeError,
                  429: anthropic.RateLimitError, 500: anthropic.InternalServerError,
                  502: anthropic.InternalServerError, 504: anthropic.GatewayTimeoutError,
                  529: anthropic.OverloadedError},
}  # fmt: skip
"""SDK -> status -> the exact exception class it raises (google-genai: ClientError / ServerError)."""


@pytest.fixture(scope="module")
def config() -> Iterator[HopConfig]:
    with serve(create_app(EmulatorConfig(api_keys=(UPSTREAM_KEY,))), log_level="critical") as url:
        yield fault_config(url)


@pytest.fixture(scope="module")
def gateway(config: HopConfig) -> Iterator[str]:
    with serve(gateway_app(config, env=ENV), log_level="critical") as url:
        yield url


def _chat(base: str, key: str, model: str, stream: bool, text: str, http: Any = None) -> Any:
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=key, max_retries=0, timeout=20, http_client=http)
    tools: Any = [{"type": "function", "function": {"name": TOOL["name"], "parameters": TOOL["schema"]}}]
    messages: Any = [{"role": "user", "content": text}]
    answer = client.chat.completions.create(model=model, messages=messages, tools=tools, stream=stream)
    return list(answer) if stream else answer  # type: ignore[arg-type]


def _responses(base: str, key: str, model: str, stream: bool, text: str, http: Any = None) -> Any:
    client = openai.OpenAI(base_url=f"{base}/v1", api_key=key, max_retries=0, timeout=20, http_client=http)
    tools: Any = [{"type": "function", "name": TOOL["name"], "parameters": TOOL["schema"], "strict": False}]
    answer = client.responses.create(model=model, input=text, tools=tools, stream=stream)
    return list(answer) if stream else answer  # type: ignore[call-overload]


def _anthropic(base: str, key: str, model: str, stream: bool, text: str, http: Any = None) -> Any:
    client = anthropic.Anthropic(base_url=base, api_key=key, max_retries=0, timeout=20, http_client=http)
    tools: Any = [{"name": TOOL["name"], "input_schema": TOOL["schema"]}]
    messages: Any = [{"role": "user", "content": text}]
    answer = client.messages.create(
        model=model, max_tokens=256, messages=messages, tools=tools, stream=stream
    )
    return list(answer) if stream else answer  # type: ignore[call-overload]


def _gemini_client(key: str, base: str | None = None, http: httpx.Client | None = None) -> genai.Client:
    options = types.HttpOptions(
        base_url=base, httpx_client=http, retry_options=types.HttpRetryOptions(attempts=1), timeout=20_000
    )
    return genai.Client(api_key=key, http_options=options)


def _gemini_call(client: genai.Client, model: str, stream: bool, text: str) -> Any:
    decl = types.FunctionDeclaration(name=TOOL["name"], parameters_json_schema=TOOL["schema"])
    config = types.GenerateContentConfig(tools=[types.Tool(function_declarations=[decl])])
    if stream:
        return list(client.models.generate_content_stream(model=model, contents=text, config=config))
    return client.models.generate_content(model=model, contents=text, config=config)


def _gemini(base: str, key: str, model: str, stream: bool, text: str, http: Any = None) -> Any:
    return _gemini_call(_gemini_client(key, base, http), model, stream, text)


CALLS: dict[str, Callable[..., Any]] = {
    "openai-chat": _chat,
    "openai-responses": _responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
}


def _expected(client: str, status: int) -> type[Exception]:
    if client == "gemini":
        return genai_errors.ClientError if status < 500 else genai_errors.ServerError
    return SDK_ERROR["anthropic" if client == "anthropic" else "openai"][status]


def _status(exc: Exception) -> int:
    value = getattr(exc, "status_code", None) or getattr(exc, "code", None)
    assert isinstance(value, int), exc
    return value


def _check_raised(client: str, status: int, exc: Exception) -> None:
    assert type(exc) is _expected(client, status), repr(exc)
    assert _status(exc) == status
    assert_clean(str(exc), repr(getattr(exc, "body", None)), repr(getattr(exc, "details", None)))


def _check_mid_stream(client: str, call: Callable[[], Any]) -> None:
    """A stream that broke after it began: the SDK's own stream error."""
    if client == "openai-responses":  # the SDK yields the failure as the last event
        kinds = [event.type for event in call()]
        assert kinds[-1] == "response.failed" and "response.completed" not in kinds
        return
    with pytest.raises(Exception) as info:
        call()
    exc = info.value
    if client == "openai-chat":
        assert type(exc) is openai.APIError and exc.body["code"] in {"incomplete_stream", "malformed_event"}  # type: ignore[index]
    elif client == "anthropic":
        assert type(exc) is anthropic.APIStatusError and exc.body["type"] == "error"  # type: ignore[index]
    else:
        assert type(exc) is genai_errors.ServerError and exc.code == 500
    assert_clean(str(exc))


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize("fault", list(STATUS))
def test_the_sdk_raises_its_own_error(gateway: str, client: str, fault: str, stream: bool) -> None:
    model = model_name(fault, _upstream(fault, client))
    call = CALLS[client]
    if stream and fault in MID_STREAM:
        _check_mid_stream(client, lambda: call(gateway, GATEWAY_KEY, model, True, TEXT))
        return
    with pytest.raises(Exception) as info:
        call(gateway, GATEWAY_KEY, model, stream, TEXT)
    _check_raised(client, STATUS[fault][client], info.value)
    if fault == "r429" and client != "gemini":
        assert info.value.response.headers["retry-after"] == "2"  # type: ignore[attr-defined]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("client", FORMATS)
@pytest.mark.parametrize("fault", list(STATUS))
def test_the_sdk_through_the_transport_raises_its_own_error(
    config: HopConfig, client: str, fault: str, stream: bool
) -> None:
    model = model_name(fault, _upstream(fault, client))
    with Transport(config, env=ENV) as transport:
        http = httpx.Client(transport=transport) if client == "gemini" else transport.client(timeout=20)
        with http:
            call = CALLS[client]
            base = "http://gateway.test"
            if stream and fault in MID_STREAM:
                _check_mid_stream(client, lambda: call(base, GATEWAY_KEY, model, True, TEXT, http))
                return
            with pytest.raises(Exception) as info:
                call(base, GATEWAY_KEY, model, stream, TEXT, http)
    _check_raised(client, STATUS[fault][client], info.value)


@pytest.mark.parametrize("client", FORMATS)
def test_a_wrong_gateway_key_is_the_sdks_authentication_error(gateway: str, client: str) -> None:
    with pytest.raises(Exception) as info:
        CALLS[client](gateway, WRONG_KEY, model_name("ok", _upstream("ok", client)), False, TEXT)
    _check_raised(client, 401, info.value)


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize("client", FORMATS)
def test_an_oversized_body_is_the_sdks_413(gateway: str, client: str, stream: bool) -> None:
    model = model_name("ok", _upstream("ok", client))
    with pytest.raises(Exception) as info:
        CALLS[client](gateway, GATEWAY_KEY, model, stream, TEXT + "x" * MAX_BODY)
    _check_raised(client, 413, info.value)


@pytest.mark.parametrize("client", FORMATS)
def test_the_same_sdk_call_without_a_fault_succeeds(gateway: str, client: str) -> None:
    """The control: everything above differs only by the fault."""
    answer = CALLS[client](gateway, GATEWAY_KEY, model_name("ok", _upstream("ok", client)), False, TEXT)
    assert TOOL["name"] in str(answer)
