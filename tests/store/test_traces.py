"""Traces on every backend (memory, a real SQLite file, a real redis-server): kept exactly, listed
newest first from summaries only, filtered, paged and pruned."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.store.conftest import Backend
from tests.store.records import trace
from tests.store.test_contract import Clock
from toolwire.store import Store, StoreError, StoreLimitError, StoreLimits
from toolwire.store.memory import MemoryStore
from toolwire.store.redis import RedisStore
from toolwire.trace import TraceBody, TraceNote, TraceQuery, TraceRecord, encode_trace


def ids(summaries: list[Any]) -> list[str]:
    return [summary.id for summary in summaries]


def test_trace_round_trip_is_exact_and_put_again_replaces(backend: Backend) -> None:
    record = trace()

    async def go(store: Store) -> list[Any]:
        await store.put_trace(trace(status=500))
        await store.put_trace(record)
        return [
            await store.get_trace("tr_1"),
            await store.get_trace("tr_none"),
            await store.list_traces(TraceQuery()),
        ]

    back, missing, listed = backend.run(go)
    assert back == record and encode_trace(back) == encode_trace(record)
    assert back.events[1].data == record.events[1].data and back.upstream_request.truncated
    assert missing is None
    assert listed == [record.summary()]
    assert listed[0].status == 200 and listed[0].loss_notes == 1 and listed[0].total_ms == 12.5


def test_newest_first_in_pages_ties_by_id(backend: Backend) -> None:
    async def go(store: Store) -> list[list[str]]:
        for n, at in enumerate([5.0, 1.0, 3.0, 3.0, 4.0, 2.0]):
            await store.put_trace(trace(f"tr_{n}", created_at=1_750_000_000 + at))
        pages = [ids(await store.list_traces(TraceQuery(limit=2)))]
        for _ in range(3):
            pages.append(ids(await store.list_traces(TraceQuery(limit=2, before=pages[-1][-1]))))
        pages.append(ids(await store.list_traces(TraceQuery(before="tr_unknown"))))
        pages.append(ids(await store.list_traces(TraceQuery(limit=0))))
        return pages

    assert backend.run(go) == [["tr_0", "tr_4"], ["tr_3", "tr_2"], ["tr_5", "tr_1"], [], [], ["tr_0"]]


def test_filters_fill_a_page_across_many_rows(backend: Backend) -> None:
    """300 traces, few of each kind: a page is filled from beyond the first scanned batch."""

    async def go(store: Store) -> dict[str, list[str]]:
        for n in range(300):
            fields: dict[str, Any] = {}
            if n % 100 == 7:
                fields = {"client_model": "gpt-4o", "status": 429, "notes": []}
            if n % 150 == 20:
                fields = {"client_format": "gemini", "upstream_format": "openai_chat"}
            await store.put_trace(trace(f"tr_{n:03}", created_at=1_750_000_000 + n, **fields))
        queries = {
            "model": TraceQuery(model="gpt-4o"),
            "upstream_model": TraceQuery(model="claude-sonnet-4-5", limit=2),
            "pair": TraceQuery(pair="gemini->openai_chat"),
            "status": TraceQuery(status="4xx", limit=2),
            "exact": TraceQuery(status="429", before="tr_207"),
            "no_loss": TraceQuery(has_loss=False),
            "none": TraceQuery(model="gpt-4o", status="5xx"),
        }
        return {name: ids(await store.list_traces(query)) for name, query in queries.items()}

    assert backend.run(go) == {
        "model": ["tr_207", "tr_107", "tr_007"],
        "upstream_model": ["tr_299", "tr_298"],
        "pair": ["tr_170", "tr_020"],
        "status": ["tr_207", "tr_107"],
        "exact": ["tr_107", "tr_007"],
        "no_loss": ["tr_207", "tr_107", "tr_007"],
        "none": [],
    }


def test_prune_by_age_and_count(backend: Backend) -> None:
    clock = Clock()

    async def go(store: Store) -> list[Any]:
        for n in range(10):
            await store.put_trace(trace(f"tr_{n}", created_at=clock.now - 100 * (10 - n)))
        out: list[Any] = [await store.prune_traces(max_age=None, max_count=None)]
        out.append(await store.prune_traces(max_age=350, max_count=None))  # 1000..400 s old: gone
        out.append(ids(await store.list_traces(TraceQuery())))
        out.append(await store.prune_traces(max_age=None, max_count=2))
        out.append(ids(await store.list_traces(TraceQuery())))
        out.append([await store.get_trace("tr_7"), (await store.get_trace("tr_9")) is not None])
        out.append(await store.prune_traces(max_age=150, max_count=5))
        out.append(await store.prune_traces(max_age=None, max_count=0))
        out.append(ids(await store.list_traces(TraceQuery())))
        return out

    assert backend.run(go, StoreLimits(clock=clock)) == [
        0,
        7,
        ["tr_9", "tr_8", "tr_7"],
        1,
        ["tr_9", "tr_8"],
        [None, True],
        1,
        1,
        [],
    ]


def test_too_large_a_trace_is_a_typed_error_and_stores_nothing(backend: Backend) -> None:
    big = trace("tr_big", client_request=TraceBody(text="x" * 30_000, size=30_000))

    async def go(store: Store) -> list[Any]:
        with pytest.raises(StoreLimitError) as info:
            await store.put_trace(big)
        return [info.value.message, await store.get_trace("tr_big"), await store.list_traces(TraceQuery())]

    message, kept, listed = backend.run(go, StoreLimits(max_record_bytes=20_000))
    assert message.startswith("trace 'tr_big' is ") and message.endswith("the store keeps at most 20000")
    assert kept is None and listed == []


def test_a_string_json_cannot_carry_is_refused(backend: Backend) -> None:
    bad = trace(notes=[TraceNote(side="client_request", path="$", kind="dropped", message="lone \ud800")])

    async def go(store: Store) -> None:
        await store.put_trace(bad)

    with pytest.raises(StoreError, match="trace 'tr_1' cannot be stored"):
        backend.run(go)


async def _spoil_body(store: Store, trace_id: str) -> None:
    """Overwrite the kept record bytes (not the summary) with junk, in the backend's own storage."""
    if isinstance(store, MemoryStore):
        at, summary, _ = store._traces[trace_id]
        store._traces[trace_id] = (at, summary, b"junk")
    elif isinstance(store, RedisStore):
        await store.client.set(store._key("t:", trace_id), b"junk")
    else:
        path: Path = store.path  # type: ignore[attr-defined]
        with sqlite3.connect(path) as db:
            db.execute("UPDATE traces SET body = ? WHERE id = ?", (b"junk", trace_id))


def test_listing_reads_summaries_only(backend: Backend) -> None:
    async def go(store: Store) -> list[Any]:
        await store.put_trace(trace("tr_a", created_at=1.0))
        await store.put_trace(trace("tr_b", created_at=2.0, error="upstream timed out", status=504))
        await _spoil_body(store, "tr_b")
        listed = await store.list_traces(TraceQuery(status="5xx"))
        with pytest.raises(StoreError, match="unreadable trace"):
            await store.get_trace("tr_b")
        return [listed, await store.get_trace("tr_a")]

    listed, other = backend.run(go)
    assert [(s.id, s.status, s.error) for s in listed] == [("tr_b", 504, "upstream timed out")]
    assert other == trace("tr_a", created_at=1.0)


def test_newer_trace_layout_is_refused() -> None:
    from toolwire.trace import decode_trace

    data = msgspec.json.encode(TraceRecord(v=2, id="tr_1", created_at=0, method="GET", path="/", status=200))
    with pytest.raises(StoreError, match="has layout v2"):
        decode_trace(data)


def test_traces_put_together_are_all_kept(backend: Backend) -> None:
    """Concurrent puts (the gateway's writer stores a batch at once; SQLite joins them into one
    transaction): every one kept, a refused one alone refused."""
    big = trace("tr_big", client_request=TraceBody(text="x" * 30_000, size=30_000))

    async def go(store: Store) -> list[Any]:
        puts = [store.put_trace(trace(f"tr_{n:03}", created_at=1_750_000_000 + n)) for n in range(100)]
        results = await asyncio.gather(*puts[:50], store.put_trace(big), *puts[50:], return_exceptions=True)
        again = await asyncio.gather(*(store.put_trace(trace(f"tr_{n:03}", status=500)) for n in range(2)))
        return [results, again, ids(await store.list_traces(TraceQuery(limit=200)))]

    results, again, listed = backend.run(go, StoreLimits(max_record_bytes=20_000))
    assert [type(r).__name__ for r in results] == ["NoneType"] * 50 + ["StoreLimitError"] + ["NoneType"] * 50
    assert again == [None, None]
    assert listed == [f"tr_{n:03}" for n in range(99, 1, -1)] + ["tr_001", "tr_000"]
