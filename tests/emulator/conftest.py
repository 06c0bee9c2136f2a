"""Emulator servers on 127.0.0.1 for the loopback tests (stopped at the end of the session)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.redis_server import redis_server
from toolwire.emulator import EmulatorConfig, create_app, serve

__all__ = ["API_KEY", "keyed_url", "redis_server", "url"]

API_KEY = "sk-test-emulator-key"


@pytest.fixture(scope="session")
def url() -> Iterator[str]:
    """An open emulator (no API keys)."""
    with serve(create_app(EmulatorConfig()), log_level="critical") as base:
        yield base


@pytest.fixture(scope="session")
def keyed_url() -> Iterator[str]:
    """An emulator that requires :data:`API_KEY`."""
    with serve(create_app(EmulatorConfig(api_keys=(API_KEY,))), log_level="critical") as base:
        yield base
