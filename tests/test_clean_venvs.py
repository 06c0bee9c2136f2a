"""The clean-venv check's own rules (``.ci/clean_venvs.py``), without building any venv.

``make clean-venvs`` runs the real thing (wheel, venvs, PyPI); these pin how it reads
pyproject.toml and README.md and how it judges a command's exit code and hint.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.ci_scripts import load

ROOT = Path(__file__).resolve().parent.parent
clean_venvs = load("clean_venvs")

CLIENT = frozenset({"client"})
RUN_NEEDS = frozenset({"client", "models"})


def test_extras_are_read_from_pyproject() -> None:
    shells = clean_venvs.shells(clean_venvs.tomllib.loads((ROOT / "pyproject.toml").read_text()))
    assert shells == clean_venvs.SHELLS
    assert shells == {
        "none": frozenset(),
        "client": CLIENT,
        "server": frozenset({"server"}),
        "models": frozenset({"models"}),
        "otel": frozenset({"otel"}),
        "cli": frozenset({"client", "server", "models"}),
        "redis": frozenset({"redis"}),
        "vertex": frozenset({"vertex"}),
        "bedrock": frozenset({"bedrock"}),
        "all": frozenset({"client", "server", "models", "otel", "redis", "vertex", "bedrock"}),
    }
    assert set(clean_venvs.EXTRAS) == set(clean_venvs.SHELLS)


def test_readme_snippets_and_skip_marks() -> None:
    text = (ROOT / "README.md").read_text()
    snippets = clean_venvs.readme_snippets(text)
    assert len(snippets) == text.count("```python\n")
    skipped = [code for _, code, skip in snippets if skip]
    assert len(skipped) == 2 and "send(chunk)" in skipped[0]
    assert "http_client=Transport(config).client()" in skipped[1]  # needs openai + a key


def _venv(extra: str) -> object:
    return clean_venvs.Venv(extra, Path("/nonexistent"), clean_venvs.SHELLS[extra])


def _proc(code: int, stdout: str = "", stderr: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(["toolwire"], code, stdout, stderr)


HINT_CLI = "toolwire: error: 'toolwire run' needs httpx, pydantic: pip install 'toolwire[cli]'"


@pytest.mark.parametrize(
    ("extra", "needs", "proc", "ok", "mark"),
    [
        ("cli", RUN_NEEDS, _proc(0, "sunny in Paris"), True, "ok"),
        ("cli", RUN_NEEDS, _proc(0, "cloudy"), False, "FAIL"),  # expected output missing
        ("cli", RUN_NEEDS, _proc(6, stderr=HINT_CLI), False, "FAIL"),  # has the extras, must succeed
        ("client", RUN_NEEDS, _proc(6, stderr=HINT_CLI), True, "6[cli]"),
        ("client", RUN_NEEDS, _proc(6, stderr="pip install 'toolwire[models]'"), True, "6[models]"),
        ("client", RUN_NEEDS, _proc(6, stderr="pip install 'toolwire[server]'"), False, "FAIL"),  # wrong hint
        ("client", RUN_NEEDS, _proc(1, stderr=HINT_CLI), False, "FAIL"),  # wrong exit code
        ("client", RUN_NEEDS, _proc(6, stderr="ImportError: httpx"), False, "FAIL"),  # no hint
        ("none", frozenset(), _proc(0, "sunny in Paris"), True, "ok"),
    ],
)
def test_judge(extra: str, needs: frozenset[str], proc: object, ok: bool, mark: str) -> None:
    outcome = clean_venvs.judge(_venv(extra), needs, proc, "sunny in Paris" if needs else "")
    assert (outcome.ok, outcome.mark) == (ok, mark)
