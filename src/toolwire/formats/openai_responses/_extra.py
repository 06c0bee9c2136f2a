"""Extras and layout hints of the Responses codec.

Hint keys (``"~..."``) used by this package. The ``~responses*`` ones sit on tools and tool
choices, which are encoded without knowing the source format, so their names are chosen not
to clash with other codecs' hints. All others are read back only when the request or
response being encoded came from ``openai-responses``.

``~responses``          fields written back verbatim by this codec only and silently left out
                        elsewhere: empty values (``null``, ``[]``, ``{}``), item ``status``,
                        output-item ids of tool results, request parameters a response echoes.
``~responses_absent``   required fields (``strict``, ``parameters``) a function tool omitted.
``~responses_ns``       the ``namespace`` tool wrapper (without ``tools``) an inner tool opened.
``~responses_choice``   a tool choice kept verbatim (built-in choices, unusual shapes).
``~responses_kind(s)``  ``function`` / ``custom`` of a named or allowed tool choice.
``~msg``                on the first content part of an assistant ``message`` item: the
                        item's fields except ``content`` (starts a new item when encoding).
``~string``             the content (or tool output) was a plain string, not a parts list.
``~typed``              a non-assistant message item carried ``"type": "message"``.
``~type``               a content part's type when not the default for its role.
``~item``               a whole wire item kept verbatim (built-in tool calls and outputs,
                        ``item_reference``, unknown item types).
``~instructions``       this system message is the request's ``instructions``.
``~input``              this user message was the request's ``input`` given as a string.
``~summary``/``~content``  raw reasoning ``summary`` / ``content`` arrays of unusual shape
                        (``~summary`` is ``"absent"`` when the item had none).
``~raw_data``           an ``input_file.file_data`` that was not a data URL.
``~inner``              unknown fields of ``input_audio.input_audio``.
``~object``/``~created_at``/``~no_output``  a response's unusual ``object``, non-integer
                        ``created_at``, missing ``output``.
``~input_tokens_details``/``~output_tokens_details``  unknown fields of the usage details
                        (their presence also says the details object was there).
``~code``/``~message``/``~outer``  error bodies: integer ``code``, missing ``message``,
                        fields next to ``error``.
"""

from __future__ import annotations

from typing import Any

from toolwire.formats._wire import emit_extra
from toolwire.ir.base import Extra, Format
from toolwire.ir.notes import Notes

__all__ = ["FORMAT", "QUIET", "emit_fields", "split_fields"]

FORMAT: Format = "openai-responses"
"""The name of this format."""
QUIET = "~responses"
_EMPTY_TYPES = (type(None), list, dict)
_NO_QUIET: frozenset[str] = frozenset()


def split_fields(obj: dict[str, Any], known: frozenset[str], quiet: frozenset[str] = _NO_QUIET) -> Extra:
    """The ``extra`` of a wire object: its unknown fields, with quiet ones under ``~responses``.

    Quiet are: fields (known or not) whose value is ``null``, ``[]`` or ``{}``, and the
    unknown fields named in ``quiet``. The same-format encoder writes them back unless it
    wrote the field itself; other formats do not report them as lost.
    """
    extra: Extra | None = None
    hidden: dict[str, Any] | None = None
    for key, value in obj.items():
        if (not value and (value is None or type(value) in _EMPTY_TYPES)) or key in quiet:
            if hidden is None:
                hidden = {}
            hidden[key] = value
        elif key not in known:
            if extra is None:
                extra = {}
            extra[key] = value
    if hidden is not None:
        if extra is None:
            extra = {}
        extra[QUIET] = hidden
    return extra if extra is not None else {}


def emit_fields(out: dict[str, Any], extra: Extra, same: bool, notes: Notes, path: str) -> None:
    """Write ``extra`` into ``out``: quiet fields and extras (same format), else note the drops."""
    if not extra:
        return
    if same:
        hidden = extra.get(QUIET)
        if hidden:
            for key, value in hidden.items():
                out.setdefault(key, value)
    emit_extra(out, extra, same, notes, path)
