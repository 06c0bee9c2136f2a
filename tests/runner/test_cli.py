"""``toolwire run`` against the emulator over loopback, with tools from a Python module."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolwire.cli import main
from toolwire.emulator import serve

MODULE = '''
from toolwire.decorator import tool

@tool
def get_weather(city: str) -> str:
    """Current weather of a city.

    Args:
        city: City name.
    """
    return f"sunny in {city}"
'''


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(log_level="critical") as base:
        yield base


@pytest.fixture
def tools_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    (tmp_path / "cli_weather_tools.py").write_text(MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "cli_weather_tools"
    sys.modules.pop("cli_weather_tools", None)


@pytest.mark.parametrize("fmt", ["openai-responses", "openai-chat", "anthropic", "gemini"])
@pytest.mark.parametrize("stream", [False, True])
def test_run_command(
    fmt: str, stream: bool, url: str, tools_module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["run", "--provider", fmt, "--base-url", url, "--api-key", "k", "--model", "m"]
    argv += ["--tools", tools_module, "What is the weather?"] + (["--stream"] if stream else [])
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out.strip() == "Results: get_weather -> sunny in city"
    assert '[turn 1] get_weather({"city":"city"})' in err
    assert "2 turn(s), stopped: completed" in err


def test_named_tools_and_bad_module(url: str, tools_module: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["run", "--provider", "anthropic", "--base-url", url, "--api-key", "k", "--model", "m"]
    assert main([*argv, "--tools", f"{tools_module}:get_weather", "weather?"]) == 0
    assert main([*argv, "--tools", "no_such_module_xyz", "weather?"]) == 2
    assert "cannot import module 'no_such_module_xyz'" in capsys.readouterr().err
    assert main([*argv, "--max-turns", "1", "--tools", tools_module, "weather?"]) == 1
