"""The Gemini pair lane: its reader (:mod:`.gemini_read`) and writer (:mod:`.gemini_write`)."""

from __future__ import annotations

from toolwire._plain.gemini_read import read
from toolwire._plain.gemini_write import write

__all__ = ["read", "write"]
