"""Test data shipped with the repository: recorded provider payloads and official API specs.

``FIXTURES`` is the recorded-payload corpus (``fixtures/PROVENANCE.md`` names every source, its
commit and license; ``fixtures/LICENSES/`` holds the license texts). ``SPECS`` holds the official
API specs the validator tables are checked against (``specs/PROVENANCE.md``). Set
``TOOLWIRE_FIXTURES`` to run the tests on another corpus of the same layout.
"""

from __future__ import annotations

import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPECS = HERE / "specs"


def fixtures_dir() -> Path:
    """The fixture corpus: ``$TOOLWIRE_FIXTURES`` when set, else the copy in this folder."""
    env = os.environ.get("TOOLWIRE_FIXTURES")
    return Path(env) if env else HERE / "fixtures"
