"""Provider layouts (``toolwire.hop._layouts``): a format's request moved to Vertex AI's and Azure's
addresses, pure; and the hop's Send for a provider upstream (URL, body, credentials)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.hop.driving import drive, make_hop
from toolwire.errors import ConnectionFailedError, PayloadError, ToolwireError
from toolwire.hop import InboundRequest
from toolwire.hop._config import decode_config
from toolwire.hop._layouts import apply_layout, layout_base_url, layout_params, relayout

VERTEX = {"project": "my proj", "location": "us-east5"}
ROOT = "/v1/projects/my%20proj/locations/us-east5/publishers"


def test_vertex_google_moves_every_gemini_method_and_keeps_the_query() -> None:
    body: dict[str, Any] = {"contents": []}
    path, out, headers = apply_layout(
        "vertex-google",
        "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
        body,
        {"a": "1"},
        VERTEX,
    )
    assert path == f"{ROOT}/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse"
    assert out is body and headers == {"a": "1"}
    counted = {"generateContentRequest": {"model": "models/g", "contents": [1], "tools": [2]}}
    path, out, _ = apply_layout("vertex-google", "/v1beta/models/g:countTokens", counted, {}, VERTEX)
    assert path == f"{ROOT}/google/models/g:countTokens" and out == {"contents": [1], "tools": [2]}
    with pytest.raises(
        ToolwireError, match=r"^vertex-google: the provider has no endpoint for /v1beta/models$"
    ):
        apply_layout("vertex-google", "/v1beta/models?pageSize=5", None, {}, VERTEX)


def test_vertex_anthropic_takes_the_model_out_and_the_version_in() -> None:
    body = {"model": "claude-opus-4-1@20250805", "max_tokens": 5, "stream": True, "messages": []}
    headers = {"anthropic-version": "2023-06-01", "anthropic-beta": "b1", "accept": "text/event-stream"}
    path, out, kept = apply_layout("vertex-anthropic", "/v1/messages", body, headers, VERTEX)
    assert path == f"{ROOT}/anthropic/models/claude-opus-4-1@20250805:streamRawPredict"
    assert out == {"max_tokens": 5, "stream": True, "messages": [], "anthropic_version": "vertex-2023-10-16"}
    assert kept == {"anthropic-beta": "b1", "accept": "text/event-stream"}
    assert body["model"] == "claude-opus-4-1@20250805"  # the caller's body is not changed
    path, out, _ = apply_layout("vertex-anthropic", "/v1/messages", {**body, "stream": False}, {}, VERTEX)
    assert path.endswith(":rawPredict") and out is not None and out["stream"] is False
    path, out, _ = apply_layout("vertex-anthropic", "/v1/messages/count_tokens", {"model": "m"}, {}, VERTEX)
    assert path == f"{ROOT}/anthropic/models/count-tokens:rawPredict"
    assert out == {"model": "m", "anthropic_version": "vertex-2023-10-16"}
    with pytest.raises(PayloadError, match="needs a model") as info:
        apply_layout("vertex-anthropic", "/v1/messages", {"max_tokens": 5}, {}, VERTEX)
    assert info.value.path == "$.model"


def test_azure_deployments_put_the_model_and_api_version_in_the_url() -> None:
    body = {"model": "my gpt", "messages": []}
    path, out, _ = apply_layout(
        "azure-deployment", "/v1/chat/completions", body, {}, {"api_version": "2025-01-01"}
    )
    assert path == "/openai/deployments/my%20gpt/chat/completions?api-version=2025-01-01" and out is body
    with pytest.raises(ToolwireError, match="no endpoint for /v1/responses"):
        apply_layout("azure-deployment", "/v1/responses", body, {}, {"api_version": "v"})


def test_parameters_come_from_arguments_then_environment_then_defaults() -> None:
    env = {"CLOUD_ML_REGION": "asia-southeast1", "GOOGLE_CLOUD_LOCATION": "x", "GOOGLE_CLOUD_PROJECT": "gp"}
    assert layout_params("vertex-anthropic", {"project": "p", "location": None}, env, source="s") == {
        "project": "p",
        "location": "asia-southeast1",
    }
    assert layout_params("vertex-google", {}, {"GOOGLE_CLOUD_PROJECT": "gp"}, source="s") == {
        "project": "gp",
        "location": "us-central1",
    }
    assert layout_params("azure-deployment", {}, {}, source="s") == {"api_version": "2024-10-21"}
    assert layout_params(None, {"project": None}, {}, source="s") == {}
    with pytest.raises(
        ToolwireError, match=r"^s needs a project: pass project= or set \$GOOGLE_CLOUD_PROJECT$"
    ):
        layout_params("vertex-google", {}, {}, source="s")
    with pytest.raises(ToolwireError, match=r"^s takes no location$"):
        layout_params("azure-deployment", {"location": "l"}, {}, source="s")
    template = "https://{location}-aiplatform.googleapis.com"
    assert layout_base_url(template, {"location": "global"}) == "https://aiplatform.googleapis.com"
    assert layout_base_url(template, {"location": "us-east5"}) == "https://us-east5-aiplatform.googleapis.com"
    assert layout_base_url("https://api.x", {}) == "https://api.x"


def test_relayout_reencodes_only_a_changed_body() -> None:
    raw = b'{ "contents" : [] }'  # spacing kept: the bytes pass untouched
    path, _, body = relayout("vertex-google", "/v1beta/models/g:generateContent", {}, raw, VERTEX)
    assert body is raw and path.endswith("/google/models/g:generateContent")
    _, _, moved = relayout("vertex-anthropic", "/v1/messages", {}, b'{"model": "m", "max_tokens": 1}', VERTEX)
    assert json.loads(moved) == {"max_tokens": 1, "anthropic_version": "vertex-2023-10-16"}


def test_the_hop_sends_a_provider_upstreams_call_to_its_address_with_its_credentials() -> None:
    env = {"TOKEN": "tok-SECRET"}
    config = decode_config(
        {
            "upstreams": {
                "v": {
                    "provider": "vertex-anthropic",
                    "base_url": "https://vx.example/",
                    "project": "p",
                    "key_env": "TOKEN",
                }
            }
        },
        env,
    )
    body = json.dumps(
        {"model": "vertex/claude-x@1", "messages": [{"role": "user", "content": "hi"}]}
    ).encode()
    inbound = InboundRequest("POST", "/v1/chat/completions", "", {"content-type": "application/json"}, body)
    sends, answer = drive(make_hop(config, env), inbound, [ConnectionFailedError("refused")])
    (send,) = sends
    assert answer.status == 502
    assert (
        send.url
        == "https://vx.example/v1/projects/p/locations/us-central1/publishers/anthropic/models/claude-x@1:rawPredict"
    )
    assert send.headers["authorization"] == "Bearer tok-SECRET" and "anthropic-version" not in send.headers
    sent = json.loads(send.body)
    assert "model" not in sent and sent["anthropic_version"] == "vertex-2023-10-16" and sent["max_tokens"] > 0
    assert "tok-SECRET" not in repr(send)


def test_the_hop_fits_a_dialect_providers_upstream_call() -> None:
    """A ``provider = "mistral"`` upstream: its Chat dialect (9-character call ids) and its key."""
    env = {"MISTRAL_API_KEY": "mk-SECRET"}
    config = decode_config(
        {"upstreams": {"m": {"provider": "mistral", "base_url": "https://mi.example/v1"}}}, env
    )
    body = {
        "model": "mistral/mistral-large-latest",
        "max_tokens": 50,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}],
            },
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
        ],
    }
    inbound = InboundRequest(
        "POST", "/v1/messages", "", {"anthropic-version": "2023-06-01"}, json.dumps(body).encode()
    )
    sends, _ = drive(make_hop(config, env), inbound, [ConnectionFailedError("refused")])
    streamed = InboundRequest(
        "POST",
        "/v1/messages",
        "",
        {"anthropic-version": "2023-06-01"},
        json.dumps({**body, "stream": True}).encode(),
    )
    stream_sends, _ = drive(make_hop(config, env), streamed, [ConnectionFailedError("refused")])
    assert json.loads(stream_sends[0].body)["stream"] is True
    assert "stream_options" not in json.loads(stream_sends[0].body)  # Mistral's schema refuses it
    (send,) = sends
    sent = json.loads(send.body)
    assert send.url == "https://mi.example/v1/chat/completions"
    assert send.headers["authorization"] == "Bearer mk-SECRET"
    assert sent["model"] == "mistral-large-latest" and sent["max_tokens"] == 50
    (call,) = sent["messages"][1]["tool_calls"]
    assert len(call["id"]) == 9 and call["id"].isalnum() and sent["messages"][2]["tool_call_id"] == call["id"]
