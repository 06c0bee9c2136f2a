"""Provider error answers, decoded and re-encoded for another format (no I/O).

:func:`decode_http_error` reads a non-2xx body with the provider format's ``decode_error``; a body
that is not the provider's error shape (an HTML page, a proxy's text) still gives an
:class:`~toolwire.ir.ErrorInfo` with the HTTP status. :func:`translate_error` writes it in the
client format's error shape and status with that format's ``encode_error``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import msgspec

from toolwire.errors import PayloadError
from toolwire.ir.base import Format
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = [
    "CREDENTIALS_REFUSED",
    "STATUS_FOR_CLIENT",
    "decode_http_error",
    "refused_credentials",
    "translate_error",
]

_MAX_MESSAGE = 500

STATUS_FOR_CLIENT: dict[str, dict[int, int]] = {
    # 529 (overloaded) is Anthropic's own: other clients get the standard 503 they retry on.
    "openai-chat": {529: 503},
    "openai-responses": {529: 503},
    "gemini": {529: 503},
    "anthropic": {},
    "bedrock-converse": {529: 503},  # Bedrock's overload is a 503 ServiceUnavailableException
}
"""Upstream status -> the status a client format's own servers use for the same condition."""


CREDENTIALS_REFUSED: dict[int, str] = {401: "authentication_error", 403: "permission_error"}
"""Upstream statuses about the gateway's own upstream key -> the error type the client gets."""


def refused_credentials(client: Format, status: int, upstream: str) -> tuple[int, dict[str, Any]] | None:
    """The client's error when an upstream refused the gateway's credentials (``None`` for other
    statuses). The upstream's message is not passed on: OpenAI's quotes the key's last characters
    (``sk-*****Jm24``), and it is about the gateway's key, never the client's."""
    kind = CREDENTIALS_REFUSED.get(status)
    if kind is None:
        return None
    from toolwire.translate import format_module

    message = f"The upstream {upstream!r} refused the gateway's credentials"
    info = ErrorInfo(message=message, status=status, type=kind)
    out: tuple[int, dict[str, Any]] = format_module(client).encode_error(info, Notes("drop"))
    return out


def _fallback(status: int, text: str) -> ErrorInfo:
    message = text.strip()[:_MAX_MESSAGE] or f"HTTP {status}"
    return ErrorInfo(message=message, status=status)


def decode_http_error(fmt: Format, status: int, text: str) -> tuple[ErrorInfo, Any]:
    """The error of a non-2xx answer of a provider speaking ``fmt``, and its decoded JSON body.

    The status is always ``status`` (the body's own code, when it differs, does not win).
    """
    from toolwire.translate import format_module

    decoded: Any = None
    try:
        decoded = json.loads(text) if text.strip() else None
        info: ErrorInfo = format_module(fmt).decode_error(decoded, status, Notes("drop"))
    except (ValueError, PayloadError, RecursionError):
        info = _fallback(status, text)
    if info.status != status:
        info = msgspec.structs.replace(info, status=status)
    return info, decoded


def translate_error(
    upstream: Format,
    client: Format,
    status: int,
    body: bytes | str,
    *,
    restore: Callable[[str], str] | None = None,
    notes: Notes | None = None,
) -> tuple[int, dict[str, Any]]:
    """The client's status and error body for an upstream's error answer.

    Args:
        upstream: the format of the provider that answered.
        client: the format of the client.
        status: the upstream's HTTP status.
        body: the upstream's body.
        restore: maps names in the message and ``param`` back to the client's (tool names).
        notes: where encoding notes go.
    """
    from toolwire.translate import format_module

    text = body.decode("utf-8", "replace") if isinstance(body, bytes) else body
    info, _ = decode_http_error(upstream, status, text)
    client_status = STATUS_FOR_CLIENT[client].get(status)
    if client_status is not None:
        info = msgspec.structs.replace(info, status=client_status)
    if restore is not None:
        param = restore(info.param) if info.param is not None else None
        info = msgspec.structs.replace(info, message=restore(info.message), param=param)
    out: tuple[int, dict[str, Any]] = format_module(client).encode_error(
        info, notes if notes is not None else Notes("drop")
    )
    return out
