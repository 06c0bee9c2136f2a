"""The message for a name that is not one of the choices, with a suggestion when one is close."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["unknown_choice"]


def unknown_choice(kind: str, name: object, choices: Iterable[str], expected: Iterable[str]) -> str:
    """``unknown format 'antropic' (did you mean 'anthropic'?); expected one of ...``.

    The suggestion is the only choice that starts with ``name`` (``azure`` -> ``azure-openai``),
    else the closest by :func:`difflib.get_close_matches`, else none.

    Args:
        kind: what the name names (``format``, ``provider``).
        name: the name given.
        choices: every accepted spelling, aliases included; the suggestion is one of them.
        expected: the names to list (the canonical ones).

    Example:
        >>> unknown_choice("format", "antropic", ["anthropic", "gemini"], ["anthropic", "gemini"])
        "unknown format 'antropic' (did you mean 'anthropic'?); expected one of anthropic, gemini"
    """
    close = _closest(name, list(choices)) if isinstance(name, str) and name else None
    hint = f" (did you mean {close!r}?)" if close else ""
    return f"unknown {kind} {name!r}{hint}; expected one of {', '.join(expected)}"


def _closest(name: str, choices: list[str]) -> str | None:
    prefixed = [choice for choice in choices if choice.startswith(name.lower())]
    if len(prefixed) == 1:
        return prefixed[0]
    matches = difflib.get_close_matches(name.lower(), choices, n=1)
    return matches[0] if matches else None
