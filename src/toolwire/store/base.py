"""The store contract: versioned records, the async :class:`Store` protocol, and its errors.

The gateway (and the emulator) keep Responses state through a :class:`Store`; the hop core never
calls one, it yields ``LoadState``/``SaveState`` steps that a shell performs. A backend keeps
what it is given exactly: a record read back equals the record written (JSON values, key order,
big integers and every string byte-exact, reasoning ``encrypted_content`` included), and opaque
state is kept as the bytes received.

================================  ===============================================================
kept                              how
================================  ===============================================================
:class:`ResponseRecord`           by id; replaced when put again (its place in
                                  :meth:`Store.list_responses` stays); gone after ``expires_at``
:class:`ConversationRecord`       by id, created once (an update replaces its metadata); its
                                  items are a separate ordered list, appended atomically (all
                                  or none, never interleaved), read or removed one by one
conversation items                JSON objects, each with a string ``id`` unique in the
                                  conversation (the caller assigns ids, as the API lists them)
opaque state                      ``bytes`` by key, with an optional time to live
:class:`~toolwire.trace.TraceRecord`  by id, with its :class:`~toolwire.trace.TraceSummary` kept
                                  apart (a list reads summaries only); newest ``created_at``
                                  first (ties: the greater id first); dropped by
                                  :meth:`Store.prune_traces`
================================  ===============================================================

Records are ``msgspec`` structs encoded as JSON with a version field ``v``; a record written by
a newer toolwire (``v`` above :data:`RECORD_VERSION`) is refused with :class:`StoreError`, never
half-read. Every write is checked against ``max_record_bytes`` (:class:`StoreLimitError`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar

import msgspec

from toolwire.errors import LimitError, ToolwireError

if TYPE_CHECKING:
    from toolwire.trace.record import TraceQuery, TraceRecord, TraceSummary

__all__ = [
    "ConversationRecord",
    "DEFAULT_MAX_RECORD_BYTES",
    "ItemPage",
    "Order",
    "RECORD_VERSION",
    "ResponseRecord",
    "STATUSES",
    "Status",
    "Store",
    "StoreError",
    "StoreLimitError",
    "StoreLimits",
    "StoreNotFoundError",
    "StoreURLError",
    "decode_record",
    "encode_record",
    "item_ids",
]

RECORD_VERSION = 1
"""The record layout this toolwire writes and the newest it reads."""
DEFAULT_MAX_RECORD_BYTES = 32 * 1024 * 1024
"""Largest encoded record, conversation item or state value a store accepts by default (32 MiB)."""

Status = Literal["completed", "in_progress", "queued", "failed", "cancelled", "incomplete"]
STATUSES: tuple[Status, ...] = ("completed", "in_progress", "queued", "failed", "cancelled", "incomplete")
"""The statuses of a Responses response object."""
Order = Literal["asc", "desc"]


class StoreError(ToolwireError):
    """The store refused or failed an operation: a duplicate id, an unreadable record, a backend
    that cannot be reached (the message never includes a password)."""


class StoreURLError(StoreError):
    """A store URL that names no backend or that the backend cannot use."""


class StoreNotFoundError(StoreError):
    """The operation needs a record that is not kept (appending to an unknown conversation)."""


class StoreLimitError(StoreError, LimitError):
    """A record, conversation item or state value is larger than ``max_record_bytes``."""


class ResponseRecord(msgspec.Struct, frozen=True, kw_only=True):
    """One Responses response as the gateway answered it.

    Attributes:
        v: record layout version (:data:`RECORD_VERSION`).
        id: the response id (``resp_...``).
        created_at: unix seconds.
        status: the response's status.
        request: the request parameters the response object echoes (``model``, ``tools``,
            ``instructions``, ...), not its ``input``.
        input_items: the resolved input: the whole history (``previous_response_id`` expanded)
            then this request's input, with item ids.
        output_items: the output items, byte-exact (reasoning ``encrypted_content`` included).
        response: the response object as returned to the client.
        previous_response_id: the response this one continued.
        conversation_id: the conversation this response belongs to.
        expires_at: unix seconds after which the record is gone; ``None`` keeps it.
    """

    v: int = RECORD_VERSION
    id: str
    created_at: int
    status: Status = "completed"
    request: dict[str, Any] = {}
    input_items: list[dict[str, Any]] = []
    output_items: list[dict[str, Any]] = []
    response: dict[str, Any] = {}
    previous_response_id: str | None = None
    conversation_id: str | None = None
    expires_at: int | None = None


class ConversationRecord(msgspec.Struct, frozen=True, kw_only=True):
    """A conversation (its items are kept apart, see :meth:`Store.append_items`).

    Attributes:
        v: record layout version (:data:`RECORD_VERSION`).
        id: the conversation id (``conv_...``).
        created_at: unix seconds.
        metadata: up to the API's 16 string pairs, kept as given.
    """

    v: int = RECORD_VERSION
    id: str
    created_at: int
    metadata: dict[str, Any] = {}


class ItemPage(msgspec.Struct, frozen=True, kw_only=True):
    """One page of conversation items.

    Attributes:
        items: the items of the page, in the order asked for.
        has_more: whether items follow this page in that order.
        first_id: id of the first item of the page (``None`` when empty).
        last_id: id of the last item (the ``after`` of the next page).
    """

    items: list[dict[str, Any]]
    has_more: bool
    first_id: str | None
    last_id: str | None


@dataclass(frozen=True, slots=True)
class StoreLimits:
    """What every backend enforces.

    Attributes:
        max_record_bytes: largest encoded record, conversation item or state value.
        clock: unix time now, in seconds (``expires_at`` and state TTLs are measured with it;
            Redis also expires keys with its own clock).
    """

    max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
    clock: Callable[[], float] = time.time

    def check(self, data: bytes, what: str, path: str = "$") -> bytes:
        """``data`` when it fits.

        Raises:
            StoreLimitError: ``data`` is longer than :attr:`max_record_bytes`.
        """
        if len(data) > self.max_record_bytes:
            message = f"{what} is {len(data)} bytes; the store keeps at most {self.max_record_bytes}"
            raise StoreLimitError(message, path=path)
        return data


_R = TypeVar("_R", ResponseRecord, ConversationRecord)
_ENCODER = msgspec.json.Encoder()
_DECODERS: dict[type[Any], msgspec.json.Decoder[Any]] = {
    ResponseRecord: msgspec.json.Decoder(ResponseRecord),
    ConversationRecord: msgspec.json.Decoder(ConversationRecord),
}


def encode_record(record: ResponseRecord | ConversationRecord, limits: StoreLimits) -> bytes:
    """The stored bytes of ``record`` (compact JSON), checked against ``limits``.

    Raises:
        StoreLimitError: the record is too large.
        StoreError: the record holds a value JSON cannot carry.
    """
    try:
        data = _ENCODER.encode(record)
    except (TypeError, ValueError, RecursionError) as exc:  # a value msgspec cannot encode
        raise StoreError(f"record {record.id!r} cannot be stored: {exc}") from None
    return limits.check(data, f"record {record.id!r}")


def decode_record(data: bytes, kind: type[_R]) -> _R:
    """A record read back from a backend.

    Raises:
        StoreError: the bytes are not a record of ``kind``, or come from a newer layout.
    """
    try:
        record: _R = _DECODERS[kind].decode(data)
    except msgspec.DecodeError as exc:
        raise StoreError(f"unreadable {kind.__name__}: {exc}") from None
    if record.v > RECORD_VERSION:
        raise StoreError(f"{kind.__name__} {record.id!r} has layout v{record.v}; this toolwire reads v1")
    return record


def item_ids(items: Sequence[Any], known: Callable[[str], bool] = lambda _: False) -> list[str]:
    """The ids of conversation items about to be appended.

    Args:
        items: the items (JSON objects with a string ``id``).
        known: whether an id is already in the conversation.

    Raises:
        StoreError: an item is not an object, has no string id, or repeats an id (path
            ``$[i].id``).
    """
    ids: list[str] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        key = item.get("id") if isinstance(item, dict) else None
        if not isinstance(key, str) or not key:
            raise StoreError("a conversation item needs a string id", path=f"$[{index}].id")
        if key in seen or known(key):
            raise StoreError(f"item id {key!r} is already in the conversation", path=f"$[{index}].id")
        seen.add(key)
        ids.append(key)
    return ids


class Store(Protocol):
    """Responses, conversations and opaque state, kept by a backend (memory, SQLite, Redis).

    Every method is safe to call concurrently; SQLite and Redis are also safe across processes.
    Reads of an expired record answer as if it were never stored.
    """

    limits: StoreLimits

    async def put_response(self, record: ResponseRecord) -> None:
        """Keep ``record`` (replacing one with its id), durably before returning.

        Raises:
            StoreLimitError: the encoded record is larger than ``limits.max_record_bytes``.
        """

    async def get_response(self, response_id: str) -> ResponseRecord | None:
        """The record ``response_id``, or ``None`` (never stored, deleted or expired)."""

    async def delete_response(self, response_id: str) -> bool:
        """Forget ``response_id``; whether it was kept."""

    async def list_responses(self, *, limit: int = 20, after: str | None = None) -> list[ResponseRecord]:
        """Kept responses, the most recently first stored first; ``after``: the last id of the
        previous page (an unknown id gives an empty list)."""

    async def create_conversation(
        self, record: ConversationRecord, items: Sequence[dict[str, Any]] = ()
    ) -> None:
        """Create a conversation with its first ``items``.

        Raises:
            StoreError: the id is taken, or an item has no id or repeats one.
            StoreLimitError: the record or an item is too large.
        """

    async def get_conversation(self, conversation_id: str) -> ConversationRecord | None:
        """The conversation record, or ``None``."""

    async def append_items(self, conversation_id: str, items: Sequence[dict[str, Any]]) -> int:
        """Append ``items`` after every item already there, atomically; returns the item count.

        Raises:
            StoreNotFoundError: no such conversation.
            StoreError: an item has no id or repeats one (nothing is appended).
        """

    async def list_items(
        self, conversation_id: str, *, after: str | None = None, limit: int = 20, order: Order = "asc"
    ) -> ItemPage:
        """A page of a conversation's items, in ``order``, starting after item ``after``.

        Raises:
            StoreNotFoundError: no such conversation.
        """

    async def update_conversation(
        self, conversation_id: str, metadata: dict[str, Any]
    ) -> ConversationRecord | None:
        """Replace a conversation's metadata, atomically; the updated record, or ``None`` when
        no such conversation (nothing is created).

        Raises:
            StoreLimitError: the updated record is too large (the old one stays).
        """

    async def get_item(self, conversation_id: str, item_id: str) -> dict[str, Any] | None:
        """Item ``item_id`` of a conversation, or ``None`` when the conversation has no such item.

        Raises:
            StoreNotFoundError: no such conversation.
        """

    async def delete_item(self, conversation_id: str, item_id: str) -> ConversationRecord | None:
        """Remove item ``item_id`` from a conversation, atomically (the other items keep their
        order; the id is free again); the conversation record, or ``None`` when it has no such item.

        Raises:
            StoreNotFoundError: no such conversation.
        """

    async def delete_conversation(self, conversation_id: str) -> bool:
        """Forget a conversation and its items; whether it was kept."""

    async def put_state(self, key: str, value: bytes, ttl: float | None = None) -> None:
        """Keep opaque ``value`` under ``key`` for ``ttl`` seconds (``None``: until deleted)."""

    async def get_state(self, key: str) -> bytes | None:
        """The bytes kept under ``key``, or ``None``."""

    async def delete_state(self, key: str) -> bool:
        """Forget ``key``; whether it was kept."""

    async def put_trace(self, record: TraceRecord) -> None:
        """Keep a gateway call's trace (replacing one with its id) and its summary.

        Raises:
            StoreLimitError: the encoded trace is larger than ``limits.max_record_bytes``.
        """

    async def get_trace(self, trace_id: str) -> TraceRecord | None:
        """The trace ``trace_id``, or ``None`` (never kept, or pruned)."""

    async def list_traces(self, query: TraceQuery) -> list[TraceSummary]:
        """Summaries of kept traces that pass ``query``'s filters, newest first, at most
        ``query.limit``; ``query.before``: the last id of the previous page (an unknown id gives
        an empty list). No trace body is read."""

    async def prune_traces(self, *, max_age: float | None, max_count: int | None) -> int:
        """Drop traces created more than ``max_age`` seconds ago (by ``limits.clock``) and all
        but the newest ``max_count``; returns how many were dropped (``None``: no bound)."""

    async def aclose(self) -> None:
        """Release connections and threads; the store is unusable afterwards."""
