"""Anthropic error bodies <-> IR :class:`~toolwire.ir.ErrorInfo`, and typed exceptions.

Wire shape: ``{"type": "error", "error": {"type": ..., "message": ...}, "request_id"?: ...}``.

=========================  ======  ==========================================
``error.type``             status  exception
=========================  ======  ==========================================
``invalid_request_error``  400     :class:`~toolwire.errors.InvalidRequestError`
``authentication_error``   401     :class:`~toolwire.errors.AuthenticationError`
``billing_error``          402     :class:`~toolwire.errors.ProviderError`
``permission_error``       403     :class:`~toolwire.errors.PermissionDeniedError`
``not_found_error``        404     :class:`~toolwire.errors.InvalidRequestError`
``request_too_large``      413     :class:`~toolwire.errors.InvalidRequestError`
``rate_limit_error``       429     :class:`~toolwire.errors.RateLimitError`
``api_error``              500     :class:`~toolwire.errors.ServerError`
``timeout_error``          504     :class:`~toolwire.errors.ServerError`
``overloaded_error``       529     :class:`~toolwire.errors.OverloadedError`
=========================  ======  ==========================================
"""

from __future__ import annotations

from typing import Any

from toolwire.errors import (
    AuthenticationError,
    InvalidRequestError,
    OverloadedError,
    PermissionDeniedError,
    ProviderError,
    RateLimitError,
    ServerError,
    exception_for_status,
)
from toolwire.formats._wire import as_dict, emit_extra, fail, opt_str, req_dict
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = ["ERROR_STATUS", "decode_error", "encode_error", "error_to_exception", "error_type_for_status"]

ERROR_STATUS: dict[str, int] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "billing_error": 402,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "timeout_error": 504,
    "overloaded_error": 529,
}
"""Anthropic ``error.type`` -> HTTP status."""

_STATUS_TYPE: dict[int, str] = {status: kind for kind, status in ERROR_STATUS.items()}
_STATUS_TYPE.update({422: "invalid_request_error", 503: "overloaded_error"})

_EXCEPTIONS: dict[str, type[ProviderError]] = {
    "invalid_request_error": InvalidRequestError,
    "not_found_error": InvalidRequestError,
    "request_too_large": InvalidRequestError,
    "authentication_error": AuthenticationError,
    "permission_error": PermissionDeniedError,
    "rate_limit_error": RateLimitError,
    "api_error": ServerError,
    "timeout_error": ServerError,
    "overloaded_error": OverloadedError,
    "billing_error": ProviderError,
}
_BODY_KNOWN = frozenset({"type", "error"})
_DETAIL_KNOWN = frozenset({"type", "message"})


def error_type_for_status(status: int | None) -> str:
    """The Anthropic error type that goes with an HTTP status."""
    if status is None:
        return "api_error"
    kind = _STATUS_TYPE.get(status)
    if kind is not None:
        return kind
    return "invalid_request_error" if 400 <= status < 500 else "api_error"


def decode_error(body: Any, status: int | None, notes: Notes) -> ErrorInfo:
    """Decode an Anthropic error body (a plain-text body from a proxy is taken as the message)."""
    if type(body) is str:
        return ErrorInfo(message=body, status=status, type=error_type_for_status(status), origin="anthropic")
    p = as_dict(body, "$")
    detail = req_dict(p, "error", "$")
    extra: Extra = {k: v for k, v in p.items() if k not in _BODY_KNOWN}
    if "type" not in p:
        extra["~absent"] = ["type"]
    inner = {k: v for k, v in detail.items() if k not in _DETAIL_KNOWN}
    if inner:
        extra["~error"] = inner
    kind = opt_str(detail, "type", "$.error")
    message = opt_str(detail, "message", "$.error")
    if message is None:
        if "message" in detail:
            fail("$.error.message", "expected a string, got null")
        extra.setdefault("~error", {})["~no_message"] = True
        message = ""
    if status is None and kind is not None:
        status = ERROR_STATUS.get(kind)
    return ErrorInfo(message=message, status=status, type=kind, origin="anthropic", extra=extra)


def _type(err: ErrorInfo, same: bool) -> str:
    if same and err.type is not None:
        return err.type
    if err.status is not None:
        return error_type_for_status(err.status)
    if err.type in ERROR_STATUS:
        return err.type
    return "api_error"


def encode_error(err: ErrorInfo, notes: Notes) -> tuple[int, dict[str, Any]]:
    """Encode an error as ``(http status, Anthropic error body)``."""
    same = err.origin == "anthropic"
    kind = _type(err, same)
    status = err.status if err.status is not None else ERROR_STATUS.get(kind, 500)
    detail: dict[str, Any] = {"type": kind, "message": err.message}
    body: dict[str, Any] = {"type": "error", "error": detail}
    extra = err.extra
    if same:
        inner = extra.get("~error")
        if inner:
            if inner.get("~no_message"):
                del detail["message"]
            detail.update((k, v) for k, v in inner.items() if k[:1] != "~")
        for key in extra.get("~absent", ()):
            body.pop(key, None)
        body.update((k, v) for k, v in extra.items() if k[:1] != "~")
    else:
        for name in ("code", "param"):
            value = getattr(err, name)
            if value is not None:
                notes.info(f"$.{name}", "dropped", f"error {name} {value!r}")
        if extra:
            emit_extra(body, extra, False, notes, "$")
    return status, body


def error_to_exception(err: ErrorInfo) -> ProviderError:
    """The typed exception for an Anthropic error (by error type, else by status)."""
    cls = _EXCEPTIONS.get(err.type or "")
    if cls is None:
        cls = exception_for_status(err.status)
    return cls(
        err.message,
        status=err.status,
        type=err.type,
        code=err.code,
        param=err.param,
        request_id=err.extra.get("request_id") if type(err.extra.get("request_id")) is str else None,
    )
