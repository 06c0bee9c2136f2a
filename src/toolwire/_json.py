"""JSON parsing and serialization with toolwire errors (one boundary for bad JSON)."""

from __future__ import annotations

from typing import Any

import msgspec

from toolwire.errors import LimitError, PayloadError

__all__ = ["MAX_DEPTH", "dumps", "dumps_leaf", "dumps_sorted", "dumps_str", "loads"]

MAX_DEPTH = 1000
"""Deepest nesting accepted from untrusted JSON (msgspec's own limit is similar)."""

_decoder = msgspec.json.Decoder()
_encoder = msgspec.json.Encoder()
_sorted = msgspec.json.Encoder(order="sorted")


def loads(data: bytes | str, *, path: str = "$") -> Any:
    """Parse JSON text; invalid or too-deep JSON raises :class:`PayloadError` at ``path``."""
    try:
        return _decoder.decode(data)
    except msgspec.DecodeError as exc:
        text = str(exc)
        if "depth" in text.lower() or "recursion" in text.lower():
            raise LimitError(f"JSON nested too deeply: {text}", path=path) from None
        raise PayloadError(f"invalid JSON: {text}", path=path) from None
    except RecursionError:
        raise LimitError("JSON nested too deeply", path=path) from None
    except UnicodeDecodeError as exc:  # msgspec reports invalid UTF-8 in bytes this way
        raise PayloadError(f"invalid JSON: not UTF-8 ({exc.reason} at byte {exc.start})", path=path) from None
    except UnicodeEncodeError as exc:  # a str holding lone surrogates
        raise PayloadError(f"invalid JSON: {_unicode(exc)}", path=path) from None


def _unicode(exc: UnicodeEncodeError) -> str:
    return f"text is not valid Unicode ({exc.reason} at index {exc.start})"


def dumps(value: Any, *, path: str = "$") -> bytes:
    """Serialize to compact JSON bytes (UTF-8, no ASCII escaping).

    A value nested too deeply to serialize (only possible for in-memory input, never
    for parsed JSON) raises :class:`LimitError` at ``path``; text with lone surrogates
    (not valid Unicode, so not encodable as UTF-8) or a value of a type JSON has no form for
    raises :class:`PayloadError` there.
    """
    try:
        return _encoder.encode(value)
    except RecursionError:
        raise LimitError("value nested too deeply to serialize", path=path) from None
    except UnicodeEncodeError as exc:
        raise PayloadError(f"value cannot be serialized: {_unicode(exc)}", path=path) from None
    except TypeError as exc:  # a value JSON has no form for (in-memory input only): a complex number
        raise PayloadError(f"value cannot be serialized: {exc}", path=path) from None


dumps_leaf = _encoder.encode
""":func:`dumps` of a value that cannot nest (a string or a number), with no wrapper call."""


def dumps_sorted(value: Any, *, path: str = "$") -> bytes:
    """:func:`dumps` with every object's keys sorted (a Struct's fields by their JSON names): one
    text for one JSON object, whatever its key order, for a hash of it. A dict with a key that
    is not a string (made in memory: JSON's keys are strings) cannot be sorted and keeps its own
    order; what JSON cannot hold raises :func:`dumps`' errors."""
    try:
        return _sorted.encode(value)
    except Exception:  # msgspec's TypeError for a key not a string, or a value dumps says why of
        return dumps(value, path=path)


def dumps_str(value: Any, *, path: str = "$") -> str:
    """Serialize to a compact JSON string (see :func:`dumps`)."""
    return dumps(value, path=path).decode()
