"""The pytest plugin of the mutation runner (``-p tests.mutation._plugin``).

- ``TOOLWIRE_MUTATION_CONTEXTS=1``: each test's coverage is recorded under its node id (a coverage
  dynamic context), so the runner knows which tests execute each line.
- ``TOOLWIRE_MUTATION_SELECT=<file>``: only the node ids listed in the file (one a line) run.
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path

import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None, None, None]:
    cov = None
    if os.environ.get("TOOLWIRE_MUTATION_CONTEXTS") == "1":
        import coverage

        cov = coverage.Coverage.current()
    if cov is not None:
        cov.switch_context(item.nodeid)
    yield
    if cov is not None:
        cov.switch_context("")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    select = os.environ.get("TOOLWIRE_MUTATION_SELECT")
    if not select:
        return
    wanted = set(Path(select).read_text(encoding="utf-8").splitlines())
    keep = [item for item in items if item.nodeid in wanted]
    dropped = [item for item in items if item.nodeid not in wanted]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
    items[:] = keep
