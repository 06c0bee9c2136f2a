"""Whether the installed toolwire is the opt-in mypyc build (``make compiled``).

A compiled module calls its own functions and methods directly, so a test that counts calls or
turns a lane off by replacing one (``monkeypatch.setattr`` on a module, a method set on an
instance) cannot reach them there; such a test is marked :data:`pure_only` and runs in the
pure-Python build, which runs the same code.
"""

from __future__ import annotations

import pytest

import toolwire.formats._wire

COMPILED = not (toolwire.formats._wire.__file__ or "").endswith(".py")
"""The format codecs are compiled extension modules."""

pure_only = pytest.mark.skipif(COMPILED, reason="replaces functions, which compiled code calls directly")
"""Marks a test that replaces a function or method to count its calls or turn it off."""
