"""Responses error bodies <-> IR :class:`~toolwire.ir.ErrorInfo`, and typed exceptions.

HTTP errors have the OpenAI shape ``{"error": {"message", "type", "param", "code"}}``
(``param`` and ``code`` may be ``null``). A failed *response* reports its error in the
response object instead (``{"code", "message"}``, see :mod:`.response`).
"""

from __future__ import annotations

from typing import Any

from toolwire.formats._openai_error import (
    STATUS_BY_TYPE,
    decode_object,
    encode_object,
    error_to_exception,
)
from toolwire.formats._wire import as_dict, fail, json_type
from toolwire.formats.openai_responses._extra import FORMAT, emit_fields, split_fields
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = ["STATUS_BY_TYPE", "decode_error", "encode_error", "error_to_exception"]


def decode_error(body: Any, status: int | None, notes: Notes) -> ErrorInfo:
    """Decode an error body; the status comes from the HTTP response, else from type or code."""
    b = as_dict(body, "$")
    err = b.get("error")
    if type(err) is not dict:
        fail(
            "$.error",
            "missing required field 'error'" if err is None else f"expected an object, got {json_type(err)}",
        )
    info = decode_object(err, "$.error", FORMAT, split_fields, status)
    if len(b) > 1:
        info.extra["~outer"] = split_fields(b, frozenset({"error"}))
    return info


def encode_error(err: ErrorInfo, notes: Notes) -> tuple[int, dict[str, Any]]:
    """Encode an IR error as ``(http status, Responses error body)``."""
    status, obj = encode_object(err, FORMAT, emit_fields, notes)
    body: dict[str, Any] = {"error": obj}
    outer = err.extra.get("~outer") if err.origin == FORMAT else None
    if outer:
        emit_fields(body, outer, True, notes, "$")
    return status, body
