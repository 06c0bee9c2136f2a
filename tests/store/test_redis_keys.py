"""Redis keeps expiry on the server (PXAT, PX), not only in the read-side check, and keys stay
under the URL's prefix."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from tests.redis_server import RedisServer, redis_server
from tests.store.records import response
from toolwire.store import open_store
from toolwire.store.redis import RedisStore

__all__ = ["redis_server"]


def test_expiry_and_prefix_are_the_servers(redis_server: RedisServer) -> None:
    async def go() -> list[Any]:
        store = await open_store(redis_server.url("keys-test:"))
        assert isinstance(store, RedisStore)
        try:
            await store.put_response(response("resp_ttl", expires_at=int(time.time()) + 100))
            await store.put_response(response("resp_kept"))
            await store.put_state("call_1", b"x", ttl=50)
            client = store.client
            keys = sorted(k.decode() for k in await client.keys("keys-test:*"))
            ttls = [await client.pttl(f"keys-test:{k}") for k in ("r:resp_ttl", "r:resp_kept", "s:call_1")]
            return [keys, *ttls]
        finally:
            await store.aclose()

    keys, record_ttl, kept_ttl, state_ttl = asyncio.run(go())
    assert keys == [
        "keys-test:r:resp_kept",
        "keys-test:r:resp_ttl",
        "keys-test:rs",
        "keys-test:rseq",
        "keys-test:s:call_1",
    ]
    assert 98_000 < record_ttl <= 100_000 and kept_ttl == -1 and 49_000 < state_ttl <= 50_000
