"""The store contract, on every backend: memory, a real SQLite file and a real redis-server."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgspec
import pytest

from tests.store.conftest import Backend
from tests.store.records import AWKWARD, conversation, item, response
from toolwire.errors import LimitError
from toolwire.store import (
    ConversationRecord,
    ResponseRecord,
    Store,
    StoreError,
    StoreLimitError,
    StoreLimits,
    StoreNotFoundError,
)


class Clock:
    """A settable clock for TTL tests."""

    def __init__(self) -> None:
        self.now = float(int(time.time()))  # Redis expires keys on its own (real) clock too

    def __call__(self) -> float:
        return self.now


def test_response_round_trip_is_exact(backend: Backend) -> None:
    record = response(status="incomplete", previous_response_id="resp_0", conversation_id="conv_9")

    async def go(store: Store) -> ResponseRecord | None:
        await store.put_response(record)
        return await store.get_response("resp_1")

    back = backend.run(go)
    assert back == record
    assert msgspec.json.encode(back) == msgspec.json.encode(record)
    assert back is not None and back.request["extra"] == AWKWARD
    assert list(back.request["extra"]) == ["zeta", "alpha", "text", "empty"]  # key order kept
    assert back.request["extra"]["alpha"][4] == 123456789012345678901234567890


def test_put_again_replaces_and_reopening_reads_it(backend: Backend) -> None:
    async def go(store: Store) -> tuple[Any, Any]:
        await store.put_response(response(status="in_progress"))
        await store.put_response(response(status="completed"))
        return await store.get_response("resp_1"), await store.get_response("resp_2")

    first, missing = backend.run(go)
    assert first == response(status="completed") and missing is None
    if backend.name != "memory":  # a fresh connection reads what the first one wrote
        assert backend.run(lambda store: store.get_response("resp_1")) == response(status="completed")


def test_caller_changes_after_put_change_nothing(backend: Backend) -> None:
    record = response()

    async def go(store: Store) -> ResponseRecord | None:
        await store.put_response(record)
        record.input_items[0]["content"] = "changed"  # the struct is frozen, its lists are not
        return await store.get_response("resp_1")

    back = backend.run(go)
    assert back is not None and back.input_items[0]["content"] == [{"type": "input_text", "text": "turn 0"}]


def test_delete_response(backend: Backend) -> None:
    async def go(store: Store) -> tuple[bool, Any, bool, list[str]]:
        await store.put_response(response("resp_a"))
        await store.put_response(response("resp_b"))
        deleted = await store.delete_response("resp_a")
        again = await store.delete_response("resp_a")
        listed = [r.id for r in await store.list_responses()]
        return deleted, await store.get_response("resp_a"), again, listed

    assert backend.run(go) == (True, None, False, ["resp_b"])


def test_list_responses_newest_first_in_pages(backend: Backend) -> None:
    async def go(store: Store) -> list[list[str]]:
        for n in range(5):
            await store.put_response(response(f"resp_{n}", items=1))
        await store.put_response(response("resp_1", items=1, status="failed"))  # keeps its place
        pages = [[r.id for r in await store.list_responses(limit=2)]]
        pages.append([r.id for r in await store.list_responses(limit=2, after=pages[-1][-1])])
        pages.append([r.id for r in await store.list_responses(limit=2, after=pages[-1][-1])])
        pages.append([r.id for r in await store.list_responses(after="resp_unknown")])
        return pages

    assert backend.run(go) == [["resp_4", "resp_3"], ["resp_2", "resp_1"], ["resp_0"], []]


def test_expired_responses_are_gone(backend: Backend) -> None:
    clock = Clock()
    limits = StoreLimits(clock=clock)

    async def go(store: Store) -> list[Any]:
        await store.put_response(response("resp_short", expires_at=int(clock.now) + 60))
        await store.put_response(response("resp_long", expires_at=int(clock.now) + 3600))
        await store.put_response(response("resp_forever"))
        seen = [await store.get_response("resp_short") is not None]
        clock.now += 61
        seen.append(await store.get_response("resp_short"))
        seen.append([r.id for r in await store.list_responses()])
        seen.append(await store.delete_response("resp_short"))
        clock.now += 3600
        seen.append([r.id for r in await store.list_responses()])
        return seen

    assert backend.run(go, limits) == [True, None, ["resp_forever", "resp_long"], False, ["resp_forever"]]


def test_expiry_uses_the_real_clock_too(backend: Backend) -> None:
    """Real time, so Redis's own expiry (PXAT, PX) is exercised, not only the read-side check."""

    async def go(store: Store) -> list[Any]:
        await store.put_response(response("resp_soon", expires_at=int(time.time()) + 1))
        await store.put_state("soon", b"\x00state", ttl=0.3)
        before = [await store.get_response("resp_soon") is not None, await store.get_state("soon")]
        await asyncio.sleep(0.4)
        middle = await store.get_state("soon")
        await asyncio.sleep(max(0.0, int(time.time()) + 1.05 - time.time()) + 1.0)
        return [*before, middle, await store.get_response("resp_soon")]

    assert backend.run(go) == [True, b"\x00state", None, None]


def test_size_limit_is_a_typed_error_and_stores_nothing(backend: Backend) -> None:
    limits = StoreLimits(max_record_bytes=20_000)

    async def go(store: Store) -> list[Any]:
        errors: list[Any] = []
        for call in (
            lambda: store.put_response(response("resp_big", items=300)),
            lambda: store.put_state("big", b"x" * 20_001),
            lambda: store.create_conversation(conversation("conv_big"), [item(0, AWKWARD=("y" * 30_000))]),
        ):
            with pytest.raises(StoreLimitError) as info:
                await call()
            errors.append(info.value)
        await store.put_state("fits", b"x" * 20_000)
        kept = [await store.get_response("resp_big"), await store.get_state("big")]
        return [*errors, *kept, await store.get_conversation("conv_big"), await store.get_state("fits")]

    big, state, conv, *rest = backend.run(go, limits)
    assert isinstance(big, LimitError) and "record 'resp_big' is" in big.message
    assert big.message.endswith("bytes; the store keeps at most 20000")
    assert "state 'big' is 20001 bytes" in state.message
    assert conv.path == "$[0]"
    assert rest == [None, None, None, b"x" * 20_000]


def test_a_value_json_cannot_carry_is_refused(backend: Backend) -> None:
    async def go(store: Store) -> None:
        await store.put_response(response(request={"text": "lone \ud800 surrogate"}))

    with pytest.raises(StoreError, match="record 'resp_1' cannot be stored"):
        backend.run(go)


def test_state_is_bytes_exact(backend: Backend) -> None:
    blob = bytes(range(256)) * 4

    async def go(store: Store) -> list[Any]:
        await store.put_state("call_1", blob)
        await store.put_state("call_2", b"")
        got = [
            await store.get_state("call_1"),
            await store.get_state("call_2"),
            await store.get_state("nope"),
        ]
        got += [await store.delete_state("call_1"), await store.delete_state("call_1")]
        return [*got, await store.get_state("call_1")]

    assert backend.run(go) == [blob, b"", None, True, False, None]


def test_conversation_round_trip_and_pages(backend: Backend) -> None:
    async def go(store: Store) -> list[Any]:
        await store.create_conversation(conversation(), [item(0), item(1)])
        count = await store.append_items("conv_1", [item(2), item(3), item(4, extra=AWKWARD)])
        out: list[Any] = [count, await store.get_conversation("conv_1")]
        for after, limit, order in [
            (None, 2, "asc"),
            ("msg_c_1", 2, "asc"),
            ("msg_c_3", 5, "asc"),
            (None, 2, "desc"),
            ("msg_c_3", 3, "desc"),
            ("msg_c_0", 3, "desc"),
            ("msg_unknown", 3, "asc"),
            ("msg_unknown", 3, "desc"),
        ]:
            page = await store.list_items("conv_1", after=after, limit=limit, order=order)  # type: ignore[arg-type]
            out.append(([i["id"][-1] for i in page.items], page.has_more, page.first_id, page.last_id))
        whole = await store.list_items("conv_1", limit=100)
        return [*out, whole.items]

    count, record, *pages, whole = backend.run(go)
    assert count == 5 and record == conversation()
    assert pages == [
        (["0", "1"], True, "msg_c_0", "msg_c_1"),
        (["2", "3"], True, "msg_c_2", "msg_c_3"),
        (["4"], False, "msg_c_4", "msg_c_4"),
        (["4", "3"], True, "msg_c_4", "msg_c_3"),
        (["2", "1", "0"], False, "msg_c_2", "msg_c_0"),
        ([], False, None, None),
        ([], False, None, None),
        ([], False, None, None),
    ]
    assert whole == [item(0), item(1), item(2), item(3), item(4, extra=AWKWARD)]
    assert list(whole[4]["extra"]) == list(AWKWARD)


def test_conversation_errors(backend: Backend) -> None:
    async def go(store: Store) -> list[Any]:
        await store.create_conversation(conversation())
        errors = []
        for call in (
            lambda: store.create_conversation(conversation()),
            lambda: store.append_items("conv_none", [item(0)]),
            lambda: store.list_items("conv_none"),
            lambda: store.append_items("conv_1", [item(0), item(0)]),
            lambda: store.append_items("conv_1", [{"type": "message"}]),
        ):
            with pytest.raises(StoreError) as info:
                await call()
            errors.append((type(info.value).__name__, info.value.path, info.value.message))
        await store.append_items("conv_1", [item(0)])
        with pytest.raises(StoreError) as repeated:
            await store.append_items("conv_1", [item(1), item(0)])  # repeats an id stored earlier
        errors.append((repeated.value.path, repeated.value.message))
        page = await store.list_items("conv_1")
        return [*errors, [i["id"] for i in page.items]]

    assert backend.run(go) == [
        ("StoreError", None, "conversation 'conv_1' already exists"),
        ("StoreNotFoundError", None, "no conversation 'conv_none'"),
        ("StoreNotFoundError", None, "no conversation 'conv_none'"),
        ("StoreError", "$[1].id", "item id 'msg_c_0' is already in the conversation"),
        ("StoreError", "$[0].id", "a conversation item needs a string id"),
        ("$[1].id", "item id 'msg_c_0' is already in the conversation"),
        ["msg_c_0"],  # nothing of a refused append was kept
    ]


def test_delete_conversation(backend: Backend) -> None:
    async def go(store: Store) -> list[Any]:
        await store.create_conversation(conversation(), [item(0)])
        out: list[Any] = [
            await store.delete_conversation("conv_1"),
            await store.delete_conversation("conv_1"),
        ]
        out.append(await store.get_conversation("conv_1"))
        with pytest.raises(StoreNotFoundError):
            await store.list_items("conv_1")
        await store.create_conversation(conversation(), [item(0)])  # the id is free again, items fresh
        page = await store.list_items("conv_1")
        return [*out, [i["id"] for i in page.items]]

    assert backend.run(go) == [True, False, None, ["msg_c_0"]]


def test_200_conversations_appended_concurrently(backend: Backend) -> None:
    """200 conversations, each appended 5 times by concurrent tasks: nothing crossed, lost or reordered."""

    async def go(store: Store) -> list[list[str]]:
        await asyncio.gather(*(store.create_conversation(conversation(f"conv_{n}")) for n in range(200)))

        async def turns(n: int) -> None:
            for turn in range(5):
                await store.append_items(f"conv_{n}", [item(2 * turn, f"{n}"), item(2 * turn + 1, f"{n}")])

        await asyncio.gather(*(turns(n) for n in range(200)))
        pages = await asyncio.gather(*(store.list_items(f"conv_{n}", limit=100) for n in range(200)))
        return [[i["id"] for i in page.items] for page in pages]

    kept = backend.run(go)
    assert kept == [[f"msg_{n}_{k}" for k in range(10)] for n in range(200)]


def test_concurrent_appends_to_one_conversation_never_interleave(backend: Backend) -> None:
    async def go(store: Store) -> list[str]:
        await store.create_conversation(conversation())
        await asyncio.gather(
            *(store.append_items("conv_1", [item(k, f"w{w}") for k in range(3)]) for w in range(50))
        )
        page = await store.list_items("conv_1", limit=100)
        more = await store.list_items("conv_1", limit=100, after=page.last_id)
        return [i["id"] for i in [*page.items, *more.items]]

    ids = backend.run(go)
    assert len(ids) == 150 and len(set(ids)) == 150
    batches = [ids[k : k + 3] for k in range(0, 150, 3)]
    assert all(b == [f"msg_{b[0].split('_')[1]}_{k}" for k in range(3)] for b in batches)


def test_records_of_a_newer_layout_are_refused() -> None:
    from toolwire.store.base import decode_record

    data = msgspec.json.encode(ConversationRecord(id="conv_1", created_at=0, v=2))
    with pytest.raises(StoreError, match="has layout v2; this toolwire reads v1"):
        decode_record(data, ConversationRecord)
    with pytest.raises(StoreError, match="unreadable ResponseRecord"):
        decode_record(b'{"id": 1}', ResponseRecord)


def test_update_conversation_replaces_its_metadata(backend: Backend) -> None:
    async def go(store: Store) -> list[Any]:
        await store.create_conversation(conversation(), [item(0)])
        updated = await store.update_conversation("conv_1", {"topic": "new", "owner": "ada"})
        again = await store.update_conversation("conv_1", {"only": "this"})
        missing = await store.update_conversation("conv_none", {"a": "b"})
        page = await store.list_items("conv_1")
        return [
            updated,
            again,
            await store.get_conversation("conv_1"),
            missing,
            await store.get_conversation("conv_none"),
            [i["id"] for i in page.items],
        ]

    updated, again, kept, missing, created, ids = backend.run(go)
    assert updated == ConversationRecord(
        id="conv_1", created_at=1_750_000_000, metadata={"topic": "new", "owner": "ada"}
    )
    assert (
        again == kept == ConversationRecord(id="conv_1", created_at=1_750_000_000, metadata={"only": "this"})
    )
    assert missing is None and created is None  # an update creates nothing
    assert ids == ["msg_c_0"]  # the items stay


def test_update_conversation_too_large_keeps_the_old_record(backend: Backend) -> None:
    async def go(store: Store) -> tuple[str, Any]:
        await store.create_conversation(conversation())
        with pytest.raises(StoreLimitError) as info:
            await store.update_conversation("conv_1", {"big": "x" * 2000})
        return info.value.message, await store.get_conversation("conv_1")

    message, kept = backend.run(go, StoreLimits(max_record_bytes=1000))
    assert message.startswith("record 'conv_1' is ") and kept == conversation()


def test_get_item(backend: Backend) -> None:
    async def go(store: Store) -> list[Any]:
        await store.create_conversation(conversation(), [item(0), item(1, extra=AWKWARD)])
        await store.append_items("conv_1", [item(2)])
        out: list[Any] = [await store.get_item("conv_1", key) for key in ("msg_c_1", "msg_c_2", "msg_c_9")]
        with pytest.raises(StoreNotFoundError) as info:
            await store.get_item("conv_none", "msg_c_0")
        return [*out, info.value.message]

    one, two, missing, unknown = backend.run(go)
    assert one == item(1, extra=AWKWARD) and list(one["extra"]) == list(AWKWARD)
    assert one["extra"]["alpha"][4] == 123456789012345678901234567890
    assert two == item(2) and missing is None
    assert unknown == "no conversation 'conv_none'"


def test_delete_item_keeps_the_others_in_order(backend: Backend) -> None:
    async def go(store: Store) -> list[Any]:
        await store.create_conversation(conversation(), [item(n) for n in range(5)])
        out: list[Any] = [
            await store.delete_item("conv_1", "msg_c_1"),
            await store.delete_item("conv_1", "msg_c_1"),
        ]
        out.append(await store.delete_item("conv_1", "msg_c_4"))  # the last one
        out.append(await store.get_item("conv_1", "msg_c_1"))
        out.append(await store.get_item("conv_1", "msg_c_3"))  # moved down by the delete
        out.append(await store.append_items("conv_1", [item(5), item(1)]))  # the id is free again
        for after, order in ((None, "asc"), ("msg_c_2", "asc"), ("msg_c_5", "desc"), ("msg_c_0", "asc")):
            page = await store.list_items("conv_1", after=after, limit=2, order=order)  # type: ignore[arg-type]
            out.append(([i["id"][-1] for i in page.items], page.has_more))
        with pytest.raises(StoreNotFoundError) as info:
            await store.delete_item("conv_none", "msg_c_0")
        out.append(info.value.message)
        return out

    first, again, last, gone, moved, count, *pages, unknown = backend.run(go)
    assert first == last == conversation() and again is None
    assert gone is None and moved == item(3)
    assert count == 5
    assert pages == [(["0", "2"], True), (["3", "5"], True), (["3", "2"], True), (["2", "3"], True)]
    assert unknown == "no conversation 'conv_none'"


def test_concurrent_deletes_and_appends_lose_nothing(backend: Backend) -> None:
    async def go(store: Store) -> tuple[list[Any], list[str]]:
        await store.create_conversation(conversation(), [item(n) for n in range(40)])
        deletes = [store.delete_item("conv_1", f"msg_c_{n}") for n in range(0, 40, 2)]
        appends = [store.append_items("conv_1", [item(n, "new")]) for n in range(20)]
        results = await asyncio.gather(*deletes, *appends)
        page = await store.list_items("conv_1", limit=100)
        return list(results[:20]), [i["id"] for i in page.items]

    deleted, ids = backend.run(go)
    assert deleted == [conversation()] * 20
    assert [key for key in ids if key.startswith("msg_c_")] == [f"msg_c_{n}" for n in range(1, 40, 2)]
    assert sorted(key for key in ids if key.startswith("msg_new_")) == sorted(
        f"msg_new_{n}" for n in range(20)
    )
    assert ids[:20] == [f"msg_c_{n}" for n in range(1, 40, 2)]  # appended after every kept item
