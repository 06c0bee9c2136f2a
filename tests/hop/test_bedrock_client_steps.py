"""A Bedrock client of the hop: the model and stream choice read from the path, a route's
defaults written in Bedrock's terms, and the SigV4 signers' refusals (no I/O)."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.hop._aws import UpstreamCredentialsError, UpstreamSigners
from toolwire.hop._call import InboundRequest, read_inbound
from toolwire.hop._config import Upstream
from toolwire.hop._defaults import THINKING_BUDGETS, apply_route_defaults
from toolwire.hop._relay import STREAM_TYPES
from toolwire.hop._routes import match_inbound

ARN = "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-7-sonnet-v1:0"


CLAUDE = "anthropic.claude-3-5-sonnet-20240620-v1:0"


@pytest.mark.parametrize(
    ("path", "model", "stream"),
    [
        (f"/model/{CLAUDE}/converse", CLAUDE, False),
        ("/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse-stream", CLAUDE, True),
        (f"/model/{ARN}/converse-stream", ARN, True),
    ],
)
def test_model_and_stream_come_from_the_path(path: str, model: str, stream: bool) -> None:
    endpoint = match_inbound("POST", path, {})
    assert endpoint is not None and (endpoint.format, endpoint.operation) == ("bedrock-converse", "generate")
    body, call = read_inbound("bedrock-converse", InboundRequest("POST", path, body=b'{"messages": []}'))
    assert body == {"messages": []} and (call.model, call.stream) == (model, stream)
    assert call.headers == {}


def test_a_bedrock_stream_is_event_stream_binary() -> None:
    assert STREAM_TYPES["bedrock-converse"] == "application/vnd.amazon.eventstream"


def test_route_defaults_in_bedrock_terms() -> None:
    payload: dict[str, Any] = {"messages": []}
    apply_route_defaults(payload, "bedrock-converse", max_tokens=30000, reasoning="medium")
    assert payload["inferenceConfig"] == {"maxTokens": 30000}
    assert payload["additionalModelRequestFields"] == {
        "thinking": {"type": "enabled", "budget_tokens": THINKING_BUDGETS["medium"]}
    }
    mine: dict[str, Any] = {"inferenceConfig": {"maxTokens": 5}, "additionalModelRequestFields": {"top_k": 3}}
    apply_route_defaults(mine, "bedrock-converse", max_tokens=30000, reasoning="high")
    assert mine == {"inferenceConfig": {"maxTokens": 5}, "additionalModelRequestFields": {"top_k": 3}}
    off: dict[str, Any] = {}
    apply_route_defaults(off, "bedrock-converse", max_tokens=None, reasoning="none")
    assert off == {"additionalModelRequestFields": {"thinking": {"type": "disabled"}}}


def test_signers_use_the_named_variables_and_refuse_when_unset() -> None:
    upstream = Upstream(
        "br", "bedrock-converse", "http://h", region="eu-west-3", access_key_env="AK", secret_key_env="SK"
    )
    env = {"AK": "AKIANAMED", "SK": "named-secret", "AWS_ACCESS_KEY_ID": "AKIASTANDARD"}
    signers = UpstreamSigners(env)
    auth = signers.auth(upstream)
    assert auth.region == "eu-west-3" and auth.credentials().access_key == "AKIANAMED"
    assert signers.auth(upstream) is auth  # kept per upstream
    headers = signers.sign(upstream, "POST", "http://h/model/m/converse", {}, b"{}")
    assert (
        "Credential=AKIANAMED/" in headers["authorization"]
        and "/eu-west-3/bedrock/" in headers["authorization"]
    )
    with pytest.raises(UpstreamCredentialsError) as info:
        UpstreamSigners({"AK": "AKIANAMED"}).auth(upstream)
    assert "$AK, $SK" in str(info.value) and "AKIANAMED" not in str(info.value)


def test_a_missing_botocore_is_an_upstream_credentials_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "botocore", None)
    upstream = Upstream("br", "bedrock-converse", "http://h")
    with pytest.raises(UpstreamCredentialsError, match=r"upstream 'br': .*toolwire\[bedrock\]"):
        UpstreamSigners({}).sign(upstream, "POST", "http://h/model/m/converse", {}, b"{}")
