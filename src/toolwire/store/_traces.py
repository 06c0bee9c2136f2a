"""What every backend does alike with traces: encode a record and its summary, filter summaries.

A backend keeps two values per trace, the record's bytes (:func:`~toolwire.trace.encode_trace`)
and its summary's, so :meth:`~toolwire.store.Store.list_traces` reads summaries only. The order
is ``(created_at, id)`` descending on every backend (Redis sorts equal scores by member).
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

from toolwire.store.base import StoreError, StoreLimits
from toolwire.trace.record import TraceQuery, TraceRecord, TraceSummary, encode_trace

__all__ = ["SCAN_BATCH", "decode_summary", "encode_parts", "keep", "page_size"]

SCAN_BATCH = 256
"""Summaries a backend reads per round while filling a filtered page."""

_ENCODER = msgspec.json.Encoder()
_SUMMARY = msgspec.json.Decoder(TraceSummary)


def encode_parts(record: TraceRecord, limits: StoreLimits) -> tuple[bytes, bytes]:
    """``(summary, record)`` bytes of ``record``, the record checked against ``limits``.

    Raises:
        StoreLimitError: the record is too large.
        StoreError: the record holds a string JSON cannot carry.
    """
    try:
        data = encode_trace(record)
        summary = _ENCODER.encode(record.summary())
    except (TypeError, ValueError) as exc:
        raise StoreError(f"trace {record.id!r} cannot be stored: {exc}") from None
    return summary, limits.check(data, f"trace {record.id!r}")


def decode_summary(data: bytes) -> TraceSummary:
    """A summary read back.

    Raises:
        StoreError: the bytes are not a trace summary.
    """
    try:
        return _SUMMARY.decode(data)
    except msgspec.DecodeError as exc:
        raise StoreError(f"unreadable trace summary: {exc}") from None


def page_size(query: TraceQuery) -> int:
    """How many summaries a page holds (at least one)."""
    return max(1, query.limit)


def keep(found: list[TraceSummary], batch: Iterable[bytes], query: TraceQuery) -> bool:
    """Add the summaries of ``batch`` that ``query`` matches to ``found``; whether it is full."""
    size = page_size(query)
    for data in batch:
        summary = decode_summary(data)
        if query.matches(summary):
            found.append(summary)
            if len(found) >= size:
                return True
    return False
