"""The emulator as every gateway test's upstream, and the gateway's shells over it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.gateway.shells import SHELLS, Shell, gateway_config, open_shell
from toolwire.emulator import serve
from toolwire.gateway import HopConfig


@pytest.fixture(scope="session")
def emulator_url() -> Iterator[str]:
    """The emulator (default config: no keys, the scripted model) on loopback."""
    with serve(log_level="critical") as url:
        yield url


@pytest.fixture(scope="session")
def config(emulator_url: str) -> HopConfig:
    return gateway_config(emulator_url)


@pytest.fixture(scope="session")
def asgi_shell(config: HopConfig) -> Iterator[Shell]:
    with open_shell("asgi", config) as shell:
        yield shell


def _shell(request: pytest.FixtureRequest, config: HopConfig) -> Iterator[Shell]:
    if request.param == "asgi":
        yield request.getfixturevalue("asgi_shell")
        return
    with open_shell(request.param, config) as shell:
        yield shell


@pytest.fixture(params=SHELLS)
def shell(request: pytest.FixtureRequest, config: HopConfig) -> Iterator[Shell]:
    """Each shell in turn (the ASGI server is shared by the session)."""
    yield from _shell(request, config)


@pytest.fixture(params=SHELLS[:2])
def sync_shell(request: pytest.FixtureRequest, config: HopConfig) -> Iterator[Shell]:
    """The ASGI app and the Transport, for clients that are sync (an SDK's own client)."""
    yield from _shell(request, config)
