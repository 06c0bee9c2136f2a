"""Codex CLI finishes real tool loops against the emulator: Responses (current Codex: its
``apply_patch`` custom tool and its ``exec_command`` shell) and Chat (0.94.0: ``shell_command``).

Each test scripts the model's tool calls; the CLI runs them for real in a temporary workdir; the
emulator's default answer after tool results quotes them, so the final message can only hold
``answer=42`` if the shell really ran ``echo answer=$((6*7))`` and the result came back.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.e2e._clients import check_ok, client_version, run_codex
from tests.e2e._corpus import model_requests, problems, record
from tests.e2e._egress import Sinkhole
from tests.e2e.conftest import require

pytestmark = pytest.mark.e2e

PATCH = "*** Begin Patch\n*** Add File: hello.txt\n+hello from toolwire\n*** End Patch\n"
SHOW = "cat hello.txt; echo answer=$((6*7))"
PROMPT = "Create hello.txt saying hello, then print it."


def _items(body: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [i for i in body.get("input", []) if isinstance(i, dict) and i.get("type") == kind]


def _replacements(work: Path, home: Path, url: str) -> dict[str, str]:
    return {str(work): "$WORKDIR", str(home): "$HOME", url.removeprefix("http://"): "127.0.0.1:PORT"}


def test_codex_responses_apply_patch_then_shell(
    emulator: Callable[..., Any], hole: Sinkhole, dirs: tuple[Path, Path]
) -> None:
    require("codex")
    work, home = dirs
    turns = [
        {"tool_calls": [{"name": "apply_patch", "arguments": PATCH}]},
        {"tool_calls": [{"name": "exec_command", "arguments": {"cmd": SHOW}}]},
    ]
    with emulator(turns) as up:
        run = run_codex(up.url, "responses", work, PROMPT, home=home, sinkhole=hole)
    check_ok(run)
    assert (work / "hello.txt").read_text(encoding="utf-8") == "hello from toolwire\n"
    assert run.final_text is not None and "hello from toolwire\nanswer=42" in run.final_text, run.describe()

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
    record(
        up.recorder.requests,
        "codex",
        client_version("codex"),
        "responses-tool-loop",
        _replacements(work, home, up.url),
    )


def test_codex_chat_mode_shell_loop(
    emulator: Callable[..., Any], hole: Sinkhole, dirs: tuple[Path, Path]
) -> None:
    require("codex-chat")
    work, home = dirs
    turns = [
        {
            "tool_calls": [
                {
                    "name": "shell_command",
                    "arguments": {"command": "printf 'hello from toolwire\\n' > hello.txt"},
                }
            ]
        },
        {"tool_calls": [{"name": "shell_command", "arguments": {"command": SHOW}}]},
    ]
    with emulator(turns) as up:
        run = run_codex(up.url, "chat", work, PROMPT, home=home, sinkhole=hole)
    check_ok(run)
    assert (work / "hello.txt").read_text(encoding="utf-8") == "hello from toolwire\n"
    assert run.final_text is not None and "hello from toolwire\nanswer=42" in run.final_text, run.describe()

    calls = model_requests(up.recorder.requests)
    assert [(c.path, c.status) for c in calls] == [("/v1/chat/completions", 200)] * 3, run.describe()
    last = calls[2].body["messages"]
    assistant = [m for m in last if m["role"] == "assistant" and m.get("tool_calls")]
    results = [m for m in last if m["role"] == "tool"]
    assert [m["tool_calls"][0]["id"] for m in assistant] == [m["tool_call_id"] for m in results]
    assert "answer=42" in str(results[-1]["content"])
    for call in calls:
        assert problems(call) == [], call.path
    record(
        up.recorder.requests,
        "codex-chat",
        client_version("codex-chat"),
        "chat-tool-loop",
        _replacements(work, home, up.url),
    )
