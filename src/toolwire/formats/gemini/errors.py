"""Gemini error bodies <-> IR :class:`~toolwire.ir.ErrorInfo`, and typed exceptions.

Google APIs answer ``{"error": {"code": <http status>, "message", "status": <canonical
code name>, "details": [...]}}`` (``google.rpc.Status``); some endpoints wrap it in a
one-element JSON array. ``ErrorInfo.type`` is the canonical name (``INVALID_ARGUMENT``),
``ErrorInfo.code`` the ``reason`` of a ``google.rpc.ErrorInfo`` detail (``API_KEY_INVALID``)
and ``ErrorInfo.param`` the first field of a ``google.rpc.BadRequest`` violation.
"""

from __future__ import annotations

from typing import Any

from toolwire.errors import (
    ProviderError,
    exception_for_status,
)
from toolwire.formats._wire import as_dict, child, fail, json_type, opt_int, opt_str, req_dict
from toolwire.formats.gemini._keys import emit, split
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = ["STATUS_BY_NAME", "decode_error", "encode_error", "error_to_exception"]

STATUS_BY_NAME: dict[str, int] = {
    "INVALID_ARGUMENT": 400,
    "FAILED_PRECONDITION": 400,
    "OUT_OF_RANGE": 400,
    "UNAUTHENTICATED": 401,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409,
    "ABORTED": 409,
    "RESOURCE_EXHAUSTED": 429,
    "CANCELLED": 499,
    "UNKNOWN": 500,
    "INTERNAL": 500,
    "DATA_LOSS": 500,
    "UNIMPLEMENTED": 501,
    "UNAVAILABLE": 503,
    "DEADLINE_EXCEEDED": 504,
}
"""HTTP status of each ``google.rpc.Code`` name."""

_NAME_BY_STATUS: dict[int, str] = {
    400: "INVALID_ARGUMENT",
    401: "UNAUTHENTICATED",
    403: "PERMISSION_DENIED",
    404: "NOT_FOUND",
    409: "ABORTED",
    413: "INVALID_ARGUMENT",  # Google answers an oversized payload with INVALID_ARGUMENT
    422: "INVALID_ARGUMENT",
    429: "RESOURCE_EXHAUSTED",
    499: "CANCELLED",
    500: "INTERNAL",
    501: "UNIMPLEMENTED",
    503: "UNAVAILABLE",
    504: "DEADLINE_EXCEEDED",
    529: "UNAVAILABLE",
}
_KNOWN = frozenset({"code", "message", "status"})
_ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
_BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"


def _details(details: Any) -> tuple[str | None, str | None]:
    """``(reason, field)`` from ``google.rpc.ErrorInfo`` / ``BadRequest`` details, when present."""
    reason = field = None
    if type(details) is not list:
        return None, None
    for item in details:
        if type(item) is not dict:
            continue
        kind = item.get("@type")
        if kind == _ERROR_INFO and reason is None and type(item.get("reason")) is str:
            reason = item["reason"]
        elif kind == _BAD_REQUEST and field is None:
            violations = item.get("fieldViolations")
            if type(violations) is list and violations and type(violations[0]) is dict:
                value = violations[0].get("field")
                field = value if type(value) is str else None
    return reason, field


def _unwrap(body: Any) -> tuple[dict[str, Any], str]:
    if type(body) is list:
        if len(body) != 1:
            fail("$", f"expected an error array of one element, got {len(body)}")
        return as_dict(body[0], "$[0]"), "$[0]"
    if type(body) is not dict:
        fail("$", f"expected an object, got {json_type(body)}")
    return body, "$"


def decode_error(body: Any, status: int | None, notes: Notes) -> ErrorInfo:
    """Decode a Gemini error body; the status comes from the response, else from ``error.code``."""
    outer, path = _unwrap(body)
    err_path = child(path, "error")
    err = req_dict(outer, "error", path)
    extra = split(err, _KNOWN)
    if path != "$":
        extra["~array"] = True
    if len(outer) > 1:
        extra["~outer"] = split(outer, frozenset({"error"}))
    code = opt_int(err, "code", err_path)
    if code is None:
        extra["~code"] = None
    elif status is not None and code != status:
        extra["~code"] = code
    if err.get("message") is None:
        extra["~message"] = None
    reason, field = _details(err.get("details"))
    return ErrorInfo(
        message=opt_str(err, "message", err_path) or "",
        status=status if status is not None else code,
        type=opt_str(err, "status", err_path),
        code=reason,
        param=field,
        origin="gemini",
        extra=extra,
    )


def _status(err: ErrorInfo) -> int:
    if err.status is not None:
        return err.status
    return STATUS_BY_NAME.get(err.type or "", 500)


def encode_error(err: ErrorInfo, notes: Notes) -> tuple[int, Any]:
    """Encode an IR error as ``(http status, Gemini error body)``."""
    same = err.origin == "gemini"
    hints = err.extra if same else {}
    status = _status(err)
    obj: dict[str, Any] = {}
    if "~code" not in hints:
        obj["code"] = status
    elif hints["~code"] is not None:
        obj["code"] = hints["~code"]
    if "~message" not in hints:
        obj["message"] = err.message
    name = err.type if same or err.type in STATUS_BY_NAME else _status_name(err, status, notes)
    if name is not None:
        obj["status"] = name
    if not same:
        _cross_details(err, obj, notes)
    obj = emit(obj, err.extra, same, notes, "$.error")
    body: dict[str, Any] = {"error": obj}
    if "~outer" in hints:
        body = emit(body, hints["~outer"], True, notes, "$")
    return status, [body] if hints.get("~array") else body


def _status_name(err: ErrorInfo, status: int, notes: Notes) -> str:
    name = _NAME_BY_STATUS.get(status) or ("INTERNAL" if status >= 500 else "UNKNOWN")
    if err.type is not None:
        notes.info("$.error.status", "renamed", f"error type {err.type!r} sent as {name!r}")
    return name


def _cross_details(err: ErrorInfo, obj: dict[str, Any], notes: Notes) -> None:
    if err.param is not None:
        violation = {"field": err.param, "description": err.message}
        obj["details"] = [{"@type": _BAD_REQUEST, "fieldViolations": [violation]}]
    if err.code is not None:
        notes.info("$.error", "dropped", f"error code {err.code!r}")


def error_to_exception(info: ErrorInfo) -> ProviderError:
    """The typed :class:`~toolwire.errors.ProviderError` for a decoded Gemini error."""
    status = info.status if info.status is not None else STATUS_BY_NAME.get(info.type or "")
    cls = exception_for_status(status)
    return cls(info.message, status=status, type=info.type, code=info.code, param=info.param)
