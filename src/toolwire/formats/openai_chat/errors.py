"""Chat Completions error bodies <-> IR :class:`~toolwire.ir.ErrorInfo`, and typed exceptions.

The OpenAI shape is ``{"error": {"message", "type", "param", "code"}}``. Also accepted:
OpenRouter's numeric ``code`` (the HTTP status), ``{"error": "text"}``, and the flat
``{"object": "error", "message", "type", "code"}`` of some compatible servers; the shape
is remembered so that the same-format encoder reproduces it.
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
from toolwire.formats.openai_chat._extra import emit_fields, split_fields
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
    "requests": 429,
    "tokens": 429,
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
    404: "not_found_error",
    413: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
}
_ERROR_KNOWN = frozenset({"message", "type", "param", "code"})
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


def _status(status: int | None, type_: str | None, code: Any) -> int | None:
    if status is not None:
        return status
    if type(code) is int and 400 <= code <= 599:
        return code
    return STATUS_BY_TYPE.get(type_ or "") or _STATUS_BY_CODE.get(code if type(code) is str else "")


def _decode_object(err: dict[str, Any], path: str, known: frozenset[str]) -> tuple[ErrorInfo, Any]:
    code = err.get("code")
    extra = split_fields(err, known)
    if type(code) is int:
        extra["~code"] = "int"
    elif code is not None and type(code) is not str:
        fail(child(path, "code"), f"expected a string or an integer, got {json_type(code)}")
    if "message" not in err:
        extra["~message"] = "absent"
    info = ErrorInfo(
        message=opt_str(err, "message", path) or "",
        type=opt_str(err, "type", path),
        code=None if code is None else str(code),
        param=opt_str(err, "param", path),
        origin="openai-chat",
        extra=extra,
    )
    return info, code


def decode_error(body: Any, status: int | None, notes: Notes) -> ErrorInfo:
    """Decode a Chat error body; the status comes from the response, else from type or code."""
    b = as_dict(body, "$")
    err = b.get("error")
    if type(err) is dict:
        info, code = _decode_object(err, "$.error", _ERROR_KNOWN)
        if len(b) > 1:
            info.extra["~outer"] = split_fields(b, frozenset({"error"}))
    elif type(err) is str:
        extra: dict[str, Any] = {"~shape": "string"}
        if len(b) > 1:
            extra["~outer"] = split_fields(b, frozenset({"error"}))
        info = ErrorInfo(message=err, origin="openai-chat", extra=extra)
        code = None
    elif err is None and "message" in b:
        info, code = _decode_object(b, "$", _ERROR_KNOWN)
        info.extra["~shape"] = "flat"
    else:
        fail(
            "$.error",
            "missing required field 'error'" if err is None else f"expected an object, got {json_type(err)}",
        )
    new_status = _status(status, info.type, code)
    if new_status is None:
        return info
    return ErrorInfo(
        message=info.message,
        status=new_status,
        type=info.type,
        code=info.code,
        param=info.param,
        origin="openai-chat",
        extra=info.extra,
    )


def _cross_format_type(err: ErrorInfo, status: int, notes: Notes) -> tuple[str, str | None]:
    """OpenAI-style error type for an error of another format; its own type moves to ``code``."""
    chat_type = _TYPE_BY_STATUS.get(status) or ("server_error" if status >= 500 else None)
    if chat_type is None or err.type == chat_type or err.type is None:
        return err.type or chat_type or "api_error", err.code
    if err.code is None:
        notes.info(
            "$.error.type", "renamed", f"error type {err.type!r} sent as {chat_type!r} with it as code"
        )
        return chat_type, err.type
    notes.add("$.error.type", "approximated", f"error type {err.type!r} sent as {chat_type!r}")
    return chat_type, err.code


def encode_error(err: ErrorInfo, notes: Notes) -> tuple[int, dict[str, Any]]:
    """Encode an IR error as ``(http status, Chat error body)``."""
    same = err.origin == "openai-chat"
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
        obj["type"], code = _cross_format_type(err, status, notes)
    if code is not None:
        obj["code"] = int(code) if hints.get("~code") == "int" and code.isdigit() else code
    if err.param is not None:
        obj["param"] = err.param
    if not same:
        obj.setdefault("param", None)
        obj.setdefault("code", None)
    if err.extra:
        emit_fields(obj, err.extra, same, notes, "$.error")
    shape = hints.get("~shape")
    if shape == "flat":
        return status, obj
    body: dict[str, Any] = {"error": err.message if shape == "string" else obj}
    if "~outer" in hints:
        emit_fields(body, hints["~outer"], True, notes, "$")
    return status, body


def error_to_exception(info: ErrorInfo) -> ProviderError:
    """The typed :class:`~toolwire.errors.ProviderError` for a decoded Chat error."""
    status = info.status
    if status is None:
        cls: type[ProviderError] = ProviderError
    elif info.type == "overloaded_error" or status == 529:
        cls = OverloadedError
    else:
        cls = _EXCEPTIONS.get(status) or (ServerError if status >= 500 else ProviderError)
    return cls(info.message, status=status, type=info.type, code=info.code, param=info.param)
