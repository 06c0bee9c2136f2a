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
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Literal

import msgspec

from toolwire.errors import ConversionError

__all__ = ["Note", "NoteKind", "Notes", "Policy"]

Policy = Literal["strict", "warn", "drop"]
"""What a lossy conversion does: ``strict`` raises, ``warn`` records and logs, ``drop`` records."""

NoteKind = Literal["dropped", "approximated", "synthesized", "skipped", "renamed"]
"""What happened: a value was dropped, approximated, made up, an invalid entry skipped, a name changed."""

_POLICIES = ("strict", "warn", "drop")
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


class Notes:
    """Collects :class:`Note` objects for one conversion and applies the policy.

    Args:
        policy: ``"strict"``, ``"warn"`` (default) or ``"drop"``.
    """

    __slots__ = ("items", "policy")

    def __init__(self, policy: Policy = "warn") -> None:
        if policy not in _POLICIES:
            raise ValueError(f"policy must be one of {_POLICIES}, got {policy!r}")
        self.policy: Policy = policy
        self.items: list[Note] = []

    def add(self, path: str, kind: NoteKind, message: str, *, target: str | None = None) -> None:
        """Record a loss, or raise :class:`ConversionError` under the strict policy."""
        note = Note(path=path, kind=kind, message=message, target=target)
        if self.policy == "strict":
            raise ConversionError(f"{kind}: {message}", path=path, notes=(note,))
        self.items.append(note)
        if self.policy == "warn":
            _log.info("%s", note)

    def info(self, path: str, kind: NoteKind, message: str, *, target: str | None = None) -> None:
        """Record a change that is no loss (the module's table); it never raises."""
        self.items.append(Note(path=path, kind=kind, message=message, loss=False, target=target))

    def __iter__(self) -> Iterator[Note]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return True

    def __repr__(self) -> str:
        return f"Notes(policy={self.policy!r}, items={self.items!r})"
