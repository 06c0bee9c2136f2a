"""Background responses' state on every backend (memory, SQLite, Redis): the event log a job
writes and a follower on another connection reads (replay after a sequence number, then live
events until the end), and the cancel protocol (:mod:`toolwire.store.background`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Generator
from typing import Any

from tests.store.conftest import Backend
from toolwire.store import ResponseRecord, Store, open_store
from toolwire.store.background import (
    Emit,
    EventLog,
    StoreCall,
    Wait,
    cancel,
    follow,
    forget,
    save_final,
    settle_cancelled,
    with_status,
)


def _event(kind: str, seq: int, text: str = "") -> bytes:
    data = {"type": kind, "delta": text, "sequence_number": seq}
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode()


async def _perform(steps: Generator[Any, Any, Any], store: Store) -> tuple[list[bytes], Any]:
    """Run ``steps`` on ``store``: what they emit, and what they return."""
    emitted: list[bytes] = []
    try:
        step = next(steps)
        while True:
            result: Any = None
            if isinstance(step, StoreCall):
                result = await getattr(store, step.method)(*step.args, **step.kwargs)
            elif isinstance(step, Wait):
                await asyncio.sleep(step.seconds)
            elif isinstance(step, Emit):
                emitted.append(step.data)
            step = steps.send(result)
    except StopIteration as stop:
        return emitted, stop.value


async def _write(store: Store, calls: list[StoreCall]) -> None:
    for call in calls:
        await getattr(store, call.method)(*call.args, **call.kwargs)


def _frames(emitted: list[bytes]) -> list[dict[str, Any]]:
    out = []
    for frame in b"".join(emitted).split(b"\n\n"):
        for line in frame.split(b"\n"):
            if line.startswith(b"data:"):
                out.append(json.loads(line[5:]))
    return out


def test_a_follower_on_another_connection_replays_then_follows_live_events(backend: Backend) -> None:
    queued = {"id": "resp_bg1", "object": "response", "status": "queued"}
    producer = [_event("response.created", 0), _event("response.in_progress", 1)]
    producer += [_event("response.output_text.delta", n, f"w{n}") for n in range(2, 6)]

    async def go() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        writer = await open_store(backend.url)
        # a second connection (memory: one process, one store)
        reader = writer if backend.name == "memory" else await open_store(backend.url)
        try:
            log = EventLog("resp_bg1")
            await _write(writer, log.open(queued))
            await _write(writer, log.append(producer[0] + producer[1]))
            everything = asyncio.ensure_future(_perform(follow("resp_bg1", None, idle=30, poll=0.02), reader))
            resumed = asyncio.ensure_future(_perform(follow("resp_bg1", 3, idle=30, poll=0.02), reader))
            for chunk in producer[2:]:
                await asyncio.sleep(0.05)  # the followers are waiting on the log: these are live
                await _write(writer, log.append(chunk))
            assert not everything.done()
            await _write(writer, log.end())
            return _frames((await everything)[0]), _frames((await resumed)[0])
        finally:
            await writer.aclose()
            if reader is not writer:
                await reader.aclose()

    everything, resumed = asyncio.run(go())
    # the log opens with created/queued (the queued response), the producer's own
    # response.created is dropped and its numbers follow on
    assert [e["type"] for e in everything][:3] == [
        "response.created",
        "response.queued",
        "response.in_progress",
    ]
    assert everything[0]["response"] == queued and everything[1]["response"] == queued
    assert [e["sequence_number"] for e in everything] == list(range(7))
    assert [e["delta"] for e in everything[3:]] == ["w2", "w3", "w4", "w5"]
    assert resumed == everything[4:]


def test_a_follower_of_a_log_that_stops_growing_ends_with_an_error_event(backend: Backend) -> None:
    async def go(store: Store) -> list[dict[str, Any]]:
        log = EventLog("resp_gone")
        await _write(store, log.open({"id": "resp_gone", "status": "queued"}))
        emitted, _ = await _perform(follow("resp_gone", 0, idle=0.2, poll=0.05), store)
        return _frames(emitted)

    frames = backend.run(go)
    assert [f["type"] for f in frames] == ["response.queued", "error"]
    assert frames[1]["code"] == "stream_timeout"


def test_cancel_then_a_late_final_record_leaves_the_response_cancelled(backend: Backend) -> None:
    record = ResponseRecord(
        id="resp_c",
        created_at=1,
        status="in_progress",
        request={"background": True},
        response={"id": "resp_c", "status": "in_progress"},
    )
    done = ResponseRecord(
        id="resp_c", created_at=1, status="completed", response={"id": "resp_c", "status": "completed"}
    )

    async def go(store: Store) -> tuple[dict[str, Any], bool, ResponseRecord | None, dict[str, Any]]:
        await store.put_response(record)
        _, answered = await _perform(cancel(record), store)
        _, stopped = await _perform(save_final("resp_c", [StoreCall("put_response", (done,))]), store)
        kept = await store.get_response("resp_c")
        assert kept is not None
        _, again = await _perform(cancel(kept), store)  # finished: answered as it is
        return answered, stopped, kept, again

    answered, stopped, kept, again = backend.run(go)
    assert answered == {"id": "resp_c", "status": "cancelled"}
    assert stopped is True and kept is not None and kept.status == "cancelled"
    assert again == {"id": "resp_c", "status": "cancelled"}


def test_a_cancel_that_lands_while_the_final_record_is_written_wins(backend: Backend) -> None:
    record = ResponseRecord(id="resp_r", created_at=1, status="in_progress", request={"background": True})
    done = ResponseRecord(id="resp_r", created_at=1, status="completed", response={"status": "completed"})

    async def go(store: Store) -> tuple[bool, str | None]:
        await store.put_response(record)
        steps = save_final("resp_r", [StoreCall("put_response", (done,))])
        step = next(steps)  # the first read of the flag: not set
        step = steps.send(await getattr(store, step.method)(*step.args))
        await _perform(cancel(record), store)  # the cancel lands now, before the final write
        await store.put_response(step.args[0])  # the final record, written over the cancel
        step = steps.send(None)  # the second read of the flag: set
        _, cancelled = await _perform(_resume(steps, step), store)
        kept = await store.get_response("resp_r")
        return cancelled, kept.status if kept is not None else None

    assert backend.run(go) == (True, "cancelled")


def _resume(steps: Generator[Any, Any, Any], first: Any) -> Generator[Any, Any, Any]:
    result = yield first
    while True:
        try:
            step = steps.send(result)
        except StopIteration as stop:
            return stop.value
        result = yield step


def test_a_job_that_wrote_in_progress_after_a_cancel_settles_it_cancelled(backend: Backend) -> None:
    queued = ResponseRecord(
        id="resp_s",
        created_at=1,
        status="queued",
        request={"background": True},
        response={"status": "queued"},
    )

    async def go(store: Store) -> list[str | None]:
        await store.put_response(queued)
        await _perform(cancel(queued), store)
        await store.put_response(with_status(queued, "in_progress"))  # the job, late
        seen = [(await store.get_response("resp_s")).status]  # type: ignore[union-attr]
        await _perform(settle_cancelled("resp_s"), store)
        kept = await store.get_response("resp_s")
        seen.append(kept.status if kept else None)
        seen.append(kept.response["status"] if kept else None)
        return seen

    assert backend.run(go) == ["in_progress", "cancelled", "cancelled"]


def test_deleting_a_running_background_response_keeps_its_job_from_saving_it(backend: Backend) -> None:
    running = ResponseRecord(id="resp_d", created_at=1, status="in_progress", request={"background": True})
    done = ResponseRecord(id="resp_d", created_at=1, status="completed")

    async def go(store: Store) -> tuple[bool, bool, ResponseRecord | None]:
        await store.put_response(running)
        _, deleted = await _perform(forget(running), store)
        _, stopped = await _perform(save_final("resp_d", [StoreCall("put_response", (done,))]), store)
        await _perform(settle_cancelled("resp_d"), store)
        return deleted, stopped, await store.get_response("resp_d")

    assert backend.run(go) == (True, True, None)
