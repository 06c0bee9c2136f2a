"""Chat Completions error bodies <-> IR :class:`~toolwire.ir.ErrorInfo`, and typed exceptions.

The OpenAI shape is ``{"error": {"message", "type", "param", "code"}}``. Also accepted:
OpenRouter's numeric ``code`` (the HTTP status), ``{"error": "text"}``, and the flat
``{"object": "error", "message", "type", "code"}`` of some compatible servers; the shape
is remembered so that the same-format encoder reproduces it.
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
from toolwire.formats.openai_chat._extra import emit_fields, split_fields
from toolwire.ir.base import Format
from toolwire.ir.notes import Notes
from toolwire.ir.response import ErrorInfo

__all__ = ["STATUS_BY_TYPE", "decode_error", "encode_error", "error_to_exception"]

_ORIGIN: Format = "openai-chat"


def decode_error(body: Any, status: int | None, notes: Notes) -> ErrorInfo:
    """Decode a Chat error body; the status comes from the response, else from type or code."""
    b = as_dict(body, "$")
    err = b.get("error")
    if type(err) is dict:
        info = decode_object(err, "$.error", _ORIGIN, split_fields, status)
        if len(b) > 1:
            info.extra["~outer"] = split_fields(b, frozenset({"error"}))
        return info
    if type(err) is str:
        extra: dict[str, Any] = {"~shape": "string"}
        if len(b) > 1:
            extra["~outer"] = split_fields(b, frozenset({"error"}))
        return ErrorInfo(message=err, status=status, origin=_ORIGIN, extra=extra)
    if err is None and "message" in b:
        info = decode_object(b, "$", _ORIGIN, split_fields, status)
        info.extra["~shape"] = "flat"
        return info
    fail(
        "$.error",
        "missing required field 'error'" if err is None else f"expected an object, got {json_type(err)}",
    )


def encode_error(err: ErrorInfo, notes: Notes) -> tuple[int, dict[str, Any]]:
    """Encode an IR error as ``(http status, Chat error body)``, in the envelope it came in."""
    status, obj = encode_object(err, _ORIGIN, emit_fields, notes)
    hints = err.extra if err.origin == _ORIGIN else {}
    shape = hints.get("~shape")
    if shape == "flat":
        return status, obj
    body: dict[str, Any] = {"error": err.message if shape == "string" else obj}
    if "~outer" in hints:
        emit_fields(body, hints["~outer"], True, notes, "$")
    return status, body
