"""The OpenAI error object, shared by Chat Completions and Responses.

Both APIs answer an HTTP error with ``{"error": {"message", "type", "param", "code"}}``
(``param`` and ``code`` may be ``null``). The object, its status and type tables, and the typed
exception are the same for both; what differs (the envelopes Chat also accepts from compatible
servers, each format's extra-field rules) stays in ``openai_chat/errors.py`` and
``openai_responses/errors.py``, which pass their own ``split_fields``/``emit_fields``.

How a type or status maps:

=================  ============================================================================
status unknown     from the type (:data:`STATUS_BY_TYPE`), else the code (:data:`STATUS_BY_CODE`),
                   else an integer ``code`` from 400 to 599 (OpenRouter sends the status there)
other format       its status picks an OpenAI type (:data:`TYPE_BY_STATUS`: a 404 is
                   ``invalid_request_error``, as OpenAI sends it with code ``model_not_found``; 5xx
                   ``server_error``; another 4xx ``invalid_request_error``); its own type moves to
                   ``code`` when that is free (noted as renamed), else it is approximated
exception          ``overloaded_error`` or 529 is :class:`~toolwire.errors.OverloadedError`, else
                   by status (:func:`toolwire.errors.exception_for_status`)
=================  ============================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from toolwire.errors import OverloadedError, ProviderError, exception_for_status
from toolwire.formats._wire import child, fail, json_type, opt_str
from toolwire.ir.base import Extra, Format
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = [
    "KNOWN",
    "STATUS_BY_CODE",
    "STATUS_BY_TYPE",
    "TYPE_BY_STATUS",
    "decode_object",
    "encode_object",
    "error_to_exception",
    "status_of",
]

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
"""HTTP status of an error ``type`` when the response status is unknown (``requests`` and
``tokens`` are the types of OpenAI's rate-limit errors)."""

STATUS_BY_CODE: dict[str, int] = {"invalid_api_key": 401, "model_not_found": 404, "insufficient_quota": 429}
"""HTTP status of an error ``code`` when neither the status nor the type says."""

TYPE_BY_STATUS: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "invalid_request_error",
    409: "invalid_request_error",
    413: "invalid_request_error",
    422: "invalid_request_error",
    429: "rate_limit_error",
}
"""The OpenAI ``type`` an error of another format is sent with, by its status."""

KNOWN = frozenset({"message", "type", "param", "code"})
"""The fields of the error object; any other is kept as an extra field."""

Split = Callable[[dict[str, Any], frozenset[str]], Extra]
"""A format's ``split_fields``: the fields of an object beyond the known ones."""
Emit = Callable[[dict[str, Any], Extra, bool, Notes, str], None]
"""A format's ``emit_fields``: extra fields written back (same format) or noted as dropped."""


def status_of(status: int | None, type_: str | None, code: Any) -> int | None:
    """The HTTP status of an error: ``status`` when known, else from its type or code."""
    if status is not None:
        return status
    if type(code) is int and 400 <= code <= 599:
        return code
    return STATUS_BY_TYPE.get(type_ or "") or STATUS_BY_CODE.get(code if type(code) is str else "")


def decode_object(
    err: dict[str, Any], path: str, origin: Format, split: Split, status: int | None
) -> ErrorInfo:
    """Decode an error object at ``path`` (its status: ``status``, else from its type or code; an
    integer ``code`` is kept as a string and written back as an integer by :func:`encode_object`)."""
    code = err.get("code")
    extra = split(err, KNOWN)
    if type(code) is int:
        extra["~code"] = "int"
    elif code is not None and type(code) is not str:
        fail(child(path, "code"), f"expected a string or an integer, got {json_type(code)}")
    if "message" not in err:
        extra["~message"] = "absent"
    type_ = opt_str(err, "type", path)
    return ErrorInfo(
        message=opt_str(err, "message", path) or "",
        status=status_of(status, type_, code),
        type=type_,
        code=None if code is None else str(code),
        param=opt_str(err, "param", path),
        origin=origin,
        extra=extra,
    )


def encode_object(err: ErrorInfo, origin: Format, emit: Emit, notes: Notes) -> tuple[int, dict[str, Any]]:
    """``(http status, error object)`` of an IR error, for a format whose origin is ``origin``
    (the same format writes back what it kept; another gets an OpenAI type, ``param`` and
    ``code`` as ``null`` when absent, and a note for each change)."""
    same = err.origin == origin
    hints = err.extra if same else {}
    status = err.status if err.status is not None else status_of(None, err.type, err.code)
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
        emit(obj, err.extra, same, notes, "$.error")
    return status, obj


def _cross_type(err: ErrorInfo, status: int, notes: Notes) -> tuple[str, str | None]:
    """The OpenAI type of an error of another format (see the module table), and its code."""
    wanted = TYPE_BY_STATUS.get(status) or ("server_error" if status >= 500 else "invalid_request_error")
    if err.type is None or err.type == wanted:
        return wanted, err.code
    if err.code is None:
        notes.info("$.error.type", "renamed", f"error type {err.type!r} sent as {wanted!r} with it as code")
        return wanted, err.type
    notes.add("$.error.type", "approximated", f"error type {err.type!r} sent as {wanted!r}")
    return wanted, err.code


def error_to_exception(info: ErrorInfo) -> ProviderError:
    """The typed :class:`~toolwire.errors.ProviderError` for a decoded OpenAI error."""
    status = info.status
    cls = exception_for_status(status)
    if status is not None and (info.type == "overloaded_error" or status == 529):
        cls = OverloadedError
    return cls(info.message, status=status, type=info.type, code=info.code, param=info.param)
