"""Claude Code finishes real tool loops against the emulator (``Write`` then ``Bash``), with
thinking off, with a thinking budget, and with the adaptive thinking of 4.6 models.

The scenario (:mod:`tests.e2e._scenarios`) scripts the model's tool calls; the CLI runs them in
a temporary workdir; the final ``result`` quotes Bash's output.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e._clients import check_ok, client_version, require, run_claude
from tests.e2e._corpus import model_requests, problems, record
from tests.e2e._egress import Sinkhole
from tests.e2e._scenarios import check_outcome, claude_write_bash

pytestmark = pytest.mark.e2e

MODES: dict[str, tuple[bool | None, str, dict[str, Any]]] = {
    "no-thinking": (False, "claude-sonnet-4-5", {"type": "disabled"}),
    "thinking": (True, "claude-sonnet-4-5", {"type": "enabled", "budget_tokens": 4096}),
    "adaptive-thinking": (None, "claude-sonnet-4-6", {"type": "adaptive"}),
}
"""Thinking mode -> (``thinking`` argument, model, the ``thinking`` keys every request must carry)."""


def _blocks(message: dict[str, Any]) -> list[str]:
    content = message["content"]
    return [b["type"] for b in content] if isinstance(content, list) else ["text"]


@pytest.mark.parametrize("mode", list(MODES))
def test_claude_code_write_then_bash(
    mode: str, emulator: Callable[..., Any], hole: Sinkhole, dirs: tuple[Path, Path]
) -> None:
    require("claude-code")
    thinking, model, expected = MODES[mode]
    work, home = dirs
    scenario = claude_write_bash(work)
    with emulator(scenario.turns) as up:
        run = run_claude(
            up.url, work, scenario.prompt, home=home, sinkhole=hole, thinking=thinking, model=model
        )
    check_ok(run, up.url)
    check_outcome(run, scenario)

    calls = model_requests(up.recorder.requests)
    assert [(c.path, c.query, c.status) for c in calls] == [("/v1/messages", "beta=true", 200)] * 3
    for call in calls:
        assert {k: call.body["thinking"].get(k) for k in expected} == expected
        assert problems(call) == [], call.path
    history = calls[2].body["messages"]
    assistant = [_blocks(m) for m in history if m["role"] == "assistant"]
    first = ["thinking", "tool_use"] if expected["type"] != "disabled" else ["tool_use"]
    assert assistant == [first, first], assistant
    results = [
        b
        for m in history
        if m["role"] == "user"
        for b in m["content"]
        if isinstance(b, dict) and b.get("type") == "tool_result"
    ]
    assert len(results) == 2 and "answer=42" in str(results[1]["content"])
    record(
        up.recorder.requests,
        "claude-code",
        client_version("claude-code"),
        mode,
        {str(work): "$WORKDIR", str(home): "$HOME", up.url.removeprefix("http://"): "127.0.0.1:PORT"},
    )
