"""The public API type-checks under ``mypy --strict`` and pyright (strict), as a user would run them.

``readme_snippets.py`` (every README snippet, with ``assert_type`` on what the checkers infer)
must be clean, and so must the README's Python snippets as written (extracted at test time, each
the body of a function); ``bad_usage.py`` must be reported on exactly its lines marked
``# error:`` (misspelt format and provider names, wrong arguments to a ``@tool`` function, a
sync client given to ``arun``...). Each checker runs once, on all three files, as a real
subprocess.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
GOOD = HERE / "readme_snippets.py"
BAD = HERE / "bad_usage.py"
PYRIGHT_CONFIG = HERE / "pyrightconfig.json"
ROOT = HERE.parents[1]
README = ROOT / "README.md"

README_PREAMBLE = """\
# The README writes REPL-style lines (``result.payload  # the request``, a value shown, not used)
# and a ``...`` body; each snippet is a function body here.
# mypy: disable-error-code="empty-body"
# pyright: reportUnusedExpression=false, reportUnusedVariable=false
from collections.abc import Iterable
from typing import Any

anthropic_events: list[dict[str, Any]] = []  # what the README's stream snippet leaves to the reader
upstream_chunks: Iterable[bytes] = []


def send(chunk: bytes) -> None: ...
"""

_MYPY_LINE = re.compile(r"^(?P<file>[^:\n]+\.py):(?P<line>\d+): error: (?P<message>.*)$", re.MULTILINE)

Reported = dict[str, dict[int, list[str]]]
"""File name -> line -> the checker's messages on that line."""


def _marked_lines(path: Path) -> set[int]:
    return {n for n, line in enumerate(path.read_text().splitlines(), 1) if re.search(r"\s# error: ", line)}


def _readme_as_written(directory: Path) -> Path:
    """The README's ``python`` blocks, each as the body of a function, in one file."""
    blocks = re.findall(r"^```python\n(.*?)^```", README.read_text(), re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 4, "the README's Python snippets were not found"
    functions = [
        f"def snippet_{n}() -> None:\n" + textwrap.indent(block, "    ") for n, block in enumerate(blocks, 1)
    ]
    path = directory / "readme_as_written.py"
    path.write_text("\n\n".join([README_PREAMBLE, *functions]))
    return path


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}  # no look-up of a newer pyright on PyPI
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


@pytest.fixture(scope="module")
def readme(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _readme_as_written(tmp_path_factory.mktemp("readme"))


@pytest.fixture(scope="module")
def mypy_errors(tmp_path_factory: pytest.TempPathFactory, readme: Path) -> Reported:
    cache = tmp_path_factory.mktemp("mypy-cache")
    args = [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache)]
    out = _run([*args, str(GOOD), str(BAD), str(readme)])
    assert out.returncode in (0, 1), out.stdout + out.stderr  # 2 would be a crash or a usage error
    found: Reported = defaultdict(lambda: defaultdict(list))
    for match in _MYPY_LINE.finditer(out.stdout):
        found[Path(match["file"]).name][int(match["line"])].append(match["message"])
    return found


@pytest.fixture(scope="module")
def pyright_errors(readme: Path) -> Reported:
    args = [sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", sys.executable]
    out = _run([*args, "--project", str(PYRIGHT_CONFIG), str(GOOD), str(BAD), str(readme)])
    assert out.returncode in (0, 1), out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["summary"]["filesAnalyzed"] == 3
    found: Reported = defaultdict(lambda: defaultdict(list))
    for diagnostic in report["generalDiagnostics"]:
        if diagnostic["severity"] == "error":
            line = diagnostic["range"]["start"]["line"] + 1
            found[Path(diagnostic["file"]).name][line].append(diagnostic["message"])
    return found


@pytest.fixture(params=["mypy", "pyright"])
def errors(request: pytest.FixtureRequest) -> Reported:
    found: Reported = request.getfixturevalue(f"{request.param}_errors")
    return found


def test_readme_snippets_are_clean(errors: Reported) -> None:
    assert dict(errors[GOOD.name]) == {}


def test_readme_as_written_is_clean(errors: Reported) -> None:
    assert dict(errors["readme_as_written.py"]) == {}


def test_each_mistake_is_reported_and_nothing_else(errors: Reported) -> None:
    marked = _marked_lines(BAD)
    assert len(marked) == 17
    assert sorted(errors[BAD.name]) == sorted(marked)


def test_misspelt_names_are_rejected_for_what_they_are(errors: Reported) -> None:
    """The message names the bad literal, so the error is the Literal check, not something else."""
    lines = BAD.read_text().splitlines()
    checked = 0
    for bad in ("antropic", "openai", "chat-gpt", "Anthropic", "gemni", "openai_chat", "sse", "openai-chats"):
        for number in [n for n, line in enumerate(lines, 1) if f'"{bad}"' in line]:
            assert any(f"'{bad}'" in message for message in errors[BAD.name][number]), (bad, number)
            checked += 1
    assert checked == 9
