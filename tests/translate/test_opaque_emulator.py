"""A stateless gateway's tool loop over loopback HTTP, with the emulator as the upstream.

The emulator signs its reasoning state and answers with the provider's own 400 when a turn
comes back without it, altered, or sent where the provider refuses it (and it validates every
request with ``toolwire.validate``). Each turn is a fresh :class:`Exchange`; the client keeps
its history in its own format (``echo`` of the matrix test). Streams too: the upstream streams,
the client's SDK accumulates the translated stream and echoes that.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.translate.test_opaque_loop import PAIRS, SLOTTED, echo, first_request
from tests.translate.test_opaque_stream import _accumulated
from toolwire import Exchange
from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.opaque import open_envelope
from toolwire.streaming import WireReader

MODEL = "gemini-3-pro-preview"

_PATHS = {
    "openai-chat": "/v1/chat/completions",
    "openai-responses": "/v1/responses",
    "anthropic": "/v1/messages",
    "gemini": f"/v1beta/models/{MODEL}:generateContent",
}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig()), log_level="critical") as base:
        yield base


def _path(upstream: str, stream: bool) -> str:
    if upstream == "gemini" and stream:
        return f"/v1beta/models/{MODEL}:streamGenerateContent?alt=sse"
    return _PATHS[upstream]


def _turn(url: str, ex: Exchange, request: dict[str, Any], stream: bool) -> dict[str, Any]:
    """One hop: the client's request up, the upstream's answer back in the client's format."""
    body = ex.request(copy.deepcopy(request))
    if stream and ex.upstream != "gemini":
        body["stream"] = True
    reply = httpx.post(url + _path(ex.upstream, stream), json=body, timeout=30)
    assert reply.status_code == 200, reply.text
    if not stream:
        return ex.response(reply.json())
    reader = WireReader()
    events = [out for event in reader.feed(reply.content) for out in ex.stream(event)]
    events += [out for event in reader.close() for out in ex.stream(event)]
    events += ex.stream_close()
    assert events
    return _accumulated(ex.client, events)


def _tool_loop(url: str, client: str, upstream: str, stream: bool) -> list[dict[str, Any]]:
    """Turn 1 calls the tool, turn 2 answers the results (the emulator checks the state)."""
    request = first_request(client, "get_weather")
    answers = []
    for _ in range(2):
        ex = Exchange(client, upstream, client_model=MODEL)
        answer = _turn(url, ex, request, stream)
        answers.append(answer)
        if len(answers) == 1:
            request = echo(client, request, answer)
    return answers


@pytest.mark.parametrize("stream", [False, True], ids=["json", "stream"])
@pytest.mark.parametrize(("client", "upstream"), PAIRS)
def test_the_emulator_accepts_every_turn(url: str, client: str, upstream: str, stream: bool) -> None:
    first, _ = _tool_loop(url, client, upstream, stream)
    if client in SLOTTED and upstream in SLOTTED and client != upstream:
        sealed = [open_envelope(v) for v in _slot_values(client, first) if v]  # unsigned thoughts: ""
        assert sealed and all(s is not None and s[0] == upstream for s in sealed)


def _slot_values(fmt: str, response: dict[str, Any]) -> list[str]:
    if fmt == "anthropic":
        return [b["signature"] for b in response["content"] if b["type"] == "thinking"]
    if fmt == "openai-responses":
        return [i["encrypted_content"] for i in response["output"] if i["type"] == "reasoning"]
    parts = response["candidates"][0]["content"]["parts"]
    return [p["thoughtSignature"] for p in parts if "thoughtSignature" in p]


def _undo_fallback(upstream: str, body: dict[str, Any]) -> None:
    """The request as it would go up without the documented fallback."""
    if upstream == "anthropic":
        body["thinking"] = {"type": "enabled", "budget_tokens": 2048}
        body["max_tokens"] = max(body["max_tokens"], 4096)
        return
    for content in body["contents"]:
        for part in content["parts"]:
            part.pop("thoughtSignature", None)


@pytest.mark.parametrize("upstream", ["anthropic", "gemini"])
def test_the_fallback_is_what_the_emulator_needs(url: str, upstream: str) -> None:
    """A client that lost the state (here: it dropped its reasoning items) still gets its turn,
    thanks to the fallback; without the fallback the provider's 400 comes back."""
    request = first_request("openai-responses", "get_weather")
    ex = Exchange("openai-responses", upstream, client_model=MODEL)
    reply = httpx.post(url + _PATHS[upstream], json=ex.request(copy.deepcopy(request)), timeout=30)
    answer = ex.response(reply.json())
    answer["output"] = [item for item in answer["output"] if item["type"] != "reasoning"]
    request = echo("openai-responses", request, answer)
    ex = Exchange("openai-responses", upstream, client_model=MODEL)
    body = ex.request(request)
    assert [n for n in ex.notes if n.path == "$.reasoning" or "placeholder" in n.message]
    assert httpx.post(url + _PATHS[upstream], json=body, timeout=30).status_code == 200
    _undo_fallback(upstream, body)
    assert httpx.post(url + _PATHS[upstream], json=body, timeout=30).status_code == 400
