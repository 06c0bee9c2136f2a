"""What every emulator route answers with: JSON bodies and the stream headers."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response as HTTPResponse

from toolwire._json import dumps

__all__ = ["JSON_MEDIA", "SSE_HEADERS", "json_response"]

JSON_MEDIA = "application/json"
SSE_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no"}
"""Headers of an event stream: no caching, no proxy buffering."""


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> HTTPResponse:
    """``body`` as JSON with ``status``."""
    return HTTPResponse(dumps(body), status_code=status, media_type=JSON_MEDIA, headers=headers)
