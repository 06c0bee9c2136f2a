"""Session-wide test setup: nothing a test run does lands in the user's own data directory.

Gateways and emulators without a ``store`` setting open the default SQLite store under
``$XDG_DATA_HOME``; the whole run (subprocesses included) gets a fresh one, removed at the end.

Under CI (``CI=true``, which ``.ci/run`` sets) Hypothesis runs the ``ci`` profile: derandomized, so
a submission's CI run is the same every time and a property test cannot fail by the luck of its
draw; a local run keeps exploring new examples (the fuzz tests found real bugs that way).
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True)
if os.environ.get("CI", "").lower() in ("1", "true", "yes"):  # as tests/redis_server.py reads it
    settings.load_profile("ci")

_ENV = "XDG_DATA_HOME"
_saved: dict[str, str | None] = {}


def pytest_configure(config: pytest.Config) -> None:
    _saved[_ENV] = os.environ.get(_ENV)
    os.environ[_ENV] = tempfile.mkdtemp(prefix="toolwire-test-data-")


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(os.environ[_ENV], ignore_errors=True)
    previous = _saved.pop(_ENV, None)
    if previous is None:
        os.environ.pop(_ENV, None)
    else:
        os.environ[_ENV] = previous
