"""Bedrock error bodies <-> IR :class:`~toolwire.ir.ErrorInfo`, and typed exceptions.

Bedrock (AWS restJson1) answers errors with a body ``{"message": "..."}`` and the error type in
the ``x-amzn-ErrorType`` header (``ValidationException:http://internal.amazon.com/...``: the part
before ``:`` is the type); some proxies and the AWS JSON protocols put it in the body as
``__type`` instead. :func:`decode_error` takes the header value as ``error_type`` and reads a
``__type`` (or ``code``) in the body; :func:`encode_error` writes ``{"message"}`` for Bedrock's
own errors as they were, and adds ``__type`` for another format's error (a body alone then
still says what it is; the AWS SDKs read it when the header is absent).

=================================  ======  ==============================================
type                               status  exception
=================================  ======  ==============================================
``ValidationException``            400     :class:`~toolwire.errors.InvalidRequestError`
``AccessDeniedException``          403     :class:`~toolwire.errors.PermissionDeniedError`
``UnrecognizedClientException``    403     :class:`~toolwire.errors.AuthenticationError`
``ResourceNotFoundException``      404     :class:`~toolwire.errors.InvalidRequestError`
``ModelTimeoutException``          408     :class:`~toolwire.errors.ServerError`
``ModelErrorException``            424     :class:`~toolwire.errors.ServerError`
``ThrottlingException``            429     :class:`~toolwire.errors.RateLimitError`
``ModelNotReadyException``         429     :class:`~toolwire.errors.OverloadedError`
``InternalServerException``        500     :class:`~toolwire.errors.ServerError`
``ServiceUnavailableException``    503     :class:`~toolwire.errors.OverloadedError`
=================================  ======  ==============================================
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
)
from toolwire.formats._wire import as_dict, emit_extra, fail
from toolwire.formats.bedrock_converse._keys import ERROR_STATUS, FORMAT, error_type_for_status
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = ["decode_error", "encode_error", "error_to_exception", "error_type_for_status"]

_TYPE_KEYS = ("__type", "code")
_EXCEPTIONS: dict[str, type[ProviderError]] = {
    "ValidationException": InvalidRequestError,
    "ConflictException": InvalidRequestError,
    "ServiceQuotaExceededException": InvalidRequestError,
    "ResourceNotFoundException": InvalidRequestError,
    "AccessDeniedException": PermissionDeniedError,
    "UnrecognizedClientException": AuthenticationError,
    "ThrottlingException": RateLimitError,
    "ModelNotReadyException": OverloadedError,
    "ServiceUnavailableException": OverloadedError,
    "ModelTimeoutException": ServerError,
    "ModelErrorException": ServerError,
    "ModelStreamErrorException": ServerError,
    "InternalServerException": ServerError,
}


def _short_type(raw: str) -> str:
    """The bare type of ``ValidationException:http://...`` or ``com.amazon...#ValidationException``."""
    return raw.split(":", 1)[0].rsplit("#", 1)[-1]


def decode_error(body: Any, status: int | None, notes: Notes, *, error_type: str | None = None) -> ErrorInfo:
    """Decode a Bedrock error body; ``error_type`` is the ``x-amzn-ErrorType`` header, when known.

    A plain-text body (from a proxy) is taken as the message.
    """
    kind = _short_type(error_type) if error_type else None
    if type(body) is str:
        return ErrorInfo(
            message=body, status=status, type=kind or error_type_for_status(status), origin=FORMAT
        )
    p = as_dict(body, "$")
    extra: Extra = {k: v for k, v in p.items() if k not in ("message", "Message")}
    key = "message" if "message" in p or "Message" not in p else "Message"
    message = p.get(key)
    if message is None:
        extra["~no_message"] = True
        message = ""
    elif type(message) is not str:
        fail(f"$.{key}", "expected a string")
    if key != "message":
        extra["~key"] = key
    for name in _TYPE_KEYS:
        value = p.get(name)
        if kind is None and type(value) is str:
            kind = _short_type(value)
    if status is None and kind is not None:
        status = ERROR_STATUS.get(kind)
    return ErrorInfo(message=message, status=status, type=kind, origin=FORMAT, extra=extra)


def encode_error(err: ErrorInfo, notes: Notes) -> tuple[int, dict[str, Any]]:
    """Encode an error as ``(http status, Bedrock error body)``."""
    same = err.origin == FORMAT
    if same:
        kind = err.type or error_type_for_status(err.status)
    else:
        known = err.type if err.type in ERROR_STATUS else "InternalServerException"
        kind = error_type_for_status(err.status) if err.status is not None else known
    status = err.status if err.status is not None else ERROR_STATUS.get(kind, 500)
    body: dict[str, Any] = {}
    if same:
        if not err.extra.get("~no_message"):
            body[err.extra.get("~key", "message")] = err.message
        body.update((k, v) for k, v in err.extra.items() if k[:1] != "~")
    else:
        body = {"message": err.message, "__type": kind}
        for name in ("code", "param"):
            value = getattr(err, name)
            if value is not None:
                notes.info(f"$.{name}", "dropped", f"error {name} {value!r}")
        emit_extra(body, err.extra, False, notes, "$")
    return status, body


def error_to_exception(err: ErrorInfo) -> ProviderError:
    """The typed exception for a Bedrock error (by error type, else by status)."""
    cls = _EXCEPTIONS.get(err.type or "") or _EXCEPTIONS.get(error_type_for_status(err.status), ProviderError)
    if err.type is None and err.status is None:
        cls = ProviderError
    return cls(err.message, status=err.status, type=err.type, code=err.code, param=err.param)
