"""Colour on a terminal only (``NO_COLOR`` wins, then ``FORCE_COLOR``), one-line errors, help lines."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.helpers import toolwire
from toolwire.cli import build_parser, main
from toolwire.cli._completion import command_tree

RED = "\033[1;31mtoolwire: error:\033[0m"
MISSING = "toolwire: error: cannot read 'missing.json': No such file or directory"


def _on_a_terminal(env: dict[str, str], cwd: Path) -> str:
    """Standard error of ``toolwire convert --to gemini missing.json`` written to a pseudo-terminal."""
    leader, follower = pty.openpty()
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    argv = [sys.executable, "-m", "toolwire", "convert", "--to", "gemini", "missing.json"]
    try:
        done = subprocess.run(
            argv, stderr=follower, stdout=subprocess.DEVNULL, env={**base, **env}, cwd=cwd, timeout=60
        )
    finally:
        os.close(follower)
    assert done.returncode == 3
    data = os.read(leader, 4096).decode()
    os.close(leader)
    return data.replace("\r\n", "\n")


def test_errors_are_red_on_a_terminal(tmp_path: Path) -> None:
    assert _on_a_terminal({}, tmp_path) == MISSING.replace("toolwire: error:", RED) + "\n"


def test_no_color_turns_it_off_on_a_terminal(tmp_path: Path) -> None:
    assert _on_a_terminal({"NO_COLOR": "1"}, tmp_path) == MISSING + "\n"
    assert _on_a_terminal({"TERM": "dumb"}, tmp_path) == MISSING + "\n"


@pytest.mark.parametrize(
    ("env", "colour"),
    [
        ({}, False),
        ({"FORCE_COLOR": "1"}, True),
        ({"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        ({"FORCE_COLOR": ""}, False),
    ],
)
def test_into_a_pipe_only_force_color_colours(env: dict[str, str], colour: bool, tmp_path: Path) -> None:
    done = toolwire("convert", "--to", "gemini", "missing.json", env=env, cwd=tmp_path)
    assert done.returncode == 3
    assert done.stderr == (MISSING.replace("toolwire: error:", RED) if colour else MISSING) + "\n"


def test_usage_errors_are_coloured_the_same_way(tmp_path: Path) -> None:
    done = toolwire("convrt", env={"FORCE_COLOR": "1"})
    assert done.stderr.startswith(f"{RED} unknown command 'convrt'")


def test_every_option_and_command_has_one_line_help() -> None:
    stack = [command_tree(build_parser())]
    seen = 0
    while stack:
        command = stack.pop()
        for option in command.options:
            assert option.help and "\n" not in option.help, (command.path, option.flags)
            seen += 1
        for sub in command.commands:
            assert sub.help and "\n" not in sub.help, sub.path
        stack.extend(command.commands)
    assert seen > 40


def test_ctrl_c_exits_130_quietly(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Interrupted(io.BytesIO):
        def read(self, size: int | None = -1) -> bytes:
            raise KeyboardInterrupt

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(Interrupted()))
    assert main(["convert", "--to", "gemini", "-"]) == 130
    assert capsys.readouterr() == ("", "")
