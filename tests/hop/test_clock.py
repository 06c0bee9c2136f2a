"""Timestamps the translation writes come from the Exchange's clock, not 0."""

from __future__ import annotations

import pytest

from toolwire import Exchange

ANTHROPIC_ANSWER = {
    "id": "msg_1",
    "type": "message",
    "role": "assistant",
    "model": "claude-sonnet-4-5",
    "content": [{"type": "text", "text": "Sunny."}],
    "stop_reason": "end_turn",
    "stop_sequence": None,
    "usage": {"input_tokens": 10, "output_tokens": 2},
}
CHAT_ANSWER = {
    "id": "chatcmpl-1",
    "object": "chat.completion",
    "created": 1_600_000_000,
    "model": "gpt-4.1",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "Sunny."}, "finish_reason": "stop"}],
}


@pytest.mark.parametrize(
    ("client", "field"), [("openai-chat", "created"), ("openai-responses", "created_at")]
)
def test_an_upstream_without_a_time_gets_the_clocks(client: str, field: str) -> None:
    out = Exchange(client, "anthropic", clock=lambda: 1_700_000_123.9).response(ANTHROPIC_ANSWER)
    assert out[field] == 1_700_000_123


def test_an_upstreams_own_time_wins_over_the_clock() -> None:
    out = Exchange("openai-responses", "openai-chat", clock=lambda: 1_700_000_123.0).response(CHAT_ANSWER)
    assert out["created_at"] == 1_600_000_000


def test_the_default_clock_is_the_real_time() -> None:
    import time

    before = int(time.time())
    out = Exchange("openai-chat", "anthropic").response(ANTHROPIC_ANSWER)
    assert before <= out["created"] <= int(time.time())
