"""The hop core's answers a client sees, pinned where the mutation run (``make mutate``) found
them unchecked: the model list an upstream is asked for, a bad field's error and the record."""

from __future__ import annotations

import json

import pytest

from tests.hop.driving import drive, json_body, make_hop
from tests.hop.test_core_gate import OPEN, _count_request
from toolwire.hop import InboundRequest
from toolwire.hop._config import HopConfig
from toolwire.hop.core import Hop, Received, Reply

LISTINGS = {
    # upstream format -> (base URL, the URL asked, headers it must carry, the upstream's answer)
    "anthropic": (
        "https://up.example",
        "https://up.example/v1/models",
        {"accept": "application/json", "anthropic-version": "2023-06-01"},
        {"data": [{"id": "claude-a", "type": "model"}, {"id": "claude-b", "type": "model"}]},
    ),
    "gemini": (
        "https://up.example",
        "https://up.example/v1beta/models",
        {"content-type": "application/json"},
        {"models": [{"name": "models/gemini-a"}, {"name": "models/gemini-b"}]},
    ),
    "openai-chat": (
        "https://up.example/v1",
        "https://up.example/v1/models",
        {"content-type": "application/json"},
        {"object": "list", "data": [{"id": "gpt-a"}, {"id": "gpt-b"}, "junk", {"id": 7}]},
    ),
}


@pytest.mark.parametrize("upstream", sorted(LISTINGS))
def test_without_routed_names_the_model_list_is_the_upstreams(upstream: str) -> None:
    base, url, headers, answer = LISTINGS[upstream]
    hop = make_hop(HopConfig.single(upstream, base))  # type: ignore[arg-type]
    listed = Received(200, {}, json.dumps(answer).encode())
    sends, reply = drive(hop, InboundRequest("GET", "/v1/models", "", {}, b""), [listed])
    assert [(s.method, s.url, s.body) for s in sends] == [("GET", url, b"")]
    assert headers.items() <= dict(sends[0].headers).items()
    if upstream != "anthropic":
        assert "anthropic-version" not in sends[0].headers
    stem = upstream.split("-")[0].replace("anthropic", "claude").replace("openai", "gpt")
    assert [m["id"] for m in json_body(reply)["data"]] == [f"{stem}-a", f"{stem}-b"]
    assert hop.record.status == 200


@pytest.mark.parametrize(
    "answer",
    [Received(300, {}, b'{"data": [{"id": "x"}]}'), Received(404, {}, b"{}"), Received(200, {}, b"not json")],
    ids=["redirect", "error", "not-json"],
)
def test_an_upstream_that_cannot_list_gives_an_empty_list(answer: Received) -> None:
    hop = make_hop(HopConfig.single("anthropic", "https://up.example"))
    _, reply = drive(hop, InboundRequest("GET", "/v1/models", "", {}, b""), [answer])
    assert isinstance(reply, Reply) and reply.status == 200
    assert json_body(reply) == {"object": "list", "data": []}


def test_a_bad_field_is_named_once_in_param_not_in_the_message() -> None:
    hop = make_hop(OPEN)
    body = b'{"model": "m", "messages": "hello"}'
    sends, reply = drive(hop, InboundRequest("POST", "/v1/chat/completions", "", {}, body))
    assert sends == [] and isinstance(reply, Reply) and reply.status == 400
    assert json_body(reply) == {
        "error": {
            "message": "expected an array, got string",
            "type": "invalid_request_error",
            "param": "$.messages",
            "code": None,
        }
    }
    assert (hop.record.status, hop.record.error) == (400, "PayloadError")


def test_a_count_answer_without_a_count_is_a_502_that_says_so() -> None:
    hop = make_hop(HopConfig.single("anthropic", "https://up.example"))
    _, reply = drive(hop, _count_request("gemini"), [Received(200, {}, b'{"tokens": 3}')])
    assert isinstance(reply, Reply) and reply.status == 502
    error = json_body(reply)["error"]
    assert error["message"] == "The upstream's count answer has no token count"
    assert (hop.record.status, hop.record.error) == (502, "malformed upstream body")


def test_only_a_traced_hop_keeps_copies_of_the_bodies() -> None:
    config = HopConfig.single("anthropic", "https://up.example")
    body = json.dumps({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "secret"}]})
    request = InboundRequest("POST", "/v1/messages", "", {"x-api-key": "sk-client"}, body.encode())
    answer = Received(500, {"content-type": "application/json"}, b'{"type": "error"}')
    untraced = make_hop(config)
    drive(untraced, request, [answer])
    assert untraced.record.capture is None  # nothing of the call is held beyond its answer
    traced = Hop(config, env={}, trace=True)
    drive(traced, request, [answer])
    assert traced.record.capture is not None
    assert traced.record.capture.payloads["client_request"].data == body.encode()
