"""boto3's ``bedrock-runtime`` client with ``toolwire serve`` as its ``endpoint_url``: Converse and
ConverseStream (AWS event-stream binary out of the gateway) reach an upstream of every format
(the emulator), a tool loop each, whole and streamed; errors come back as boto3 exceptions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.emulator.test_sdk_bedrock import MODEL, client, results, turn
from tests.emulator.tools import EXPECTED_ARGS, result_for
from toolwire.emulator import serve
from toolwire.gateway import create_app as gateway_app
from toolwire.hop._config import HopConfig, Route

boto3 = pytest.importorskip("boto3")
from botocore.exceptions import ClientError  # noqa: E402

UPSTREAMS = {"openai-chat": "/v1", "openai-responses": "/v1", "anthropic": "", "gemini": "", "bedrock": ""}
GATEWAY_ENV = {"AWS_ACCESS_KEY_ID": "AKIAGATEWAY", "AWS_SECRET_ACCESS_KEY": "gateway-secret"}


@pytest.fixture(autouse=True)
def _credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    """boto3's own dummy credentials (it signs its calls to the gateway), no config files read."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIACLIENT")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "client-secret")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)


@pytest.fixture(scope="module")
def emulator() -> Iterator[str]:
    with serve(log_level="critical") as url:
        yield url


@pytest.fixture(scope="module", params=sorted(UPSTREAMS))
def gateway(request: Any, emulator: str) -> Iterator[str]:
    # a Bedrock model id holds a ``:``, which a Gemini path cannot: that route renames the model
    rename = (Route("*", "upstream", "gemini-2.5-pro"),) if request.param == "gemini" else ()
    config = HopConfig.single(request.param, emulator + UPSTREAMS[request.param], model_map=rename)
    with serve(gateway_app(config, env=GATEWAY_ENV), log_level="critical") as url:
        yield url


@pytest.mark.parametrize("stream", [False, True])
def test_boto3_tool_loop_through_the_gateway(gateway: str, stream: bool) -> None:
    c = client(gateway)
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"text": "weather and time"}]}]
    first = turn(c, messages, stream)
    assert first["stopReason"] == "tool_use"
    message = first["output"]["message"]
    uses = [b["toolUse"] for b in message["content"] if "toolUse" in b]
    assert [(u["name"], u["input"]) for u in uses] == [
        (n, EXPECTED_ARGS[n]) for n in ("get_weather", "get_time")
    ]
    messages += [message, results(message)]
    second = turn(c, messages, stream)
    assert second["stopReason"] == "end_turn"
    texts = [b["text"] for b in second["output"]["message"]["content"] if "text" in b]
    assert texts == ["Results: " + "; ".join(f"{n} -> {result_for(n)}" for n in ("get_weather", "get_time"))]


def test_the_model_id_in_the_path_is_routed(emulator: str) -> None:
    """The model id comes from the path (percent-decoded: ``:`` and an ARN's ``/``)."""
    unrouted = HopConfig(upstreams=HopConfig.single("anthropic", emulator).upstreams, default=None)
    with serve(gateway_app(unrouted), log_level="critical") as url, pytest.raises(ClientError) as info:
        client(url).converse(modelId=MODEL, messages=[{"role": "user", "content": [{"text": "hi"}]}])
    error = info.value.response
    assert error["ResponseMetadata"]["HTTPStatusCode"] == 404
    assert MODEL in error["Error"]["Message"] and error["Error"]["Code"] == "ResourceNotFoundException"
