"""Several processes on one store, and durability: a writer killed with SIGKILL loses no
acknowledged write (SQLite; Redis with ``appendfsync always``, its server killed too)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.redis_server import RedisServer, need_redis_server
from tests.store.conftest import Backend
from tests.store.records import conversation, item, response
from toolwire.store import Store, open_store

ROOT = Path(__file__).resolve().parents[2]


def writer(url: str, mode: str, name: str, count: int = 0) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "tests.store._writer", url, mode, name, str(count)]
    proc = subprocess.Popen(
        argv, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline() == "ready\n", proc.stderr
    return proc


def start(*procs: subprocess.Popen[str]) -> None:
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()


def create(url: str, *ids: str) -> None:
    async def go() -> None:
        store = await open_store(url)
        for key in ids:
            await store.create_conversation(conversation(key))
        await store.aclose()

    asyncio.run(go())


def test_two_processes_append_to_one_conversation(shared_backend: Backend) -> None:
    create(shared_backend.url, "conv_shared")
    procs = [writer(shared_backend.url, "append", name, 60) for name in ("a", "b")]
    start(*procs)
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert out.split() == [f"msg_{proc.args[5]}_{n}" for n in range(60)]  # type: ignore[index]

    async def go(store: Store) -> list[str]:
        first = await store.list_items("conv_shared", limit=100)
        rest = await store.list_items("conv_shared", limit=100, after=first.last_id)
        assert not rest.has_more
        return [i["id"] for i in [*first.items, *rest.items]]

    ids = shared_backend.run(go)
    assert sorted(ids) == sorted(f"msg_{w}_{n}" for w in "ab" for n in range(60))
    for name in "ab":  # each writer's items in its own order
        assert [i for i in ids if i.startswith(f"msg_{name}_")] == [f"msg_{name}_{n}" for n in range(60)]
    assert ids[:60] != [f"msg_a_{n}" for n in range(60)] or ids[60:] != [f"msg_b_{n}" for n in range(60)]


def _kill_after(proc: subprocess.Popen[str], acked: int) -> list[str]:
    """Read acknowledgements until ``acked`` arrived, SIGKILL the writer, return all it printed."""
    assert proc.stdout is not None
    start(proc)
    seen = [proc.stdout.readline().strip() for _ in range(acked)]
    proc.send_signal(signal.SIGKILL)
    # Read the rest through the same text wrapper: its buffer may already hold lines read ahead
    # by readline(), which communicate() (reading the raw pipe) would never return.
    rest = proc.stdout.read()
    proc.wait(timeout=30)
    for pipe in (proc.stdin, proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
    assert proc.returncode == -signal.SIGKILL
    return [line for line in [*seen, *rest.split("\n")] if line]


def _check_kept(url: str, acked: list[str]) -> None:
    async def go() -> tuple[list[Any], list[str]]:
        store = await open_store(url)
        try:
            responses = [await store.get_response(key) for key in acked if key.startswith("resp_")]
            page = await store.list_items("conv_w", limit=100)
            items = list(page.items)
            while page.has_more:
                page = await store.list_items("conv_w", limit=100, after=page.last_id)
                items += page.items
            return responses, [i["id"] for i in items]
        finally:
            await store.aclose()

    responses, ids = asyncio.run(go())
    assert [r.id if r else None for r in responses] == [k for k in acked if k.startswith("resp_")]
    assert all(r == response(r.id, items=2) for r in responses if r is not None)
    messages = [k for k in acked if k.startswith("msg_")]
    assert ids[: len(messages)] == messages  # every acknowledged append, in order
    assert len(ids) - len(messages) <= 1  # at most the one in flight when killed


def test_sqlite_writer_killed_loses_no_acknowledged_write(tmp_path: Path) -> None:
    url = f"sqlite://{tmp_path / 'durable.db'}"
    create(url, "conv_w")
    acked = _kill_after(writer(url, "forever", "w"), 40)
    _check_kept(url, acked)
    create(url, "conv_after")  # the file is usable again after the kill


def test_redis_server_and_writer_killed_lose_no_acknowledged_write(tmp_path: Path) -> None:
    server = RedisServer(need_redis_server(), tmp_path)
    server.start()
    try:
        url = server.url("durable:")
        create(url, "conv_w")
        acked = _kill_after(writer(url, "forever", "w"), 40)
        server.kill()
        assert not server.ping()
        server.start()  # same folder and port: the append-only file is replayed
        _check_kept(url, acked)
    finally:
        server.stop()


def test_a_writer_killed_mid_append_leaves_sqlite_consistent(tmp_path: Path) -> None:
    url = f"sqlite://{tmp_path / 'kill.db'}"
    create(url, "conv_w")
    for _ in range(3):
        _kill_after(writer(url, "forever", "w"), 1)

    async def go() -> Any:
        store = await open_store(url)
        try:
            await store.append_items("conv_w", [item(1000, "z")])
            return await store.list_items("conv_w", limit=100, order="desc")
        finally:
            await store.aclose()

    page = asyncio.run(go())
    assert page.first_id == "msg_z_1000"
