"""Where the gateway and the emulator keep Responses state: responses, conversations, opaque state.

:func:`open_store` picks a backend by URL (:data:`STORES`): ``sqlite:///path.db`` (the default,
one file shared by the processes of one machine), ``redis://host:port/db`` (several machines;
the ``redis`` extra) or ``memory://``. Every backend implements :class:`Store` and passes the
same contract tests. :mod:`toolwire.store.pages` pages item lists as the OpenAI API does.

Example:
    >>> import asyncio
    >>> from toolwire.store import ResponseRecord, open_store
    >>> async def demo():
    ...     store = await open_store("memory://")
    ...     record = ResponseRecord(id="resp_1", created_at=0, output_items=[{"id": "msg_1"}])
    ...     await store.put_response(record)
    ...     record = await store.get_response("resp_1")
    ...     await store.aclose()
    ...     return record.output_items
    >>> asyncio.run(demo())
    [{'id': 'msg_1'}]
"""

from __future__ import annotations

from toolwire.store._open import (
    DEFAULT_STORE,
    STORES,
    StoreSpec,
    default_sqlite_path,
    open_store,
    redact,
    store_spec,
)
from toolwire.store.base import (
    DEFAULT_MAX_RECORD_BYTES,
    RECORD_VERSION,
    STATUSES,
    ConversationRecord,
    ItemPage,
    Order,
    ResponseRecord,
    Status,
    Store,
    StoreError,
    StoreLimitError,
    StoreLimits,
    StoreNotFoundError,
    StoreURLError,
)
from toolwire.store.memory import MemoryStore
from toolwire.store.pages import MAX_LIMIT, PageQuery, list_object, list_page, page_query

__all__ = [
    "ConversationRecord",
    "DEFAULT_MAX_RECORD_BYTES",
    "DEFAULT_STORE",
    "ItemPage",
    "MAX_LIMIT",
    "MemoryStore",
    "Order",
    "PageQuery",
    "RECORD_VERSION",
    "ResponseRecord",
    "STATUSES",
    "STORES",
    "Status",
    "Store",
    "StoreError",
    "StoreLimitError",
    "StoreLimits",
    "StoreNotFoundError",
    "StoreSpec",
    "StoreURLError",
    "default_sqlite_path",
    "list_object",
    "list_page",
    "open_store",
    "page_query",
    "redact",
    "store_spec",
]
