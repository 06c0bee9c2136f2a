"""A Codex-like (Responses) and a Chat client run a tool loop through stateless hops (one
:class:`~toolwire.translate.Exchange` per request) against the emulator over loopback HTTP, with
every other format as the upstream, answered whole and streamed.

Four requests: the user asks for several tools at once (parallel calls), the client answers them
out of order, the model reports the results, the user asks again. Every upstream request passes
:func:`toolwire.validate` and the emulator; the client gets back calls of the kind it offered,
with ids unique across the conversation.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.translate.hop_loop import Client, post_upstream, relay
from toolwire.translate import Exchange
from toolwire.validate import validate

_CASES = [(c, u) for c in ("openai-responses", "openai-chat") for u in ("openai-chat", "anthropic", "gemini")]
_CASES = [(c, u) for c, u in _CASES if c != u] + [("openai-chat", "openai-responses")]


def _hop(http: httpx.Client, url: str, client: Client, upstream: str, stream: bool) -> dict[str, Any]:
    """One request through a fresh Exchange; the client's view of the answer (a stream is
    relayed as bytes with ``stream_frames``, then checked and accumulated as the client would)."""
    ex = Exchange(client.fmt, upstream, policy="strict", upstream_model=_MODELS[upstream])
    body = ex.request(client.request())
    assert validate(body, format=upstream) == []
    answer = post_upstream(http, url, upstream, body, stream=stream, model=_MODELS[upstream])
    assert answer.status_code == 200, answer.text
    # The emulator's answers carry fields other formats have no place for (Anthropic `caller`,
    # `stop_details`, Responses `service_tier`): dropped with a note. Tool calls lose nothing.
    ex.policy = "drop"
    before = len(ex.notes)
    out = relay(ex, client.fmt, answer, stream=stream)
    approximated = [n for n in ex.notes[before:] if n.kind == "approximated"]
    assert approximated == []  # e.g. a custom call's input is never guessed
    return out


_MODELS = {
    "openai-chat": "gpt-4o",
    "openai-responses": "gpt-4o",
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-flash",
}


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "stream"])
@pytest.mark.parametrize(("client_fmt", "upstream"), _CASES, ids=[f"{c}->{u}" for c, u in _CASES])
def test_tool_loop_over_loopback(url: str, client_fmt: str, upstream: str, stream: bool) -> None:
    client = Client(client_fmt)
    with httpx.Client(timeout=10) as http:
        for _ in range(2):
            client.say("Apply the patch and read both files.")
            calls = client.take(_hop(http, url, client, upstream, stream))
            assert len(calls) >= 2, "several tools asked for: parallel calls"
            client.answer(calls)
            reply = client.take(_hop(http, url, client, upstream, stream))
            assert reply == []  # the model reports the results
    ids = [c.id for c in client.calls]
    assert all(ids) and len(set(ids)) == len(ids), ids
    patches = [c for c in client.calls if c.name == "apply_patch"]
    assert patches and all(c.kind == "custom" and not c.arguments.startswith("{") for c in patches)
    if client_fmt == "openai-responses":
        assert {c.namespace for c in client.calls if c.name == "read"} == {"mcp__alpha", "mcp__beta"}
