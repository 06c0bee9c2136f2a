"""``Transport.client()`` / ``async_client()``: an HTTP client the official SDKs take as it is."""

from __future__ import annotations

import asyncio

import anthropic
import httpx2
import openai

from toolwire.gateway import HopConfig, Transport


def test_the_sdks_take_the_transports_clients_and_answer_through_the_hop(emulator_url: str) -> None:
    transport = Transport(HopConfig.single("gemini", emulator_url))
    sync = transport.client(timeout=30)
    assert isinstance(sync, httpx2.Client)  # what both SDKs are typed for
    chat = openai.OpenAI(api_key="unused", base_url="http://toolwire.invalid/v1", http_client=sync)
    answer = chat.chat.completions.create(model="gpt-5", messages=[{"role": "user", "content": "ping"}])
    assert answer.choices[0].message.content == "You said: ping"
    claude = anthropic.Anthropic(api_key="unused", base_url="http://toolwire.invalid", http_client=sync)
    message = claude.messages.create(
        model="claude-x", max_tokens=64, messages=[{"role": "user", "content": "pong"}]
    )
    assert message.content[0].type == "text" and message.content[0].text == "You said: pong"
    transport.close()


def test_the_async_client_is_the_same_packages_async_client(emulator_url: str) -> None:
    transport = Transport(HopConfig.single("anthropic", emulator_url))

    async def ask() -> str:
        client = transport.async_client(timeout=30)
        assert isinstance(client, httpx2.AsyncClient)
        sdk = openai.AsyncOpenAI(api_key="unused", base_url="http://toolwire.invalid/v1", http_client=client)
        answer = await sdk.chat.completions.create(
            model="gpt-5", messages=[{"role": "user", "content": "hi"}]
        )
        await transport.aclose()
        return answer.choices[0].message.content or ""

    assert asyncio.run(ask()) == "You said: hi"
