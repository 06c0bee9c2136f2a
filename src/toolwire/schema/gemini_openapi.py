"""Gemini OpenAPI-subset ``Schema`` (``parameters``, ``responseSchema``) -> JSON Schema 2020-12.

The inverse of :func:`toolwire.schema.to_gemini`, so that a Gemini tool or response schema can
go to a JSON-Schema target (Anthropic ``input_schema``, OpenAI ``parameters``, Gemini's own
``parametersJsonSchema``). Rules, per subschema:

=============================  ==============================================  =====
Gemini subset                  JSON Schema                                     note
=============================  ==============================================  =====
``"type": "OBJECT"``           ``"type": "object"`` (any case)                 info
``"TYPE_UNSPECIFIED"`` type    no ``type``                                     info
``nullable: true``             ``"null"`` added to ``type`` (``None`` to       info
                               ``enum``; a ``{"type": "null"}`` ``anyOf``
                               branch when there is no ``type``)
``nullable: false``            removed (the default)                           info
``format: "enum"``             removed: ``enum`` says it                       info
``example``                    ``examples: [example]``                         info
int64 bounds as strings        integers (``"maxItems": "3"`` -> ``3``)         info
``propertyOrdering``           the key order of ``properties`` (JSON Schema    info
                               has no ordering keyword; targets generate in
                               ``properties`` order)
=============================  ==============================================  =====

Every other subset keyword (``title``, ``description``, ``enum``, ``properties``, ``required``,
``items``, ``anyOf``, ``minimum``, ``maximum``, ``pattern``, ``default``, the size bounds) has
the same spelling and meaning in JSON Schema and is kept as is.
"""

from __future__ import annotations

from typing import Any

from toolwire.ir.notes import Notes
from toolwire.schema._common import from_openapi, without
from toolwire.schema._limits import DEFAULT_LIMITS, Limits, no_recursion_error
from toolwire.schema.walker import Loc, render_path, transform

__all__ = ["from_gemini"]

INT64_KEYWORDS = frozenset(
    {"minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength"}
)
"""Subset keywords typed ``int64``: proto3 JSON may spell them as decimal strings."""

_UNSPECIFIED = frozenset({"TYPE_UNSPECIFIED", "type_unspecified"})


def _info(notes: Notes, loc: Loc, key: str, message: str) -> None:
    notes.info(render_path((loc, key)), "synthesized", message)


def _unspecified_type(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    if type(node.get("type")) is not str or node["type"] not in _UNSPECIFIED:
        return node
    _info(notes, loc, "type", "TYPE_UNSPECIFIED became no type")
    return without(node, "type")


def _nullable_any_of(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    """``nullable`` next to ``anyOf`` without ``type``: the null goes in as one more branch."""
    branches = node.get("anyOf")
    if node.get("nullable") is not True or "type" in node or type(branches) is not list:
        return node
    _info(notes, loc, "nullable", "nullable became a null anyOf branch")
    extra = [] if {"type": "null"} in branches else [{"type": "null"}]
    return {**without(node, "nullable"), "anyOf": [*branches, *extra]}


def _enum_format(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    if node.get("format") != "enum":
        return node
    _info(notes, loc, "format", "format 'enum' removed: the enum keyword carries it")
    return without(node, "format")


def _example(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    if "example" not in node:
        return node
    _info(notes, loc, "example", "example became examples")
    out = {("examples" if key == "example" else key): value for key, value in node.items()}
    out["examples"] = [node["example"]]
    return out


def _int64(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    strings = [key for key in INT64_KEYWORDS if type(node.get(key)) is str and node[key].isdigit()]
    if not strings:
        return node
    for key in strings:
        _info(notes, loc, key, f"{key} string became an integer")
    return {key: (int(value) if key in strings else value) for key, value in node.items()}


def _ordering(node: dict[str, Any], notes: Notes, loc: Loc) -> dict[str, Any]:
    """``propertyOrdering`` becomes the key order of ``properties`` (the order JSON-Schema targets
    generate in); names it does not list keep their place after the listed ones."""
    order = node.get("propertyOrdering")
    if order is None:
        return node
    _info(notes, loc, "propertyOrdering", "propertyOrdering became the order of properties")
    out = without(node, "propertyOrdering")
    props = node.get("properties")
    if type(props) is not dict or type(order) is not list:
        return out
    listed = [name for name in dict.fromkeys(order) if type(name) is str and name in props]
    ordered = {name: props[name] for name in listed}
    out["properties"] = {**ordered, **{k: v for k, v in props.items() if k not in ordered}}
    return out


_RULES = (_unspecified_type, _nullable_any_of, _enum_format, _example, _int64, _ordering)
"""Applied in this order to each subschema, then :func:`~toolwire.schema._common.from_openapi`
(type names, ``nullable``)."""


def _pre(node: Any, notes: Notes, loc: Loc) -> Any:
    if type(node) is not dict:
        return node
    for rule in _RULES:
        node = rule(node, notes, loc)
    return from_openapi(node, notes, loc)


@no_recursion_error
def from_gemini(schema: Any, notes: Notes, path: str = "$", *, limits: Limits = DEFAULT_LIMITS) -> Any:
    """``schema``, a Gemini OpenAPI-subset ``Schema``, as JSON Schema (see the module docstring).

    The input is never mutated; a schema that is already JSON Schema comes back as the same
    object. Every rewrite is lossless and calls ``notes.info``.

    Raises:
        LimitError: deeper or larger than ``limits``.
        SchemaError: a subschema location holds something that is not a schema.
    """
    return transform(schema, pre=lambda node, loc: _pre(node, notes, loc), path=path, limits=limits)
