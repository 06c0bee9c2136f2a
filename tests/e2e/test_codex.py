"""Codex CLI finishes real tool loops against the emulator: Responses (current Codex: its
``apply_patch`` custom tool and its ``exec_command`` shell) and Chat (0.94.0: ``shell_command``).

The scenarios (:mod:`tests.e2e._scenarios`) script the model's tool calls; the CLI runs them for
real in a temporary workdir; the final message quotes the shell's output.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e._clients import check_ok, client_version, require, run_codex
from tests.e2e._corpus import model_requests, problems, record
from tests.e2e._egress import Sinkhole
from tests.e2e._scenarios import check_outcome, codex_chat_shell, codex_patch_shell

pytestmark = pytest.mark.e2e


def _items(body: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [i for i in body.get("input", []) if isinstance(i, dict) and i.get("type") == kind]


def _replacements(work: Path, home: Path, url: str) -> dict[str, str]:
    return {str(work): "$WORKDIR", str(home): "$HOME", url.removeprefix("http://"): "127.0.0.1:PORT"}


def test_codex_responses_apply_patch_then_shell(
    emulator: Callable[..., Any], hole: Sinkhole, dirs: tuple[Path, Path]
) -> None:
    require("codex")
    work, home = dirs
    scenario = codex_patch_shell()
    with emulator(scenario.turns) as up:
        run = run_codex(up.url, "responses", work, scenario.prompt, home=home, sinkhole=hole)
    check_ok(run, up.url)
    check_outcome(run, scenario)

    calls = model_requests(up.recorder.requests)
    assert [(c.path, c.status) for c in calls] == [("/v1/responses", 200)] * 3, run.describe()
    patched = _items(calls[1].body, "custom_tool_call_output")
    assert [o["call_id"] for o in patched] == [
        c["call_id"] for c in _items(calls[1].body, "custom_tool_call")
    ]
    shown = _items(calls[2].body, "function_call_output")
    assert len(shown) == 1 and "answer=42" in str(shown[0]["output"])
    echoed = _items(calls[2].body, "reasoning")
    assert len(echoed) == 2 and all(r.get("encrypted_content") for r in echoed)
    for call in calls:
        assert problems(call) == [], call.path
    version = client_version("codex")
    record(up.recorder.requests, "codex", version, "responses-tool-loop", _replacements(work, home, up.url))


def test_codex_chat_mode_shell_loop(
    emulator: Callable[..., Any], hole: Sinkhole, dirs: tuple[Path, Path]
) -> None:
    require("codex-chat")
    work, home = dirs
    scenario = codex_chat_shell()
    with emulator(scenario.turns) as up:
        run = run_codex(up.url, "chat", work, scenario.prompt, home=home, sinkhole=hole)
    check_ok(run, up.url)
    check_outcome(run, scenario)

    calls = model_requests(up.recorder.requests)
    assert [(c.path, c.status) for c in calls] == [("/v1/chat/completions", 200)] * 3, run.describe()
    last = calls[2].body["messages"]
    assistant = [m for m in last if m["role"] == "assistant" and m.get("tool_calls")]
    results = [m for m in last if m["role"] == "tool"]
    assert [m["tool_calls"][0]["id"] for m in assistant] == [m["tool_call_id"] for m in results]
    assert "answer=42" in str(results[-1]["content"])
    for call in calls:
        assert problems(call) == [], call.path
    version = client_version("codex-chat")
    record(up.recorder.requests, "codex-chat", version, "chat-tool-loop", _replacements(work, home, up.url))
