"""Running the real ``toolwire`` command in a subprocess (``python -m toolwire``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

BLOCKED = ("httpx", "pydantic", "pydantic_core", "starlette", "uvicorn", "tenacity", "redis")
"""Every third-party package of an extra: blocked, the CLI sees a core-only install."""

_BLOCKER = '''
import os, sys

class _Blocked:
    """Makes the modules named in TOOLWIRE_TEST_BLOCK unimportable, as if not installed."""

    names = frozenset(os.environ["TOOLWIRE_TEST_BLOCK"].split(","))

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _Blocked())
'''


def blocked_env(block_dir: Path) -> dict[str, str]:
    """Environment variables under which Python cannot import :data:`BLOCKED` (a
    ``sitecustomize`` written into ``block_dir`` puts a blocking finder on ``sys.meta_path``)."""
    (block_dir / "sitecustomize.py").write_text(_BLOCKER, encoding="utf-8")
    path = os.pathsep.join(filter(None, [str(block_dir), os.environ.get("PYTHONPATH")]))
    return {"PYTHONPATH": path, "TOOLWIRE_TEST_BLOCK": ",".join(BLOCKED)}


def toolwire(
    *args: str,
    env: dict[str, str] | None = None,
    stdin: bytes | None = None,
    cwd: Path | None = None,
    block_dir: Path | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m toolwire ARGS``; with ``block_dir``, the extras' packages are unimportable.

    ``NO_COLOR`` and ``FORCE_COLOR`` are not inherited (pass them in ``env``).
    """
    inherited = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    full_env = {**inherited, **(blocked_env(block_dir) if block_dir else {}), **(env or {})}
    done = subprocess.run(
        [sys.executable, "-m", "toolwire", *args],
        input=stdin,
        capture_output=True,
        env=full_env,
        cwd=cwd,
        timeout=60,
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


def write_json(path: Path, payload: Any) -> str:
    """Write ``payload`` as JSON to ``path``; returns the path as a string."""
    path.write_text(json.dumps(payload), encoding="utf-8")
    return str(path)
