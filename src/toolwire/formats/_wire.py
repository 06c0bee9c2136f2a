"""Path-aware access to decoded JSON, shared by every format codec.

Decoders read wire dicts through these helpers so that a wrong type or a missing
field becomes a :class:`~toolwire.errors.PayloadError` naming the JSON path, never
a ``KeyError`` or ``TypeError``. Paths are only built when an error is raised or a
note is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn

from toolwire._jsonpath import child, json_type
from toolwire.errors import PayloadError
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes

__all__ = [
    "as_dict",
    "as_list",
    "child",
    "describe",
    "emit_extra",
    "fail",
    "json_type",
    "opt_bool",
    "opt_dict",
    "opt_float",
    "opt_int",
    "opt_list",
    "opt_str",
    "req_dict",
    "req_list",
    "req_name",
    "req_str",
    "split_extra",
]


def describe(value: Any) -> str:
    """A short description of a wire value for messages: a string's repr (cut at 40
    characters) or the JSON type name; never a huge or deeply recursive repr."""
    if type(value) is str:
        return repr(value if len(value) <= 40 else value[:40] + "...")
    return json_type(value)


def fail(path: str, message: str) -> NoReturn:
    """Raise a :class:`PayloadError` at ``path``."""
    raise PayloadError(message, path=path)


def _wrong(path: str, expected: str, value: Any) -> NoReturn:
    fail(path, f"expected {expected}, got {json_type(value)}")


def as_dict(value: Any, path: str) -> dict[str, Any]:
    """``value`` if it is a JSON object, else a :class:`PayloadError`."""
    if type(value) is not dict:
        _wrong(path, "an object", value)
    return value


def as_list(value: Any, path: str) -> list[Any]:
    """``value`` if it is a JSON array, else a :class:`PayloadError`."""
    if type(value) is not list:
        _wrong(path, "an array", value)
    return value


def _missing(obj: Mapping[str, Any], key: str, path: str) -> NoReturn:
    fail(child(path, key), f"missing required field '{key}'")


def req_str(obj: Mapping[str, Any], key: str, path: str) -> str:
    """The string ``obj[key]``; ``path`` is the path of ``obj``."""
    value = obj.get(key)
    if type(value) is str:
        return value
    if value is None and key not in obj:
        _missing(obj, key, path)
    _wrong(child(path, key), "a string", value)


def req_name(obj: Mapping[str, Any], key: str, path: str) -> str:
    """The tool name ``obj[key]`` of a tool call: a non-empty string (no format has a tool
    without a name, so a call without one could not be run or answered)."""
    name = req_str(obj, key, path)
    if not name:
        fail(child(path, key), "expected a tool name, got an empty string")
    return name


def req_dict(obj: Mapping[str, Any], key: str, path: str) -> dict[str, Any]:
    """The object ``obj[key]``."""
    value = obj.get(key)
    if type(value) is dict:
        return value
    if value is None and key not in obj:
        _missing(obj, key, path)
    _wrong(child(path, key), "an object", value)


def req_list(obj: Mapping[str, Any], key: str, path: str) -> list[Any]:
    """The array ``obj[key]``."""
    value = obj.get(key)
    if type(value) is list:
        return value
    if value is None and key not in obj:
        _missing(obj, key, path)
    _wrong(child(path, key), "an array", value)


def opt_str(obj: Mapping[str, Any], key: str, path: str) -> str | None:
    """The string ``obj[key]``, or ``None`` when absent or null."""
    value = obj.get(key)
    if value is None or type(value) is str:
        return value
    _wrong(child(path, key), "a string", value)


def opt_int(obj: Mapping[str, Any], key: str, path: str) -> int | None:
    """The integer ``obj[key]``, or ``None`` when absent or null."""
    value = obj.get(key)
    if value is None or (type(value) is int):
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    _wrong(child(path, key), "an integer", value)


def opt_float(obj: Mapping[str, Any], key: str, path: str) -> int | float | None:
    """The number ``obj[key]`` (int or float kept as given), or ``None``."""
    value = obj.get(key)
    if value is None or type(value) in (int, float):
        return value
    _wrong(child(path, key), "a number", value)


def opt_bool(obj: Mapping[str, Any], key: str, path: str) -> bool | None:
    """The boolean ``obj[key]``, or ``None`` when absent or null."""
    value = obj.get(key)
    if value is None or type(value) is bool:
        return value
    _wrong(child(path, key), "a boolean", value)


def opt_dict(obj: Mapping[str, Any], key: str, path: str) -> dict[str, Any] | None:
    """The object ``obj[key]``, or ``None`` when absent or null."""
    value = obj.get(key)
    if value is None or type(value) is dict:
        return value
    _wrong(child(path, key), "an object", value)


def opt_list(obj: Mapping[str, Any], key: str, path: str) -> list[Any] | None:
    """The array ``obj[key]``, or ``None`` when absent or null."""
    value = obj.get(key)
    if value is None or type(value) is list:
        return value
    _wrong(child(path, key), "an array", value)


def split_extra(obj: Mapping[str, Any], known: frozenset[str]) -> Extra:
    """The fields of ``obj`` whose keys are not in ``known`` (to keep as ``extra``)."""
    if obj.keys() <= known:
        return {}
    return {k: v for k, v in obj.items() if k not in known}


def emit_extra(out: dict[str, Any], extra: Extra, same_format: bool, notes: Notes, path: str) -> None:
    """Merge ``extra`` into the wire object ``out``.

    Same format: every non-hint key is written back (existing keys win). Other
    formats: nothing is written and each non-hint key is noted as dropped.
    Hint keys (``"~..."``) are never emitted.
    """
    if not extra:
        return
    for key, value in extra.items():
        if key[:1] == "~":
            continue
        if same_format:
            out.setdefault(key, value)
        elif value is not None:  # a null carries nothing: no loss to report
            notes.add(child(path, key), "dropped", f"field '{key}' has no equivalent in the target format")
