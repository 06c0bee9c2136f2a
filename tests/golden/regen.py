"""Regenerate the per-format golden files from each case's ``ir.json`` (run by hand).

    .venv/bin/python -m tests.golden.regen [CASE ...]

Writes ``<case>/<kind>/<format>.json`` = the current encoders' rendering of ``ir.json``.
The goldens are a specification, not a snapshot: review every changed file against the
provider specs before keeping it (``git diff tests/golden``).
"""

from __future__ import annotations

import json
import sys

from tests.golden._cases import cases, encode
from toolwire.ir import FORMATS, Notes


def main(names: list[str]) -> None:
    """Write the golden files of the named cases (all when none are named)."""
    for case in cases():
        if names and case.name not in names:
            continue
        ir = case.ir()
        for fmt in FORMATS:
            notes = Notes("drop")
            payload = encode(ir, fmt, notes)
            text = json.dumps(payload, indent=2, ensure_ascii=False) + "\n"
            path = case.golden_path(fmt)
            changed = not path.exists() or path.read_text(encoding="utf-8") != text
            path.write_text(text, encoding="utf-8")
            print(f"{'changed' if changed else 'same   '} {path.relative_to(case.directory.parent.parent)}")
            for note in notes:
                print(f"          note {note.path} {note.kind}: {note.message}")


if __name__ == "__main__":
    main(sys.argv[1:])
