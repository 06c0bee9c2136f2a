"""The same CLIs through ``toolwire serve`` (the gateway app on loopback) to an emulator speaking
another format: Codex (Responses) to Anthropic, Gemini and Chat, with ``apply_patch`` crossing as
a shimmed custom tool; Claude Code to Responses, Chat and Gemini, with and without thinking.

Each run must finish the same tool loop as against the emulator directly (:mod:`tests.e2e._scenarios`,
tool calls scripted as the upstream sees them) and every upstream call must be a 200 the emulator
validated (with the providers' replay rules).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.e2e._clients import check_ok, require, run_claude, run_codex
from tests.e2e._egress import Sinkhole
from tests.e2e._emulator import Upstream, scripted_emulator
from tests.e2e._scenarios import check_outcome, claude_write_bash, codex_chat_shell, codex_patch_shell
from toolwire.emulator import serve
from toolwire.gateway import HopConfig, create_app

pytestmark = pytest.mark.e2e

UPSTREAM_PATHS: dict[str, tuple[str, str]] = {
    "openai-chat": ("/v1", "/v1/chat/completions"),
    "openai-responses": ("/v1", "/v1/responses"),
    "anthropic": ("", "/v1/messages"),
    "gemini": ("", ":streamGenerateContent"),
}
"""Upstream format -> (suffix of its base URL as its SDK takes it, the end of its model-call path)."""


@contextmanager
def gateway(upstream: str, up: Upstream) -> Iterator[str]:
    """``toolwire serve``'s app with one upstream (the emulator ``up`` speaking ``upstream``)."""
    config = HopConfig.single(upstream, up.url + UPSTREAM_PATHS[upstream][0])
    with serve(create_app(config), log_level="warning") as url:
        yield url


def _check_upstream(up: Upstream, upstream: str) -> None:
    calls = [(r.path.endswith(UPSTREAM_PATHS[upstream][1]), r.status) for r in up.recorder.requests]
    assert calls == [(True, 200)] * 3, [(r.method, r.path, r.status) for r in up.recorder.requests]


@pytest.mark.parametrize("upstream", ["anthropic", "gemini", "openai-chat"])
def test_codex_through_gateway(upstream: str, hole: Sinkhole, dirs: tuple[Path, Path]) -> None:
    require("codex")
    work, home = dirs
    scenario = codex_patch_shell(upstream)
    with scripted_emulator(scenario.turns) as up, gateway(upstream, up) as url:
        run = run_codex(url, "responses", work, scenario.prompt, home=home, sinkhole=hole)
    check_ok(run, url)
    check_outcome(run, scenario)
    _check_upstream(up, upstream)


_GEMINI_TEXT_SIGNATURE = pytest.mark.xfail(
    strict=True,
    reason="the gateway seals the signature Gemini puts on the answer's text part into a thinking "
    "block sent AFTER the text, and Claude Code -p reports the last block: its result is ''",
)


@pytest.mark.parametrize(
    ("upstream", "thinking"),
    [
        ("openai-responses", False),
        ("openai-responses", True),
        ("openai-chat", False),
        ("openai-chat", True),
        ("gemini", False),
        pytest.param("gemini", True, marks=_GEMINI_TEXT_SIGNATURE),
    ],
)
def test_claude_code_through_gateway(
    upstream: str, thinking: bool, hole: Sinkhole, dirs: tuple[Path, Path]
) -> None:
    require("claude-code")
    work, home = dirs
    scenario = claude_write_bash(work, upstream)
    with scripted_emulator(scenario.turns) as up, gateway(upstream, up) as url:
        run = run_claude(url, work, scenario.prompt, home=home, sinkhole=hole, thinking=thinking)
    check_ok(run, url)
    _check_upstream(up, upstream)
    check_outcome(run, scenario)


@pytest.mark.parametrize("upstream", ["openai-responses", "anthropic", "gemini"])
def test_codex_chat_mode_through_gateway(upstream: str, hole: Sinkhole, dirs: tuple[Path, Path]) -> None:
    require("codex-chat")
    work, home = dirs
    scenario = codex_chat_shell(upstream)
    with scripted_emulator(scenario.turns) as up, gateway(upstream, up) as url:
        run = run_codex(url, "chat", work, scenario.prompt, home=home, sinkhole=hole)
    check_ok(run, url)
    check_outcome(run, scenario)
    model_calls = [r for r in up.recorder.requests if r.method == "POST"]
    assert [(r.path.endswith(UPSTREAM_PATHS[upstream][1]), r.status) for r in model_calls] == [
        (True, 200)
    ] * 3
