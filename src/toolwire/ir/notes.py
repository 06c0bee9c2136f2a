"""Conversion notes and the policy that decides what a lossy conversion does.

Every decode/encode takes a :class:`Notes` collector. When a conversion drops,
approximates or synthesizes something it calls :meth:`Notes.add`; under
``policy="strict"`` that raises :class:`~toolwire.errors.ConversionError` instead
of recording, under ``"warn"`` the note is recorded and logged at INFO level (the
notes are the report; see :mod:`toolwire._logging` for why not WARNING),
under ``"drop"`` it is recorded silently.

What is a loss is one table; a conversion records a loss with :meth:`Notes.add`
(``strict`` refuses it) and anything else with :meth:`Notes.info` (``strict`` sends it, noted):

=======================================================  =====  ===============================
What the conversion did                                  loss   example
=======================================================  =====  ===============================
made up a value the target requires, changing nothing    no     ``max_tokens`` 4096, a call id
renamed or reordered what the :class:`Exchange` undoes   no     a sanitized tool name
left out a field whose value is ``null``                 no     (not even noted)
left out a timestamp the target has no field for         no     Chat ``created`` for Gemini
dropped a value the target cannot hold                   yes    ``logit_bias``, ``service_tier``
approximated a value (a near equivalent)                 yes    an effort sent as a budget
moved content so its meaning or order changes            yes    text between tool calls
applied a documented fallback for missing state          yes    thinking off for one turn
skipped an invalid entry                                 yes    an orphan tool result
=======================================================  =====  ===============================

Refusals (a payload that cannot be made valid) raise :class:`~toolwire.errors.ConversionError`
under every policy.

A note's ``path`` is in the payload the user passed in. Decoders write source paths; what runs
after decoding writes IR (or output) coordinates, which are mapped to the source once
:meth:`Notes.decoded` was called, using what decoders recorded with :meth:`Notes.came_from`
(see :mod:`toolwire.ir._where`). When: under ``strict`` and ``warn``, as :meth:`Notes.add` /
:meth:`Notes.info` record the note (a refusal and a log line name the mapped path); under
``drop`` nobody sees a note before reading :attr:`Notes.items` (or iterating), so the note is
kept as it was made and all are mapped on that first read, in one batch, to the very notes the
eager mapping gives (mapping cost about a third of a large translation that noted a tool
result per message, and most callers never read notes). The mapping reads the source payload
(and, for the first note about an IR message, part or tool, the decoded IR) then: it must not
have changed since it was translated. A stream's notes (:data:`~toolwire.ir._where.STREAM`)
are mapped as they are made: the origins of its parts grow with the stream.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterator
from typing import Any, Literal, get_args

import msgspec

from toolwire.errors import ConversionError, ToolwireError
from toolwire.ir._where import STREAM, Coord, Where, stream_path

__all__ = ["Note", "NoteKind", "Notes", "Policy"]

Policy = Literal["strict", "warn", "drop"]
"""What a lossy conversion does: ``strict`` raises, ``warn`` records and logs, ``drop`` records."""

NoteKind = Literal["dropped", "approximated", "synthesized", "skipped", "renamed"]
"""What happened: a value was dropped, approximated, made up, an invalid entry skipped, a name changed."""

_POLICIES = get_args(Policy)  # ("strict", "warn", "drop")
_log = logging.getLogger("toolwire.convert")


class Note(msgspec.Struct, frozen=True, kw_only=True):
    """One thing a conversion did not carry over exactly.

    Attributes:
        path: JSON path in the *source* payload the note is about.
        kind: what happened (see :data:`NoteKind`).
        message: a sentence a person can act on.
        loss: whether meaning changed (the module's table): ``strict`` refuses exactly these.
        target: JSON path in the *target* payload, when it helps (a value made up there).
    """

    path: str
    kind: NoteKind
    message: str
    loss: bool = True
    target: str | None = None

    def __str__(self) -> str:
        return f"{self.path}: {self.kind}: {self.message}"


_Made = tuple[str, NoteKind, str, bool, "str | None"]
"""A note as it was made, not mapped yet: path, kind, message, loss, target."""


class Notes:
    """Collects :class:`Note` objects for one conversion and applies the policy.

    Args:
        policy: ``"strict"``, ``"warn"`` (default) or ``"drop"``.
    """

    __slots__ = ("_decoded", "_items", "_later", "origins", "policy", "recording", "where")

    def __init__(self, policy: Policy = "warn") -> None:
        if policy not in _POLICIES:
            raise ValueError(f"policy must be one of {_POLICIES}, got {policy!r}")
        self.policy: Policy = policy
        self._items: list[Note] = []
        self._later: list[_Made] | None = None
        """Notes made since :meth:`decoded` under ``drop``, mapped when :attr:`items` is read
        (``None``: notes are mapped as they are made)."""
        self.origins: dict[Coord, Coord] = {}
        """IR coordinate -> source coordinate, recorded by decoders (:meth:`came_from`)."""
        self.recording = False
        """Whether :attr:`origins` are being recorded (in the ``again`` of :meth:`decoded`, run
        when a note needs them: decoding itself records nothing)."""
        self.where: Where | None = None
        self._decoded: tuple[Any, str | None, str | None, Callable[[Notes], object] | None] | None = None

    @property
    def items(self) -> list[Note]:
        """The notes recorded, in order, in the coordinates of the payload passed in (notes put
        off by the ``drop`` policy are mapped now: module docstring)."""
        if self._later:
            self._map_later()
        return self._items

    @property
    def unmapped(self) -> bool:
        """Whether notes wait to be mapped (``drop``): reading :attr:`items` maps them."""
        return bool(self._later)

    def came_from(self, ir: Coord, source: Coord) -> None:
        """Record (decoders, when :attr:`recording`) that the IR element at ``ir`` came from
        ``source`` in the payload: ``notes.came_from(("messages", 1, "parts", 0), ("messages",
        0, "content", 1))``. Record every IR message, part and tool whose place differs from
        the source's; a response's parts are ``("parts", j)``."""
        self.origins[ir] = source

    def came_from_parts(self, ir: Coord, source: Coord, count: int, skipped: Collection[int] = ()) -> None:
        """Record that the ``count`` parts of the IR message at ``ir`` (``()``: a response) came
        from the array at ``source``, in order, leaving out the indexes in ``skipped``."""
        origins = self.origins
        index = 0
        for j in range(count):
            while index in skipped:
                index += 1
            origins[(*ir, "parts", j)] = (*source, index)
            index += 1

    def decoded(
        self,
        source: Any,
        source_format: str | None = None,
        target_format: str | None = None,
        again: Callable[[Notes], object] | None = None,
    ) -> None:
        """Decoding of ``source`` is done: paths of later notes are mapped to it (module docstring);
        under ``drop``, when :attr:`items` is first read, which must find ``source`` as it is now.

        Args:
            again: records where the decoded IR came from into the :class:`Notes` it is given
                (the format's ``record_request`` / ``record_response``, or its decoder run
                again); called with a recording collector the first time a note names an IR
                message, part or tool, so that nothing is recorded when no note needs it.
        """
        if self._later:  # decoded again: the notes so far map to the first source
            self._map_later()
        self.where = None  # made by the first note (most conversions note nothing to map)
        self._decoded = (source, source_format, target_format, again)
        self._later = [] if self.policy == "drop" and source is not STREAM else None

    def _place(self, path: str, target: str | None) -> tuple[str, str | None]:
        if path == "$":  # the root maps to itself
            return path, target
        where = self.where
        if where is None:
            decoded = self._decoded
            if decoded is None:
                return path, target
            if decoded[0] is STREAM:  # what ``Where.map`` gives a stream's note, with no Where
                return stream_path(path, self.origins), target
            where = self.where = _where(*decoded)
        mapped, output = where.map(path, self.origins)
        return mapped, target if target is not None else output

    def _map_later(self) -> None:
        """Map the notes ``drop`` put off, in the order they were made, after those before them."""
        later = self._later
        self._later = []
        items = self._items
        place = self._place
        for path, kind, message, loss, target in later or ():
            path, target = place(path, target)
            items.append(Note(path=path, kind=kind, message=message, loss=loss, target=target))

    def add(self, path: str, kind: NoteKind, message: str, *, target: str | None = None) -> None:
        """Record a loss, or raise :class:`ConversionError` under the strict policy."""
        later = self._later
        if later is not None:  # "drop" after decoding: mapped when read
            later.append((path, kind, message, True, target))
            return
        path, target = self._place(path, target)
        note = Note(path=path, kind=kind, message=message, target=target)
        if self.policy == "strict":
            raise ConversionError(f"{kind}: {message}", path=path, notes=(note,))
        self._items.append(note)
        if self.policy == "warn":
            _log.info("%s", note)

    def info(self, path: str, kind: NoteKind, message: str, *, target: str | None = None) -> None:
        """Record a change that is no loss (the module's table); it never raises."""
        later = self._later
        if later is not None:  # "drop" after decoding: mapped when read
            later.append((path, kind, message, False, target))
            return
        path, target = self._place(path, target)
        self._items.append(Note(path=path, kind=kind, message=message, loss=False, target=target))

    def __iter__(self) -> Iterator[Note]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self._items) + len(self._later or ())

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"Notes(policy={self.policy!r}, items={self.items!r})"


def _where(
    source: Any, source_format: str | None, target_format: str | None, again: Callable[[Notes], object] | None
) -> Where:
    """The :class:`Where` of :meth:`Notes.decoded`'s arguments."""
    load = None
    if again is not None:

        def load(origins: dict[Coord, Coord]) -> None:
            recorder = Notes("drop")
            recorder.recording = True
            try:
                again(recorder)
            except ToolwireError:  # it decoded once already: not expected
                return
            origins.update(recorder.origins)

    return Where(source, source_format, target_format, load)
