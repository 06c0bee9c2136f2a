"""The gateway signs its calls to a Bedrock upstream with SigV4: the official OpenAI and Anthropic
SDKs run a tool loop, whole and streamed, through the gateway to the emulator, behind a check that
recomputes every signature with botocore; credentials from the upstream's config or the standard
variables; secrets never in logs or answers."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import anthropic
import openai
import pytest

from toolwire.emulator import EmulatorConfig, serve
from toolwire.emulator import create_app as emulator_app
from toolwire.gateway import create_app as gateway_app
from toolwire.hop._config import ConfigError, decode_config

botocore = pytest.importorskip("botocore")
from botocore.auth import SigV4Auth  # noqa: E402
from botocore.awsrequest import AWSRequest  # noqa: E402
from botocore.credentials import Credentials  # noqa: E402

ACCESS = "AKIAGATEWAYSIGV4TEST"
SECRET = "gAtEwAy/s3cret+KEY/that-must-never-show"
TOKEN = "gateway-session-token-that-must-never-show"
REGION = "eu-west-1"
MODEL = "anthropic.claude-3-5-sonnet-20240620-v1:0"
CONFIG_ENV = {"TW_BEDROCK_AK": ACCESS, "TW_BEDROCK_SK": SECRET, "TW_BEDROCK_ST": TOKEN}
STANDARD_ENV = {"AWS_ACCESS_KEY_ID": ACCESS, "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_REGION": REGION}


class SigV4Check:
    """ASGI wrapper: answers 403 unless the request's SigV4 signature is what botocore computes
    for the known credentials (over the headers the request says it signed); records the verdicts."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.seen: list[tuple[str, bool, str | None]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        chunks, more = [], True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        body = b"".join(chunks)
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        ok = _valid(scope, headers, body)
        self.seen.append((scope["path"], ok, headers.get("x-amz-security-token")))
        if not ok:
            await send({"type": "http.response.start", "status": 403, "headers": []})
            return await send({"type": "http.response.body", "body": b'{"message":"bad signature"}'})
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)


def _valid(scope: Any, headers: dict[str, str], body: bytes) -> bool:
    auth = headers.get("authorization", "")
    if not auth.startswith("AWS4-HMAC-SHA256 "):
        return False
    fields = dict(part.strip().split("=", 1) for part in auth[len("AWS4-HMAC-SHA256 ") :].split(","))
    signed = fields["SignedHeaders"].split(";")
    raw_path = scope.get("raw_path") or scope["path"].encode()
    url = f"http://{headers['host']}{raw_path.decode()}"
    request = AWSRequest(method=scope["method"], url=url, data=body, headers={n: headers[n] for n in signed})
    request.context["timestamp"] = headers["x-amz-date"]
    signer = SigV4Auth(Credentials(ACCESS, SECRET, headers.get("x-amz-security-token")), "bedrock", REGION)
    canonical = signer.canonical_request(request)
    expected = signer.signature(signer.string_to_sign(request, canonical), request)
    scope_ok = fields["Credential"] == f"{ACCESS}/{headers['x-amz-date'][:8]}/{REGION}/bedrock/aws4_request"
    return scope_ok and fields["Signature"] == expected


@pytest.fixture(scope="module")
def upstream() -> Iterator[tuple[str, SigV4Check]]:
    check = SigV4Check(emulator_app(EmulatorConfig(api_keys=(ACCESS,))))
    with serve(check, log_level="critical") as url:
        yield url, check


def _config(url: str, **aws: str) -> Any:
    table = {"format": "bedrock", "base_url": url, **aws}
    return decode_config({"upstreams": {"br": table}, "default": {"upstream": "br"}}, env={})


@pytest.fixture(scope="module", params=["config", "standard"])
def gateway(request: Any, upstream: tuple[str, SigV4Check]) -> Iterator[tuple[str, str]]:
    url, _ = upstream
    if request.param == "config":  # the upstream names its variables (temporary credentials)
        config = _config(
            url,
            region=REGION,
            access_key_env="TW_BEDROCK_AK",
            secret_key_env="TW_BEDROCK_SK",
            session_token_env="TW_BEDROCK_ST",
        )
        env = CONFIG_ENV
    else:  # the standard AWS variables, region included
        config, env = _config(url), STANDARD_ENV
    with serve(gateway_app(config, env=env), log_level="critical") as gw:
        yield gw, request.param


TOOLS: list[Any] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}},
                "required": ["city"],
            },
        },
    }
]


def _chat_loop(base: str, stream: bool) -> str:
    client = openai.OpenAI(base_url=f"{base}/v1", api_key="client-key", max_retries=0)
    messages: list[Any] = [{"role": "user", "content": "Weather?"}]
    args: dict[str, Any] = {"model": MODEL, "tools": TOOLS}
    if stream:
        chunks = list(client.chat.completions.create(messages=messages, stream=True, **args))
        calls = [d for c in chunks if c.choices for d in c.choices[0].delta.tool_calls or ()]
        call_id, name = calls[0].id, calls[0].function.name  # type: ignore[union-attr]
        arguments = "".join(d.function.arguments or "" for d in calls)  # type: ignore[union-attr]
    else:
        (call,) = (
            client.chat.completions.create(messages=messages, **args).choices[0].message.tool_calls or []
        )
        call_id, name, arguments = call.id, call.function.name, call.function.arguments  # type: ignore[union-attr]
    assert name == "get_weather" and json.loads(arguments) == {"city": "city"}
    messages += [
        {
            "role": "assistant",
            "tool_calls": [
                {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
            ],
        },
        {"role": "tool", "tool_call_id": call_id, "content": "sunny"},
    ]
    return client.chat.completions.create(messages=messages, **args).choices[0].message.content or ""


def _anthropic_loop(base: str, stream: bool) -> str:
    client = anthropic.Anthropic(base_url=base, api_key="client-key", max_retries=0)
    tools: list[Any] = [{"name": "get_weather", "input_schema": TOOLS[0]["function"]["parameters"]}]
    messages: list[Any] = [{"role": "user", "content": "Weather?"}]
    args: dict[str, Any] = {"model": MODEL, "max_tokens": 256, "tools": tools}
    if stream:
        with client.messages.stream(messages=messages, **args) as s:
            first = s.get_final_message()
    else:
        first = client.messages.create(messages=messages, **args)
    assert first.stop_reason == "tool_use"
    (use,) = [b for b in first.content if b.type == "tool_use"]
    assert use.name == "get_weather" and use.input == {"city": "city"}
    messages += [
        {"role": "assistant", "content": [b.model_dump(exclude_none=True) for b in first.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": use.id, "content": "sunny"}]},
    ]
    second = client.messages.create(messages=messages, **args)
    return "".join(b.text for b in second.content if b.type == "text")


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("loop", [_chat_loop, _anthropic_loop], ids=["openai", "anthropic"])
def test_sdk_tool_loop_through_a_sigv4_upstream(
    gateway: tuple[str, str],
    upstream: tuple[str, SigV4Check],
    loop: Any,
    stream: bool,
    caplog: pytest.LogCaptureFixture,
) -> None:
    base, source = gateway
    check = upstream[1]
    check.seen.clear()
    with caplog.at_level(logging.DEBUG):
        answer = loop(base, stream)
    assert answer == "Results: get_weather -> sunny"
    suffix = "/converse-stream" if stream else "/converse"
    assert [(path.endswith(suffix), ok) for path, ok, _ in check.seen[:1]] == [(True, True)]
    assert all(ok for _, ok, _ in check.seen) and len(check.seen) == 2
    tokens = {token for _, _, token in check.seen}
    assert tokens == ({TOKEN} if source == "config" else {None})
    assert SECRET not in caplog.text and TOKEN not in caplog.text


def test_a_wrong_secret_is_refused_by_the_check(upstream: tuple[str, SigV4Check]) -> None:
    """The check is real: a signature made with another secret does not pass it."""
    env = {**STANDARD_ENV, "AWS_SECRET_ACCESS_KEY": "another-secret"}
    url, check = upstream
    with serve(gateway_app(_config(url), env=env), log_level="critical") as gw:
        client = openai.OpenAI(base_url=f"{gw}/v1", api_key="k", max_retries=0)
        with pytest.raises(openai.PermissionDeniedError) as info:
            client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}])
    assert check.seen[-1][1] is False
    assert "another-secret" not in str(info.value.body) and "another-secret" not in str(info.value)


def test_unset_configured_variables_answer_500_naming_no_value(upstream: tuple[str, SigV4Check]) -> None:
    config = _config(upstream[0], access_key_env="TW_UNSET_AK", secret_key_env="TW_UNSET_SK")
    with serve(gateway_app(config, env={"TW_UNSET_AK": ACCESS}), log_level="critical") as gw:
        client = openai.OpenAI(base_url=f"{gw}/v1", api_key="k", max_retries=0)
        with pytest.raises(openai.InternalServerError) as info:
            client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}])
    assert info.value.status_code == 500
    assert "credentials" in str(info.value) and ACCESS not in str(info.value)


def test_sigv4_settings_are_refused_on_other_formats() -> None:
    data = {"upstreams": {"x": {"format": "anthropic", "base_url": "http://h", "region": "eu-west-1"}}}
    with pytest.raises(ConfigError, match=r"upstreams\.x\.region: only a Bedrock upstream signs with SigV4"):
        decode_config(data, env={})
