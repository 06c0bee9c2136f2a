"""Responses error bodies <-> IR :class:`~toolwire.ir.ErrorInfo`, and typed exceptions.

HTTP errors have the OpenAI shape ``{"error": {"message", "type", "param", "code"}}``
(``param`` and ``code`` may be ``null``). A failed *response* reports its error in the
response object instead (``{"code", "message"}``, see :mod:`.response`).
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
from toolwire.formats._wire import as_dict, child, fail, json_type, opt_str
from toolwire.formats.openai_responses._extra import FORMAT, emit_fields, split_fields
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = ["STATUS_BY_TYPE", "decode_error", "encode_error", "error_to_exception"]

STATUS_BY_TYPE: dict[str, int] = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "rate_limit_error": 429,
    "insufficient_quota": 429,
    "server_error": 500,
    "api_error": 500,
    "service_unavailable": 503,
    "overloaded_error": 529,
}
"""HTTP status of an error ``type`` when the response status is unknown."""

_STATUS_BY_CODE = {"invalid_api_key": 401, "model_not_found": 404, "insufficient_quota": 429}
_TYPE_BY_STATUS = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "invalid_request_error",
    409: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
}
_KNOWN = frozenset({"message", "type", "param", "code"})
_EXCEPTIONS: dict[int, type[ProviderError]] = {
    400: InvalidRequestError,
    404: InvalidRequestError,
    409: InvalidRequestError,
    422: InvalidRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    429: RateLimitError,
    529: OverloadedError,
}


def _status(status: int | None, type_: str | None, code: str | None) -> int | None:
    if status is not None:
        return status
    return STATUS_BY_TYPE.get(type_ or "") or _STATUS_BY_CODE.get(code or "")


def decode_error(body: Any, status: int | None, notes: Notes) -> ErrorInfo:
    """Decode an error body; the status comes from the HTTP response, else from type or code."""
    b = as_dict(body, "$")
    err = b.get("error")
    if type(err) is not dict:
        fail(
            "$.error",
            "missing required field 'error'" if err is None else f"expected an object, got {json_type(err)}",
        )
    path = "$.error"
    code = err.get("code")
    if code is not None and type(code) not in (str, int):
        fail(child(path, "code"), f"expected a string, got {json_type(code)}")
    extra = split_fields(err, _KNOWN)
    if type(code) is int:
        extra["~code"] = "int"
    if "message" not in err:
        extra["~message"] = "absent"
    if len(b) > 1:
        extra["~outer"] = split_fields(b, frozenset({"error"}))
    type_ = opt_str(err, "type", path)
    code_str = None if code is None else str(code)
    return ErrorInfo(
        message=opt_str(err, "message", path) or "",
        status=_status(status, type_, code_str),
        type=type_,
        code=code_str,
        param=opt_str(err, "param", path),
        origin=FORMAT,
        extra=extra,
    )


def _cross_type(err: ErrorInfo, status: int, notes: Notes) -> tuple[str, str | None]:
    """OpenAI error type for an error of another format; its own type moves to ``code`` if free."""
    wanted = _TYPE_BY_STATUS.get(status) or ("server_error" if status >= 500 else "invalid_request_error")
    if err.type is None or err.type == wanted:
        return wanted, err.code
    if err.code is None:
        notes.info("$.error.type", "renamed", f"error type {err.type!r} sent as {wanted!r} with it as code")
        return wanted, err.type
    notes.add("$.error.type", "approximated", f"error type {err.type!r} sent as {wanted!r}")
    return wanted, err.code


def encode_error(err: ErrorInfo, notes: Notes) -> tuple[int, dict[str, Any]]:
    """Encode an IR error as ``(http status, Responses error body)``."""
    same = err.origin == FORMAT
    hints = err.extra if same else {}
    status = err.status if err.status is not None else _status(None, err.type, err.code)
    if status is None:
        status = 500
        if not same:
            notes.add("$.error", "synthesized", "error without status or known type; HTTP 500 assumed")
    obj: dict[str, Any] = {}
    if hints.get("~message") != "absent":
        obj["message"] = err.message
    code: Any = err.code
    if same:
        if err.type is not None:
            obj["type"] = err.type
    else:
        obj["type"], code = _cross_type(err, status, notes)
    if code is not None:
        obj["code"] = int(code) if hints.get("~code") == "int" and code.isdigit() else code
    if err.param is not None:
        obj["param"] = err.param
    if not same:
        obj.setdefault("param", None)
        obj.setdefault("code", None)
    if err.extra:
        emit_fields(obj, err.extra, same, notes, "$.error")
    body: dict[str, Any] = {"error": obj}
    outer = hints.get("~outer")
    if outer:
        emit_fields(body, outer, True, notes, "$")
    return status, body


def error_to_exception(info: ErrorInfo) -> ProviderError:
    """The typed :class:`~toolwire.errors.ProviderError` for a decoded error."""
    status = info.status
    if status is None:
        cls: type[ProviderError] = ProviderError
    elif info.type == "overloaded_error" or status == 529:
        cls = OverloadedError
    else:
        cls = _EXCEPTIONS.get(status) or (ServerError if status >= 500 else ProviderError)
    return cls(info.message, status=status, type=info.type, code=info.code, param=info.param)
