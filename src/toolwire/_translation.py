"""The :class:`Translation` a one-shot conversion returns, its notes mapped when first read.

Under the ``drop`` policy a conversion's notes wait, as they were made, in their collector
(:mod:`toolwire.ir.notes`); :func:`translation` puts that collector in the result's ``notes``
slot, and the ``notes`` property maps them (and checks their ``target`` against the output)
on the first read, then keeps the tuple and lets the collector, the source and its IR go.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from toolwire._notepaths import in_user_coordinates
from toolwire.ir.notes import Note, Notes

__all__ = ["Translation", "lane_translation", "translation"]


@dataclass(frozen=True, slots=True)
class Translation:
    """The result of a conversion: the payload and the notes of what was not carried exactly.

    Under the ``drop`` policy, :func:`~toolwire.translate.translate_request` and
    ``translate_response`` map the notes' paths to the payload passed in when ``notes`` is first
    read (most callers never read them; see :mod:`toolwire.ir.notes`): until then that payload
    and ``payload`` must not change. Reading gives the same tuple every time; equality, ``repr``,
    copies and pickling read it.
    """

    payload: dict[str, Any]
    notes: tuple[Note, ...] = ()
    ir: Any = None


class _Unread:
    """What a :class:`Translation`'s ``notes`` slot holds until the notes are first read."""

    __slots__ = ("notes", "source")

    def __init__(self, notes: Notes, source: dict[str, Any]) -> None:
        self.notes = notes
        self.source = source

    def read(self, output: dict[str, Any]) -> tuple[Note, ...]:
        return tuple(in_user_coordinates(self.notes.items, self.source, output))


_NOTES_SLOT: Any = Translation.__dict__["notes"]  # the slot; ``notes`` becomes the property below
_READING = threading.Lock()  # two threads reading one translation's notes map them once


def _read_notes(self: Translation) -> tuple[Note, ...]:
    notes = _NOTES_SLOT.__get__(self, Translation)
    if type(notes) is _Unread:
        with _READING:
            notes = _NOTES_SLOT.__get__(self, Translation)
            if type(notes) is _Unread:
                notes = notes.read(self.payload)
                _NOTES_SLOT.__set__(self, notes)  # and the collector, the source, the IR go
    return notes  # type: ignore[no-any-return]


setattr(  # noqa: B010 (mypy: the field keeps its declared type)
    Translation,
    "notes",
    property(_read_notes, _NOTES_SLOT.__set__, doc="The notes, in order (mapped when first read)."),
)


def translation(out: dict[str, Any], notes: Notes, source: dict[str, Any], ir: Any) -> Translation:
    """The :class:`Translation` of ``source`` into ``out``; notes still unmapped (``drop``) are
    mapped when first read."""
    if notes.unmapped:
        result = Translation(out, (), ir)
        _NOTES_SLOT.__set__(result, _Unread(notes, source))
        return result
    items = notes.items
    return Translation(out, tuple(in_user_coordinates(items, source, out)) if items else (), ir)


_PAYLOAD_SLOT: Any = Translation.__dict__["payload"]
_IR_SLOT: Any = Translation.__dict__["ir"]


class _LaneTranslation(Translation):
    """A :class:`Translation` a pair lane wrote (``toolwire._pair_lane``): no note, and its
    ``ir`` (the request the general path would have encoded) built on first read."""

    __slots__ = ("_build",)

    def __init__(
        self, payload: dict[str, Any], notes: tuple[Note, ...] = (), ir: Any = None, *, build: Any = None
    ) -> None:  # the slots set directly: a frozen dataclass sets each through object.__setattr__
        _PAYLOAD_SLOT.__set__(self, payload)
        _NOTES_SLOT.__set__(self, notes)
        _IR_SLOT.__set__(self, ir)
        _BUILD_SLOT.__set__(self, build)

    @property
    def ir(self) -> Any:
        build = _BUILD_SLOT.__get__(self, _LaneTranslation)
        if build is not None:
            with _READING:
                build = _BUILD_SLOT.__get__(self, _LaneTranslation)
                if build is not None:
                    _IR_SLOT.__set__(self, build[0](*build[1:]))
                    _BUILD_SLOT.__set__(self, None)
        return _IR_SLOT.__get__(self, Translation)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Translation):
            return NotImplemented
        return (self.payload, self.notes, self.ir) == (other.payload, other.notes, other.ir)

    __hash__ = Translation.__hash__

    def __repr__(self) -> str:
        return repr(Translation(self.payload, self.notes, self.ir))

    def __reduce__(self) -> Any:  # pickled as the plain Translation it stands for
        return Translation, (self.payload, self.notes, self.ir)


_BUILD_SLOT: Any = _LaneTranslation.__dict__["_build"]


def lane_translation(out: dict[str, Any], build: tuple[Any, ...]) -> Translation:
    """The :class:`Translation` of a pair lane's ``out``: no note; its ``ir`` is ``build[0](*build[1:])``,
    called on first read."""
    return _LaneTranslation(out, build=build)
