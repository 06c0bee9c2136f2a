"""Reading an ASGI request body with a size limit (the gateway's API and its ``/ui`` forms)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

__all__ = ["BodyTooLarge", "ClientGone", "read_body"]

Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]


class BodyTooLarge(Exception):
    """The body is longer than the limit (the rest is not read)."""


class ClientGone(Exception):
    """The client disconnected before the body ended."""


async def read_body(receive: Receive, limit: int) -> bytes:
    """The whole request body, at most ``limit`` bytes.

    Raises:
        BodyTooLarge: the body is longer than ``limit``.
        ClientGone: ``http.disconnect`` came first.
    """
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
