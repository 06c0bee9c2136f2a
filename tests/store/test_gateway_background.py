"""Background responses across two ``toolwire serve`` processes sharing one Redis: created on
one, polled, cancelled and replayed on the other; the process running the job notices a cancel
written by the other one through the store and stops its upstream call; a process that stops
fails the jobs it was running."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.redis_server import RedisServer
from tests.store.gateways import GatewayProcess
from toolwire.emulator import serve
from toolwire.emulator.faults import FAULT_HEADER

WAIT = 60.0
SLOW_SECONDS = 600
"""The slow upstream's latency: a test that passes did not wait for it."""


@pytest.fixture
def config(tmp_path: Path) -> Iterator[str]:
    """A gateway config: ``fast-*`` models to the emulator, ``slow-*`` to the emulator with a
    latency fault on every call."""
    with serve(log_level="critical") as upstream:
        path = tmp_path / "gateway.toml"
        path.write_text(
            f"""
[upstreams.fast]
format = "anthropic"
base_url = "{upstream}"
key_env = "TOOLWIRE_BG_TEST_KEY"

[upstreams.slow]
format = "anthropic"
base_url = "{upstream}"
key_env = "TOOLWIRE_BG_TEST_KEY"
headers = {{ "{FAULT_HEADER}" = "latency={SLOW_SECONDS}" }}

[[routes]]
match = "fast-*"
upstream = "fast"
model = "claude-sonnet-4-5"

[[routes]]
match = "slow-*"
upstream = "slow"
model = "claude-sonnet-4-5"
"""
        )
        yield str(path)


def _until(check: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {WAIT} s: {what}")


def test_poll_cancel_and_replay_reach_the_other_gateway(
    config: str, redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLWIRE_BG_TEST_KEY", "sk-test")
    store = redis_server.url()
    gateways = [GatewayProcess("", store, config), GatewayProcess("", store, config)]
    try:
        for gateway in gateways:
            gateway.start()
        # a read that waits past WAIT fails the test (the slow upstream answers in SLOW_SECONDS)
        a, b = (
            openai.OpenAI(base_url=f"{g.url}/v1", api_key="k", max_retries=0, timeout=WAIT) for g in gateways
        )
        # created on A, polled to completion on B
        created = a.responses.create(model="fast-model", input="from A", background=True)
        assert created.status == "queued"
        done = _until(
            lambda: (r := b.responses.retrieve(created.id)).status == "completed" and r, "completed on B"
        )
        assert "from A" in done.output_text
        # a stream created on A, replayed on B from a sequence number
        events = list(a.responses.create(model="fast-model", input="stream A", background=True, stream=True))
        ident = events[0].response.id  # type: ignore[union-attr]
        replay = list(b.responses.retrieve(ident, stream=True, starting_after=1))
        assert [e.model_dump() for e in replay] == [e.model_dump() for e in events[2:]]
        assert events[-1].type == "response.completed"
        # a slow stream running on A, cancelled on B: A's job sees the flag, stops its upstream
        # call (which would answer in SLOW_SECONDS) and ends the log, which ends A's stream
        with a.responses.create(model="slow-model", input="wait", background=True, stream=True) as stream:
            live = iter(stream)
            first = next(live)
            assert [first.type, next(live).type] == ["response.created", "response.queued"]
            ident = first.response.id  # type: ignore[union-attr]
            _until(lambda: b.responses.retrieve(ident).status == "in_progress", "in progress, seen on B")
            assert b.responses.cancel(ident).status == "cancelled"
            assert list(live) == []
        assert a.responses.retrieve(ident).status == "cancelled"
        # and a queued/in-progress whole-answer response cancelled on B
        slow = a.responses.create(model="slow-model", input="wait more", background=True)
        assert b.responses.cancel(slow.id).status == "cancelled"
        assert a.responses.retrieve(slow.id).status == "cancelled"
        # A stopped (SIGTERM) while running a job: the job fails its response, seen on B
        last = a.responses.create(model="slow-model", input="until shutdown", background=True)
        _until(lambda: b.responses.retrieve(last.id).status == "in_progress", "in progress, seen on B")
        gateways[0].stop()
        failed = b.responses.retrieve(last.id)
        assert failed.status == "failed" and failed.error is not None
        assert failed.error.code == "server_error"
    finally:
        for gateway in gateways:
            gateway.stop()
