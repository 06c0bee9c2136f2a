"""Gemini OpenAPI subset -> JSON Schema (:func:`toolwire.schema.from_gemini`).

Pinned: the exact rewrite of each subset spelling; every Gemini-subset schema of the fixture
corpus becomes a schema ``jsonschema`` accepts as Draft 2020-12 with no subset spelling left;
and JSON Schema -> Gemini -> JSON Schema keeps every constraint Gemini can hold (when
``to_gemini`` recorded no loss, the two schemas accept the same instances).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from tests.corpus import require_corpus, samples
from toolwire.ir.notes import Notes
from toolwire.schema import from_gemini, to_gemini, walk

from ._gen import instances, root_schemas, validator
from ._util import Tracker, openapi_to_json_schema

CASES = [
    ({"type": "OBJECT"}, {"type": "object"}),
    ({"type": "STRING", "nullable": True}, {"type": ["string", "null"]}),
    ({"type": "STRING", "nullable": False}, {"type": "string"}),
    (
        {"type": "STRING", "format": "enum", "enum": ["a", "b"], "nullable": True},
        {"type": ["string", "null"], "enum": ["a", "b", None]},
    ),
    (
        {"anyOf": [{"type": "INTEGER"}, {"type": "STRING"}], "nullable": True},
        {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]},
    ),
    ({"type": "TYPE_UNSPECIFIED", "description": "d"}, {"description": "d"}),
    ({"type": "NUMBER", "example": 1.5}, {"type": "number", "examples": [1.5]}),
    ({"type": "ARRAY", "maxItems": "3", "items": {"type": "BOOLEAN"}},
     {"type": "array", "maxItems": 3, "items": {"type": "boolean"}}),
    (
        {"type": "OBJECT", "properties": {"a": {"type": "STRING"}, "b": {"type": "INTEGER"}},
         "propertyOrdering": ["b", "a"]},
        {"type": "object", "properties": {"b": {"type": "integer"}, "a": {"type": "string"}}},
    ),
]  # fmt: skip


@pytest.mark.parametrize(("source", "expected"), CASES)
def test_rewrites(source: dict[str, Any], expected: dict[str, Any]) -> None:
    before = copy.deepcopy(source)
    notes = Notes("strict")
    out = from_gemini(source, notes, "$.p")
    assert out == expected
    assert list(out.get("properties", {})) == list(expected.get("properties", {}))
    assert source == before, "input mutated"
    assert notes.items, "every rewrite is noted (info)"
    assert all(note.path.startswith("$.p") for note in notes.items)


def test_json_schema_is_returned_as_is() -> None:
    schema = {"type": "object", "properties": {"x": {"type": ["string", "null"]}}, "required": ["x"]}
    notes = Notes("strict")
    assert from_gemini(schema, notes) is schema
    assert not notes.items


def _subset_schemas() -> Iterator[tuple[str, dict[str, Any]]]:
    for sample in samples("gemini", "request"):
        tools = sample.payload.get("tools") or []
        for t, tool in enumerate([tools] if isinstance(tools, dict) else tools):
            decls = (
                (tool.get("functionDeclarations") or tool.get("function_declarations") or [])
                if isinstance(tool, dict)
                else []
            )
            for d, decl in enumerate(decls):
                if isinstance(decl, dict) and isinstance(decl.get("parameters"), dict):
                    yield f"{sample.id}:tools[{t}][{d}]", decl["parameters"]
        gc = sample.payload.get("generationConfig") or {}
        if isinstance(gc.get("responseSchema"), dict):
            yield f"{sample.id}:responseSchema", gc["responseSchema"]


def _subset_spellings(schema: Any) -> list[str]:
    found = []
    for node, loc in walk(schema):
        if type(node) is not dict:
            continue
        kinds = node.get("type")
        names = kinds if type(kinds) is list else [kinds] if kinds is not None else []
        if any(type(n) is str and n != n.lower() for n in names) or "nullable" in node:
            found.append(str(loc))
        if node.get("format") == "enum" or "propertyOrdering" in node or "example" in node:
            found.append(str(loc))
    return found


def test_corpus_subset_schemas_become_draft_2020_12() -> None:
    require_corpus()
    found = list(_subset_schemas())
    assert len(found) > 20
    uppercase = 0
    for where, schema in found:
        out = from_gemini(schema, Notes("strict"))
        Draft202012Validator.check_schema(out)
        assert not _subset_spellings(out), where
        uppercase += out is not schema
    assert uppercase >= 10, "the corpus holds upper-case subset schemas"


def _valid(schema: Any, instance: Any) -> bool:
    return bool(validator(schema).is_valid(instance))


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_json_schema_to_gemini_and_back_keeps_constraints(data: st.DataObject) -> None:
    schema = data.draw(root_schemas(), label="schema")
    notes = Tracker()
    subset = to_gemini(schema, notes)
    back = from_gemini(subset, Notes("strict"))
    Draft202012Validator.check_schema(back)
    reference = openapi_to_json_schema(subset)  # the test suite's own reading of the subset
    one = data.draw(instances(schema), label="from source")
    other = data.draw(instances(back), label="from round trip")
    for instance in (one, other):
        assert _valid(back, instance) == _valid(reference, instance)
    event("lossless" if not notes.lossy else "lossy")
    if notes.lossy:
        return
    if _valid(schema, one):
        assert _valid(back, one)
    if _valid(back, other):
        assert _valid(schema, other)
