"""The Gemini stream decoder's shortcut for a chunk of plain function calls.

A model calling tools sends each call whole in one chunk, ``{"candidates": [{"content":
{"role": "model", "parts": [{"functionCall": {"name": ..., "args": {...}, "id": ...}}]}}],
"modelVersion": ..., "responseId": ...}`` (parallel calls: several such parts). The general path
(``StreamDecoder._chunk``) checks such a chunk field by field through the part decoders, about
70K instructions a call; :func:`plain_calls` recognizes it in one pass and gives each call's
name, argument text and id, exactly what the general path decodes (``decode_part``): nothing it
would keep in an extra or note (no other field, no ``null``, no snake_case spelling, no
thought signature, no streamed arguments), the arguments' compact JSON. Any other chunk:
``None``, and the general path decodes it (and reports what is wrong with it).
"""

from __future__ import annotations

from typing import Any

from toolwire._json import dumps_leaf

__all__ = ["PlainCall", "plain_calls"]

PlainCall = tuple[str, str, Any]
"""A plain call's name, arguments (compact JSON text, ``""`` without ``args``) and id (``None``
without one)."""

_TOP = frozenset({"candidates", "modelVersion", "responseId"})
"""The top-level fields of a chunk the shortcut takes (the start has taken the last two)."""
_CALL = frozenset({"name", "args", "id"})
"""The fields of a plain ``functionCall`` (``decode_part`` keeps no other in an extra)."""
_ABSENT: Any = object()


def plain_calls(event: dict[str, Any]) -> list[PlainCall] | None:
    """The calls of a chunk of plain function-call parts only (see the module), else ``None``."""
    if not _TOP.issuperset(event) or event.get("modelVersion", _ABSENT) is None:
        return None
    if event.get("responseId", _ABSENT) is None:
        return None
    candidates = event.get("candidates")
    if type(candidates) is not list or len(candidates) != 1:
        return None
    candidate = candidates[0]
    if type(candidate) is not dict or len(candidate) != 1:
        return None
    content = candidate.get("content")
    parts = content.get("parts") if type(content) is dict else None
    if type(parts) is not list or not parts:
        return None
    out: list[PlainCall] = []
    for part in parts:
        call = part.get("functionCall") if type(part) is dict and len(part) == 1 else None
        if type(call) is not dict or not _CALL.issuperset(call):
            return None
        name = call.get("name")
        if type(name) is not str or not name:
            return None
        call_id = call.get("id", _ABSENT)
        if call_id is _ABSENT:
            call_id = None
        elif type(call_id) is not str:
            return None
        args = call.get("args", _ABSENT)
        if args is _ABSENT:
            arguments = ""
        elif type(args) is dict:
            try:  # too deep, or not encodable: the general path reports it with its path
                arguments = dumps_leaf(args).decode()
            except Exception:  # any failure declines the shortcut
                return None
        else:
            return None
        out.append((name, arguments, call_id))
    return out
