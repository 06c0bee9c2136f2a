"""JSON Schema compiler: one walker, per-target transforms.

- :func:`walk`/:func:`transform` visit every subschema location with limits for untrusted input
  (:class:`Limits`: depth 64, 10,000 subschemas by default; ``LimitError``, never ``RecursionError``).
- :func:`resolve_ref`/:func:`inline_refs` handle local ``$ref`` (``#``, ``#/$defs/X``,
  ``#/definitions/X``, any JSON pointer) with recursion detection.
- Targets, each ``(schema, notes, path="$") -> schema`` recording every change in ``notes``:
  :func:`to_openai_strict` (plus :func:`can_be_strict`), :func:`to_gemini` (OpenAPI subset),
  :func:`to_gemini_json_schema`, :func:`to_anthropic`; and back from Gemini's OpenAPI subset:
  :func:`from_gemini`.

Keyword tables and their sources are in :mod:`toolwire.schema.keywords`. Notes follow one
convention: ``dropped`` always loosens the schema (every instance valid before stays valid),
``approximated`` may change what is valid, ``notes.info`` marks lossless rewrites.
"""

from toolwire.schema._limits import DEFAULT_LIMITS, MAX_DEPTH_CEILING, Limits
from toolwire.schema.anthropic import to_anthropic
from toolwire.schema.gemini import to_gemini, to_gemini_json_schema
from toolwire.schema.gemini_openapi import from_gemini
from toolwire.schema.keywords import GEMINI_KEYWORDS, OPENAI_STRICT_FORMATS, OPENAI_STRICT_KEYWORDS
from toolwire.schema.openai_strict import can_be_strict, make_nullable, to_openai_strict
from toolwire.schema.refs import inline_refs, resolve_ref
from toolwire.schema.walker import (
    LOCATIONS,
    Loc,
    Rule,
    iter_children,
    map_children,
    render_path,
    transform,
    walk,
)

__all__ = [
    "DEFAULT_LIMITS",
    "GEMINI_KEYWORDS",
    "LOCATIONS",
    "MAX_DEPTH_CEILING",
    "OPENAI_STRICT_FORMATS",
    "OPENAI_STRICT_KEYWORDS",
    "Limits",
    "Loc",
    "Rule",
    "can_be_strict",
    "from_gemini",
    "inline_refs",
    "iter_children",
    "make_nullable",
    "map_children",
    "render_path",
    "resolve_ref",
    "to_anthropic",
    "to_gemini",
    "to_gemini_json_schema",
    "to_openai_strict",
    "transform",
    "walk",
]
