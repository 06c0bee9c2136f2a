"""An ASGI middleware that records every request a real client sends (method, path, query,
headers without credentials, JSON body) and the status it got back."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["SECRET_HEADERS", "Captured", "Recorder"]

SECRET_HEADERS: frozenset[str] = frozenset(
    {"authorization", "x-api-key", "x-goog-api-key", "api-key", "cookie", "proxy-authorization"}
)
"""Headers whose values never reach the corpus (replaced by ``<redacted>``)."""


@dataclass(slots=True)
class Captured:
    """One request as the client sent it, and the status the server answered."""

    method: str
    path: str
    query: str
    headers: dict[str, str]
    body: Any
    status: int | None = None

    def as_json(self) -> dict[str, Any]:
        """The record as written to the corpus."""
        return {
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "headers": self.headers,
            "status": self.status,
            "body": self.body,
        }


@dataclass(slots=True)
class Recorder:
    """Wraps an ASGI app; ``requests`` holds every HTTP request in arrival order."""

    app: Any
    requests: list[Captured] = field(default_factory=list)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        more = True
        while more:
            message = await receive()
            chunks.append(message.get("body", b""))
            more = message.get("more_body", False)
        raw = b"".join(chunks)
        record = Captured(
            method=scope["method"],
            path=scope["path"],
            query=scope.get("query_string", b"").decode("latin-1"),
            headers=_headers(scope.get("headers", [])),
            body=_body(raw),
        )
        self.requests.append(record)
        sent = False

        async def replay() -> dict[str, Any]:
            nonlocal sent
            if sent:
                return {"type": "http.disconnect"}
            sent = True
            return {"type": "http.request", "body": raw, "more_body": False}

        async def watch(message: Any) -> None:
            if message["type"] == "http.response.start":
                record.status = message["status"]
            await send(message)

        await self.app(scope, replay, watch)


def _headers(raw: list[tuple[bytes, bytes]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name_b, value_b in raw:
        name = name_b.decode("latin-1").lower()
        out[name] = "<redacted>" if name in SECRET_HEADERS else value_b.decode("latin-1")
    return out


def _body(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw)
    except ValueError:
        return {"<non-json bytes>": len(raw)}
