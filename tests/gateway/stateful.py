"""The rig of the stateful-Responses tests: a gateway (ASGI app over loopback, or the Transport
in-process) whose upstream calls are recorded, in front of an emulator with the providers'
replay rules (``rules="provider"``: a history a real API would refuse is refused).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import openai

from tests.gateway.shells import ENV, GATEWAY_KEY
from toolwire.gateway import HopConfig, Transport, create_app

WEATHER = {
    "type": "function",
    "name": "get_weather",
    "description": "The weather in a city.",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
        "additionalProperties": False,
    },
}
"""A Responses function tool."""


@dataclass
class Sent:
    """One upstream request the gateway made: path and JSON body."""

    path: str
    body: Any


@dataclass
class Recorder(httpx.BaseTransport, httpx.AsyncBaseTransport):
    """httpx's own transports (sync and async), keeping every request's path and body."""

    sent: list[Sent] = field(default_factory=list)
    _sync: httpx.HTTPTransport = field(default_factory=httpx.HTTPTransport)
    _async: httpx.AsyncHTTPTransport = field(default_factory=httpx.AsyncHTTPTransport)

    def _keep(self, request: httpx.Request, content: bytes) -> None:
        self.sent.append(Sent(request.url.path, json.loads(content) if content else None))

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self._keep(request, request.read())
        return self._sync.handle_request(request)

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self._keep(request, await request.aread())
        return await self._async.handle_async_request(request)

    def close(self) -> None:
        self._sync.close()

    async def aclose(self) -> None:
        await self._async.aclose()


@contextmanager
def open_gateway(shell: str, config: HopConfig, store: str, recorder: Recorder) -> Iterator[openai.OpenAI]:
    """An ``openai`` client on a gateway over ``config`` keeping its state in ``store``
    (``shell``: ``asgi`` or ``transport``)."""
    config = dataclasses.replace(config, store=store)
    if shell == "asgi":
        from toolwire.emulator import serve

        app = create_app(config, env=ENV, transport=recorder)
        with serve(app=app, log_level="critical") as url, httpx.Client(timeout=30) as http:
            yield openai.OpenAI(base_url=f"{url}/v1", api_key=GATEWAY_KEY, max_retries=0, http_client=http)
        return
    transport = Transport(config, env=ENV, inner=recorder)
    try:
        with httpx.Client(transport=transport, timeout=30) as http:
            yield openai.OpenAI(
                base_url="http://gateway.invalid/v1", api_key=GATEWAY_KEY, max_retries=0, http_client=http
            )
    finally:
        transport.close()
