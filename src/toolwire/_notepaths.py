"""The last check of a conversion's notes: a ``target`` the output does not hold is cleared.

Paths are mapped to the payload the user passed in when a note is made (:mod:`toolwire.ir._where`);
a note about a value made up for the output points at ``$`` and names the output path in
``target``. This pass only clears the ``target`` of a no-loss note the output turned out not to hold (an IR
coordinate nothing in the output corresponds to); a loss note is as ``strict`` raised it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from toolwire._jsonpath import holds
from toolwire.ir.notes import Note

__all__ = ["in_user_coordinates"]


def _checked(note: Note, output: Any) -> Note:
    if note.loss or note.target is None or holds(output, note.target):
        return note
    return msgspec.structs.replace(note, target=None)


def in_user_coordinates(notes: Iterable[Note], source: Any, output: Any) -> list[Note]:
    """``notes`` of a conversion of ``source`` into ``output``, with targets the output holds."""
    return [_checked(note, output) for note in notes]
