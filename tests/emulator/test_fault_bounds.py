"""Fault specs with non-finite or huge numbers are refused with a 400 (issue 19)."""

from __future__ import annotations

import time
from collections.abc import Iterator

import httpx
import pytest

from toolwire.emulator import FAULT_HEADER, serve
from toolwire.emulator.faults import parse_faults
from toolwire.errors import PayloadError

CHAT = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(log_level="critical") as base:
        yield base


@pytest.mark.parametrize("spec", ["latency=nan", "latency=inf", "latency=1e300", "429=nan", "503=inf"])
def test_non_finite_and_huge_numbers_are_a_400(url: str, spec: str) -> None:
    """Before: ``nan`` gave a 500 with a traceback, ``inf`` parked the request forever."""
    started = time.monotonic()
    reply = httpx.post(f"{url}/v1/chat/completions", json=CHAT, headers={FAULT_HEADER: spec}, timeout=10)
    assert time.monotonic() - started < 5
    assert reply.status_code == 400
    assert "expected a number of seconds from 0 to 3600" in reply.json()["error"]["message"]


def test_the_bounds_themselves_are_accepted() -> None:
    assert parse_faults("latency=3600").latency == 3600.0
    assert parse_faults("latency=0").latency == 0.0
    with pytest.raises(PayloadError):
        parse_faults("latency=3600.5")
