"""``toolwire validate``: prints problems as ``path: code: message``, exit 1 on problems, 0 when valid."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from tests.validate.cases_openai import RESPONSES_BASE
from toolwire.cli import main


def _write(tmp_path: Path, payload: object) -> str:
    path = tmp_path / "payload.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return str(path)


def test_valid_file_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--format", "openai-responses", _write(tmp_path, RESPONSES_BASE)]) == 0
    assert capsys.readouterr().out == ""


def test_problems_exit_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = {**RESPONSES_BASE, "tools": [{"type": "function", "function": {"name": "get_weather"}}]}
    broken.pop("tool_choice")
    assert main(["validate", "--format", "openai-responses", _write(tmp_path, broken)]) == 1
    out = capsys.readouterr()
    assert (
        "$.tools[0].name: missing_required_parameter: Missing required parameter: 'tools[0].name'." in out.out
    )
    assert "problem" in out.err


def test_stdin_response_kind_and_alias(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "m",
        "stop_reason": "done",
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(json.dumps(body).encode())))
    assert main(["validate", "--format", "claude", "--kind", "response", "-"]) == 1
    assert "$.stop_reason: invalid_value: stop_reason: Input should be" in capsys.readouterr().out
