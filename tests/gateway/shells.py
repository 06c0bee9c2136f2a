"""The gateway's two shells behind one interface, for tests that must hold for both.

- ``asgi``: :class:`~toolwire.gateway.GatewayApp` served on loopback (``toolwire.emulator.serve``
  serves any ASGI app; no lifespan there, so the app opens its upstream client lazily);
- ``transport``: :class:`~toolwire.gateway.Transport` under a sync ``httpx.Client``;
- ``transport-async``: the same under an ``httpx.AsyncClient``.

Every upstream is the emulator over loopback, one per wire format, picked by the client's model
name (:data:`ROUTE_MODELS`): a test names a pair by the model it asks for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import httpx

from toolwire.emulator import FAULT_HEADER
from toolwire.gateway import GatewayKey, HopConfig, Route, Transport, Upstream

FORMATS = ("openai-chat", "openai-responses", "anthropic", "gemini")
SHELLS = ("asgi", "transport", "transport-async")
GATEWAY_KEY = "gw-test-key-0001"
LIMITED_KEY = "gw-test-key-claude-only"
UPSTREAM_KEY = "sk-upstream-secret-9876"
ENV = {"UPSTREAM_KEY": UPSTREAM_KEY}

ROUTE_MODELS = {
    "openai-chat": "to-chat",
    "openai-responses": "to-responses",
    "anthropic": "to-anthropic",
    "gemini": "to-gemini",
}
"""The client's model name that routes to the upstream of each format."""
UPSTREAM_MODELS = {
    "openai-chat": "gpt-5",
    "openai-responses": "gpt-5",
    "anthropic": "claude-sonnet-4-5",
    "gemini": "gemini-2.5-flash",
}
"""What each route rewrites the model to."""
FAULTY_MODEL = "to-faulty"
"""Routes to an Anthropic upstream whose every answer is a 429 (the emulator's fault header)."""


def gateway_config(emulator_url: str) -> HopConfig:
    """Four upstreams (one per format, all the emulator), a route per format, two gateway keys."""
    upstreams = {
        fmt: Upstream(fmt, fmt, emulator_url + ("/v1" if fmt.startswith("openai") else ""), "UPSTREAM_KEY")  # type: ignore[arg-type]
        for fmt in FORMATS
    }
    upstreams["faulty"] = Upstream(
        "faulty", "anthropic", emulator_url, "UPSTREAM_KEY", {FAULT_HEADER: "429=4"}
    )
    routes = tuple(Route(ROUTE_MODELS[f], f, UPSTREAM_MODELS[f]) for f in FORMATS)
    routes += (Route(FAULTY_MODEL, "faulty", "claude-sonnet-4-5"), Route("claude-*", "anthropic"))
    return HopConfig(
        upstreams,
        routes,
        keys=(GatewayKey(GATEWAY_KEY), GatewayKey(LIMITED_KEY, ("claude-*",))),
    )


@dataclass(frozen=True)
class Answer:
    """What a client got: status, headers (lower-case names), whole body."""

    status: int
    headers: dict[str, str]
    body: bytes


class Shell:
    """One way to reach the gateway: :meth:`call` sends a request and reads the whole answer;
    :meth:`http_client` / :meth:`async_http_client` are what an SDK is given."""

    name: str
    base_url: str

    def http_client(self, package: ModuleType = httpx) -> httpx.Client:
        """A client of ``package`` (``httpx``, or ``httpx2`` for the ``anthropic`` SDK)."""
        raise NotImplementedError

    def async_http_client(self) -> httpx.AsyncClient:
        raise NotImplementedError

    def call(
        self,
        method: str,
        path: str,
        *,
        query: str = "",
        headers: dict[str, str] | None = None,
        body: bytes = b"",
    ) -> Answer:
        url = self.base_url + path + (f"?{query}" if query else "")
        if self.name == "transport-async":
            return asyncio.run(self._acall(method, url, headers or {}, body))
        with self.http_client() as http:
            reply = http.request(method, url, headers=headers, content=body)
            return Answer(reply.status_code, dict(reply.headers), reply.content)

    async def _acall(self, method: str, url: str, headers: dict[str, str], body: bytes) -> Answer:
        async with self.async_http_client() as http:
            reply = await http.request(method, url, headers=headers, content=body)
            return Answer(reply.status_code, dict(reply.headers), reply.content)


class AsgiShell(Shell):
    """The ASGI app over loopback."""

    def __init__(self, url: str) -> None:
        self.name, self.base_url = "asgi", url

    def http_client(self, package: ModuleType = httpx) -> httpx.Client:
        client: httpx.Client = package.Client(timeout=30)
        return client

    def async_http_client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(timeout=30)


class TransportShell(Shell):
    """The httpx transport, in-process (a fresh one per client: an async client's connections
    belong to one event loop)."""

    def __init__(self, config: HopConfig, name: str) -> None:
        self.name, self.base_url, self._config = name, "http://gateway.invalid", config

    def http_client(self, package: ModuleType = httpx) -> httpx.Client:
        client: httpx.Client = package.Client(transport=Transport(self._config, env=ENV), timeout=30)
        return client

    def async_http_client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=Transport(self._config, env=ENV), timeout=30)


@contextmanager
def open_shell(name: str, config: HopConfig) -> Iterator[Shell]:
    """The shell ``name`` over ``config`` (the ASGI one is served for the block's duration)."""
    if name == "asgi":
        from toolwire.emulator import serve
        from toolwire.gateway import create_app

        with serve(app=create_app(config, env=ENV), log_level="critical") as url:
            yield AsgiShell(url)
    else:
        yield TransportShell(config, name)


def client_headers(client: str, key: str = GATEWAY_KEY) -> dict[str, str]:
    """The gateway key as each client family's SDK presents it."""
    if client == "anthropic":
        return {"x-api-key": key, "anthropic-version": "2023-06-01"}
    if client == "gemini":
        return {"x-goog-api-key": key}
    return {"authorization": f"Bearer {key}"}


def json_of(answer: Answer) -> Any:
    import json

    return json.loads(answer.body)
