"""The official ``boto3`` ``bedrock-runtime`` client against the emulator: Converse and
ConverseStream (AWS event-stream binary), a tool loop, signed reasoning, SigV4 keys, errors."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.emulator.conftest import API_KEY
from tests.emulator.tools import EXPECTED_ARGS, SCHEMAS, result_for

boto3 = pytest.importorskip("boto3")
from botocore.config import Config  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402

MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0"
THINKING = {"thinking": {"type": "enabled", "budget_tokens": 1024}}


@pytest.fixture(autouse=True)
def _credentials(monkeypatch: pytest.MonkeyPatch) -> None:
    """Dummy credentials from the environment (the standard chain), no config files read."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAEMULATOR")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "emulator-secret")
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    monkeypatch.setenv("AWS_CONFIG_FILE", "/nonexistent")
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)


def client(url: str) -> Any:
    session = boto3.session.Session()  # a fresh credential chain: the environment as set now
    return session.client("bedrock-runtime", endpoint_url=url, config=Config(retries={"max_attempts": 1}))


def tool_config() -> dict[str, Any]:
    return {"tools": [{"toolSpec": {"name": n, "inputSchema": {"json": s}}} for n, s in SCHEMAS.items()]}


def collect(stream: Iterator[dict[str, Any]]) -> dict[str, Any]:
    """A ConverseStream read the way a boto3 user assembles it: a Converse-shaped answer."""
    blocks: dict[int, dict[str, Any]] = {}
    stop, usage = None, None
    for event in stream:
        ((kind, body),) = event.items()
        if kind == "contentBlockStart":
            use = body["start"]["toolUse"]
            blocks[body["contentBlockIndex"]] = {"toolUse": {**use, "input": ""}}
        elif kind == "contentBlockDelta":
            delta, index = body["delta"], body["contentBlockIndex"]
            if "text" in delta:
                blocks.setdefault(index, {"text": ""})["text"] += delta["text"]
            elif "toolUse" in delta:
                blocks[index]["toolUse"]["input"] += delta["toolUse"]["input"]
            else:
                block = blocks.setdefault(index, {"reasoningContent": {"reasoningText": {"text": ""}}})
                reasoning = block["reasoningContent"]["reasoningText"]
                part = delta["reasoningContent"]
                reasoning["text"] += part.get("text", "")
                if "signature" in part:
                    reasoning["signature"] = part["signature"]
        elif kind == "messageStop":
            stop = body["stopReason"]
        elif kind == "metadata":
            usage = body["usage"]
    for block in blocks.values():
        if "toolUse" in block:
            block["toolUse"]["input"] = json.loads(block["toolUse"]["input"])
    content = [blocks[i] for i in sorted(blocks)]
    return {
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop,
        "usage": usage,
    }


def turn(c: Any, messages: list[dict[str, Any]], stream: bool, **kw: Any) -> dict[str, Any]:
    args = {"modelId": MODEL, "messages": messages, "toolConfig": tool_config(), **kw}
    if not stream:
        answer: dict[str, Any] = c.converse(**args)
        return answer
    response = c.converse_stream(**args)
    assert response["ResponseMetadata"]["HTTPHeaders"]["content-type"] == "application/vnd.amazon.eventstream"
    return collect(response["stream"])


def results(message: dict[str, Any]) -> dict[str, Any]:
    uses = [b["toolUse"] for b in message["content"] if "toolUse" in b]
    content = [
        {"toolResult": {"toolUseId": u["toolUseId"], "content": [{"text": result_for(u["name"])}]}}
        for u in uses
    ]
    return {"role": "user", "content": content}


@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize(
    ("text", "expected"), [("Weather?", ["get_weather"]), ("weather and time", ["get_weather", "get_time"])]
)
def test_tool_loop(url: str, stream: bool, text: str, expected: list[str]) -> None:
    c = client(url)
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"text": text}]}]
    first = turn(c, messages, stream)
    assert first["stopReason"] == "tool_use"
    message = first["output"]["message"]
    uses = [b["toolUse"] for b in message["content"] if "toolUse" in b]
    assert [(u["name"], u["input"]) for u in uses] == [(n, EXPECTED_ARGS[n]) for n in expected]
    assert all(u["toolUseId"].startswith("tooluse_") for u in uses)
    assert first["usage"]["totalTokens"] == first["usage"]["inputTokens"] + first["usage"]["outputTokens"]
    messages += [message, results(message)]
    second = turn(c, messages, stream)
    assert second["stopReason"] == "end_turn"
    texts = [b["text"] for b in second["output"]["message"]["content"] if "text" in b]
    assert texts == ["Results: " + "; ".join(f"{n} -> {result_for(n)}" for n in expected)]


@pytest.mark.parametrize("stream", [False, True])
def test_signed_reasoning_comes_first_and_goes_back(url: str, stream: bool) -> None:
    c = client(url)
    messages: list[dict[str, Any]] = [{"role": "user", "content": [{"text": "Weather?"}]}]
    first = turn(c, messages, stream, additionalModelRequestFields=THINKING)
    content = first["output"]["message"]["content"]
    reasoning = content[0]["reasoningContent"]["reasoningText"]
    assert reasoning["text"] and reasoning["signature"]
    messages += [first["output"]["message"], results(first["output"]["message"])]
    second = turn(c, messages, stream, additionalModelRequestFields=THINKING)
    assert second["stopReason"] == "end_turn"


def test_streamed_and_whole_answers_agree(url: str) -> None:
    c = client(url)
    messages = [{"role": "user", "content": [{"text": "weather and time"}]}]
    whole = turn(c, messages, False)
    streamed = turn(c, messages, True)
    assert streamed["output"] == whole["output"]
    assert streamed["usage"] == {k: whole["usage"][k] for k in ("inputTokens", "outputTokens", "totalTokens")}


def test_keys_are_sigv4_access_key_ids(keyed_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    messages = [{"role": "user", "content": [{"text": "hi"}]}]
    with pytest.raises(ClientError) as info:
        client(keyed_url).converse(modelId=MODEL, messages=messages)
    assert info.value.response["Error"]["Code"] == "AccessDeniedException"
    assert info.value.response["ResponseMetadata"]["HTTPStatusCode"] == 403
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", API_KEY)
    answer = client(keyed_url).converse(modelId=MODEL, messages=messages)
    assert answer["stopReason"] == "end_turn"


def test_bad_request_is_a_validation_exception(url: str) -> None:
    with pytest.raises(ClientError) as info:
        client(url).converse(modelId=MODEL, messages=[{"role": "system", "content": [{"text": "x"}]}])
    assert info.value.response["Error"]["Code"] == "ValidationException"
    assert info.value.response["Error"]["Message"]


@pytest.mark.parametrize(("fault", "code"), [("429=0", "ThrottlingException"), ("503", None)])
def test_injected_status(url: str, fault: str, code: str | None) -> None:
    c = client(url)

    def add_fault(request: Any, **_: Any) -> None:
        request.headers["x-toolwire-fault"] = fault

    c.meta.events.register("before-send.bedrock-runtime.Converse", add_fault)
    with pytest.raises(ClientError) as info:
        c.converse(modelId=MODEL, messages=[{"role": "user", "content": [{"text": "hi"}]}])
    assert info.value.response["Error"]["Code"] == (code or "ServiceUnavailableException")


def test_malformed_stream_frame_is_refused_by_boto3(url: str) -> None:
    c = client(url)

    def add_fault(request: Any, **_: Any) -> None:
        request.headers["x-toolwire-fault"] = "malformed"

    c.meta.events.register("before-send.bedrock-runtime.ConverseStream", add_fault)
    response = c.converse_stream(modelId=MODEL, messages=[{"role": "user", "content": [{"text": "hi"}]}])
    with pytest.raises(Exception, match=r"(?i)crc|checksum"):  # botocore's ChecksumMismatch
        list(response["stream"])
