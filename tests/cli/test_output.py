"""``-o/--output``, ``--version``, ``python -m toolwire``."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from tests.cli.helpers import toolwire, write_json
from tests.cli.payloads import REQUESTS
from toolwire.cli import main


def test_version_names_the_installed_distribution() -> None:
    done = toolwire("--version")
    assert (done.returncode, done.stdout, done.stderr) == (0, f"toolwire {version('toolwire')}\n", "")


def test_python_dash_m_toolwire_and_toolwire_cli_are_the_same_command() -> None:
    for module in ("toolwire", "toolwire.cli"):
        done = subprocess.run(
            [sys.executable, "-m", module, "--help"], capture_output=True, text=True, timeout=60
        )
        assert done.returncode == 0 and done.stdout.startswith("usage: toolwire [-h] [--version] COMMAND ...")


@pytest.mark.parametrize(
    "argv",
    [
        ["convert", "--from", "anthropic", "--to", "gemini"],
        ["tools", "convert", "--from", "anthropic", "--to", "gemini"],
    ],
)
def test_output_file_gets_what_stdout_would(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    payload = REQUESTS["anthropic"] if argv[0] == "convert" else REQUESTS["anthropic"]["tools"]
    source = write_json(tmp_path / "in.json", payload)
    assert main([*argv, source]) == 0
    printed = capsys.readouterr().out
    target = tmp_path / "out.json"
    assert main([*argv, "-o", str(target), source]) == 0
    assert capsys.readouterr().out == ""
    assert target.read_text(encoding="utf-8") == printed
    assert main([*argv, "--output", "-", source]) == 0
    assert capsys.readouterr().out == printed


def test_schema_and_replay_write_to_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    module = tmp_path / "cli_schema_mod.py"
    module.write_text(
        'SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}}\n', encoding="utf-8"
    )
    target = tmp_path / "tool.json"
    argv = ["schema", "cli_schema_mod:SCHEMA", "--format", "anthropic", "-o", str(target)]
    sys.path.insert(0, str(tmp_path))
    try:
        assert main(argv) == 0
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("cli_schema_mod", None)
    assert json.loads(target.read_text(encoding="utf-8")) == {
        "name": "SCHEMA",
        "input_schema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }
    recording = tmp_path / "rec.json"
    recording.write_text(
        json.dumps(
            [
                {
                    "candidates": [
                        {"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}
                    ]
                }
            ]
        )
    )
    out = tmp_path / "out.sse"
    assert main(["replay", "--from", "gemini", "--to", "anthropic", "-o", str(out), str(recording)]) == 0
    assert capsys.readouterr().out == ""
    text = out.read_text(encoding="utf-8")
    assert text.startswith("event: message_start\n") and "event: message_stop\n" in text


def test_unwritable_output_is_an_input_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = write_json(tmp_path / "in.json", REQUESTS["gemini"])
    target = tmp_path / "no" / "such" / "dir" / "out.json"
    assert main(["convert", "--to", "anthropic", "--model", "m", "-o", str(target), source]) == 3
    assert capsys.readouterr().err.endswith(
        f"toolwire: error: cannot write '{target}': No such file or directory\n"
    )
