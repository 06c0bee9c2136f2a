"""Fixtures of the real-client tests: a scripted, recording emulator, a proxy sinkhole, and
the run's directories.

These tests run the pinned CLIs of ``e2e/package.json``; ``make e2e`` installs them and runs
``pytest -m e2e tests/e2e``. The default ``pytest`` run deselects the ``e2e`` marker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path

import pytest

from tests.e2e._egress import Sinkhole, sinkhole
from tests.e2e._emulator import Upstream, scripted_emulator


@pytest.fixture
def emulator() -> Callable[..., AbstractContextManager[Upstream]]:
    """``with emulator(turns) as up:`` starts a scripted, recording emulator (provider rules)."""
    return scripted_emulator


@pytest.fixture
def hole() -> Iterator[Sinkhole]:
    """A fresh proxy sinkhole for one client run."""
    with sinkhole() as h:
        yield h


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    """(workdir, home) for one client run."""
    work, home = tmp_path / "work", tmp_path / "home"
    work.mkdir()
    home.mkdir()
    return work, home
