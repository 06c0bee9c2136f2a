"""A route's ``reasoning`` default: written in the client's own terms where the client set none,
then translated to the upstream's like anything the client sends; the client's choice wins."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from tests.hop.cases import FORMATS, MODEL, inbound
from tests.hop.driving import make_hop
from toolwire.hop._config import ConfigError, HopConfig, Route, Upstream, decode_config
from toolwire.hop._defaults import THINKING_BUDGETS

UPSTREAMS = {
    "responses": Upstream("responses", "openai-responses", "https://openai.example/v1"),
    "claude": Upstream("claude", "anthropic", "https://claude.example"),
    "gemini": Upstream("gemini", "gemini", "https://gemini.example"),
}


def _sent(client: str, upstream: str, reasoning: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    config = HopConfig(UPSTREAMS, default=Route("*", upstream, max_tokens=30000, reasoning=reasoning))
    request = inbound(client, stream=False)
    payload = {**json.loads(request.body), **(body or {})}
    for key in ("max_tokens", "max_completion_tokens"):
        payload.pop(key, None)
    send = next(make_hop(config).steps(replace(request, body=json.dumps(payload).encode())))
    sent: dict[str, Any] = json.loads(send.body)
    return sent


@pytest.mark.parametrize("client", FORMATS)
def test_an_effort_reaches_a_responses_upstream_from_every_client(client: str) -> None:
    sent = _sent(client, "responses", "high")
    if client in ("openai-chat", "openai-responses"):
        assert sent["reasoning"]["effort"] == "high"
    else:  # a budget in the client's terms, mapped back to an effort
        assert sent["reasoning"]["effort"] in ("medium", "high")


@pytest.mark.parametrize("client", FORMATS)
def test_an_effort_turns_thinking_on_for_an_anthropic_upstream(client: str) -> None:
    sent = _sent(client, "claude", "medium")
    assert sent["thinking"]["type"] in ("enabled", "adaptive")
    assert sent["max_tokens"] == 30000


def test_an_anthropic_clients_budget_comes_from_the_table_and_none_disables() -> None:
    assert _sent("anthropic", "claude", "low")["thinking"] == {
        "type": "enabled",
        "budget_tokens": THINKING_BUDGETS["low"],
    }
    assert _sent("anthropic", "claude", "none")["thinking"] == {"type": "disabled"}


def test_a_gemini_client_gets_a_thinking_budget_upstream() -> None:
    sent = _sent("gemini", "gemini", "high")
    assert sent["generationConfig"]["thinkingConfig"] == {"thinkingBudget": THINKING_BUDGETS["high"]}


def test_the_clients_own_choice_wins() -> None:
    assert (
        _sent("openai-chat", "responses", "high", {"reasoning_effort": "low"})["reasoning"]["effort"] == "low"
    )
    own = {"type": "enabled", "budget_tokens": 2000}
    assert _sent("anthropic", "claude", "high", {"thinking": own})["thinking"] == own


def test_no_thinking_is_set_where_the_limit_leaves_no_room_for_the_budget() -> None:
    config = HopConfig(UPSTREAMS, default=Route("*", "claude", reasoning="high"))
    request = inbound("anthropic", stream=False)
    payload = {**json.loads(request.body), "max_tokens": 100}
    send = next(make_hop(config).steps(replace(request, body=json.dumps(payload).encode())))
    assert "thinking" not in json.loads(send.body)


def test_the_config_names_a_wrong_effort_with_its_path() -> None:
    data = {"upstreams": {"c": {"format": "anthropic", "base_url": "https://c"}}, "routes": []}
    data["routes"] = [{"match": MODEL, "reasoning": "hgih"}]
    with pytest.raises(ConfigError) as caught:
        decode_config(data, env={})
    assert caught.value.message.startswith(
        "routes[0].reasoning: unknown effort 'hgih' (did you mean 'high'?)"
    )
    data["routes"] = [{"match": MODEL, "reasoning": "low"}]
    assert decode_config(data, env={}).routes[0].reasoning == "low"
