"""The format codecs by name: a format name resolved, its codec module, a Chat dialect's keyword.

What :mod:`toolwire.translate`'s one-shot conversions and :class:`~toolwire.translate.Exchange`
share (re-exported by :mod:`toolwire.translate`, the public home of ``resolve_format``,
``format_module`` and ``FORMAT_CHOICES``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import partial
from types import ModuleType
from typing import Any, TypeVar

import msgspec

from toolwire._choices import unknown_choice
from toolwire.errors import ToolwireError
from toolwire.formats import _MODULES
from toolwire.ir.base import FORMAT_ALIASES, FORMATS, Format
from toolwire.ir.notes import Notes

_S = TypeVar("_S", bound=msgspec.Struct)

__all__ = ["FORMAT_CHOICES", "chat_dialect", "format_module", "recorder", "replace", "resolve_format"]

FORMAT_CHOICES: tuple[str, ...] = (*FORMATS, *FORMAT_ALIASES)
"""Every format name and alias accepted by :func:`resolve_format`."""


def resolve_format(name: str) -> Format:
    """The canonical format name for ``name`` (accepts a few aliases such as ``chat``).

    Raises:
        ToolwireError: an unknown name; the message suggests the closest known one.
    """
    if type(name) is not str:  # a list or dict: unhashable, no key to look up
        raise ToolwireError(f"a format name is a string, not {type(name).__name__}: {name!r:.60}")
    if name in _MODULES:
        return name  # type: ignore[return-value]
    alias = FORMAT_ALIASES.get(name)
    if alias is None:
        raise ToolwireError(unknown_choice("format", name, FORMAT_CHOICES, FORMATS))
    return alias


_LOADED: dict[str, ModuleType] = {}


def format_module(name: str) -> ModuleType:
    """The codec module of a format (functions ``decode_request``, ``encode_request``...)."""
    module = _LOADED.get(name) if type(name) is str else None
    if module is None:  # once per name: import_module costs about 2 µs even when imported
        module = _LOADED[name] = importlib.import_module(_MODULES[resolve_format(name)])
    return module


def recorder(module: ModuleType, kind: str, payload: dict[str, Any], ir: Any) -> Callable[[Notes], object]:
    """What records where ``ir`` came from in ``payload`` when a note needs it (``Notes.decoded``):
    the format's ``record_request`` / ``record_response`` (aligns the IR with the payload), else
    its decoder run again on a recording collector."""
    record = getattr(module, f"record_{kind}", None)
    if record is not None:
        return partial(record, payload, ir)
    return partial(getattr(module, f"decode_{kind}"), payload)


def chat_dialect(fmt: str, dialect: str | None) -> dict[str, Any]:
    """The codec keyword for a Chat dialect (``{}`` without one).

    Raises:
        ToolwireError: a dialect for another format than ``openai-chat``, or an unknown one.
    """
    if dialect is None:
        return {}
    if resolve_format(fmt) != "openai-chat":
        raise ToolwireError(f"dialect {dialect!r} given for {fmt}: dialects are Chat Completions providers")
    from toolwire.formats.openai_chat.dialects import get_dialect  # the Chat codec, only when asked

    return {"dialect": get_dialect(dialect).name}


def replace(obj: _S, **changes: Any) -> _S:
    return msgspec.structs.replace(obj, **changes)
