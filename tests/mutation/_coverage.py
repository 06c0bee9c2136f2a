"""Which tests execute each line of the target modules: per-test coverage, collected once and cached.

Coverage runs the test files under the pytest plugin of ``_plugin.py``, which names each test's
coverage context after its node id. The result is cached in ``.mutation-cache/coverage.json`` per
test file: a file is re-run when its own text changes or when a target module it executed changed;
every file is re-run when a test helper (a ``tests/`` module not named ``test_*``),
``pyproject.toml`` or the target list changes, or with ``--fresh``. (Edits elsewhere in ``src/``
keep the cache: they rarely change which tests reach a target line.) Lines executed outside any
test (at import) are kept as ``static``.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

__all__ = ["Coverage", "collect"]

Lines = dict[int, list[str]]
_VERSION = 2


class Coverage:
    """Per module (repo-relative path): line -> node ids, and the lines run at import."""

    def __init__(self, by_file: dict[str, dict[str, Lines]], static: dict[str, list[int]]) -> None:
        self.lines: dict[str, dict[int, set[str]]] = {}
        for per_module in by_file.values():
            for module, lines in per_module.items():
                target = self.lines.setdefault(module, {})
                for line, ids in lines.items():
                    target.setdefault(int(line), set()).update(ids)
        self.static = {module: set(lines) for module, lines in static.items()}

    def module_tests(self, module: str) -> set[str]:
        """Every test that executes some line of ``module``."""
        out: set[str] = set()
        for ids in self.lines.get(module, {}).values():
            out |= ids
        return out

    def tests_for(self, module: str, lines: range) -> set[str] | None:
        """The tests that execute any of ``lines``; None when the lines run only at import.

        None tells the caller to use :meth:`module_tests` (a module-level constant reaches every
        caller of the module); an empty set means no test executes the lines at all.
        """
        per_line = self.lines.get(module, {})
        out: set[str] = set()
        for line in lines:
            out |= per_line.get(line, set())
        if not out and any(line in self.static.get(module, set()) for line in lines):
            return None
        return out


def _rel(path: Path, root: Path) -> str:
    return str(path.relative_to(root))


def _hash_files(paths: list[Path], root: Path) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _test_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "tests").rglob("test_*.py") if "e2e" not in p.parts)


def _helpers_key(root: Path, targets: list[str]) -> str:
    tests = root / "tests"
    helpers = sorted(
        p for p in tests.rglob("*.py") if not p.name.startswith("test_") and "mutation" not in p.parts
    )
    return _hash_files([*helpers, root / "pyproject.toml"], root) + ":" + ",".join(sorted(targets))


def _stale(state: dict[str, Any], hashes: dict[str, str], modules: dict[str, str]) -> list[str]:
    """Test files to re-run: new or edited ones, and those that executed a target that changed."""
    changed = {m for m, h in modules.items() if state["modules"].get(m) != h}
    out = []
    for rel, digest in hashes.items():
        entry = state["files"].get(rel)
        if entry is None or entry["hash"] != digest or changed & set(entry["lines"]):
            out.append(rel)
    return out


def _run_chunk(
    root: Path, files: list[Path], targets: list[str], workdir: Path, n: int
) -> tuple[Path, list[Path]]:
    data = workdir / f"cov-{n}"
    rc = workdir / f"rc-{n}"
    include = ",".join(str(root / t) for t in targets)
    rc.write_text(f"[run]\ndata_file = {data}\ninclude = {include}\n", encoding="utf-8")
    env = {**os.environ, "TOOLWIRE_MUTATION_CONTEXTS": "1"}
    cmd = [
        sys.executable,
        "-m",
        "coverage",
        "run",
        f"--rcfile={rc}",
        "-m",
        "pytest",
        "-q",
        "-p",
        "no:cacheprovider",
    ]
    cmd += ["-p", "tests.mutation._plugin", *(str(f.relative_to(root)) for f in files)]
    proc = subprocess.run(
        cmd, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, check=False
    )
    tail = proc.stdout.decode(errors="replace").strip().splitlines()[-1:] or [""]
    print(
        f"  coverage chunk {n}: {len(files)} test files, pytest exit {proc.returncode}: {tail[0]}", flush=True
    )
    return data, files


def _read(root: Path, data_file: Path) -> tuple[dict[str, dict[str, Lines]], dict[str, set[int]]]:
    import coverage

    if not data_file.exists():
        raise RuntimeError(f"coverage wrote no data to {data_file}")
    data = coverage.CoverageData(basename=str(data_file))
    data.read()
    by_file: dict[str, dict[str, Lines]] = {}
    static: dict[str, set[int]] = {}
    for measured in data.measured_files():
        module = str(Path(measured).relative_to(root))
        for line, contexts in data.contexts_by_lineno(measured).items():
            for ctx in contexts:
                if not ctx:
                    static.setdefault(module, set()).add(line)
                    continue
                test_file = ctx.split("::", 1)[0]
                lines = by_file.setdefault(test_file, {}).setdefault(module, {})
                lines.setdefault(str(line), []).append(ctx)
    return by_file, static


def collect(root: Path, targets: list[str], jobs: int, cache: Path, *, fresh: bool = False) -> Coverage:
    """Per-test line coverage of ``targets`` (repo-relative paths), from the cache where still valid.

    Args:
        root: the repository.
        targets: the modules to measure.
        jobs: how many coverage runs at once (the stale test files are split between them).
        cache: the cache file.
        fresh: ignore the cache.
    """
    key = _helpers_key(root, targets)
    state = json.loads(cache.read_text(encoding="utf-8")) if cache.exists() and not fresh else {}
    if state.get("version") != _VERSION or state.get("key") != key:
        state = {"version": _VERSION, "key": key, "modules": {}, "files": {}, "static": {}}
    hashes = {_rel(f, root): hashlib.sha256(f.read_bytes()).hexdigest() for f in _test_files(root)}
    modules = {m: hashlib.sha256((root / m).read_bytes()).hexdigest() for m in targets}
    stale = _stale(state, hashes, modules)
    if stale:
        print(f"collecting per-test coverage of {len(stale)} test files ({jobs} at once) ...", flush=True)
        for module, digest in modules.items():
            if state["modules"].get(module) != digest:
                state["static"].pop(module, None)
        chunks = [[root / f for f in stale[i::jobs]] for i in range(jobs) if stale[i::jobs]]
        with (
            tempfile.TemporaryDirectory(prefix="toolwire-mutcov-") as tmp,
            ThreadPoolExecutor(len(chunks)) as pool,
        ):
            results = list(
                pool.map(lambda c: _run_chunk(root, c[1], targets, Path(tmp), c[0]), enumerate(chunks))
            )
            for data_file, chunk in results:  # read before the temporary directory goes
                by_file, static = _read(root, data_file)
                for module, lines in static.items():
                    state["static"][module] = sorted(set(state["static"].get(module, [])) | lines)
                for f in chunk:
                    rel = _rel(f, root)
                    state["files"][rel] = {"hash": hashes[rel], "lines": by_file.get(rel, {})}
        state["modules"] = modules
        cache.parent.mkdir(parents=True, exist_ok=True)
        cache.write_text(json.dumps(state), encoding="utf-8")
    live = {rel: entry["lines"] for rel, entry in state["files"].items() if rel in hashes}
    return Coverage(live, state["static"])
