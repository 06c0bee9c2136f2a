"""Usage and cost of a run: per turn, totals, priced; through real multi-turn runs against the emulator.

The expected numbers come from the wire: each answer's body (or stream events) as the emulator
sent it, read with the provider's own field names below, never through toolwire's decoders.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.runner.test_loop import SCRIPT, first_request, toolbox
from toolwire import Price, Prices
from toolwire.client import PROVIDERS, AsyncClient, Client, Stream
from toolwire.emulator import EmulatorConfig, create_app, serve
from toolwire.ir import FORMATS, Request
from toolwire.runner import RunEnd, RunResult, arun, run, run_stream

Counts = tuple[int, int, int]
"""(input tokens, output tokens with reasoning, reasoning tokens) as one answer reported them."""


def chat_usage(u: dict[str, Any]) -> Counts:
    return u["prompt_tokens"], u["completion_tokens"], u["completion_tokens_details"]["reasoning_tokens"]


def responses_usage(u: dict[str, Any]) -> Counts:
    return u["input_tokens"], u["output_tokens"], u["output_tokens_details"]["reasoning_tokens"]


def anthropic_usage(u: dict[str, Any]) -> Counts:
    cached = u.get("cache_read_input_tokens", 0) + u.get("cache_creation_input_tokens", 0)
    return u["input_tokens"] + cached, u["output_tokens"], u["output_tokens_details"]["thinking_tokens"]


def gemini_usage(u: dict[str, Any]) -> Counts:
    thoughts = u.get("thoughtsTokenCount", 0)
    return u["promptTokenCount"], u["candidatesTokenCount"] + thoughts, thoughts


BODY_USAGE = {
    "openai-chat": lambda body: chat_usage(body["usage"]),
    "openai-responses": lambda body: responses_usage(body["usage"]),
    "anthropic": lambda body: anthropic_usage(body["usage"]),
    "gemini": lambda body: gemini_usage(body["usageMetadata"]),
}
"""How each format's non-streamed answer reports usage."""


def _anthropic_stream(events: list[Any]) -> Counts:
    usage: dict[str, Any] = {}
    for e in events:  # message_start carries the input count, message_delta the final counts
        usage.update(e["message"]["usage"] if e["type"] == "message_start" else e.get("usage") or {})
    return anthropic_usage(usage)


STREAM_USAGE = {
    "openai-chat": lambda events: chat_usage([e for e in events if e.get("usage")][-1]["usage"]),
    "openai-responses": lambda events: responses_usage(
        next(e for e in events if e["type"] == "response.completed")["response"]["usage"]
    ),
    "anthropic": _anthropic_stream,
    "gemini": lambda events: gemini_usage([e for e in events if "usageMetadata" in e][-1]["usageMetadata"]),
}
"""How each format's stream reports usage."""

CLIENT_FORMATS = [f for f in FORMATS if f in PROVIDERS]
"""The formats the client and the emulator speak (Bedrock's come with its SigV4 client)."""

PRICES = Prices({"emulated": Price(input="3", output="15", cached_input="0.3")})
"""Prices per million tokens; ``emulated`` is a prefix of the emulator's ``emulated-model``."""


def expected_cost(turns: list[Counts]) -> Decimal:
    return sum((Decimal(i * 3 + o * 15) for i, o, _ in turns), Decimal(0)) / 1_000_000


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve(create_app(EmulatorConfig(script=SCRIPT)), log_level="critical") as base:
        yield base


def check(result: RunResult, turns: list[Counts]) -> None:
    assert result.turns == 3 and len(turns) == 3
    got = [(u.input_tokens, u.output_tokens, u.reasoning_tokens) for u in result.turns_usage]
    assert got == turns
    total = result.usage
    assert (total.input_tokens, total.output_tokens, total.reasoning_tokens) == tuple(
        map(sum, zip(*turns, strict=True))
    )
    assert result.cost(PRICES) == expected_cost(turns)
    assert result.cost(PRICES) > 0


@pytest.mark.parametrize("fmt", CLIENT_FORMATS)
def test_run_usage_and_cost(fmt: str, url: str) -> None:
    bodies: list[dict[str, Any]] = []

    def keep(response: httpx.Response) -> None:
        response.read()
        bodies.append(json.loads(response.content))

    http = httpx.Client(event_hooks={"response": [keep]})
    with http, Client(fmt, base_url=url, api_key="test-key", http_client=http) as client:
        result = run(client, first_request(), toolbox())
    check(result, [BODY_USAGE[fmt](b) for b in bodies])


@pytest.mark.parametrize("fmt", ["anthropic", "gemini"])
def test_arun_usage_and_cost(fmt: str, url: str) -> None:
    bodies: list[dict[str, Any]] = []

    async def keep(response: httpx.Response) -> None:
        await response.aread()
        bodies.append(json.loads(response.content))

    async def go() -> RunResult:
        async with (
            httpx.AsyncClient(event_hooks={"response": [keep]}) as http,
            AsyncClient(fmt, base_url=url, api_key="test-key", http_client=http) as client,
        ):
            return await arun(client, first_request(), toolbox())

    check(asyncio.run(go()), [BODY_USAGE[fmt](b) for b in bodies])


class KeepStreams:
    """A client whose streams are kept, to read their wire events afterwards."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.core = client.core
        self.streams: list[Stream] = []

    def stream(self, request: Request) -> Stream:
        stream = self.client.stream(request)
        self.streams.append(stream)
        return stream


@pytest.mark.parametrize("fmt", CLIENT_FORMATS)
def test_run_stream_usage_and_cost(fmt: str, url: str) -> None:
    with Client(fmt, base_url=url, api_key="test-key") as client:
        kept = KeepStreams(client)
        end = list(run_stream(kept, first_request(), toolbox()))[-1]
    assert isinstance(end, RunEnd)
    wire = [[e for e in s.raw_events if isinstance(e, dict)] for s in kept.streams]  # not "[DONE]"
    check(end.result, [STREAM_USAGE[fmt](events) for events in wire])


def test_cost_needs_a_price_for_each_model(url: str) -> None:
    with Client("anthropic", base_url=url, api_key="test-key") as client:
        result = run(client, first_request(), toolbox())
    with pytest.raises(KeyError, match="no price for model 'emulated-model'"):
        result.cost(Prices({"claude": Price(input=1, output=1)}))
