"""Deterministic ids for values a Responses payload requires but the IR lacks.

Ids are derived from stable inputs (a seed and a position), never from time or chance, so
that encoding the same IR twice gives the same payload and history stays consistent.
"""

from __future__ import annotations

import hashlib
import importlib
from collections import deque
from collections.abc import Callable
from typing import Any, Final

from toolwire.ir.notes import Notes

__all__ = ["CallIds", "derived_id", "id_seed", "seeded_id"]


def _sha1() -> Callable[[bytes], Any]:
    """CPython's built-in SHA-1 (``_sha1``), else :mod:`hashlib`'s (OpenSSL's): the same digest,
    but the built-in one starts faster, which counts for the short input of an id's seed. SHA-1
    for its 40 hex digits (the length of an id's head) at about half the instructions of
    SHA-256 (cachegrind); an id needs no more than a well-spread digest, no security."""
    try:
        return importlib.import_module("_sha1").sha1  # type: ignore[no-any-return]
    except (ImportError, AttributeError):
        return hashlib.sha1


_SHA1: Final = _sha1()  # Final: compiled, a static, not a look-up in the module's globals
_HEXDIGEST: Final = type(_SHA1(b"")).hexdigest
"""The hash type's ``hexdigest``, unbound: called on a hash object it skips the method look-up by
name a ``.hexdigest()`` call makes (compiled, about 200 instructions an id fewer, cachegrind)."""


def derived_id(prefix: str, seed: str, index: int = 0) -> str:
    """``<prefix>_<48 hex digits>`` derived from ``seed`` and ``index`` (e.g. ``msg_...``): the
    seed's :func:`id_seed`, then ``index`` as 8 hex digits (:func:`seeded_id`)."""
    return seeded_id(prefix + "_", id_seed(seed), index)


def id_seed(seed: str) -> str:
    """The 40 hex digits every id derived from ``seed`` starts with: the SHA-1 hex digest of its
    UTF-8 (lone surrogates, which only a hostile payload holds, encoded with ``surrogatepass``).
    One hash a seed: a response's items share it (as the ids OpenAI gives the items of one
    response share most of their digits) and differ in the index."""
    try:
        data = seed.encode()
    except UnicodeEncodeError:
        data = seed.encode("utf-8", "surrogatepass")
    digits: str = _HEXDIGEST(_SHA1(data))
    return digits


_INDEX: Final = [f"{n:08x}" for n in range(64)]
"""The index suffix (:func:`seeded_id`) of the first indexes, made once."""


def seeded_id(prefix: str, head: str, index: int) -> str:
    """:func:`derived_id` of the seed whose :func:`id_seed` is ``head``, ``prefix`` given with
    its underscore (``"msg_"``): ``prefix``, ``head`` and ``index`` as 8 hex digits (an index
    past ``0xffffffff``, more than any response holds, takes more digits and stays distinct)."""
    suffix = _INDEX[index] if 0 <= index < 64 else f"{index:08x}"
    return f"{prefix}{head}{suffix}"  # compiled, one string built (two concatenations make two)


class CallIds:
    """Synthesizes missing call ids in one conversation and pairs results with them.

    A call without an id gets ``call_<n>`` (``n`` counts synthesized ids in order); a result
    without a call id takes the oldest unanswered synthesized id of a call with the same tool
    name, else the oldest unanswered one.
    """

    __slots__ = ("_count", "_notes", "_pending")

    def __init__(self, notes: Notes) -> None:
        self._notes = notes
        self._count = 0
        self._pending: deque[tuple[str, str]] = deque()

    def copy(self, notes: Notes) -> CallIds:
        """An independent copy whose notes go to ``notes`` (for probing without side effects)."""
        twin = CallIds(notes)
        twin._count = self._count
        twin._pending = deque(self._pending)
        return twin

    def _new(self) -> str:
        call_id = f"call_{self._count}"
        self._count += 1
        return call_id

    def for_call(self, call_id: str | None, name: str, path: str) -> str:
        """The wire call id of a tool call (synthesized and remembered when missing)."""
        if call_id is not None:
            return call_id
        call_id = self._new()
        self._pending.append((name, call_id))
        self._notes.info(path, "synthesized", f"tool call {name!r} had no id; using {call_id!r}")
        return call_id

    def for_result(self, call_id: str | None, name: str | None, path: str) -> str:
        """The wire call id of a tool result (paired with a synthesized call id when missing)."""
        if call_id is not None:
            return call_id
        chosen = next((entry for entry in self._pending if entry[0] == name), None)
        if chosen is None and self._pending:
            chosen = self._pending[0]
        if chosen is not None:
            self._pending.remove(chosen)
            self._notes.add(path, "synthesized", f"tool result without call id paired with {chosen[1]!r}")
            return chosen[1]
        new_id = self._new()
        self._notes.add(
            path, "synthesized", f"tool result without call id and no call to pair; using {new_id!r}"
        )
        return new_id
