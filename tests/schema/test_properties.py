"""Property tests: transforms keep valid instances valid unless they say otherwise.

The contract checked here, for random schemas and instances valid under them:
- with no lossy note at all, the instance stays valid under the transformed schema;
- more strongly, as long as every lossy note is ``dropped`` (the kind that only loosens), too.
For OpenAI strict the instance is first mapped by the *null projection* (``_util.project``):
every absent optional property becomes ``null`` and undeclared keys are removed, which is what
the strict encoding means. For Gemini the OpenAPI subset is read back as JSON Schema
(``nullable`` -> a null type). Every transform also leaves its input untouched and is idempotent
(the second run returns the very same object).
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from toolwire.ir.notes import Notes
from toolwire.schema import to_anthropic, to_gemini, to_gemini_json_schema, to_openai_strict

from ._gen import instances, root_schemas, validator
from ._util import Tracker, assert_gemini_shape, assert_openai_strict_shape, openapi_to_json_schema, project

SETTINGS = settings(max_examples=300, deadline=None)


def _draw_valid(data: st.DataObject) -> tuple[dict[str, Any], Any]:
    schema = data.draw(root_schemas(), label="schema")
    instance = data.draw(instances(schema), label="instance")
    assume(validator(schema).is_valid(instance))
    return schema, instance


def _loosening_only(notes: Tracker) -> bool:
    return notes.kinds() <= {"dropped"}


@SETTINGS
@given(st.data())
def test_openai_strict_keeps_projected_instances_valid(data: st.DataObject) -> None:
    schema, instance = _draw_valid(data)
    before = copy.deepcopy(schema)
    notes = Tracker()
    out = to_openai_strict(schema, notes)
    assert schema == before, "input mutated"
    event("lossless" if not notes.lossy else "loosened" if _loosening_only(notes) else "approximated")
    if not _loosening_only(notes):
        return
    check = validator(out)
    projected = project(instance, out, out, check)
    assert check.is_valid(projected), [str(note) for note in notes]


@SETTINGS
@given(st.data())
def test_openai_strict_output_is_in_the_subset_and_idempotent(data: st.DataObject) -> None:
    schema = data.draw(root_schemas(), label="schema")
    notes = Tracker()
    out = to_openai_strict(schema, notes)
    if any("not accepted" in note.message for note in notes.lossy):
        return
    assert_openai_strict_shape(out)
    assert to_openai_strict(out, Notes("strict")) is out


@SETTINGS
@given(st.data())
def test_gemini_keeps_instances_valid(data: st.DataObject) -> None:
    schema, instance = _draw_valid(data)
    before = copy.deepcopy(schema)
    notes = Tracker()
    out = to_gemini(schema, notes)
    assert schema == before, "input mutated"
    event("lossless" if not notes.lossy else "loosened" if _loosening_only(notes) else "approximated")
    if not _loosening_only(notes):
        return
    assert validator(openapi_to_json_schema(out)).is_valid(instance), [str(note) for note in notes]


@SETTINGS
@given(st.data())
def test_gemini_output_is_in_the_subset_and_idempotent(data: st.DataObject) -> None:
    out = to_gemini(data.draw(root_schemas(), label="schema"), Notes("drop"))
    assert_gemini_shape(out)
    assert to_gemini(out, Notes("strict")) is out


@SETTINGS
@given(st.data())
def test_anthropic_and_gemini_json_schema_are_lossless(data: st.DataObject) -> None:
    schema, instance = _draw_valid(data)
    for transform in (to_anthropic, to_gemini_json_schema):
        out = transform(schema, Notes("strict"))
        assert out is schema
        assert validator(out).is_valid(instance)
