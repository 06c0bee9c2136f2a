"""The ``bedrock`` provider: SigV4 signing (botocore's SigV4Auth as oracle), the credential chain,
a tool loop against the emulator, streamed as AWS event-stream binary, and no secret in logs."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from toolwire.client import TRACE, Client
from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.errors import MissingDependencyError, ProviderError
from toolwire.hop._aws import AwsAuth, bedrock_base_url, bedrock_region
from toolwire.hop._sigv4 import AwsCredentials, sign_headers
from toolwire.ir.content import TextPart, ToolCall

botocore = pytest.importorskip("botocore")
from botocore.auth import SigV4Auth  # noqa: E402
from botocore.awsrequest import AWSRequest  # noqa: E402
from botocore.credentials import Credentials  # noqa: E402

ACCESS = "AKIATOOLWIRETEST"
SECRET = "tOoLwIrE/s3cret+KEY/that-must-never-show"
TOKEN = "session-token-that-must-never-show"
MODEL = "anthropic.claude-3-5-sonnet-20240620-v1:0"
BODY: dict[str, Any] = {
    "messages": [{"role": "user", "content": [{"text": "Weather?"}]}],
    "toolConfig": {
        "tools": [
            {
                "toolSpec": {
                    "name": "get_weather",
                    "inputSchema": {"json": {"type": "object", "properties": {"city": {"type": "string"}}}},
                }
            }
        ]
    },
}


def _botocore(
    method: str, url: str, headers: dict[str, str], body: bytes, token: str | None
) -> dict[str, str]:
    request = AWSRequest(method=method, url=url, data=body, headers=headers)
    SigV4Auth(Credentials(ACCESS, SECRET, token), "bedrock", "eu-west-1").add_auth(request)
    return {k.lower(): v for k, v in request.headers.items()}


@pytest.mark.parametrize("token", [None, TOKEN])
@pytest.mark.parametrize(
    ("url", "headers"),
    [
        ("https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3%3A0/converse", {}),
        (
            "https://bedrock-runtime.eu-west-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Ax%2Fy/converse-stream",
            {"content-type": "application/json", "accept": "application/json", "x-custom": "  a   b  "},
        ),
        ("http://127.0.0.1:8123/model/m/converse?b=2&a=1&a=0", {"content-type": "application/json"}),
    ],
)
def test_signature_equals_botocore(url: str, headers: dict[str, str], token: str | None) -> None:
    body = b'{"messages":[{"role":"user","content":[{"text":"h\xc3\xa9"}]}]}'
    expected = _botocore("POST", url, dict(headers), body, token)
    stamp = dt.datetime.strptime(expected["x-amz-date"], "%Y%m%dT%H%M%SZ").replace(tzinfo=dt.UTC)
    ours = sign_headers(
        "POST", url, headers, body, AwsCredentials(ACCESS, SECRET, token), "eu-west-1", now=stamp
    )
    assert ours["authorization"] == expected["authorization"]
    assert ours.get("x-amz-security-token") == expected.get("x-amz-security-token")
    assert SECRET not in repr(AwsCredentials(ACCESS, SECRET, token)) and TOKEN not in repr(
        AwsCredentials(ACCESS, SECRET, TOKEN)
    )


def test_region_and_address_from_the_environment() -> None:
    assert bedrock_region({}) == "us-east-1"
    assert bedrock_region({"AWS_DEFAULT_REGION": "eu-west-3", "AWS_REGION": "ap-south-1"}) == "ap-south-1"
    assert (
        bedrock_base_url({"AWS_DEFAULT_REGION": "eu-west-3"})
        == "https://bedrock-runtime.eu-west-3.amazonaws.com"
    )
    assert bedrock_base_url({"AWS_ENDPOINT_URL_BEDROCK_RUNTIME": "http://x:1/"}) == "http://x:1"
    assert bedrock_base_url({"AWS_ENDPOINT_URL": "http://y:2"}) == "http://y:2"


def test_missing_botocore_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "botocore", None)
    auth = AwsAuth({})
    with pytest.raises(MissingDependencyError) as info:
        auth.credentials()
    assert info.value.extra == "bedrock" and "pip install 'toolwire[bedrock]'" in str(info.value)
    assert "\n" not in str(info.value)


def test_profile_credentials_come_from_botocore(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    creds = tmp_path / "credentials"
    creds.write_text(f"[work]\naws_access_key_id = {ACCESS}\naws_secret_access_key = {SECRET}\n")
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(creds))
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "none"))
    monkeypatch.setenv("AWS_PROFILE", "work")
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    found = AwsAuth({}).credentials()
    assert (found.access_key, found.secret_key) == (ACCESS, SECRET)


@pytest.fixture(scope="module")
def keyed() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(api_keys=(ACCESS, "bedrock-api-key"))), log_level="critical") as url:
        yield url


_AWS_VARS = (
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_PROFILE",
    "AWS_ENDPOINT_URL",
    "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
)


@pytest.fixture
def setenv(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Set the AWS variables of one test (every other one cleared)."""

    def apply(variables: dict[str, str]) -> None:
        for name in _AWS_VARS:
            monkeypatch.delenv(name, raising=False)
        for name, value in variables.items():
            monkeypatch.setenv(name, value)

    return apply


def _env(**extra: str) -> dict[str, str]:
    return {
        "AWS_ACCESS_KEY_ID": ACCESS,
        "AWS_SECRET_ACCESS_KEY": SECRET,
        "AWS_DEFAULT_REGION": "eu-west-1",
        **extra,
    }


@pytest.mark.parametrize("stream", [False, True])
def test_tool_loop_signed(keyed: str, stream: bool, setenv: Any) -> None:
    setenv(_env(AWS_SESSION_TOKEN=TOKEN))
    with Client("bedrock", model=MODEL, base_url=keyed) as client:
        if stream:
            with client.stream(BODY) as events:
                kinds = {type(e).__name__ for e in events}
                first = events.collect()
            assert {"PartStart", "ToolCallDelta", "PartEnd", "ResponseEnd"} <= kinds
        else:
            first = client.create(BODY).response
        (call,) = [p for p in first.parts if isinstance(p, ToolCall)]
        assert call.name == "get_weather" and call.id and call.id.startswith("tooluse_")
        assert first.stop_reason == "tool_calls"
        turn = {
            "role": "assistant",
            "content": [{"toolUse": {"toolUseId": call.id, "name": call.name, "input": {}}}],
        }
        result = {"toolResult": {"toolUseId": call.id, "content": [{"text": "sunny"}]}}
        body = {**BODY, "messages": [*BODY["messages"], turn, {"role": "user", "content": [result]}]}
        second = client.create(body).response
    assert second.stop_reason == "end_turn"
    assert [p.text for p in second.parts if isinstance(p, TextPart)] == ["Results: get_weather -> sunny"]


def test_bedrock_api_key_is_sent_as_bearer(keyed: str, setenv: Any) -> None:
    setenv({"AWS_BEARER_TOKEN_BEDROCK": "bedrock-api-key"})
    with Client("bedrock", model=MODEL, base_url=keyed) as client:
        assert client.create(BODY).response.stop_reason == "tool_calls"


def test_wrong_key_is_typed_and_secrets_never_show(
    keyed: str, caplog: pytest.LogCaptureFixture, setenv: Any
) -> None:
    with caplog.at_level(TRACE, logger="toolwire"):
        setenv(_env(AWS_SESSION_TOKEN=TOKEN))
        with Client("bedrock", model=MODEL, base_url=keyed) as client:
            client.create(BODY)
        setenv(_env(AWS_ACCESS_KEY_ID="AKIAWRONG", AWS_SESSION_TOKEN=TOKEN))
        with Client("bedrock", model=MODEL, base_url=keyed) as client, pytest.raises(ProviderError) as info:
            client.create(BODY)
    assert info.value.status == 403
    assert info.value.type == "AccessDeniedException"
    logged = [record.getMessage() for record in caplog.records]
    assert any(record.levelno == TRACE for record in caplog.records)
    assert any("[REDACTED]" in line for line in logged)
    for text in (*logged, str(info.value), repr(info.value.body)):
        assert SECRET not in text and TOKEN not in text
