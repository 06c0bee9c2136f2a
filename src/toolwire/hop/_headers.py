"""Response headers a hop maps back to the client: request id, rate limits, ``retry-after``.

Each family names the same facts differently; a fact the upstream reports reaches the client
under its own family's name. OpenAI reports a reset as a duration (``6m0s``, ``20ms``),
Anthropic as an RFC 3339 time; a reset is converted with the hop's clock.

============================  =================================  ======================================
fact                          OpenAI (Chat, Responses)           Anthropic
============================  =================================  ======================================
request id                    ``x-request-id``                   ``request-id``
requests limit / remaining    ``x-ratelimit-limit-requests``,    ``anthropic-ratelimit-requests-limit``,
                              ``x-ratelimit-remaining-requests`` ``anthropic-ratelimit-requests-remaining``
requests reset                ``x-ratelimit-reset-requests``     ``anthropic-ratelimit-requests-reset``
tokens limit / remaining      ``x-ratelimit-limit-tokens``,      ``anthropic-ratelimit-tokens-limit``,
                              ``x-ratelimit-remaining-tokens``   ``anthropic-ratelimit-tokens-remaining``
tokens reset                  ``x-ratelimit-reset-tokens``       ``anthropic-ratelimit-tokens-reset``
retry after                   ``retry-after``                    ``retry-after``
============================  =================================  ======================================

Gemini reports none of these but ``retry-after`` on some 429s; a Gemini client gets the request id
as ``x-request-id``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime

from toolwire.ir.base import Format

__all__ = ["RATE_HEADERS", "map_response_headers"]

_OPENAI = {
    "request_id": "x-request-id",
    "requests_limit": "x-ratelimit-limit-requests",
    "requests_remaining": "x-ratelimit-remaining-requests",
    "requests_reset": "x-ratelimit-reset-requests",
    "tokens_limit": "x-ratelimit-limit-tokens",
    "tokens_remaining": "x-ratelimit-remaining-tokens",
    "tokens_reset": "x-ratelimit-reset-tokens",
    "retry_after": "retry-after",
}
_ANTHROPIC = {
    "request_id": "request-id",
    "requests_limit": "anthropic-ratelimit-requests-limit",
    "requests_remaining": "anthropic-ratelimit-requests-remaining",
    "requests_reset": "anthropic-ratelimit-requests-reset",
    "tokens_limit": "anthropic-ratelimit-tokens-limit",
    "tokens_remaining": "anthropic-ratelimit-tokens-remaining",
    "tokens_reset": "anthropic-ratelimit-tokens-reset",
    "retry_after": "retry-after",
}
RATE_HEADERS: dict[str, dict[str, str]] = {
    "openai-chat": _OPENAI,
    "openai-responses": _OPENAI,
    "anthropic": _ANTHROPIC,
    "gemini": {"request_id": "x-request-id", "retry_after": "retry-after"},
    "bedrock-converse": {"request_id": "x-amzn-requestid", "retry_after": "retry-after"},
}
"""Per format: fact -> header name (the table in the module docstring)."""

_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m(?!s))?(?:(\d+(?:\.\d+)?)s)?(?:(\d+)ms)?")


def _seconds(text: str) -> float | None:
    """``6m0s``, ``1.5s``, ``20ms`` -> seconds (``None`` when it is not such a duration)."""
    found = _DURATION.fullmatch(text.strip())
    if found is None or not any(found.groups()):
        return None
    hours, minutes, seconds, millis = (float(g) if g else 0.0 for g in found.groups())
    return hours * 3600 + minutes * 60 + seconds + millis / 1000


def _timestamp(text: str) -> float | None:
    try:
        return datetime.fromisoformat(text.strip().replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _duration_text(seconds: float) -> str:
    seconds = max(seconds, 0.0)
    if seconds < 1:
        return f"{round(seconds * 1000)}ms"
    minutes, rest = divmod(seconds, 60)
    return f"{int(minutes)}m{rest:g}s" if minutes else f"{rest:g}s"


def _time_text(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _reset(value: str, source: Format, target: Format, now: float) -> str | None:
    """A reset value in the target family's form."""
    if RATE_HEADERS[source] is RATE_HEADERS[target]:
        return value
    if source == "anthropic":  # RFC 3339 -> duration
        at = _timestamp(value)
        return None if at is None else _duration_text(at - now)
    seconds = _seconds(value)  # duration -> RFC 3339
    return None if seconds is None else _time_text(now + seconds)


def map_response_headers(
    upstream: Format,
    client: Format,
    headers: Mapping[str, str],
    *,
    clock: Callable[[], float],
    request_id: str | None = None,
) -> dict[str, str]:
    """The client's headers for the facts the upstream's response headers report.

    Args:
        upstream: the upstream's format.
        client: the client's format.
        headers: the upstream's response headers (any case).
        clock: the current time (unix seconds), for resets.
        request_id: the gateway's id, used when the upstream reports none.
    """
    lowered = {name.lower(): value for name, value in headers.items()}
    source, target = RATE_HEADERS[upstream], RATE_HEADERS[client]
    out: dict[str, str] = {}
    for fact, name in target.items():
        value = lowered.get(source.get(fact, ""))
        if value is None:
            continue
        if fact.endswith("_reset"):
            value = _reset(value, upstream, client, clock())
            if value is None:
                continue
        out[name] = value
    if request_id is not None and target["request_id"] not in out:
        out[target["request_id"]] = request_id
    return out
