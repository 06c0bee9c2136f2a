"""The message for a name that is not one of the choices, with a suggestion when one is close."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["unknown_choice"]


def unknown_choice(kind: str, name: object, choices: Iterable[str], expected: Iterable[str]) -> str:
    """``unknown format 'antropic' (did you mean 'anthropic'?); expected one of ...``.

    Args:
        kind: what the name names (``format``, ``provider``).
        name: the name given.
        choices: every accepted spelling, aliases included; the suggestion is the closest of them.
        expected: the names to list (the canonical ones).

    Example:
        >>> unknown_choice("format", "antropic", ["anthropic", "gemini"], ["anthropic", "gemini"])
        "unknown format 'antropic' (did you mean 'anthropic'?); expected one of anthropic, gemini"
    """
    close = difflib.get_close_matches(name, list(choices), n=1) if isinstance(name, str) else []
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    return f"unknown {kind} {name!r}{hint}; expected one of {', '.join(expected)}"
