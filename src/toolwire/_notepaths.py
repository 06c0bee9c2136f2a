"""Note paths in the user's coordinates, for the notes the encoders write at a target path.

A note's ``path`` points into the payload the user passed in. An encoder that makes up a value
for the target (``max_tokens``, a ``created`` time, a usage count the schema requires) knows only
where the value goes. Such a no-loss note whose path the source does not hold but the output
does is moved: ``target`` gets that path, and ``path`` becomes ``$`` (the source as a whole has
no such value). Loss notes are left as they are: ``strict`` raises them while encoding, so their
path is the one the refusal carries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from toolwire._jsonpath import locate
from toolwire.ir.notes import Note

__all__ = ["in_user_coordinates"]


def _moved(note: Note, source: Any, output: Any) -> Note:
    if note.loss or note.target is not None or note.path == "$" or locate(source, note.path)[2]:
        return note
    if not locate(output, note.path)[2]:
        return note
    return msgspec.structs.replace(note, path="$", target=note.path)


def in_user_coordinates(notes: Iterable[Note], source: Any, output: Any) -> list[Note]:
    """``notes`` of a conversion of ``source`` into ``output``, target-only paths moved to ``target``."""
    return [_moved(note, source, output) for note in notes]
