"""Real schemas from the recorded payloads: what providers accepted must pass through untouched."""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.ir.notes import Notes
from toolwire.schema import to_anthropic, to_gemini, to_gemini_json_schema, to_openai_strict

from ._fixtures import FixtureSchema, fixture_schemas
from ._util import Tracker, assert_gemini_shape, assert_openai_strict_shape

SCHEMAS = fixture_schemas()
pytestmark = pytest.mark.skipif(not SCHEMAS, reason="fixtures not found (set TOOLWIRE_FIXTURES)")


def _ids(items: list[FixtureSchema]) -> list[str]:
    return [item.id for item in items]


def _of(field: str, strict: bool | None = None) -> list[FixtureSchema]:
    return [item for item in SCHEMAS if item.field == field and (strict is None or item.strict == strict)]


def test_the_corpus_has_schemas_of_every_kind() -> None:
    assert len(_of("openai", strict=True)) >= 10
    assert len(_of("openai", strict=False)) >= 10
    assert len(_of("anthropic")) >= 10
    assert len(_of("gemini")) >= 5


@pytest.mark.parametrize("item", _of("openai", strict=True), ids=_ids(_of("openai", strict=True)))
def test_recorded_strict_openai_schemas_are_already_strict(item: FixtureSchema) -> None:
    notes = Notes("strict")
    assert to_openai_strict(item.schema, notes) is item.schema
    assert list(notes) == []


@pytest.mark.parametrize("item", _of("gemini"), ids=_ids(_of("gemini")))
def test_recorded_gemini_parameters_are_already_in_the_subset(item: FixtureSchema) -> None:
    notes = Notes("strict")
    assert to_gemini(item.schema, notes) is item.schema
    assert list(notes) == []


@pytest.mark.parametrize("item", _of("anthropic"), ids=_ids(_of("anthropic")))
def test_recorded_anthropic_input_schemas_pass_through(item: FixtureSchema) -> None:
    notes = Notes("strict")
    assert to_anthropic(item.schema, notes) is item.schema


def _without_dialect(schema: Any) -> Any:
    return {key: value for key, value in schema.items() if key != "$schema"}


@pytest.mark.parametrize("item", SCHEMAS, ids=_ids(list(SCHEMAS)))
def test_every_recorded_schema_converts_to_every_target(item: FixtureSchema) -> None:
    gemini = to_gemini(item.schema, Notes("drop"))
    assert_gemini_shape(gemini)
    notes = Tracker("drop")
    strict = to_openai_strict(item.schema, notes)
    if not any("not accepted" in note.message for note in notes.lossy):
        assert_openai_strict_shape(strict)
    assert to_anthropic(item.schema, Notes("strict"))["type"] == "object"
    json_schema = to_gemini_json_schema(item.schema, Notes("strict"))
    assert json_schema is item.schema or json_schema == _without_dialect(item.schema)
