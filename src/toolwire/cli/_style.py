"""Colour on a terminal only.

Decided per stream, in this order (as CPython's own ``_colorize`` does):

1. ``NO_COLOR`` set and not empty: no colour (https://no-color.org);
2. ``FORCE_COLOR`` set and not empty: colour, even into a pipe or file;
3. ``TERM=dumb``: no colour;
4. otherwise colour when the stream is a terminal.
"""

from __future__ import annotations

import os
from typing import TextIO

__all__ = ["STYLES", "paint", "use_color"]

STYLES: dict[str, str] = {
    "error": "\033[1;31m",
    "warning": "\033[33m",
    "info": "\033[2m",
}
"""Style name -> ANSI SGR sequence."""

_RESET = "\033[0m"


def use_color(stream: TextIO) -> bool:
    """Whether to write ANSI colour to ``stream`` (see the module docstring)."""
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def paint(text: str, style: str, stream: TextIO) -> str:
    """``text`` in ``style`` (a key of :data:`STYLES`) if ``stream`` gets colour, else unchanged."""
    return f"{STYLES[style]}{text}{_RESET}" if use_color(stream) else text
