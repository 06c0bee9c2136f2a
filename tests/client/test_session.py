"""The sans-IO stream session: framing, provider error events, idle watch (no network)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.client.payloads import need_stream
from toolwire.client import StreamIdleTimeoutError
from toolwire.client._session import IdleWatch, StreamSession
from toolwire.errors import OverloadedError
from toolwire.ir import Notes
from toolwire.ir.stream import ResponseStart


def sse(events: list[dict[str, Any]]) -> bytes:
    return b"".join(
        f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() + b": keep-alive\n\n" for e in events
    )


START = {
    "type": "message_start",
    "message": {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 1},
    },
}
ERROR = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}


def test_error_event_raises_typed_error_bytewise() -> None:
    need_stream("anthropic")
    session = StreamSession("anthropic", Notes(), {"request-id": "req_7"})
    raw = sse([START, ERROR])
    events = []
    with pytest.raises(OverloadedError) as info:
        for i in range(len(raw)):
            events.extend(session.feed(raw[i : i + 1]))
    assert isinstance(events[0], ResponseStart)
    assert session.started
    assert info.value.request_id == "req_7"
    assert info.value.type == "overloaded_error"
    assert session.raw_events == [START, ERROR]


def test_idle_watch_ignores_keepalives() -> None:
    now = [0.0]
    watch = IdleWatch(5.0, clock=lambda: now[0])
    now[0] = 4.0
    watch.tick(False)  # a ping: no event, still within the limit
    now[0] = 8.0
    watch.tick(True)  # an event resets the clock
    now[0] = 12.0
    watch.tick(False)
    now[0] = 13.5
    with pytest.raises(StreamIdleTimeoutError, match=r"idle limit 5\.0s"):
        watch.tick(False)


def test_idle_watch_without_limit() -> None:
    now = [0.0]
    watch = IdleWatch(None, clock=lambda: now[0])
    now[0] = 1e6
    watch.tick(False)  # no limit: any silence is fine, and the clock is not reset by it
    assert watch.last == 0.0
    watch.tick(True)
    assert watch.last == 1e6
