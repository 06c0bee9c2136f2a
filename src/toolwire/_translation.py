"""The :class:`Translation` a one-shot conversion returns, its lazy fields made when first read.

Under the ``drop`` policy a conversion's notes wait, as they were made, in their collector
(:mod:`toolwire.ir.notes`): :func:`translation` leaves the result's ``notes`` slot unset and
keeps the collector in its private ``_later`` slot; the first read of ``notes`` finds the slot
unset (``__getattr__``) and maps them (checking their ``target`` against the output), keeps the
tuple in the slot and lets the collector and the source go. A pair lane's result
(:func:`lane_translation`) leaves ``ir`` unset too (and ``notes`` when the general path makes
some): ``_later`` holds how to make the general path's translation of the same payload, made
on the first read of either. A field once set is a plain slot read, no call.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from toolwire._notepaths import in_user_coordinates
from toolwire.ir.notes import Note, Notes

__all__ = ["Translation", "lane_translation", "translation"]


class _Pending:
    """The private slot of :class:`Translation` (a base's: not a dataclass field): what makes its
    unset fields on their first read (a :class:`_Unread`, or a lane's build tuple)."""

    __slots__ = ("_later",)


@dataclass(frozen=True, slots=True)
class Translation(_Pending):
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

    if not TYPE_CHECKING:  # (for type checkers, a typo'd attribute stays an error)

        def __getattr__(self, name: str) -> Any:
            """A field whose slot is unset: made now (only reached when a slot read fails)."""
            if name == "notes" or name == "ir":
                return _resolve(self, name)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


class _Unread:
    """``notes`` not mapped yet: the collector (``drop``), the payload they are about and the
    output they were made for."""

    __slots__ = ("notes", "out", "source")

    def __init__(self, notes: Notes, source: dict[str, Any], out: dict[str, Any]) -> None:
        self.notes = notes
        self.source = source
        self.out = out

    def mapped(self) -> tuple[Note, ...]:
        return tuple(in_user_coordinates(self.notes.items, self.source, self.out))


_READING = threading.RLock()  # two threads reading one translation's field compute it once; reentrant: a
# pair lane's field reads a field of the general path's translation

_MISSING: Any = object()
_SLOTS: dict[str, Any] = {name: Translation.__dict__[name] for name in ("payload", "notes", "ir")}
_LATER: Any = _Pending.__dict__["_later"]
_new = object.__new__  # a lane's Translation: its slots set straight, not through the frozen
# dataclass's __init__ (object.__setattr__ per field), by the slots' bound setters (a look-up less
# each: a lane's whole call is a few µs)
_set_payload: Any = _SLOTS["payload"].__set__
_set_notes: Any = _SLOTS["notes"].__set__
_set_later: Any = _LATER.__set__


def _slot(result: Translation, descriptor: Any) -> Any:
    """What ``result``'s slot holds, ``_MISSING`` when it is unset."""
    try:
        return descriptor.__get__(result, Translation)
    except AttributeError:
        return _MISSING


def _resolve(result: Translation, name: str) -> Any:
    """Field ``name`` of ``result``, made from its ``_later`` (once, under the lock) and kept."""
    with _READING:
        value = _slot(result, _SLOTS[name])
        if value is not _MISSING:  # another thread made it
            return value
        later = _slot(result, _LATER)
        if later is _MISSING:  # not a field made later (a bare instance: object.__new__)
            raise AttributeError(f"'Translation' object has no attribute {name!r}")
        if type(later) is _Unread:
            _set_notes(result, later.mapped())
            _LATER.__delete__(result)
        else:  # a lane's: the general path's translation, its fields taken as they stand
            made = later[0](*later[1:])
            _SLOTS["ir"].__set__(result, made.ir)
            if _slot(result, _SLOTS["notes"]) is _MISSING:
                notes = _slot(made, _SLOTS["notes"])
                if notes is _MISSING:  # not mapped yet: mapped when read, as the general path's
                    _set_later(result, _slot(made, _LATER))
                else:
                    _set_notes(result, notes)
                    _LATER.__delete__(result)
            else:
                _LATER.__delete__(result)
        return getattr(result, name)


def translation(out: dict[str, Any], notes: Notes, source: dict[str, Any], ir: Any) -> Translation:
    """The :class:`Translation` of ``source`` into ``out``; notes still unmapped (``drop``) are
    mapped when first read."""
    if notes.unmapped:
        result: Translation = _new(Translation)
        _set_payload(result, out)
        _SLOTS["ir"].__set__(result, ir)
        _set_later(result, _Unread(notes, source, out))
        return result
    items = notes.items
    return Translation(out, tuple(in_user_coordinates(items, source, out)) if items else (), ir)


def lane_translation(out: dict[str, Any], build: tuple[Any, ...], noted: bool) -> Translation:
    """The :class:`Translation` of a pair lane's ``out``. Its ``ir``, and its ``notes`` when
    ``noted`` (else none), are those of the general path's translation ``build[0](*build[1:])``,
    made when one of them is first read."""
    result: Translation = _new(Translation)
    _set_payload(result, out)
    _set_later(result, build)
    if not noted:
        _set_notes(result, ())
    return result
