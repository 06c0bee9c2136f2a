"""The SQLite store (``sqlite:///path.db``), the default: one file, several processes.

The standard library's :mod:`sqlite3` runs on one worker thread per store, so the event loop
never waits on the disk. The file is opened in WAL mode (readers never block the writer) with
``synchronous=FULL`` (a write is on disk when its call returns) and a busy timeout; every
write is one ``BEGIN IMMEDIATE`` transaction, so processes sharing the file serialize their
writes and an append reads the last position and writes after it in the same transaction.

=========================  ======================================================================
table                      rows
=========================  ======================================================================
``responses``              ``seq`` (first-stored order), ``id``, ``expires_at``, ``body``
``conversations``          ``id``, ``body``
``conversation_items``     ``(conversation_id, seq)``, ``item_id`` (unique per conversation),
                           ``body``
``state``                  ``key``, ``expires_at`` (unix seconds, real), ``value`` (the bytes)
``traces``                 ``id``, ``created_at`` (indexed with ``id``), ``summary``, ``body``
``meta``                   ``schema`` = 1
=========================  ======================================================================

Bodies are the records' JSON bytes (:func:`~toolwire.store.base.encode_record`). Expired rows
are invisible at once and deleted by the next write that finds them.

Traces are diagnostics written after each gateway call, so they are written through a second
connection with ``synchronous=NORMAL``: in WAL mode a commit then skips its fsync (about 3 ms on
a busy disk, more than the call it traces). A power loss may lose the last traces written, never
the file or anything else in it. ``put_trace`` calls made together (``asyncio.gather``) go to the
worker thread as one transaction: the hand-off to the thread, not the insert, is the main cost.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from toolwire.store._traces import SCAN_BATCH, encode_parts, keep
from toolwire.store.base import (
    ConversationRecord,
    ItemPage,
    Order,
    ResponseRecord,
    StoreError,
    StoreLimits,
    StoreNotFoundError,
    decode_record,
    encode_record,
    item_ids,
)
from toolwire.trace.record import TraceQuery, TraceRecord, TraceSummary, decode_trace

__all__ = ["SCHEMA", "SQLiteStore"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS responses (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, expires_at INTEGER, body BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS responses_expiry ON responses (expires_at) WHERE expires_at IS NOT NULL;
CREATE TABLE IF NOT EXISTS conversations (id TEXT PRIMARY KEY, body BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS conversation_items (
    conversation_id TEXT NOT NULL, seq INTEGER NOT NULL, item_id TEXT NOT NULL, body BLOB NOT NULL,
    PRIMARY KEY (conversation_id, seq), UNIQUE (conversation_id, item_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, expires_at REAL, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS traces (
    id TEXT PRIMARY KEY, created_at REAL NOT NULL, summary BLOB NOT NULL, body BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS traces_order ON traces (created_at, id);
INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', '1');
"""
"""The tables (created when missing; ``meta.schema`` names the layout)."""
BUSY_TIMEOUT_MS = 30_000
"""How long a write waits for another process's transaction before failing."""

_T = TypeVar("_T")


class _TraceBatch:
    """Traces put together (one executor hop, one transaction) and the future they wait on."""

    __slots__ = ("done", "rows")

    def __init__(self, done: asyncio.Future[None]) -> None:
        self.done = done
        self.rows: list[tuple[str, float, bytes, bytes]] = []


_ITEMS = msgspec.json.Encoder()
_ITEM = msgspec.json.Decoder(dict[str, Any])
_LIVE = "(expires_at IS NULL OR expires_at > ?)"


class SQLiteStore:
    """A :class:`~toolwire.store.Store` in one SQLite file (see the module docstring).

    Use :meth:`open` (it creates the file, its folder and the tables).

    Args:
        path: the database file.
        limits: size limit and clock.
    """

    def __init__(self, path: Path, limits: StoreLimits | None = None) -> None:
        self.path = path
        self.limits = limits or StoreLimits()
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="toolwire-sqlite")
        self._db: sqlite3.Connection | None = None
        self._trace_db: sqlite3.Connection | None = None
        self._trace_batch: _TraceBatch | None = None
        self._tasks: set[asyncio.Future[None]] = set()

    @classmethod
    async def open(cls, path: Path, limits: StoreLimits | None = None) -> SQLiteStore:
        """Open (or create) the store at ``path``.

        Raises:
            StoreError: the file cannot be created or is not a toolwire store.
        """
        store = cls(path, limits)
        try:
            await store._run(store._connect)
        except BaseException:
            store._thread.shutdown(wait=False)
            raise
        return store

    def _connect(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        try:
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = FULL")
            db.executescript(f"BEGIN IMMEDIATE;{SCHEMA}COMMIT;")  # one transaction: a racing opener waits
        except BaseException:
            db.close()
            raise
        self._db = db

    async def _run(self, fn: Callable[..., _T], *args: Any) -> _T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._thread, fn, *args)
        except sqlite3.Error as exc:
            raise StoreError(f"sqlite store {self.path.name}: {exc}") from None
        except OSError as exc:
            raise StoreError(f"sqlite store {self.path}: {exc.strerror or exc}") from None
        except RuntimeError as exc:  # the executor was shut down
            raise StoreError(f"sqlite store {self.path.name} is closed") from exc

    def _write(self, fn: Callable[[sqlite3.Connection], _T], db: sqlite3.Connection | None = None) -> _T:
        db = db or self._conn()
        db.execute("BEGIN IMMEDIATE")
        try:
            result = fn(db)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return result

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(f"sqlite store {self.path.name} is closed")
        return self._db

    def _now(self) -> float:
        return self.limits.clock()

    # -- responses

    async def put_response(self, record: ResponseRecord) -> None:
        data = encode_record(record, self.limits)

        def put(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM responses WHERE expires_at <= ?", (self._now(),))
            db.execute(
                "INSERT INTO responses (id, expires_at, body) VALUES (?, ?, ?) ON CONFLICT (id) "
                "DO UPDATE SET expires_at = excluded.expires_at, body = excluded.body",
                (record.id, record.expires_at, data),
            )

        await self._run(self._write, put)

    async def get_response(self, response_id: str) -> ResponseRecord | None:
        query = f"SELECT body FROM responses WHERE id = ? AND {_LIVE}"
        row = await self._run(self._one, query, (response_id, self._now()))
        return decode_record(row[0], ResponseRecord) if row is not None else None

    def _one(self, query: str, args: tuple[Any, ...]) -> Any:
        return self._conn().execute(query, args).fetchone()

    def _all(self, query: str, args: tuple[Any, ...]) -> list[Any]:
        return self._conn().execute(query, args).fetchall()

    async def delete_response(self, response_id: str) -> bool:
        def delete(db: sqlite3.Connection) -> bool:
            cursor = db.execute(f"DELETE FROM responses WHERE id = ? AND {_LIVE}", (response_id, self._now()))
            return cursor.rowcount > 0

        return await self._run(self._write, delete)

    async def list_responses(self, *, limit: int = 20, after: str | None = None) -> list[ResponseRecord]:
        now, size = self._now(), max(1, limit)
        if after is None:
            query = f"SELECT body FROM responses WHERE {_LIVE} ORDER BY seq DESC LIMIT ?"
            rows = await self._run(self._all, query, (now, size))
        else:
            query = (
                f"SELECT body FROM responses WHERE {_LIVE} AND seq < "
                "(SELECT seq FROM responses WHERE id = ?) ORDER BY seq DESC LIMIT ?"
            )
            rows = await self._run(self._all, query, (now, after, size))
        return [decode_record(row[0], ResponseRecord) for row in rows]

    # -- conversations

    async def create_conversation(
        self, record: ConversationRecord, items: Sequence[dict[str, Any]] = ()
    ) -> None:
        data = encode_record(record, self.limits)
        encoded = self._encode_items(items)

        def create(db: sqlite3.Connection) -> None:
            try:
                db.execute("INSERT INTO conversations (id, body) VALUES (?, ?)", (record.id, data))
            except sqlite3.IntegrityError:
                raise StoreError(f"conversation {record.id!r} already exists") from None
            self._insert_items(db, record.id, 0, encoded)

        await self._run(self._write, create)

    def _encode_items(self, items: Sequence[dict[str, Any]]) -> list[tuple[str, bytes]]:
        ids = item_ids(items)
        return [
            (key, self.limits.check(_ITEMS.encode(item), "item", f"$[{n}]"))
            for n, (key, item) in enumerate(zip(ids, items, strict=True))
        ]

    @staticmethod
    def _insert_items(db: sqlite3.Connection, conv: str, start: int, items: list[tuple[str, bytes]]) -> None:
        def known(key: str) -> bool:
            query = "SELECT 1 FROM conversation_items WHERE conversation_id = ? AND item_id = ?"
            return db.execute(query, (conv, key)).fetchone() is not None

        item_ids([{"id": key} for key, _ in items], known)  # names an id stored earlier
        rows = [(conv, start + n, key, body) for n, (key, body) in enumerate(items)]
        query = "INSERT INTO conversation_items (conversation_id, seq, item_id, body) VALUES (?, ?, ?, ?)"
        db.executemany(query, rows)

    async def get_conversation(self, conversation_id: str) -> ConversationRecord | None:
        row = await self._run(self._one, "SELECT body FROM conversations WHERE id = ?", (conversation_id,))
        return decode_record(row[0], ConversationRecord) if row is not None else None

    async def append_items(self, conversation_id: str, items: Sequence[dict[str, Any]]) -> int:
        encoded = self._encode_items(items)

        def append(db: sqlite3.Connection) -> int:
            self._require(db, conversation_id)
            (count,) = db.execute(
                "SELECT COALESCE(MAX(seq) + 1, 0) FROM conversation_items WHERE conversation_id = ?",
                (conversation_id,),
            ).fetchone()
            self._insert_items(db, conversation_id, count, encoded)
            query = "SELECT COUNT(*) FROM conversation_items WHERE conversation_id = ?"
            return int(db.execute(query, (conversation_id,)).fetchone()[0])

        return await self._run(self._write, append)

    @staticmethod
    def _require(db: sqlite3.Connection, conversation_id: str) -> None:
        if db.execute("SELECT 1 FROM conversations WHERE id = ?", (conversation_id,)).fetchone() is None:
            raise StoreNotFoundError(f"no conversation {conversation_id!r}")

    async def list_items(
        self, conversation_id: str, *, after: str | None = None, limit: int = 20, order: Order = "asc"
    ) -> ItemPage:
        size = max(1, limit)
        rows = await self._run(self._page, conversation_id, after, size, order)
        page = rows[:size]
        return ItemPage(
            items=[_ITEM.decode(body) for _, body in page],
            has_more=len(rows) > size,
            first_id=page[0][0] if page else None,
            last_id=page[-1][0] if page else None,
        )

    def _page(self, conv: str, after: str | None, limit: int, order: Order) -> list[tuple[str, bytes]]:
        db = self._conn()
        db.execute("BEGIN")
        try:
            self._require(db, conv)
            op, direction = (">", "ASC") if order == "asc" else ("<", "DESC")
            where, args = "conversation_id = ?", [conv]
            if after is not None:
                where += f" AND seq {op} COALESCE((SELECT seq FROM conversation_items "
                where += "WHERE conversation_id = ? AND item_id = ?), " + (
                    "1e18)" if order == "asc" else "-1)"
                )
                args += [conv, after]
            query = (
                f"SELECT item_id, body FROM conversation_items WHERE {where} ORDER BY seq {direction} LIMIT ?"
            )
            return [(row[0], row[1]) for row in db.execute(query, (*args, limit + 1))]
        finally:
            db.execute("COMMIT")

    async def update_conversation(
        self, conversation_id: str, metadata: dict[str, Any]
    ) -> ConversationRecord | None:
        def update(db: sqlite3.Connection) -> ConversationRecord | None:
            row = db.execute("SELECT body FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
            if row is None:
                return None
            record = msgspec.structs.replace(decode_record(row[0], ConversationRecord), metadata=metadata)
            data = encode_record(record, self.limits)
            db.execute("UPDATE conversations SET body = ? WHERE id = ?", (data, conversation_id))
            return decode_record(data, ConversationRecord)

        return await self._run(self._write, update)

    async def get_item(self, conversation_id: str, item_id: str) -> dict[str, Any] | None:
        def get() -> bytes | None:
            db = self._conn()
            db.execute("BEGIN")
            try:
                self._require(db, conversation_id)
                query = "SELECT body FROM conversation_items WHERE conversation_id = ? AND item_id = ?"
                row = db.execute(query, (conversation_id, item_id)).fetchone()
                return bytes(row[0]) if row is not None else None
            finally:
                db.execute("COMMIT")

        data = await self._run(get)
        return _ITEM.decode(data) if data is not None else None

    async def delete_item(self, conversation_id: str, item_id: str) -> ConversationRecord | None:
        def delete(db: sqlite3.Connection) -> bytes | None:
            row = db.execute("SELECT body FROM conversations WHERE id = ?", (conversation_id,)).fetchone()
            if row is None:
                raise StoreNotFoundError(f"no conversation {conversation_id!r}")
            query = "DELETE FROM conversation_items WHERE conversation_id = ? AND item_id = ?"
            return bytes(row[0]) if db.execute(query, (conversation_id, item_id)).rowcount > 0 else None

        data = await self._run(self._write, delete)
        return decode_record(data, ConversationRecord) if data is not None else None

    async def delete_conversation(self, conversation_id: str) -> bool:
        def delete(db: sqlite3.Connection) -> bool:
            db.execute("DELETE FROM conversation_items WHERE conversation_id = ?", (conversation_id,))
            return db.execute("DELETE FROM conversations WHERE id = ?", (conversation_id,)).rowcount > 0

        return await self._run(self._write, delete)

    # -- opaque state

    async def put_state(self, key: str, value: bytes, ttl: float | None = None) -> None:
        data = bytes(self.limits.check(value, f"state {key!r}"))
        expires = None if ttl is None else self._now() + ttl

        def put(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM state WHERE expires_at <= ?", (self._now(),))
            db.execute(
                "INSERT OR REPLACE INTO state (key, expires_at, value) VALUES (?, ?, ?)", (key, expires, data)
            )

        await self._run(self._write, put)

    async def get_state(self, key: str) -> bytes | None:
        row = await self._run(
            self._one, f"SELECT value FROM state WHERE key = ? AND {_LIVE}", (key, self._now())
        )
        return bytes(row[0]) if row is not None else None

    async def delete_state(self, key: str) -> bool:
        def delete(db: sqlite3.Connection) -> bool:
            return db.execute(f"DELETE FROM state WHERE key = ? AND {_LIVE}", (key, self._now())).rowcount > 0

        return await self._run(self._write, delete)

    # -- traces

    async def put_trace(self, record: TraceRecord) -> None:
        summary, data = encode_parts(record, self.limits)
        batch = self._trace_batch
        if batch is None:  # the first of the calls made together: the others join before it goes
            batch = self._trace_batch = _TraceBatch(asyncio.get_running_loop().create_future())
            asyncio.get_running_loop().call_soon(self._flush_traces, batch)
        batch.rows.append((record.id, record.created_at, summary, data))
        await asyncio.shield(batch.done)

    def _flush_traces(self, batch: _TraceBatch) -> None:
        self._trace_batch = None

        def put(db: sqlite3.Connection) -> None:
            query = "INSERT OR REPLACE INTO traces (id, created_at, summary, body) VALUES (?, ?, ?, ?)"
            db.executemany(query, batch.rows)

        async def flush() -> None:
            try:
                await self._run(lambda: self._write(put, self._traces_conn()))
            except BaseException as exc:
                batch.done.set_exception(exc)
                batch.done.exception()  # retrieved: no warning when every caller went away
            else:
                batch.done.set_result(None)

        self._tasks.add(task := asyncio.ensure_future(flush()))
        task.add_done_callback(self._tasks.discard)

    def _traces_conn(self) -> sqlite3.Connection:
        """The connection traces are written through (``synchronous=NORMAL``, see the module)."""
        self._conn()  # refuses when closed
        if self._trace_db is None:
            db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            db.execute("PRAGMA synchronous = NORMAL")
            self._trace_db = db
        return self._trace_db

    async def get_trace(self, trace_id: str) -> TraceRecord | None:
        row = await self._run(self._one, "SELECT body FROM traces WHERE id = ?", (trace_id,))
        return decode_trace(row[0]) if row is not None else None

    async def list_traces(self, query: TraceQuery) -> list[TraceSummary]:
        return await self._run(self._list_traces, query)

    def _list_traces(self, query: TraceQuery) -> list[TraceSummary]:
        db = self._conn()
        at: tuple[float, str] = (float("inf"), "")
        if query.before is not None:
            row = db.execute("SELECT created_at, id FROM traces WHERE id = ?", (query.before,)).fetchone()
            if row is None:
                return []
            at = (row[0], row[1])
        found: list[TraceSummary] = []
        sql = (
            "SELECT created_at, id, summary FROM traces WHERE (created_at, id) < (?, ?) "
            "ORDER BY created_at DESC, id DESC LIMIT ?"
        )
        while True:
            rows = db.execute(sql, (*at, SCAN_BATCH)).fetchall()
            if keep(found, (row[2] for row in rows), query) or len(rows) < SCAN_BATCH:
                return found
            at = (rows[-1][0], rows[-1][1])

    async def prune_traces(self, *, max_age: float | None, max_count: int | None) -> int:
        def prune(db: sqlite3.Connection) -> int:
            dropped = 0
            if max_age is not None:
                cut = self._now() - max_age
                dropped += db.execute("DELETE FROM traces WHERE created_at < ?", (cut,)).rowcount
            if max_count is not None:
                dropped += db.execute(
                    "DELETE FROM traces WHERE id IN (SELECT id FROM traces "
                    "ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?)",
                    (max(0, max_count),),
                ).rowcount
            return dropped

        return await self._run(lambda: self._write(prune, self._traces_conn()))

    async def aclose(self) -> None:
        if self._tasks:  # traces on their way to the thread
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._db is not None:
            await self._run(self._close)
        self._thread.shutdown(wait=True)

    def _close(self) -> None:
        if self._trace_db is not None:
            self._trace_db.close()
            self._trace_db = None
        if self._db is not None:
            self._db.close()
            self._db = None
