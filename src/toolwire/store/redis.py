"""The Redis store (``redis://host:port/db``): several gateway instances share one server.

Needs the ``redis`` extra (redis-py's asyncio client). Each operation that reads and writes
more than one key is one Lua script, which Redis runs atomically, so an append can never
interleave with another (from any process) and a conversation is never half-created. Durability
is the server's: run it with ``appendonly yes`` and ``appendfsync always`` for no loss of an
acknowledged write when the server is killed.

=======================  ============================================================
key (after the prefix)   value
=======================  ============================================================
``r:<id>``               a response record (JSON), expiring at ``expires_at`` (PXAT)
``rs`` / ``rseq``        sorted set of response ids by first-stored order / its counter
``c:<id>``               a conversation record (JSON)
``ci:<id>`` / ``cx:<id>``  the conversation's items (a list of JSON) / item id -> position
``s:<key>``              opaque state bytes (PX for a TTL)
``t:<id>``               a trace record (JSON)
``tsum`` / ``tz``        trace id -> its summary (JSON) / sorted set of trace ids by
                         ``created_at`` (equal times: the greater id first)
=======================  ============================================================

The prefix is ``toolwire:`` unless the URL says ``?prefix=...``; ``?max_connections=N`` bounds
the connection pool (calls beyond it wait). Expiry uses the server's clock;
records are also checked against the store's clock (``expires_at``) when read.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import Any, TypeVar
from urllib.parse import SplitResult, parse_qsl, urlencode

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import RedisError

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

__all__ = ["DEFAULT_PREFIX", "MAX_CONNECTIONS", "POOL_TIMEOUT", "RedisStore"]

DEFAULT_PREFIX = "toolwire:"
"""Key prefix when the URL names none."""
MAX_CONNECTIONS = 32
"""Connections per store (``?max_connections=N``); further calls wait for a free one."""
POOL_TIMEOUT = 30.0
"""Seconds a call waits for a free connection before failing."""

_T = TypeVar("_T")
_ITEMS = msgspec.json.Encoder()
_ITEM = msgspec.json.Decoder(dict[str, Any])

_PUT_RESPONSE = """
if ARGV[3] == '' then redis.call('SET', KEYS[1], ARGV[2])
else redis.call('SET', KEYS[1], ARGV[2], 'PXAT', ARGV[3]) end
if not redis.call('ZSCORE', KEYS[2], ARGV[1]) then
  redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[3]), ARGV[1])
end
return 1
"""
_DELETE_RESPONSE = """
local body = redis.call('GET', KEYS[1])
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return body
"""
_APPEND = """
local n = tonumber(ARGV[2])
if ARGV[1] == '' then
  if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
else
  if redis.call('SET', KEYS[1], ARGV[1], 'NX') == false then return -2 end
end
for i = 1, n do
  if redis.call('HEXISTS', KEYS[3], ARGV[2 + i]) == 1 then return -3 - (i - 1) end
end
local start = redis.call('LLEN', KEYS[2])
for i = 1, n do
  redis.call('RPUSH', KEYS[2], ARGV[2 + n + i])
  redis.call('HSET', KEYS[3], ARGV[2 + i], start + i - 1)
end
return start + n
"""
"""Create (``ARGV[1]`` the record) or append to (``ARGV[1]`` empty) a conversation: -1 unknown,
-2 taken, -3-i item ``i`` repeats an id, else the new item count."""
_PAGE = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1, {}} end
local len = redis.call('LLEN', KEYS[2])
local limit, asc = tonumber(ARGV[2]), ARGV[3] == 'asc'
local start = asc and 0 or len - 1
if ARGV[1] ~= '' then
  local at = redis.call('HGET', KEYS[3], ARGV[1])
  if not at then return {1, {}} end
  start = asc and tonumber(at) + 1 or tonumber(at) - 1
end
if asc then
  if start >= len then return {1, {}} end
  return {1, redis.call('LRANGE', KEYS[2], start, start + limit)}
end
if start < 0 then return {1, {}} end
return {1, redis.call('LRANGE', KEYS[2], math.max(0, start - limit), start)}
"""
"""``limit + 1`` items after ``ARGV[1]``, oldest first (reversed by the caller for ``desc``)."""
_GET_ITEM = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local at = redis.call('HGET', KEYS[3], ARGV[1])
if not at then return {0} end
return {1, redis.call('LINDEX', KEYS[2], tonumber(at))}
"""
"""Item ``ARGV[1]``: ``{-1}`` unknown conversation, ``{0}`` no such item, else ``{1, item}``."""
_DELETE_ITEM = """
local record = redis.call('GET', KEYS[1])
if not record then return {-1} end
local at = redis.call('HGET', KEYS[3], ARGV[1])
if not at then return {0, record} end
at = tonumber(at)
redis.call('LSET', KEYS[2], at, '')
redis.call('LREM', KEYS[2], 1, '')
redis.call('HDEL', KEYS[3], ARGV[1])
local positions = redis.call('HGETALL', KEYS[3])
for i = 1, #positions, 2 do
  local n = tonumber(positions[i + 1])
  if n > at then redis.call('HSET', KEYS[3], positions[i], n - 1) end
end
return {1, record}
"""
"""Remove item ``ARGV[1]`` (an empty string marks it: no item is one) and move the later
positions down: ``{-1}`` unknown conversation, ``{0, record}`` no such item, else ``{1, record}``."""
_PUT_TRACE = """
redis.call('SET', KEYS[1], ARGV[3])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
return 1
"""
_PRUNE_TRACES = """
local doomed = {}
if ARGV[2] ~= '' then
  for _, id in ipairs(redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[2])) do doomed[id] = true end
end
if ARGV[3] ~= '' then
  local extra = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[3])
  if extra > 0 then
    for _, id in ipairs(redis.call('ZRANGE', KEYS[2], 0, extra - 1)) do doomed[id] = true end
  end
end
local n = 0
for id in pairs(doomed) do
  redis.call('DEL', ARGV[1] .. id)
  redis.call('HDEL', KEYS[1], id)
  redis.call('ZREM', KEYS[2], id)
  n = n + 1
end
return n
"""
"""Drop traces scored below ``ARGV[2]`` (``(cut``) and all but the newest ``ARGV[3]``; the record
keys are ``ARGV[1] .. id`` (so not declared: a single Redis server, not a cluster)."""


class RedisStore:
    """A :class:`~toolwire.store.Store` on a Redis server (see the module docstring).

    Use :meth:`open`.

    Args:
        client: a redis-py asyncio client (bytes replies).
        where: the server, for messages (``host:port/db``, never a password).
        prefix: the key prefix.
        limits: size limit and clock.
    """

    def __init__(
        self, client: Any, where: str, prefix: str = DEFAULT_PREFIX, limits: StoreLimits | None = None
    ):
        self.client = client
        self.where = where
        self.prefix = prefix
        self.limits = limits or StoreLimits()
        self._scripts = {
            name: client.register_script(text)
            for name, text in (("put", _PUT_RESPONSE), ("delete", _DELETE_RESPONSE), ("append", _APPEND))
        }
        self._scripts["page"] = client.register_script(_PAGE)
        self._scripts["get_item"] = client.register_script(_GET_ITEM)
        self._scripts["delete_item"] = client.register_script(_DELETE_ITEM)
        self._scripts["put_trace"] = client.register_script(_PUT_TRACE)
        self._scripts["prune_traces"] = client.register_script(_PRUNE_TRACES)

    @classmethod
    async def open(cls, url: SplitResult, limits: StoreLimits | None = None) -> RedisStore:
        """Connect to the server ``url`` names (and check it answers).

        Raises:
            StoreError: the server cannot be reached or refuses the credentials.
        """
        query = dict(parse_qsl(url.query))
        prefix = query.pop("prefix", DEFAULT_PREFIX)
        size = query.pop("max_connections", str(MAX_CONNECTIONS))
        where = f"{url.hostname or 'localhost'}:{url.port or 6379}{url.path or '/0'}"
        try:
            pool = aioredis.BlockingConnectionPool.from_url(
                url._replace(query=urlencode(query)).geturl(), max_connections=int(size), timeout=POOL_TIMEOUT
            )
            client = aioredis.Redis(connection_pool=pool)
        except (ValueError, RedisError) as exc:
            raise StoreError(f"redis store {where}: {type(exc).__name__}") from None
        store = cls(client, where, prefix, limits)
        try:
            await store._call(client.ping())
        except StoreError:
            await client.aclose()
            raise
        return store

    async def _call(self, awaitable: Awaitable[_T]) -> _T:
        try:
            return await awaitable
        except RedisError as exc:
            raise StoreError(f"redis store {self.where}: {exc}") from None

    def _key(self, kind: str, name: str = "") -> str:
        return f"{self.prefix}{kind}{name}"

    def _live(self, expires_at: float | None) -> bool:
        return expires_at is None or expires_at > self.limits.clock()

    # -- responses

    async def put_response(self, record: ResponseRecord) -> None:
        data = encode_record(record, self.limits)
        keys = [self._key("r:", record.id), self._key("rs"), self._key("rseq")]
        pxat = "" if record.expires_at is None else str(record.expires_at * 1000)
        await self._call(self._scripts["put"](keys=keys, args=[record.id, data, pxat]))

    async def get_response(self, response_id: str) -> ResponseRecord | None:
        data = await self._call(self.client.get(self._key("r:", response_id)))
        record = decode_record(data, ResponseRecord) if data is not None else None
        return record if record is not None and self._live(record.expires_at) else None

    async def delete_response(self, response_id: str) -> bool:
        keys = [self._key("r:", response_id), self._key("rs")]
        data = await self._call(self._scripts["delete"](keys=keys, args=[response_id]))
        return data is not None and self._live(decode_record(data, ResponseRecord).expires_at)

    async def list_responses(self, *, limit: int = 20, after: str | None = None) -> list[ResponseRecord]:
        size, start = max(1, limit), 0
        if after is not None:
            rank = await self._call(self.client.zrevrank(self._key("rs"), after))
            if rank is None:
                return []
            start = int(rank) + 1
        found: list[ResponseRecord] = []
        while len(found) < size:
            ids = await self._call(self.client.zrevrange(self._key("rs"), start, start + size - 1))
            if not ids:
                break
            start += len(ids)
            found += await self._records([i.decode() for i in ids])
        return found[:size]

    async def _records(self, ids: list[str]) -> list[ResponseRecord]:
        bodies = await self._call(self.client.mget([self._key("r:", key) for key in ids]))
        gone = [key for key, body in zip(ids, bodies, strict=True) if body is None]
        if gone:  # expired by the server: drop them from the order too
            await self._call(self.client.zrem(self._key("rs"), *gone))
        records = [decode_record(body, ResponseRecord) for body in bodies if body is not None]
        return [record for record in records if self._live(record.expires_at)]

    # -- conversations

    def _conversation_keys(self, conversation_id: str) -> list[str]:
        return [self._key(kind, conversation_id) for kind in ("c:", "ci:", "cx:")]

    async def create_conversation(
        self, record: ConversationRecord, items: Sequence[dict[str, Any]] = ()
    ) -> None:
        await self._append(record.id, items, encode_record(record, self.limits))

    async def _append(self, conversation_id: str, items: Sequence[dict[str, Any]], record: bytes) -> int:
        ids = item_ids(items)
        bodies = [self.limits.check(_ITEMS.encode(item), "item", f"$[{n}]") for n, item in enumerate(items)]
        keys = self._conversation_keys(conversation_id)
        result = int(
            await self._call(self._scripts["append"](keys=keys, args=[record, len(ids), *ids, *bodies]))
        )
        if result == -1:
            raise StoreNotFoundError(f"no conversation {conversation_id!r}")
        if result == -2:
            raise StoreError(f"conversation {conversation_id!r} already exists")
        if result < 0:
            index = -3 - result
            raise StoreError(f"item id {ids[index]!r} is already in the conversation", path=f"$[{index}].id")
        return result

    async def get_conversation(self, conversation_id: str) -> ConversationRecord | None:
        data = await self._call(self.client.get(self._key("c:", conversation_id)))
        return decode_record(data, ConversationRecord) if data is not None else None

    async def append_items(self, conversation_id: str, items: Sequence[dict[str, Any]]) -> int:
        return await self._append(conversation_id, items, b"")

    async def list_items(
        self, conversation_id: str, *, after: str | None = None, limit: int = 20, order: Order = "asc"
    ) -> ItemPage:
        size = max(1, limit)
        keys = self._conversation_keys(conversation_id)
        found, bodies = await self._call(self._scripts["page"](keys=keys, args=[after or "", size, order]))
        if int(found) < 0:
            raise StoreNotFoundError(f"no conversation {conversation_id!r}")
        ordered = bodies if order == "asc" else bodies[::-1]
        items = [_ITEM.decode(body) for body in ordered[:size]]
        first = items[0].get("id") if items else None
        last = items[-1].get("id") if items else None
        return ItemPage(items=items, has_more=len(ordered) > size, first_id=first, last_id=last)

    async def update_conversation(
        self, conversation_id: str, metadata: dict[str, Any]
    ) -> ConversationRecord | None:
        kept = await self.get_conversation(conversation_id)
        if kept is None:
            return None
        record = msgspec.structs.replace(kept, metadata=metadata)
        data = encode_record(record, self.limits)  # id and created_at never change: SET XX is atomic
        replaced = await self._call(self.client.set(self._key("c:", conversation_id), data, xx=True))
        return record if replaced else None

    async def get_item(self, conversation_id: str, item_id: str) -> dict[str, Any] | None:
        keys = self._conversation_keys(conversation_id)
        found = await self._call(self._scripts["get_item"](keys=keys, args=[item_id]))
        if int(found[0]) < 0:
            raise StoreNotFoundError(f"no conversation {conversation_id!r}")
        return _ITEM.decode(found[1]) if int(found[0]) > 0 else None

    async def delete_item(self, conversation_id: str, item_id: str) -> ConversationRecord | None:
        keys = self._conversation_keys(conversation_id)
        found = await self._call(self._scripts["delete_item"](keys=keys, args=[item_id]))
        if int(found[0]) < 0:
            raise StoreNotFoundError(f"no conversation {conversation_id!r}")
        return decode_record(found[1], ConversationRecord) if int(found[0]) > 0 else None

    async def delete_conversation(self, conversation_id: str) -> bool:
        return int(await self._call(self.client.delete(*self._conversation_keys(conversation_id)))) > 0

    # -- opaque state

    async def put_state(self, key: str, value: bytes, ttl: float | None = None) -> None:
        data = bytes(self.limits.check(value, f"state {key!r}"))
        px = None if ttl is None else max(1, round(ttl * 1000))
        await self._call(self.client.set(self._key("s:", key), data, px=px))

    async def get_state(self, key: str) -> bytes | None:
        data = await self._call(self.client.get(self._key("s:", key)))
        return bytes(data) if data is not None else None

    async def delete_state(self, key: str) -> bool:
        return int(await self._call(self.client.delete(self._key("s:", key)))) > 0

    # -- traces

    async def put_trace(self, record: TraceRecord) -> None:
        summary, data = encode_parts(record, self.limits)
        keys = [self._key("t:", record.id), self._key("tsum"), self._key("tz")]
        args = [record.id, repr(float(record.created_at)), data, summary]
        await self._call(self._scripts["put_trace"](keys=keys, args=args))

    async def get_trace(self, trace_id: str) -> TraceRecord | None:
        data = await self._call(self.client.get(self._key("t:", trace_id)))
        return decode_trace(data) if data is not None else None

    async def list_traces(self, query: TraceQuery) -> list[TraceSummary]:
        start = 0
        if query.before is not None:
            rank = await self._call(self.client.zrevrank(self._key("tz"), query.before))
            if rank is None:
                return []
            start = int(rank) + 1
        found: list[TraceSummary] = []
        while True:
            ids = await self._call(self.client.zrevrange(self._key("tz"), start, start + SCAN_BATCH - 1))
            if not ids:
                return found
            start += len(ids)
            bodies = await self._call(self.client.hmget(self._key("tsum"), ids))
            if keep(found, (body for body in bodies if body is not None), query):
                return found

    async def prune_traces(self, *, max_age: float | None, max_count: int | None) -> int:
        cut = "" if max_age is None else f"({self.limits.clock() - max_age!r}"
        count = "" if max_count is None else str(max(0, max_count))
        keys = [self._key("tsum"), self._key("tz")]
        return int(
            await self._call(self._scripts["prune_traces"](keys=keys, args=[self._key("t:"), cut, count]))
        )

    async def aclose(self) -> None:
        await self.client.aclose()
