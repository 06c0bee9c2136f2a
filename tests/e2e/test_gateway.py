"""The same CLIs through ``toolwire serve`` (the gateway app on loopback) to an emulator speaking
another format: Codex (Responses) to Anthropic, Gemini, Chat and Bedrock, with ``apply_patch``
crossing as a shimmed custom tool (Codex in Chat mode to the others and Bedrock); Claude Code to
Responses, Chat, Gemini and Bedrock, with and without thinking. The Bedrock upstream only accepts
calls signed (SigV4) with the gateway's AWS access key, which the gateway reads from the standard
variables it is given.

Each run must finish the same tool loop as against the emulator directly (:mod:`tests.e2e._scenarios`,
tool calls scripted as the upstream sees them), every upstream call must be a 200 the emulator
validated (with the providers' replay rules), and thinking must cross: asked for upstream iff the
client thinks, and the upstream's own reasoning state (``encrypted_content``, signed thinking,
``thoughtSignature``) replayed to it on the next turns through the client's slot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e._clients import check_ok, require, run_claude, run_codex
from tests.e2e._egress import Sinkhole
from tests.e2e._emulator import Upstream, scripted_emulator
from tests.e2e._scenarios import check_outcome, claude_write_bash, codex_chat_shell, codex_patch_shell
from toolwire.emulator import serve
from toolwire.gateway import HopConfig, create_app
from toolwire.hop._config import Route

pytestmark = pytest.mark.e2e

UPSTREAM_PATHS: dict[str, tuple[str, str]] = {
    "openai-chat": ("/v1", "/v1/chat/completions"),
    "openai-responses": ("/v1", "/v1/responses"),
    "anthropic": ("", "/v1/messages"),
    "gemini": ("", ":streamGenerateContent"),
    "bedrock-converse": ("", "/converse-stream"),
}
"""Upstream format -> (suffix of its base URL as its SDK takes it, the end of its model-call path)."""

AWS_ACCESS_KEY = "AKIATOOLWIREE2E"
AWS_ENV = {
    "AWS_ACCESS_KEY_ID": AWS_ACCESS_KEY,
    "AWS_SECRET_ACCESS_KEY": "e2e/secret+key",
    "AWS_SESSION_TOKEN": "e2e-session-token",
    "AWS_REGION": "us-west-2",
}
"""The gateway's environment for a Bedrock upstream: it signs with these (SigV4)."""
BEDROCK_MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0"
"""The model every client model is routed to on Bedrock (Anthropic: thinking crosses)."""


@contextmanager
def upstream_emulator(upstream: str, turns: list[Any]) -> Iterator[Upstream]:
    """The scripted emulator; for Bedrock it accepts only calls signed with the gateway's key."""
    keys = (AWS_ACCESS_KEY,) if upstream == "bedrock-converse" else ()
    with scripted_emulator(turns, api_keys=keys) as up:
        yield up


@contextmanager
def gateway(upstream: str, up: Upstream) -> Iterator[str]:
    """``toolwire serve``'s app with one upstream (the emulator ``up`` speaking ``upstream``)."""
    bedrock = upstream == "bedrock-converse"
    routes = (Route("*", "upstream", BEDROCK_MODEL),) if bedrock else ()
    config = HopConfig.single(upstream, up.url + UPSTREAM_PATHS[upstream][0], model_map=routes)
    with serve(create_app(config, env=AWS_ENV if bedrock else None), log_level="warning") as url:
        yield url


def _check_upstream(up: Upstream, upstream: str) -> None:
    calls = [(r.path.endswith(UPSTREAM_PATHS[upstream][1]), r.status) for r in up.recorder.requests]
    assert calls == [(True, 200)] * 3, [(r.method, r.path, r.status) for r in up.recorder.requests]


def _effort(body: dict[str, Any]) -> Any:
    return (body.get("reasoning") or {}).get("effort")


def _gemini_thinking(body: dict[str, Any]) -> Any:
    return (body.get("generationConfig") or {}).get("thinkingConfig")


ASKS_REASONING: dict[str, Callable[[dict[str, Any]], bool]] = {
    "openai-responses": lambda body: _effort(body) not in (None, "none"),
    "openai-chat": lambda body: body.get("reasoning_effort") not in (None, "none"),
    "anthropic": lambda body: (body.get("thinking") or {}).get("type") in ("enabled", "adaptive"),
    "gemini": lambda body: bool(_gemini_thinking(body)) and _gemini_thinking(body).get("thinkingBudget") != 0,
    "bedrock-converse": lambda body: (
        ((body.get("additionalModelRequestFields") or {}).get("thinking") or {}).get("type") == "enabled"
    ),
}
"""Upstream format -> whether a request body turns reasoning on."""

EFFORT_ONLY_DROPPED = frozenset({"bedrock-converse"})
"""Upstream formats that get no reasoning from a client asking by effort alone (no budget)."""

REPLAYED_STATE: dict[str, Callable[[dict[str, Any]], int]] = {
    "openai-responses": lambda body: sum(
        1 for i in body.get("input", []) if i.get("type") == "reasoning" and i.get("encrypted_content")
    ),
    "openai-chat": lambda body: 0,  # Chat has no slot for reasoning state
    "anthropic": lambda body: sum(
        1
        for m in body["messages"]
        if m["role"] == "assistant" and isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "thinking" and b.get("signature")
    ),
    "gemini": lambda body: sum(
        1
        for c in body["contents"]
        if c.get("role") == "model"
        for p in c["parts"]
        if p.get("thoughtSignature")
    ),
    "bedrock-converse": lambda body: sum(
        1
        for m in body["messages"]
        if m["role"] == "assistant"
        for b in m["content"]
        if ((b.get("reasoningContent") or {}).get("reasoningText") or {}).get("signature")
    ),
}
"""Upstream format -> how many pieces of the upstream's own opaque reasoning state a request
replays (Responses ``encrypted_content``, Anthropic signed thinking, Gemini ``thoughtSignature``)."""


def _check_reasoning(up: Upstream, upstream: str, thinking: bool) -> None:
    """Reasoning asked for in every upstream call iff the client thinks, and by the third call
    the upstream's state of both earlier turns comes back to it (none without thinking, none on
    Chat)."""
    bodies = [r.body for r in up.recorder.requests]
    assert [ASKS_REASONING[upstream](b) for b in bodies] == [thinking] * 3, bodies[0]
    expected = 2 if thinking and upstream != "openai-chat" else 0
    assert REPLAYED_STATE[upstream](bodies[2]) == expected


@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-chat", "bedrock-converse"])
def test_codex_through_gateway(upstream: str, hole: Sinkhole, dirs: tuple[Path, Path]) -> None:
    require("codex")
    work, home = dirs
    scenario = codex_patch_shell(upstream)
    with upstream_emulator(upstream, scenario.turns) as up, gateway(upstream, up) as url:
        run = run_codex(url, "responses", work, scenario.prompt, home=home, sinkhole=hole)
    check_ok(run, url)
    check_outcome(run, scenario)
    _check_upstream(up, upstream)
    # Codex asks for reasoning by effort alone; Bedrock's thinking takes only a token budget
    # (formats/bedrock_converse/request.py drops a budget-less effort, noted)
    _check_reasoning(up, upstream, thinking=upstream not in EFFORT_ONLY_DROPPED)


@pytest.mark.parametrize(
    ("upstream", "thinking"),
    [
        ("openai-responses", False),
        ("openai-responses", True),
        ("openai-chat", False),
        ("openai-chat", True),
        ("gemini", False),
        ("gemini", True),
        ("bedrock-converse", False),
        ("bedrock-converse", True),
    ],
)
def test_claude_code_through_gateway(
    upstream: str, thinking: bool, hole: Sinkhole, dirs: tuple[Path, Path]
) -> None:
    require("claude-code")
    work, home = dirs
    scenario = claude_write_bash(work, upstream)
    with upstream_emulator(upstream, scenario.turns) as up, gateway(upstream, up) as url:
        run = run_claude(url, work, scenario.prompt, home=home, sinkhole=hole, thinking=thinking)
    check_ok(run, url)
    _check_upstream(up, upstream)
    _check_reasoning(up, upstream, thinking)
    check_outcome(run, scenario)


@pytest.mark.parametrize("upstream", ["openai-responses", "anthropic", "gemini", "bedrock-converse"])
def test_codex_chat_mode_through_gateway(upstream: str, hole: Sinkhole, dirs: tuple[Path, Path]) -> None:
    require("codex-chat")
    work, home = dirs
    scenario = codex_chat_shell(upstream)
    with upstream_emulator(upstream, scenario.turns) as up, gateway(upstream, up) as url:
        run = run_codex(url, "chat", work, scenario.prompt, home=home, sinkhole=hole)
    check_ok(run, url)
    check_outcome(run, scenario)
    model_calls = [r for r in up.recorder.requests if r.method == "POST"]
    assert [(r.path.endswith(UPSTREAM_PATHS[upstream][1]), r.status) for r in model_calls] == [
        (True, 200)
    ] * 3
