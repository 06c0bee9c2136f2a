"""The trace record: round trip, summaries and list filters."""

from __future__ import annotations

import pytest

from toolwire.store import StoreError
from toolwire.trace import TraceLatency, TraceNote, TraceQuery, TraceRecord, decode_trace, encode_trace


def _record(**fields: object) -> TraceRecord:
    base: dict[str, object] = {
        "id": "req_1",
        "created_at": 1700000000.5,
        "method": "POST",
        "path": "/v1/chat/completions",
        "status": 200,
        "client_format": "openai-chat",
        "upstream_format": "anthropic",
        "client_model": "gpt-4o",
        "upstream_model": "claude-sonnet-4-5",
        "latency": TraceLatency(total=12.5, upstream=10.0),
    }
    base.update(fields)
    return TraceRecord(**base)  # type: ignore[arg-type]


def _note(loss: bool) -> TraceNote:
    return TraceNote(side="client_request", path="$.seed", kind="dropped", message="no seed", loss=loss)


def test_a_record_reads_back_equal() -> None:
    record = _record(notes=[_note(True)])
    assert decode_trace(encode_trace(record)) == record


def test_a_newer_layout_is_refused_not_half_read() -> None:
    data = encode_trace(_record()).replace(b'"v":1', b'"v":2', 1)
    with pytest.raises(StoreError, match="layout v2"):
        decode_trace(data)


def test_garbage_is_a_store_error() -> None:
    with pytest.raises(StoreError, match="unreadable trace"):
        decode_trace(b'{"id": 3}')


def test_gateway_share_is_total_minus_upstream() -> None:
    assert _record().latency.gateway == 2.5
    assert TraceLatency(total=4.0).gateway == 4.0


def test_summary_counts_loss_notes_apart() -> None:
    summary = _record(notes=[_note(True), _note(False), _note(True)]).summary()
    assert (summary.notes, summary.loss_notes, summary.total_ms) == (3, 2, 12.5)
    assert _record(notes=[_note(False)]).has_loss is False


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (TraceQuery(), True),
        (TraceQuery(model="gpt-4o"), True),
        (TraceQuery(model="claude-sonnet-4-5"), True),
        (TraceQuery(model="gemini"), False),
        (TraceQuery(pair="openai-chat->anthropic"), True),
        (TraceQuery(pair="anthropic->openai-chat"), False),
        (TraceQuery(status="200"), True),
        (TraceQuery(status="2xx"), True),
        (TraceQuery(status="4xx"), False),
        (TraceQuery(status="20"), False),
        (TraceQuery(has_loss=True), True),
        (TraceQuery(has_loss=False), False),
    ],
)
def test_query_filters(query: TraceQuery, expected: bool) -> None:
    assert query.matches(_record(notes=[_note(True)]).summary()) is expected
