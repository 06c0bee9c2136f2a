"""Hand-written tool schemas: checked once when the tool is defined, then compiled to an arguments check.

The validator is ``jsonschema-rs`` (a core dependency; ``benchmarks/bench_validators.py`` compares
it with ``jsonschema`` and ``fastjsonschema``). It never touches the network:

============================  ===================================================================
schema                        at definition (:func:`check_schema`)
============================  ===================================================================
``$schema``                   one of :data:`DIALECTS` (drafts 4, 6, 7, 2019-09, 2020-12; default
                              2020-12); any other URI is refused at ``$["$schema"]``, not fetched
keywords                      checked against the dialect's meta-schema, and regexes
                              (``pattern``) must compile; error at the keyword
``$ref`` ``http(s)://…``      refused at the ``$ref`` (``$.properties.a["$ref"]``) unless the schema
                              itself declares that ``$id``: a remote schema is never fetched
``$ref`` ``#/…`` (pointer)    must point into the schema, else refused at the ``$ref``
other ``$ref`` (anchors,      resolved by the compiler inside the schema only; an unresolvable
relative URIs)                one is refused at the first such ``$ref``
============================  ===================================================================

Arguments (:func:`compile_arguments`): the compiled check raises
:class:`~toolwire.errors.PayloadError` with the JSON path of the offending argument
(``$.stops[0].lat``) and the validator's message. ``format`` is asserted for the formats the
validator knows (``date-time``, ``date``, ``email``, ``uuid``, ``uri``...), unknown formats pass:
a model that sends ``"tomorrow"`` for a ``date-time`` gets an error result it can act on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn
from urllib.parse import urldefrag, urlsplit

import jsonschema_rs

from toolwire._jsonpath import child
from toolwire.errors import PayloadError, SchemaError
from toolwire.schema.refs import resolve_ref
from toolwire.schema.walker import Loc, render_path, walk

__all__ = ["DIALECTS", "ArgumentsCheck", "check_schema", "compile_arguments"]

DIALECTS = frozenset(
    {
        "http://json-schema.org/draft-04/schema",
        "http://json-schema.org/draft-06/schema",
        "http://json-schema.org/draft-07/schema",
        "https://json-schema.org/draft/2019-09/schema",
        "https://json-schema.org/draft/2020-12/schema",
    }
)
"""``$schema`` values accepted (compared without the fragment): the drafts the validator bundles."""

ArgumentsCheck = Callable[[Any, str], None]
"""``(arguments, path)``: returns when valid, raises :class:`PayloadError` at the failing argument."""

_REF_KEYS = ("$ref", "$dynamicRef")
_REMOTE = ("http", "https")


def check_schema(schema: dict[str, Any]) -> None:
    """Check a tool's schema: known dialect, valid for its meta-schema, every ``$ref`` local, it compiles.

    Raises:
        SchemaError: at the path of the offending keyword or ``$ref``.
    """
    dialect = schema.get("$schema")
    if dialect is not None and (type(dialect) is not str or urldefrag(dialect)[0] not in DIALECTS):
        raise SchemaError(
            f"unknown $schema {dialect!r}: use a JSON Schema draft (2020-12 by default); "
            "meta-schemas are never fetched",
            path=render_path(("$", "$schema")),
        )
    try:
        jsonschema_rs.meta.validate(schema)
    except jsonschema_rs.ValidationError as exc:
        raise SchemaError(f"invalid JSON Schema: {exc.message}", path=_path(exc.instance_path)) from None
    except ValueError as exc:  # e.g. "Recursion limit reached" for a value nested too deeply
        raise _unchecked(exc) from None
    _check_refs(schema)
    _compile(schema)  # what only the compiler resolves (anchors, $id-relative refs) and checks (regexes)


def _check_refs(schema: dict[str, Any]) -> None:
    """Refuse remote references and pointers to nothing, at the ``$ref`` that holds them."""
    nodes = list(walk(schema))
    embedded = {urldefrag(node["$id"])[0] for node, _ in nodes if type(node) is dict and "$id" in node}
    nested_ids = any(type(node) is dict and "$id" in node for node, loc in nodes if loc != "$")
    for node, loc in nodes:
        if type(node) is not dict:
            continue
        for key in _REF_KEYS:
            ref = node.get(key)
            if type(ref) is not str:
                continue
            site: Loc = (loc, key)
            if urlsplit(ref).scheme in _REMOTE and urldefrag(ref)[0] not in embedded:
                raise SchemaError(
                    f"remote {key} {ref!r} refused: toolwire never fetches schemas; "
                    "put the definition under $defs and refer to it as #/$defs/...",
                    path=render_path(site),
                )
            if not nested_ids and (ref == "#" or ref.startswith("#/")):
                resolve_ref(schema, ref, site)


def compile_arguments(schema: dict[str, Any]) -> ArgumentsCheck:
    """Compile ``schema`` (already passed by :func:`check_schema`) into an arguments check.

    Raises:
        SchemaError: a reference cannot be resolved inside the schema (at its ``$ref``), or a
            keyword's value is invalid (``"pattern": "("``, at the keyword).
    """
    validator = _compile(schema)

    def check(arguments: Any, path: str = "$") -> None:
        if validator.is_valid(arguments):
            return
        for error in validator.iter_errors(arguments):
            raise PayloadError(error.message, path=_path(error.instance_path, path))
        raise PayloadError("the arguments do not match the schema", path=path)  # pragma: no cover

    return check


def _compile(schema: dict[str, Any]) -> jsonschema_rs.Validator:
    try:
        return jsonschema_rs.validator_for(schema, validate_formats=True, retriever=_refuse)
    except jsonschema_rs.ValidationError as exc:
        message = str(exc.message).splitlines()[0]
        if isinstance(exc.kind, jsonschema_rs.ValidationErrorKind.Referencing):
            raise SchemaError(f"unresolvable $ref: {message}", path=_first_ref(schema)) from None
        raise SchemaError(f"invalid JSON Schema: {message}", path=_path(exc.instance_path)) from None
    except jsonschema_rs.ReferencingError as exc:
        message = str(exc).splitlines()[0]
        raise SchemaError(f"unresolvable $ref: {message}", path=_first_ref(schema)) from None
    except ValueError as exc:
        raise _unchecked(exc) from None


def _unchecked(exc: ValueError) -> SchemaError:
    """The validator gave up on the schema (nested too deeply for it): a typed error at the root."""
    reason = (str(exc).splitlines() or [type(exc).__name__])[0]
    return SchemaError(f"the JSON Schema cannot be checked ({reason})", path="$")


def _refuse(uri: str) -> NoReturn:
    """The compiler's retriever: nothing outside the schema is ever fetched."""
    raise SchemaError(f"{uri} is not in the schema; toolwire never fetches schemas")


def _first_ref(schema: dict[str, Any]) -> str:
    for node, loc in walk(schema):
        if type(node) is dict:
            for key in _REF_KEYS:
                if type(node.get(key)) is str and not node[key].startswith("#/"):
                    return render_path((loc, key))
    return "$"


def _path(parts: list[str | int], path: str = "$") -> str:
    for part in parts:
        path = child(path, part)
    return path
