"""``open_store``: which URL opens which backend, and the errors for the others."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.store.records import response
from toolwire.store import (
    MemoryStore,
    Store,
    StoreError,
    StoreNotFoundError,
    StoreURLError,
    default_sqlite_path,
    open_store,
    redact,
    store_spec,
)
from toolwire.store.sqlite import SQLiteStore

CHOICES = "choose one of: sqlite:///path/to/store.db, redis://host:6379/0, rediss://host:6380/0, memory://"


def opened(url: str, **kw: bool) -> Store:
    async def go() -> Store:
        store = await open_store(url, **kw)
        await store.aclose()
        return store

    return asyncio.run(go())


def test_urls_pick_backends(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(opened("memory://"), MemoryStore)
    store = opened(f"sqlite://{tmp_path / 'a' / 'b.db'}")
    assert isinstance(store, SQLiteStore) and store.path == tmp_path / "a" / "b.db" and store.path.is_file()
    monkeypatch.chdir(tmp_path)
    relative = opened("sqlite:rel.db")
    assert isinstance(relative, SQLiteStore) and (tmp_path / "rel.db").is_file()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    default = opened("sqlite://")
    assert isinstance(default, SQLiteStore) and default.path == tmp_path / "xdg" / "toolwire" / "store.db"
    assert default.path.is_file()


def test_default_path_without_xdg(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert default_sqlite_path() == Path.home() / ".local" / "share" / "toolwire" / "store.db"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/ignored")  # the spec says: only absolute paths count
    assert default_sqlite_path() == Path.home() / ".local" / "share" / "toolwire" / "store.db"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("postgres://u:pw@db/x", f"unknown store URL 'postgres://***@db/x'; {CHOICES}"),
        ("/tmp/store.db", f"unknown store URL '/tmp/store.db'; {CHOICES}"),
        ("", f"unknown store URL ''; {CHOICES}"),
        ("redis://:pw@host:99999/0", f"unknown store URL 'redis://***@host:99999/0'; {CHOICES}"),
        ("memory://x", "memory:// takes no host, path or options, got 'memory://x'"),
        (
            "sqlite://host/x.db",
            "a sqlite URL names a file (sqlite:///path/to/store.db), got 'sqlite://host/x.db'",
        ),
        (
            "redis://:pw@h:6379/zero",
            "a redis URL ends with a database number (redis://host:6379/0), got 'redis://***@h:6379/zero'",
        ),
    ],
)
def test_bad_urls(url: str, message: str) -> None:
    with pytest.raises(StoreURLError) as info:
        opened(url)
    assert info.value.message == message and "pw" not in str(info.value)


def test_store_spec_checks_without_io(tmp_path: Path) -> None:
    spec, parts = store_spec(f"sqlite://{tmp_path / 'never.db'}")
    assert spec.example == "sqlite:///path/to/store.db" and parts.path.endswith("never.db")
    assert not (tmp_path / "never.db").exists()
    with pytest.raises(StoreURLError):
        store_spec("mysql://x")


def test_redact() -> None:
    assert redact("redis://user:secret@host:6379/1?prefix=a:") == "redis://***@host:6379/1?prefix=a:"
    assert redact("redis://host:6379/0") == "redis://host:6379/0"
    assert redact("redis://[::1") == "(a URL that cannot be parsed)"


def test_inspecting_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(StoreNotFoundError, match="no store at "):
        opened(f"sqlite://{tmp_path / 'none.db'}", create=False)
    assert not (tmp_path / "none.db").exists()


def test_redis_unreachable_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError) as info:
        opened("redis://user:hunter2@127.0.0.1:1/0")
    assert info.value.message.startswith("redis store 127.0.0.1:1/0: ") and "hunter2" not in str(info.value)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"not sqlite " * 200)
    with pytest.raises(StoreError, match=r"sqlite store junk\.db: file is not a database"):
        opened(f"sqlite://{path}")


def test_an_unwritable_folder(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(StoreError, match=r"sqlite store .*file/sub/s\.db: "):
        opened(f"sqlite://{blocker / 'sub' / 's.db'}")


def test_a_closed_sqlite_store_says_so(tmp_path: Path) -> None:
    async def go() -> None:
        store = await open_store(f"sqlite://{tmp_path / 's.db'}")
        await store.aclose()
        await store.put_response(response())

    with pytest.raises(StoreError, match=r"sqlite store s\.db is closed"):
        asyncio.run(go())


def test_sqlite_file_is_in_wal_mode(tmp_path: Path) -> None:
    import sqlite3

    opened(f"sqlite://{tmp_path / 'w.db'}")
    db = sqlite3.connect(tmp_path / "w.db")
    try:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone() == ("1",)
    finally:
        db.close()
    assert os.path.exists(tmp_path / "w.db")


def test_many_openers_of_a_new_file_at_once(tmp_path: Path) -> None:
    """Connections racing to create the tables of one new file all succeed (the busy timeout)."""
    import threading

    url = f"sqlite://{tmp_path / 'race.db'}"
    errors: list[BaseException] = []

    def open_and_write(n: int) -> None:
        async def go() -> None:
            store = await open_store(url)
            try:
                await store.put_response(response(f"resp_{n}"))
            finally:
                await store.aclose()

        try:
            asyncio.run(go())
        except BaseException as exc:  # collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=open_and_write, args=(n,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []

    async def listed() -> list[str]:
        store = await open_store(url)
        try:
            return sorted(r.id for r in await store.list_responses(limit=10))
        finally:
            await store.aclose()

    assert asyncio.run(listed()) == [f"resp_{n}" for n in range(6)]
