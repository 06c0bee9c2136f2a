"""Safety limits for walking untrusted JSON Schema documents."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import ParamSpec, TypeVar

from toolwire.errors import LimitError

__all__ = ["DEFAULT_LIMITS", "MAX_DEPTH_CEILING", "Limits", "no_recursion_error"]

MAX_DEPTH_CEILING = 128
"""Highest ``max_depth`` accepted: the transforms recurse a few frames per level and must stay
well below Python's own recursion limit (a deeper schema is refused with a LimitError first)."""

_P = ParamSpec("_P")
_R = TypeVar("_R")


def no_recursion_error(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Safety net for entry points: a ``RecursionError`` (a caller already deep in its own stack)
    becomes a :class:`~toolwire.errors.LimitError` at the entry point's ``path``."""

    @functools.wraps(fn)
    def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(*args, **kwargs)
        except RecursionError:
            path = kwargs.get("path", args[2] if len(args) > 2 else "$")
            raise LimitError("schema nested too deeply for the Python stack", path=str(path)) from None

    return guarded


@dataclass(frozen=True, slots=True)
class Limits:
    """How much of an untrusted schema the walker agrees to visit.

    Attributes:
        max_depth: deepest subschema nesting (``$.properties.a.items`` is depth 2). Deeper input
            raises :class:`~toolwire.errors.LimitError` naming the first too-deep location.
        max_nodes: most subschemas visited, counting every copy produced by inlining ``$ref``
            (so a small document whose references expand exponentially is refused too).
    """

    max_depth: int = 64
    max_nodes: int = 10_000

    def __post_init__(self) -> None:
        if not 1 <= self.max_depth <= MAX_DEPTH_CEILING:
            raise ValueError(f"max_depth must be between 1 and {MAX_DEPTH_CEILING}, got {self.max_depth}")
        if self.max_nodes < 1:
            raise ValueError(f"max_nodes must be positive, got {self.max_nodes}")


DEFAULT_LIMITS = Limits()
"""Depth 64, 10,000 subschemas: far above real tool schemas, far below anything costly."""
