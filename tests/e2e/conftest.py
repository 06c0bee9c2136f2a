"""Fixtures of the real-client tests: a scripted, recording emulator and a proxy sinkhole.

These tests run the pinned CLIs of ``e2e/package.json``; ``make e2e`` installs them and runs
``pytest -m e2e tests/e2e``. The default ``pytest`` run deselects the ``e2e`` marker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e._capture import Recorder
from tests.e2e._clients import installed
from tests.e2e._egress import Sinkhole, sinkhole
from toolwire.emulator import EmulatorConfig, create_app, parse_script, serve


@dataclass(slots=True)
class Upstream:
    """A running emulator: its base URL and the recorder of every request it got."""

    url: str
    recorder: Recorder


@contextmanager
def scripted_emulator(turns: list[Any]) -> Iterator[Upstream]:
    """An emulator on a free loopback port playing ``turns`` (see ``toolwire.emulator.script``),
    recording every request."""
    recorder = Recorder(create_app(EmulatorConfig(script=parse_script(turns))))
    with serve(recorder, log_level="warning") as url:
        yield Upstream(url, recorder)


@pytest.fixture
def emulator() -> Callable[[list[Any]], AbstractContextManager[Upstream]]:
    """``with emulator(turns) as up:`` starts a scripted, recording emulator."""
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


def require(client: str) -> None:
    """Fail (not skip) when the pinned CLI is missing: the ``e2e`` marker asked for it."""
    if not installed(client):
        pytest.fail(f"{client} is not installed: run `make e2e` (npm ci --prefix e2e)")
