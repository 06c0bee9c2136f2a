"""Durability: a ``toolwire serve`` process is killed with SIGKILL mid-conversation (right after a
response was acknowledged, with the next turn's stream in flight) and restarted on the same
store; every acknowledged response is still there and the conversation continues from the last
one. On SQLite (WAL) the gateway alone is killed; on Redis (``appendonly yes``, ``appendfsync
always``) the ``redis-server`` is SIGKILLed and restarted too."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.redis_server import RedisServer, need_redis_server
from tests.store.gateways import GatewayProcess, create, final_event, turn_body, user_texts
from toolwire.emulator import EmulatorConfig, serve


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    with serve(config=EmulatorConfig(rules="provider"), log_level="critical") as url:
        yield url


def _kill_mid_conversation(http: httpx.Client, gateway: GatewayProcess) -> list[tuple[str, str]]:
    """Three acknowledged turns, then a fourth whose stream is open when the gateway is killed;
    the acknowledged turns' (text, response id). The fourth counts as acknowledged only when its
    ``response.completed`` reached the client before the kill."""
    acknowledged: list[tuple[str, str]] = []
    for n in range(3):
        previous = acknowledged[-1][1] if acknowledged else None
        answer = create(http, gateway.url, turn_body(f"turn {n} here", previous, stream=False))
        acknowledged.append((f"turn {n} here", answer["id"]))
    body = turn_body("turn 3 here", acknowledged[-1][1], stream=True)
    with http.stream("POST", f"{gateway.url}/v1/responses", json=body) as reply:
        assert reply.status_code == 200
        lines = reply.iter_lines()
        next(lines)  # the stream has begun
        gateway.kill()
        with contextlib.suppress(httpx.HTTPError, AssertionError):  # cut before its end: not acknowledged
            acknowledged.append(("turn 3 here", final_event(lines)["id"]))
    return acknowledged


def _continues(http: httpx.Client, gateway: GatewayProcess, acknowledged: list[tuple[str, str]]) -> None:
    for _, ident in acknowledged:
        kept = http.get(f"{gateway.url}/v1/responses/{ident}")
        assert kept.status_code == 200, kept.text
    previous = acknowledged[-1][1]
    texts = [text for text, _ in acknowledged] + ["turn 4 here", "turn 5 here"]
    for text in texts[-2:]:
        previous = create(http, gateway.url, turn_body(text, previous, stream=False))["id"]
    items = http.get(f"{gateway.url}/v1/responses/{previous}/input_items?order=asc&limit=100").json()["data"]
    assert user_texts(items) == texts


def test_sqlite_gateway_killed_mid_conversation_loses_no_acknowledged_response(
    upstream: str, tmp_path: Path
) -> None:
    store = f"sqlite://{tmp_path / 'state.db'}"
    first, second = GatewayProcess(upstream, store), GatewayProcess(upstream, store)
    try:
        first.start()
        with httpx.Client(timeout=30) as http:
            acknowledged = _kill_mid_conversation(http, first)
            second.start()
            _continues(http, second, acknowledged)
    finally:
        first.stop()
        second.stop()


def test_redis_gateway_and_server_killed_mid_conversation_lose_no_acknowledged_response(
    upstream: str, tmp_path: Path
) -> None:
    redis = RedisServer(need_redis_server(), tmp_path)
    redis.start()
    store = redis.url()
    first, second = GatewayProcess(upstream, store), GatewayProcess(upstream, store)
    try:
        first.start()
        with httpx.Client(timeout=30) as http:
            acknowledged = _kill_mid_conversation(http, first)
            redis.kill()
            redis.start()  # same folder and port: the append-only file is replayed
            second.start()
            _continues(http, second, acknowledged)
    finally:
        first.stop()
        second.stop()
        redis.stop()
