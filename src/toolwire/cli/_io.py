"""Input/output helpers shared by CLI commands."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from toolwire import _json
from toolwire.ir.notes import Note
from toolwire.translate import FORMAT_CHOICES

__all__ = ["FORMAT_CHOICES", "print_json", "print_notes", "read_json"]


def read_json(source: str) -> Any:
    """Parse JSON from a file path, or from standard input when ``source`` is ``-``."""
    data = sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes()
    return _json.loads(data)


def print_json(value: Any) -> None:
    """Print ``value`` as indented JSON on standard output."""
    import json

    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


def print_notes(notes: Iterable[Note], mode: str = "text") -> None:
    """Print conversion notes to standard error (``text``) or as JSON lines (``json``)."""
    for note in notes:
        if mode == "json":
            sys.stderr.write(_json.dumps_str({"path": note.path, "kind": note.kind, "message": note.message}))
            sys.stderr.write("\n")
        else:
            sys.stderr.write(f"note: {note}\n")
