"""Scale-out: two ``toolwire serve`` processes share one Redis; a conversation alternates between
them turn by turn, each continuation sent to the other process the moment the previous response's
``response.completed`` event arrives (no consistency window), with reasoning on so the thinking
signatures must come back byte-exact (the upstream enforces the providers' replay rules)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import httpx
import pytest

from tests.redis_server import RedisServer
from tests.store.gateways import GatewayProcess, final_event, turn_body, user_texts
from toolwire.emulator import EmulatorConfig, serve

TURNS = 10


@pytest.fixture
def upstream() -> Iterator[str]:
    with serve(config=EmulatorConfig(rules="provider"), log_level="critical") as url:
        yield url


def test_a_conversation_alternating_between_two_gateways_on_one_redis(
    upstream: str, redis_server: RedisServer
) -> None:
    store = redis_server.url()
    gateways = [GatewayProcess(upstream, store), GatewayProcess(upstream, store)]
    try:
        for gateway in gateways:
            gateway.start()
        ids: list[str] = []
        with httpx.Client(timeout=30) as http, ExitStack() as open_streams:
            previous: str | None = None
            for n in range(TURNS):
                body = {**turn_body(f"turn {n} here", previous, stream=True), "reasoning": {"effort": "high"}}
                reply = open_streams.enter_context(
                    http.stream("POST", f"{gateways[n % 2].url}/v1/responses", json=body)
                )
                assert reply.status_code == 200, reply.read()
                response = final_event(reply)
                # the next turn goes out now, to the other process, while this stream is still open
                assert response["status"] == "completed" and response["previous_response_id"] == previous
                assert any(item["type"] == "reasoning" for item in response["output"])
                previous = response["id"]
                ids.append(previous)
            last = http.get(f"{gateways[0].url}/v1/responses/{previous}/input_items?order=asc&limit=100")
            assert last.status_code == 200, last.text
            assert user_texts(last.json()["data"]) == [f"turn {n} here" for n in range(TURNS)]
            for gateway in gateways:
                for ident in ids:
                    kept = http.get(f"{gateway.url}/v1/responses/{ident}")
                    assert kept.status_code == 200 and kept.json()["id"] == ident
    finally:
        for gateway in gateways:
            gateway.stop()
    assert len(set(ids)) == TURNS
