"""Mutations of valid payloads for the broken-payload corpora: each breaks exactly one rule."""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Key = str | int
Mutation = Callable[[dict[str, Any]], None]


def _parent(doc: Any, path: tuple[Key, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def put(path: tuple[Key, ...], value: Any) -> Mutation:
    """Set (or add) the value at ``path``."""

    def apply(doc: dict[str, Any]) -> None:
        _parent(doc, path)[path[-1]] = copy.deepcopy(value)

    return apply


def drop(path: tuple[Key, ...]) -> Mutation:
    """Delete the value at ``path``."""

    def apply(doc: dict[str, Any]) -> None:
        del _parent(doc, path)[path[-1]]

    return apply


def append(path: tuple[Key, ...], value: Any) -> Mutation:
    """Append ``value`` to the array at ``path``."""

    def apply(doc: dict[str, Any]) -> None:
        target = doc
        for key in path:
            target = target[key]
        target.append(copy.deepcopy(value))

    return apply


def copy_to_end(src: tuple[Key, ...], dst: tuple[Key, ...]) -> Mutation:
    """Append a copy of the value at ``src`` to the array at ``dst``."""

    def apply(doc: dict[str, Any]) -> None:
        value = _parent(doc, src)[src[-1]]
        append(dst, value)(doc)

    return apply


def many(*steps: Mutation) -> Mutation:
    """Several edits that together break one rule."""

    def apply(doc: dict[str, Any]) -> None:
        for step in steps:
            step(doc)

    return apply


@dataclass(frozen=True)
class Case:
    """A broken payload: how to derive it, and the (code, path) the validator must report."""

    name: str
    mutate: Mutation
    code: str
    path: str
    kind: str = "request"

    def build(self, base: dict[str, Any]) -> dict[str, Any]:
        doc = copy.deepcopy(base)
        self.mutate(doc)
        return doc
