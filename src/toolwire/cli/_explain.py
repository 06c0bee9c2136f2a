"""``toolwire convert --explain``: every note with the part of the source it points at.

Notes come in two groups, losses first (what ``--policy strict`` refuses), then the changes
that are no loss (values made up because the target requires them, reversible renames). Each
note shows its path in the source payload, what happened, the target path when the note names
one, and the source snippet there (compact JSON, cut to one line). A path the source does not
hold is shown with the nearest part it does hold, and says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from toolwire import _json
from toolwire._jsonpath import locate
from toolwire.ir.notes import Note

__all__ = ["explain"]

SNIPPET = 100
"""Characters of source JSON shown per note."""

_GROUPS = (
    (True, "losses (--policy strict refuses these)"),
    (False, "changes that are no loss"),
)


def _snippet(value: Any) -> str:
    text = _json.dumps_str(value)
    return text if len(text) <= SNIPPET else text[: SNIPPET - 3] + "..."


def _lines(note: Note, source: Any) -> list[str]:
    out = [f"  {note.path}  {note.kind}: {note.message}"]
    if note.target is not None:
        out.append(f"      in the target at {note.target}")
    reached, value, whole = locate(source, note.path)
    if whole and reached == "$":
        out.append("      source: the payload as a whole")
    elif whole:
        out.append(f"      source: {_snippet(value)}")
    else:
        out.append(f"      source: not in the payload; nearest {reached}: {_snippet(value)}")
    return out


def explain(notes: Iterable[Note], source: Any) -> str:
    """The human-readable account of ``notes`` about the ``source`` payload (empty: no notes)."""
    notes = list(notes)
    if not notes:
        return "toolwire: exact conversion: nothing lost, nothing made up\n"
    lines: list[str] = []
    for loss, title in _GROUPS:
        group = [note for note in notes if note.loss is loss]
        if group:
            lines.append(f"{len(group)} {title}:")
            for note in group:
                lines.extend(_lines(note, source))
    return "\n".join(lines) + "\n"
