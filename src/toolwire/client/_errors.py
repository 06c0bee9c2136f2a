"""Provider error answers and transport failures -> typed toolwire errors, in one place.

Every non-2xx answer goes through :func:`map_http_error`: the body is decoded by the provider
format's ``decode_error`` and typed by its ``error_to_exception`` (the format packages own the
type/status tables); a body that is not the provider's error shape still gives a typed error
chosen by HTTP status. Request ids and ``Retry-After`` hints are read from the headers.
Secrets are removed from the body before anything is decoded, so no message can carry them.
"""

from __future__ import annotations

import email.utils
import math
import re
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import msgspec

from toolwire.errors import (
    ConnectionFailedError,
    ProviderError,
    RequestTimeoutError,
    StreamError,
    StreamIdleTimeoutError,
    ToolwireError,
    TransportError,
    exception_for_status,
)
from toolwire.hop._errors import decode_http_error
from toolwire.ir.base import Format
from toolwire.ir.response import ErrorInfo
from toolwire.translate import format_module

__all__ = [
    "REQUEST_ID_HEADERS",
    "ConnectionFailedError",
    "RequestTimeoutError",
    "StreamIdleTimeoutError",
    "TransportError",
    "map_http_error",
    "map_stream_error",
    "parse_retry_after",
    "redact",
    "redact_tree",
    "request_id",
]

REQUEST_ID_HEADERS = ("x-request-id", "request-id", "x-goog-request-id", "apim-request-id")
"""Headers that carry the provider's request id, first present wins."""

REDACTED = "[REDACTED]"
MIN_SECRET = 8
"""Shorter values are not redacted (they would garble ordinary words; real keys are long)."""


_U_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})")


def _unescape(match: re.Match[str]) -> str:
    char = chr(int(match.group(1), 16))
    return char if " " <= char <= "~" and char not in '"\\' else match.group(0)


def redact(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every secret (of at least :data:`MIN_SECRET` characters) replaced by ``[REDACTED]``.

    A secret written with JSON ``\\uXXXX`` escapes (``\\u0073k-...``) is found too: when the text
    holds a secret only in that form, printable ASCII escapes (quote and backslash excepted, so
    JSON stays JSON) are decoded before redacting.
    """
    secrets = [s for s in secrets if len(s) >= MIN_SECRET]
    if secrets and "\\u" in text:
        unescaped = _U_ESCAPE.sub(_unescape, text)
        if any(secret in unescaped for secret in secrets):
            text = unescaped
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    return text


def redact_tree(value: Any, secrets: Iterable[str]) -> Any:
    """A decoded JSON value with :func:`redact` applied to every string (keys included)."""
    secrets = tuple(secrets)
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, list):
        return [redact_tree(item, secrets) for item in value]
    if isinstance(value, dict):
        return {redact(k, secrets): redact_tree(v, secrets) for k, v in value.items()}
    return value


def request_id(headers: Mapping[str, str]) -> str | None:
    """The provider's request id from the response headers, when present."""
    for name in REQUEST_ID_HEADERS:
        value = headers.get(name)
        if value:
            return value
    return None


def _seconds(value: str | None) -> float | None:
    """A finite, non-negative number of seconds from a header value; ``None`` for anything else."""
    try:
        number = float(value) if value is not None else math.nan
    except ValueError:
        return None
    return max(number, 0.0) if math.isfinite(number) else None


def parse_retry_after(headers: Mapping[str, str], now: Callable[[], float] = time.time) -> float | None:
    """The server's retry hint in seconds: ``retry-after-ms``, else ``Retry-After`` (seconds or date).

    Invalid values (``nan``, ``inf``, garbage) are ignored: the client's own backoff applies.
    """
    millis = _seconds(headers.get("retry-after-ms"))
    if millis is not None:
        return millis / 1000.0
    value = headers.get("retry-after")
    if value is None:
        return None
    seconds = _seconds(value)
    if seconds is not None:
        return seconds
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(when.timestamp() - now(), 0.0)


def _exception(fmt: Format, info: ErrorInfo) -> ProviderError:
    exc: ProviderError = format_module(fmt).error_to_exception(info)
    if type(exc) is ProviderError and info.status is not None:
        cls = exception_for_status(info.status)
        exc = cls(info.message, status=info.status, type=info.type, code=info.code, param=info.param)
    return exc


def map_http_error(
    fmt: Format, status: int, headers: Mapping[str, str], body: bytes, secrets: Iterable[str] = ()
) -> ProviderError:
    """The typed error for a non-2xx answer of a provider speaking ``fmt``.

    The exception carries ``status``, ``type``, ``code``, ``param``, ``request_id``, ``body`` (the
    decoded JSON, secrets removed) and ``retry_after`` (seconds, or ``None``).
    """
    secrets = tuple(secrets)
    text = redact(body.decode("utf-8", "replace"), secrets)
    info, decoded = decode_http_error(fmt, status, text)
    exc = _exception(fmt, _redact_info(info, secrets))
    exc.request_id = request_id(headers)
    exc.body = redact_tree(decoded, secrets)
    exc.retry_after = parse_retry_after(headers)  # type: ignore[attr-defined]
    return exc


def _redact_info(info: ErrorInfo, secrets: tuple[str, ...]) -> ErrorInfo:
    if not secrets:
        return info
    fields = (info.message, info.type, info.code, info.param)
    shown = [None if f is None else redact(f, secrets) for f in fields]
    if shown == list(fields):
        return info
    message, type_, code, param = shown
    return msgspec.structs.replace(info, message=message or "", type=type_, code=code, param=param)


def map_stream_error(
    fmt: Format, info: ErrorInfo, headers: Mapping[str, str], secrets: Iterable[str] = ()
) -> ToolwireError:
    """The typed error for an error event inside a stream (or a broken stream); secrets removed."""
    info = _redact_info(info, tuple(secrets))
    if info.status is None and info.code == "incomplete_stream":
        return ConnectionFailedError(f"stream ended early: {info.message}")
    if info.status is None and info.code == "malformed_event":
        return StreamError(info.message)
    exc = _exception(fmt, info) if info.status is not None or info.type else None
    if exc is None:
        exc = ProviderError(info.message, type=info.type, code=info.code, param=info.param)
    exc.request_id = request_id(headers)
    exc.retry_after = None  # type: ignore[attr-defined]
    return exc
