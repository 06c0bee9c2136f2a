"""Extras and layout hints of the Chat Completions codec.

Hint keys (``"~..."``) used by this package, all read back only when encoding to
``openai-chat`` again:

``~keep``      fields present with an empty value (``null``, ``[]``, ``{}``), re-emitted as is.
``~content``   how a message ``content`` was spelled: ``string``, ``null`` or ``absent``
               (a list of parts needs no hint).
``~outer``     names of fields of the wrapper object of a tool or tool call
               (``{"type", "function": {...}}``) lifted into ``extra`` (see :func:`lift_outer`).
``~inner``     unknown fields of the inner object of a content part (``image_url`` ...).
``~legacy``    the value came from legacy function calling (``functions``, ``function_call``,
               ``role: "function"``).
``~field``     the wire field a part came from (``refusal`` in content, reasoning field name).
``~notype``    a tool or tool call had no ``type`` (Mistral: it defaults to ``function``).
``~mode``      the wire spelling of a ``tool_choice`` mode (Mistral ``any`` for ``required``).
``~chunk``     a reasoning part came as this Mistral ``{"type": "thinking"}`` content chunk.
``~dialect``   the Chat dialect a request or reasoning part was decoded as (see ``dialects``).
"""

from __future__ import annotations

from typing import Any

from toolwire.formats._wire import emit_extra
from toolwire.ir.base import Extra
from toolwire.ir.notes import Notes

__all__ = ["DIALECT", "KEEP", "NOTYPE", "emit_fields", "emit_wrapped", "lift_outer", "split_fields"]

KEEP = "~keep"
NOTYPE = "~notype"
DIALECT = "~dialect"
_EMPTY_TYPES = (type(None), list, dict)


def split_fields(obj: dict[str, Any], known: frozenset[str]) -> Extra:
    """Extra of a wire object: unknown fields, plus every empty-valued field under ``~keep``.

    Fields (known or not) whose value is ``null``, ``[]`` or ``{}`` are kept under ``~keep``:
    the same-format encoder writes them back unless it wrote the field itself, and other
    formats do not report them as lost (they carry nothing).
    """
    extra: Extra | None = None
    keep: dict[str, Any] | None = None
    for key, value in obj.items():
        if not value and (value is None or type(value) in _EMPTY_TYPES):
            if keep is None:
                keep = {}
            keep[key] = value
        elif key not in known:
            if extra is None:
                extra = {}
            extra[key] = value
    if keep is not None:
        if extra is None:
            extra = {}
        extra[KEEP] = keep
    return extra if extra is not None else {}


def emit_fields(out: dict[str, Any], extra: Extra, same: bool, notes: Notes, path: str) -> None:
    """Write ``extra`` into ``out``: kept empty fields and extras (same format), else note drops."""
    if not extra:
        return
    if same:
        keep = extra.get(KEEP)
        if keep:
            for key, value in keep.items():
                out.setdefault(key, value)
    emit_extra(out, extra, same, notes, path)


def lift_outer(extra: Extra, outer: Extra) -> None:
    """Merge the extra of a wrapper object (``{"type", "function": {...}}``) into the inner ``extra``.

    Lifted fields keep their names (so other formats report them when dropped); ``~outer``
    lists them, ``~outer_keep`` holds the wrapper's empty fields and ``~outer_hidden`` the
    ones whose names clash with inner fields.
    """
    names: list[str] = []
    hidden: Extra = {}
    for key, value in outer.items():
        if key == KEEP:
            extra["~outer_keep"] = value
        elif key in extra:
            hidden[key] = value
        else:
            extra[key] = value
            names.append(key)
    if names:
        extra["~outer"] = names
    if hidden:
        extra["~outer_hidden"] = hidden


def emit_wrapped(
    out: dict[str, Any], inner: dict[str, Any], extra: Extra, same: bool, notes: Notes, path: str
) -> None:
    """Write ``extra`` back into a wrapper ``out`` and its ``inner`` object (see :func:`lift_outer`)."""
    if not same or not ("~outer" in extra or "~outer_keep" in extra or "~outer_hidden" in extra):
        emit_fields(inner, extra, same, notes, path)
        return
    names = extra.get("~outer") or ()
    emit_fields(inner, {k: v for k, v in extra.items() if k not in names}, True, notes, path)
    for key in names:
        out[key] = extra[key]
    for key, value in (extra.get("~outer_keep") or {}).items():
        out.setdefault(key, value)
    for key, value in (extra.get("~outer_hidden") or {}).items():
        out.setdefault(key, value)
