"""The pages' traces: the gateway's store, through its handle (opened on first use)."""

from __future__ import annotations

from typing import cast

from toolwire.gateway._store import AsyncStoreHandle
from toolwire.hop._stateful import StoreCall
from toolwire.trace import TraceQuery, TraceRecord, TraceSummary

__all__ = ["StoreTraces"]


class StoreTraces:
    """:class:`~toolwire.gateway._ui.TraceSource` over the gateway's store handle."""

    def __init__(self, handle: AsyncStoreHandle) -> None:
        self._handle = handle

    async def get_trace(self, trace_id: str) -> TraceRecord | None:
        """The trace ``trace_id``, or ``None``."""
        return cast("TraceRecord | None", await self._handle.call(StoreCall("get_trace", (trace_id,))))

    async def list_traces(self, query: TraceQuery) -> list[TraceSummary]:
        """The summaries ``query`` asks for, newest first."""
        return cast("list[TraceSummary]", await self._handle.call(StoreCall("list_traces", (query,))))
