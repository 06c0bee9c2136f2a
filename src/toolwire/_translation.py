"""The :class:`Translation` a one-shot conversion returns, its notes mapped when first read.

Under the ``drop`` policy a conversion's notes wait, as they were made, in their collector
(:mod:`toolwire.ir.notes`); :func:`translation` puts that collector in the result's ``notes``
slot, and the ``notes`` property maps them (and checks their ``target`` against the output)
on the first read, then keeps the tuple and lets the collector, the source and its IR go. A
pair lane's result (:func:`lane_translation`) takes its ``ir`` (and notes, when the general path
makes some) from the general path's translation of the same request, made on first read.
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


class _Later:
    """What a :class:`Translation` field's slot holds until the field is first read: the
    property :func:`_deferred` puts on the field calls :meth:`resolve` once and keeps its value."""

    __slots__ = ()

    def resolve(self, result: Translation, name: str) -> Any:
        """The value of field ``name`` of ``result``."""
        raise NotImplementedError


class _Unread(_Later):
    """``notes`` not mapped yet: the collector (``drop``) and the payload they are about."""

    __slots__ = ("notes", "source")

    def __init__(self, notes: Notes, source: dict[str, Any]) -> None:
        self.notes = notes
        self.source = source

    def resolve(self, result: Translation, name: str) -> tuple[Note, ...]:
        return tuple(in_user_coordinates(self.notes.items, self.source, result.payload))


class _Once(_Later):
    """The translation the general path returns for a pair lane's request, made once, when one
    of the lane translation's deferred fields is first read: ``build[0](*build[1:])``. The lane
    translation's ``ir`` slot holds it, and its ``notes`` slot too when the general path notes
    something: each resolves to that field of the general path's translation."""

    __slots__ = ("build", "value")

    def __init__(self, build: tuple[Any, ...]) -> None:
        self.build: tuple[Any, ...] | None = build
        self.value: Translation | None = None

    def get(self) -> Translation:
        build = self.build
        if build is not None:  # not built yet (``value`` unset: see lane_translation)
            self.value = build[0](*build[1:])
            self.build = None
        value = self.value
        assert value is not None
        return value

    def resolve(self, result: Translation, name: str) -> Any:
        return getattr(self.get(), name)


_READING = threading.RLock()  # two threads reading one translation's field compute it once; reentrant: a
# pair lane's field reads a field of the general path's translation


def _deferred(name: str) -> Any:
    """Make field ``name`` of :class:`Translation` a property over its slot that resolves a
    :class:`_Later` on the first read, then keeps the value (and lets what it held go); returns
    the slot. Frozen still: the dataclass's ``__setattr__`` refuses assignment before the
    property is reached, and ``__init__``, copies and pickling set the slot through it."""
    slot: Any = Translation.__dict__[name]

    def read(self: Translation) -> Any:
        value = slot.__get__(self, Translation)
        if isinstance(value, _Later):
            with _READING:
                value = slot.__get__(self, Translation)
                if isinstance(value, _Later):
                    value = value.resolve(self, name)
                    slot.__set__(self, value)
        return value

    setattr(Translation, name, property(read, slot.__set__, doc=f"``{name}`` (computed on first read)."))
    return slot


_NOTES_SLOT: Any = _deferred("notes")
_IR_SLOT: Any = _deferred("ir")
_PAYLOAD_SLOT: Any = Translation.__dict__["payload"]
_new = object.__new__  # a lane's Translation: its three slots set straight, not through the
# frozen dataclass's __init__ (object.__setattr__ per field, two of them properties), by the slots'
# bound setters (a look-up less each: a lane's whole call is a few µs)
_set_payload: Any = _PAYLOAD_SLOT.__set__
_set_ir: Any = _IR_SLOT.__set__
_set_notes: Any = _NOTES_SLOT.__set__
_set_build: Any = _Once.__dict__["build"].__set__


def translation(out: dict[str, Any], notes: Notes, source: dict[str, Any], ir: Any) -> Translation:
    """The :class:`Translation` of ``source`` into ``out``; notes still unmapped (``drop``) are
    mapped when first read."""
    if notes.unmapped:
        result = Translation(out, (), ir)
        _NOTES_SLOT.__set__(result, _Unread(notes, source))
        return result
    items = notes.items
    return Translation(out, tuple(in_user_coordinates(items, source, out)) if items else (), ir)


def lane_translation(out: dict[str, Any], build: tuple[Any, ...], noted: bool) -> Translation:
    """The :class:`Translation` of a pair lane's ``out``. Its ``ir``, and its ``notes`` when
    ``noted`` (else none), are those of the general path's translation ``build[0](*build[1:])``,
    made when one of them is first read."""
    result: Translation = _new(Translation)
    once: _Once = _new(_Once)  # its build set straight: no __init__ call (``value`` set by get)
    _set_build(once, build)
    _set_payload(result, out)
    _set_ir(result, once)
    _set_notes(result, once if noted else ())
    return result
