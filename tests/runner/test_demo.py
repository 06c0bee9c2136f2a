"""``toolwire demo``: the README's main job runs offline and shows every format."""

from __future__ import annotations

import json

import pytest

from toolwire.cli import main


def test_demo_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--quiet"]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:] if line.strip()}
    for fmt in ("openai-chat", "openai-responses", "anthropic", "gemini"):
        assert rows[fmt][1] == "2", f"{fmt}: expected two turns (tool call, then the answer)"
        assert int(rows[fmt][2]) >= 1
    assert "chat" in rows  # the translated pair row: "chat -> anthropic"


def test_demo_prints_wire_bodies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo"]) == 0
    out = capsys.readouterr().out
    assert out.count("--- turn 1: request sent") == 4
    assert "=== translated: openai-chat client -> anthropic upstream ===" in out
    answers = [line for line in out.splitlines() if line.startswith("answer: ")]
    assert len(answers) == 4 and all("Results: get_weather -> " in a for a in answers)
    first_body = out.split("--- turn 1: request sent\n", 1)[1].split("\n---", 1)[0]
    assert (
        json.loads(first_body)["messages"][1]["content"] == "What's the weather in Paris and the time there?"
    )
