"""The store benchmark's inputs mean what its table says (no timing here)."""

from __future__ import annotations

import asyncio

import msgspec
from benchmarks import bench_store as bench

from toolwire.store import open_store


def test_the_turn_continues_a_50_item_response() -> None:
    base = bench.base_record()
    assert len(base.input_items) == 50 and len(base.output_items) == 2
    kinds = {i["type"] for i in base.input_items}
    assert kinds == {"message", "reasoning", "function_call", "function_call_output"}
    assert 30_000 < len(msgspec.json.encode(base)) < 60_000
    turn = bench.next_record(base, 7)
    assert turn.id == "resp_turn_7" and turn.previous_response_id == "resp_base"
    assert turn.input_items[:52] == [*base.input_items, *base.output_items] and len(turn.input_items) == 53


def test_each_turn_stores_what_it_says() -> None:
    async def go() -> tuple[object, object, int]:
        store = await open_store("memory://")
        ops = await bench._contenders({"memory": store})
        await ops["memory: response turn"](1)
        await ops["memory: conversation turn"](1)
        page = await store.list_items("conv_base", limit=100)
        return await store.get_response("resp_turn_1"), page.last_id, len(page.items)

    stored, last, count = asyncio.run(go())
    assert stored == bench.next_record(bench.base_record(), 1)
    assert (last, count) == ("msg_c1_1", 52)
