"""Running mutants: a temporary copy of ``src/`` per worker, one pytest subprocess per mutant.

A worker writes the mutant into its own copy (never the working tree), runs only the tests that
cover the mutated lines with ``-x`` and ``PYTHONPATH`` on the copy, then puts the original back and
drops that module's bytecode. A failing test kills the mutant; so does a collection error (the
mutant broke an import); a run past the timeout is killed with its process group (a hang is caught).
"""

from __future__ import annotations

import os
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

from tests.mutation._mutants import Mutant

__all__ = ["Outcome", "Workers"]

KILLED, SURVIVED, TIMEOUT, UNCOVERED, EQUIVALENT, ERROR = (
    "killed",
    "survived",
    "timeout",
    "uncovered",
    "equivalent",
    "error",
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What happened to one mutant."""

    mutant: Mutant
    status: str
    tests: int
    seconds: float
    detail: str = ""


class Workers:
    """A pool of private ``src/`` copies, one per concurrent run."""

    def __init__(self, root: Path, jobs: int) -> None:
        self.root = root
        self._tmp = Path(tempfile.mkdtemp(prefix="toolwire-mutants-"))
        self._free: queue.Queue[Path] = queue.Queue()
        self._live: set[subprocess.Popen[bytes]] = set()
        self._stopped = False
        for n in range(jobs):
            copy = self._tmp / f"w{n}" / "src"
            shutil.copytree(root / "src", copy, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
            self._free.put(copy)

    def stop(self) -> None:
        """Kill the runs still going and start no more (an interrupted session)."""
        self._stopped = True
        for proc in list(self._live):
            _kill(proc)

    def close(self) -> None:
        """Stop every run and remove every copy."""
        self.stop()
        shutil.rmtree(self._tmp, ignore_errors=True)

    @contextmanager
    def _copy(self) -> Iterator[Path]:
        copy = self._free.get()
        try:
            yield copy
        finally:
            self._free.put(copy)

    def run(
        self, module_path: str, source: str | None, tests: set[str], timeout: float
    ) -> tuple[str, float, str]:
        """Run ``tests`` with ``module_path`` replaced by ``source`` (None: unmutated).

        Returns:
            (status, seconds, last line of pytest output): status is killed, survived, timeout or error.
        """
        if self._stopped:
            return ERROR, 0.0, "stopped"
        with self._copy() as copy:
            target = copy / Path(module_path).relative_to("src")
            original = target.read_bytes()
            _drop_bytecode(target)
            if source is not None:
                target.write_text(source, encoding="utf-8")
            try:
                return self._phases(copy, module_path, tests, timeout, source is None)
            finally:
                target.write_bytes(original)
                _drop_bytecode(target)

    def _phases(
        self, copy: Path, module_path: str, tests: set[str], timeout: float, baseline: bool
    ) -> tuple[str, float, str]:
        """A mutant runs the tests of the nearest files first (a small, fast pytest session) and
        the rest only when those pass; the baseline runs them all at once."""
        near = {t for t in tests if _nearness(module_path, t.split("::", 1)[0])[:2] != (1, 1)}
        phases = [tests] if baseline or not near or near == tests else [near, tests - near]
        spent = 0.0
        status, tail = SURVIVED, ""
        for phase in phases:
            status, seconds, tail = self._pytest(copy, module_path, phase, timeout)
            spent += seconds
            if status != SURVIVED:
                break
        return status, spent, tail

    def _pytest(
        self, copy: Path, module_path: str, tests: set[str], timeout: float
    ) -> tuple[str, float, str]:
        select = copy.parent / "select.txt"
        select.write_text("\n".join(sorted(tests)) + "\n", encoding="utf-8")
        files = sorted({t.split("::", 1)[0] for t in tests}, key=lambda f: _nearness(module_path, f))
        env = {**os.environ, "PYTHONPATH": str(copy), "TOOLWIRE_MUTATION_SELECT": str(select)}
        env.pop("TOOLWIRE_MUTATION_CONTEXTS", None)
        cmd = [
            sys.executable,
            "-m",
            "pytest",
            "-x",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "tests.mutation._plugin",
        ]
        start = time.monotonic()
        proc = subprocess.Popen(
            [*cmd, *files],
            cwd=self.root,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self._live.add(proc)
        try:
            out, _ = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill(proc)
            proc.communicate()
            return TIMEOUT, time.monotonic() - start, f"no result after {timeout:.0f} s"
        finally:
            self._live.discard(proc)
        seconds = time.monotonic() - start
        lines = out.decode(errors="replace").strip().splitlines()
        tail = lines[-1] if lines else ""
        # pytest exit codes: 0 passed, 1 a test failed, 2 interrupted (a collection error), 3 internal
        # error, 4 usage error (a conftest failed to import), 5 nothing ran. The baseline passed with the
        # same selection, so anything but 0 and 5 comes from the mutant.
        status = {0: SURVIVED, 1: KILLED, 2: KILLED, 3: KILLED, 4: KILLED}.get(proc.returncode, ERROR)
        return status, seconds, tail if status != ERROR else f"pytest exit {proc.returncode}: {tail}"


def _nearness(module_path: str, test_file: str) -> tuple[int, int, str]:
    """Test files named after the module first, then those of its package: with ``-x`` the
    likeliest killers run first."""
    module = Path(module_path)
    stem = module.stem.lstrip("_")
    named = stem in Path(test_file).stem
    package = module.parent.name in Path(test_file).parts
    return (0 if named else 1, 0 if package else 1, test_file)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """Kill a run and everything it started (its own process group)."""
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


def _drop_bytecode(source: Path) -> None:
    for pyc in (source.parent / "__pycache__").glob(f"{source.stem}.*.pyc"):
        pyc.unlink(missing_ok=True)
