"""Keyword tables: what each target accepts, and where every table comes from.

Keywords not listed for a target are rewritten by a rule (``oneOf``, ``allOf``, ``const``...)
or dropped with a note. A ``dropped`` note always *loosens* the schema (removes a constraint
or an annotation); anything that may tighten or change meaning is ``approximated``.
"""

from __future__ import annotations

__all__ = [
    "ANNOTATIONS",
    "GEMINI_KEYWORDS",
    "NOISE",
    "OPENAI_STRICT_FORMATS",
    "OPENAI_STRICT_KEYWORDS",
    "OPENAI_STRICT_SIZE",
    "TYPE_KEYWORDS",
    "TYPES",
]

TYPES = frozenset({"string", "number", "integer", "boolean", "array", "object", "null"})
"""The seven JSON Schema type names."""

NOISE = frozenset({"$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "$vocabulary"})
"""Dialect, identification and comment keywords: removed with an info note, they constrain nothing."""

ANNOTATIONS = frozenset(
    {"title", "description", "default", "examples", "example", "deprecated", "readOnly", "writeOnly"}
)
"""Keywords that describe without constraining (merging keeps the first one seen)."""

TYPE_KEYWORDS: dict[str, frozenset[str]] = {
    "string": frozenset(
        {
            "minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType",
            "contentSchema",
        }
    ),
    "number": frozenset(
        {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "format"}
    ),
    "array": frozenset(
        {
            "items", "prefixItems", "additionalItems", "minItems", "maxItems", "uniqueItems", "contains",
            "minContains", "maxContains", "unevaluatedItems",
        }
    ),
    "object": frozenset(
        {
            "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
            "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies",
            "unevaluatedProperties", "propertyOrdering",
        }
    ),
}  # fmt: skip
"""Keywords that only apply to instances of one type (``integer`` uses the ``number`` set)."""

OPENAI_STRICT_KEYWORDS = frozenset(
    {
        # structure and annotations
        "type", "description", "title", "default", "enum", "const", "anyOf", "$ref", "$defs",
        "definitions", "$schema",
        # objects
        "properties", "required", "additionalProperties",
        # strings
        "pattern", "format",
        # numbers
        "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
        # arrays
        "items", "minItems", "maxItems",
    }
)  # fmt: skip
"""Keywords kept under OpenAI Structured Outputs (``strict: true``).

Source: OpenAI's Structured Outputs guide, section "Supported schemas" (types string, number,
boolean, integer, object, array, enum, anyOf; string ``pattern`` and ``format``; number
``multipleOf``, ``maximum``, ``exclusiveMaximum``, ``minimum``, ``exclusiveMinimum``; array
``minItems``, ``maxItems``; ``$defs`` and recursion through ``#`` are supported; ``allOf``,
``not``, ``dependentRequired``, ``dependentSchemas``, ``if``/``then``/``else`` are not).

Conservative choices, each dropped with a note:
- ``minLength``/``maxLength``, ``minProperties``/``maxProperties``, ``uniqueItems``, ``contains``,
  ``propertyNames``, ``unevaluated*``: absent from the supported list (the guide only says
  fine-tuned models "additionally" lack some of them); pydantic-ai's OpenAI profile treats the
  same set as strict-incompatible.
- ``default`` and ``$schema`` are *kept*: pydantic-ai strips ``default`` in strict mode, but a
  real recording (vercel-ai ``openai-reasoning-encrypted-content.1.json``, Responses API,
  gpt-5-mini, Dec 2025) shows a completed response echoing a ``strict: true`` tool with
  ``"default": "add"``, and another (``programmatic-tool-calling.1.json``) one with ``$schema``.
- ``examples``, ``deprecated``, ``readOnly``/``writeOnly``, vendor ``x-*`` keys: not listed.
- ``pattern`` containing look-around: OpenAI's regex subset has none.
"""

OPENAI_STRICT_FORMATS = frozenset(
    {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
)
"""String formats OpenAI strict mode accepts (Structured Outputs guide); others are dropped."""

OPENAI_STRICT_SIZE: dict[str, int] = {
    "properties": 5000,
    "nesting": 10,
    "enum_values": 1000,
    "string_chars": 120_000,
    "large_enum": 250,
    "large_enum_chars": 15_000,
}
"""OpenAI strict size limits (Structured Outputs guide): object properties in total, object
nesting levels, enum values in total, characters of all property names, definition names, enum
and const values, and the 15,000-character budget of one enum with more than 250 string values."""

GEMINI_KEYWORDS = frozenset(
    {
        "type", "format", "title", "description", "nullable", "enum", "items", "maxItems", "minItems",
        "properties", "required", "minProperties", "maxProperties", "minimum", "maximum", "minLength",
        "maxLength", "pattern", "example", "anyOf", "propertyOrdering", "default",
    }
)  # fmt: skip
"""Fields of the Gemini ``Schema`` message (google.ai.generativelanguage.v1beta content.proto),
in their JSON (camelCase) spelling: the OpenAPI 3.0 subset accepted by ``parameters`` and
``responseSchema``. ``type`` is one of the seven names above (the proto's ``Type`` enum includes
``NULL``); ``enum`` is a list of strings."""
