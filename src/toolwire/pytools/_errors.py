"""pydantic validation errors as a :class:`PayloadError` whose path names the bad argument."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from toolwire.errors import PayloadError
from toolwire.formats._wire import child

__all__ = ["validation_failure"]

_MAX_INPUT = 60


def validation_failure(exc: ValidationError, data: Any, root: str = "$") -> PayloadError:
    """A :class:`PayloadError` at the first bad argument, listing every problem found.

    pydantic locations mix data keys with validator names (union members, ``[key]``);
    only the segments that exist in ``data`` (plus the name of a missing field) make it
    into the JSON path.
    """
    problems: dict[str, list[str]] = {}
    for error in exc.errors(include_url=False):
        path = locate(error["loc"], error["type"], data, root)
        problems.setdefault(path, []).append(_describe(error))
    (first, messages), *rest = problems.items()
    message = " or ".join(dict.fromkeys(messages))
    if rest:
        others = "; ".join(f"{path}: {' or '.join(dict.fromkeys(msgs))}" for path, msgs in rest)
        message = f"{message} (also {others})"
    return PayloadError(message, path=first)


def locate(loc: tuple[int | str, ...], error_type: str, data: Any, root: str = "$") -> str:
    """The JSON path in ``data`` of a pydantic error location."""
    path, node = root, data
    last = len(loc) - 1
    for index, segment in enumerate(loc):
        if _has(node, segment):
            path, node = child(path, segment), node[segment]
        elif index == last and error_type == "missing" and isinstance(segment, str):
            path = child(path, segment)
    return path


def _has(node: Any, segment: int | str) -> bool:
    """Whether ``segment`` is a key of the JSON object (or an index of the JSON array) ``node``."""
    if isinstance(node, dict):
        return isinstance(segment, str) and segment in node
    return isinstance(node, list) and isinstance(segment, int) and 0 <= segment < len(node)


def _describe(error: Any) -> str:
    if error["type"] == "missing":
        return "required but missing"
    if error["type"] == "extra_forbidden":
        return "unexpected field"
    shown = repr(error.get("input"))
    if len(shown) > _MAX_INPUT:
        shown = shown[: _MAX_INPUT - 3] + "..."
    return f"{error['msg']} (got {shown})"
