"""Shared helpers for the framing tests: feeding strategies."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol


class Decoder(Protocol):
    def feed(self, data: bytes) -> Sequence[Any]: ...
    def close(self) -> Sequence[Any]: ...


def feed_whole(make: Callable[[], Decoder], raw: bytes) -> list[Any]:
    """Feed ``raw`` in one chunk, then close."""
    dec = make()
    return [*dec.feed(raw), *dec.close()]


def feed_bytewise(make: Callable[[], Decoder], raw: bytes) -> list[Any]:
    """Feed ``raw`` one byte at a time, then close."""
    dec = make()
    out: list[Any] = []
    for i in range(len(raw)):
        out.extend(dec.feed(raw[i : i + 1]))
    return [*out, *dec.close()]


def feed_split(make: Callable[[], Decoder], raw: bytes, cuts: Sequence[int]) -> list[Any]:
    """Feed ``raw`` cut at the given offsets (any order, duplicates give empty chunks)."""
    dec = make()
    out: list[Any] = []
    start = 0
    for cut in sorted(min(max(c, 0), len(raw)) for c in cuts):
        out.extend(dec.feed(raw[start:cut]))
        start = cut
    out.extend(dec.feed(raw[start:]))
    return [*out, *dec.close()]
