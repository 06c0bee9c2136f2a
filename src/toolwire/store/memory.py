"""The in-memory store (``memory://``): for tests, libraries and the emulator.

Records are kept encoded, as the other backends keep them, so a caller changing a dict after
``put_response`` changes nothing stored, size limits apply alike and a read returns a fresh
copy. Everything lives as long as the object; one process only. ``max_responses`` bounds the
responses kept (the one stored first is dropped first), as the emulator's ``store_size`` asks.
"""

from __future__ import annotations

import bisect
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

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
from toolwire.store.pages import page_of
from toolwire.trace.record import TraceQuery, TraceRecord, TraceSummary, decode_trace

__all__ = ["MemoryStore"]

_ITEMS = msgspec.json.Encoder()
_ITEM = msgspec.json.Decoder(dict[str, Any])


class _Conversation:
    __slots__ = ("items", "order", "record")

    def __init__(self, record: bytes) -> None:
        self.record = record
        self.order: list[str] = []  # item ids, oldest first
        self.items: dict[str, bytes] = {}  # item id -> its JSON


class MemoryStore:
    """A :class:`~toolwire.store.Store` in this process's memory.

    Args:
        limits: size limit and clock.
        max_responses: the most responses kept (``None``: no bound; ``0`` keeps none).
    """

    def __init__(self, limits: StoreLimits | None = None, *, max_responses: int | None = None) -> None:
        self.limits = limits or StoreLimits()
        self.max_responses = max_responses
        self._responses: OrderedDict[str, tuple[int | None, bytes]] = OrderedDict()
        self._conversations: dict[str, _Conversation] = {}
        self._state: dict[str, tuple[float | None, bytes]] = {}
        self._traces: dict[str, tuple[float, bytes, bytes]] = {}
        self._trace_order: list[tuple[float, str]] = []  # ascending; the newest last

    def _live(self, expires_at: float | None) -> bool:
        return expires_at is None or expires_at > self.limits.clock()

    async def put_response(self, record: ResponseRecord) -> None:
        data = encode_record(record, self.limits)
        if self.max_responses == 0:
            return
        if record.id in self._responses:
            self._responses[record.id] = (record.expires_at, data)
            return
        self._responses[record.id] = (record.expires_at, data)
        while self.max_responses is not None and len(self._responses) > self.max_responses:
            self._responses.popitem(last=False)

    async def get_response(self, response_id: str) -> ResponseRecord | None:
        kept = self._responses.get(response_id)
        if kept is None or not self._live(kept[0]):
            return None
        return decode_record(kept[1], ResponseRecord)

    async def delete_response(self, response_id: str) -> bool:
        kept = self._responses.pop(response_id, None)
        return kept is not None and self._live(kept[0])

    async def list_responses(self, *, limit: int = 20, after: str | None = None) -> list[ResponseRecord]:
        ids = [key for key, (expires, _) in reversed(self._responses.items()) if self._live(expires)]
        if after is not None:
            ids = ids[ids.index(after) + 1 :] if after in ids else []
        return [decode_record(self._responses[key][1], ResponseRecord) for key in ids[: max(1, limit)]]

    async def create_conversation(
        self, record: ConversationRecord, items: Sequence[dict[str, Any]] = ()
    ) -> None:
        data = encode_record(record, self.limits)
        if record.id in self._conversations:
            raise StoreError(f"conversation {record.id!r} already exists")
        encoded = self._encode_items(items, lambda _: False)
        conversation = _Conversation(data)
        self._extend(conversation, items, encoded)
        self._conversations[record.id] = conversation

    def _encode_items(self, items: Sequence[dict[str, Any]], known: Any) -> list[bytes]:
        item_ids(items, known)
        return [self.limits.check(_ITEMS.encode(item), "item", f"$[{n}]") for n, item in enumerate(items)]

    @staticmethod
    def _extend(conversation: _Conversation, items: Sequence[dict[str, Any]], encoded: list[bytes]) -> None:
        for item, data in zip(items, encoded, strict=True):
            conversation.order.append(item["id"])
            conversation.items[item["id"]] = data

    async def get_conversation(self, conversation_id: str) -> ConversationRecord | None:
        kept = self._conversations.get(conversation_id)
        return decode_record(kept.record, ConversationRecord) if kept is not None else None

    async def append_items(self, conversation_id: str, items: Sequence[dict[str, Any]]) -> int:
        conversation = self._conversation(conversation_id)
        encoded = self._encode_items(items, conversation.items.__contains__)
        self._extend(conversation, items, encoded)
        return len(conversation.order)

    def _conversation(self, conversation_id: str) -> _Conversation:
        conversation = self._conversations.get(conversation_id)
        if conversation is None:
            raise StoreNotFoundError(f"no conversation {conversation_id!r}")
        return conversation

    async def list_items(
        self, conversation_id: str, *, after: str | None = None, limit: int = 20, order: Order = "asc"
    ) -> ItemPage:
        conversation = self._conversation(conversation_id)
        items = [_ITEM.decode(conversation.items[key]) for key in conversation.order]
        return page_of(items, after=after, limit=limit, order=order)

    async def update_conversation(
        self, conversation_id: str, metadata: dict[str, Any]
    ) -> ConversationRecord | None:
        kept = self._conversations.get(conversation_id)
        if kept is None:
            return None
        record = msgspec.structs.replace(decode_record(kept.record, ConversationRecord), metadata=metadata)
        kept.record = encode_record(record, self.limits)
        return decode_record(kept.record, ConversationRecord)

    async def get_item(self, conversation_id: str, item_id: str) -> dict[str, Any] | None:
        data = self._conversation(conversation_id).items.get(item_id)
        return _ITEM.decode(data) if data is not None else None

    async def delete_item(self, conversation_id: str, item_id: str) -> ConversationRecord | None:
        conversation = self._conversation(conversation_id)
        if conversation.items.pop(item_id, None) is None:
            return None
        conversation.order.remove(item_id)
        return decode_record(conversation.record, ConversationRecord)

    async def delete_conversation(self, conversation_id: str) -> bool:
        return self._conversations.pop(conversation_id, None) is not None

    async def put_state(self, key: str, value: bytes, ttl: float | None = None) -> None:
        self.limits.check(value, f"state {key!r}")
        self._state[key] = (None if ttl is None else self.limits.clock() + ttl, bytes(value))

    async def get_state(self, key: str) -> bytes | None:
        kept = self._state.get(key)
        return kept[1] if kept is not None and self._live(kept[0]) else None

    async def delete_state(self, key: str) -> bool:
        kept = self._state.pop(key, None)
        return kept is not None and self._live(kept[0])

    async def put_trace(self, record: TraceRecord) -> None:
        summary, data = encode_parts(record, self.limits)
        self._drop_trace(record.id)
        self._traces[record.id] = (record.created_at, summary, data)
        bisect.insort(self._trace_order, (record.created_at, record.id))

    def _drop_trace(self, trace_id: str) -> bool:
        kept = self._traces.pop(trace_id, None)
        if kept is None:
            return False
        at = bisect.bisect_left(self._trace_order, (kept[0], trace_id))
        del self._trace_order[at]
        return True

    async def get_trace(self, trace_id: str) -> TraceRecord | None:
        kept = self._traces.get(trace_id)
        return decode_trace(kept[2]) if kept is not None else None

    async def list_traces(self, query: TraceQuery) -> list[TraceSummary]:
        end = len(self._trace_order)
        if query.before is not None:
            kept = self._traces.get(query.before)
            if kept is None:
                return []
            end = bisect.bisect_left(self._trace_order, (kept[0], query.before))
        found: list[TraceSummary] = []
        while end > 0:
            start = max(0, end - SCAN_BATCH)
            batch = [self._traces[key][1] for _, key in reversed(self._trace_order[start:end])]
            if keep(found, batch, query):
                break
            end = start
        return found

    async def prune_traces(self, *, max_age: float | None, max_count: int | None) -> int:
        doomed: list[str] = []
        if max_age is not None:
            cut = bisect.bisect_left(self._trace_order, (self.limits.clock() - max_age, ""))
            doomed += [key for _, key in self._trace_order[:cut]]
        if max_count is not None:
            extra = len(self._trace_order) - max(0, max_count)
            doomed += [key for _, key in self._trace_order[: max(0, extra)]]
        return sum(self._drop_trace(key) for key in dict.fromkeys(doomed))

    async def aclose(self) -> None:
        self._traces.clear()
        self._trace_order.clear()
        self._responses.clear()
        self._conversations.clear()
        self._state.clear()
