"""Concurrency: 200 conversations at once through the gateway (the async Transport, in front of
the emulator's ASGI app in-process: no sockets, so the load falls on the gateway and the store,
not on loopback connection churn) on each backend; every conversation gets its own answers, its
own chain and its own history, none lost.

Each conversation sends three turns, the second streamed, each continuing the previous by
``previous_response_id`` and carrying words no other conversation uses; the emulator echoes the
user's last text, so a crossed history shows in the answers, and ``input_items`` of the last
turn must list exactly the conversation's own three messages.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from tests.store.conftest import Backend
from tests.store.gateways import user_texts
from toolwire.emulator import create_app
from toolwire.gateway import HopConfig, Transport

CONVERSATIONS = 200
TURNS = 3


async def _streamed(http: httpx.AsyncClient, url: str, body: dict[str, Any]) -> dict[str, Any]:
    event = ""
    async with http.stream("POST", url, json=body) as reply:
        assert reply.status_code == 200, await reply.aread()
        async for line in reply.aiter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:") and event == "response.completed":
                response: dict[str, Any] = json.loads(line[5:])["response"]
                return response
    raise AssertionError("no response.completed")


async def _conversation(http: httpx.AsyncClient, base: str, n: int) -> tuple[list[str], list[str]]:
    """One conversation; (its answers' texts, its last turn's listed user texts)."""
    previous: str | None = None
    answers: list[str] = []
    for turn in range(TURNS):
        body: dict[str, Any] = {"model": "claude-sonnet-4-5", "input": f"conversation {n} turn {turn}"}
        if previous is not None:
            body["previous_response_id"] = previous
        if turn == 1:
            response = await _streamed(http, f"{base}/v1/responses", {**body, "stream": True})
        else:
            reply = await http.post(f"{base}/v1/responses", json=body)
            assert reply.status_code == 200, reply.text
            response = reply.json()
        assert response["previous_response_id"] == previous
        previous = response["id"]
        answers.append("".join(p["text"] for item in response["output"] for p in item.get("content", [])))
    listed = await http.get(f"{base}/v1/responses/{previous}/input_items?order=asc&limit=100")
    assert listed.status_code == 200, listed.text
    return answers, user_texts(listed.json()["data"])


async def _all(store: str) -> list[tuple[list[str], list[str]]]:
    upstream = httpx.ASGITransport(app=create_app())  # the emulator
    transport = Transport(HopConfig.single("anthropic", "http://emulator", store=store), inner=upstream)
    try:
        async with httpx.AsyncClient(transport=transport, timeout=120) as http:
            return await asyncio.gather(
                *(_conversation(http, "http://gateway", n) for n in range(CONVERSATIONS))
            )
    finally:
        await transport.aclose()


def test_200_conversations_at_once_stay_apart(backend: Backend) -> None:
    results = asyncio.run(_all(backend.url))
    for n, (answers, listed) in enumerate(results):
        own = [f"conversation {n} turn {turn}" for turn in range(TURNS)]
        assert listed == own, (n, listed)
        assert all(text in answer for text, answer in zip(own, answers, strict=True)), (n, answers)
