"""One spelling of a JSON path everywhere toolwire writes one: errors, notes, validator problems,
schema notes and tool-argument errors all name the key ``a-b`` as ``["a-b"]`` (dot notation only
for identifiers), and every path reads back to the keys it was written from."""

from __future__ import annotations

import pytest

import toolwire
from toolwire._jsonpath import child, locate, render, segments
from toolwire.errors import PayloadError
from toolwire.formats import anthropic
from toolwire.ir.notes import Notes
from toolwire.schema import to_anthropic
from toolwire.validate import validate

KEYS: list[str | int] = ["a", "a-b", "~code", "$ref", "é", "with space", 'q"uote', "back\\slash", "0", "", 3]


@pytest.mark.parametrize("key", KEYS)
def test_child_render_and_segments_agree(key: str | int) -> None:
    path = child(child("$", "tools"), key)
    assert path == render(["tools", key])
    assert segments(path) == ["tools", key]
    dotted = isinstance(key, str) and key.isidentifier()
    assert path == (f"$.tools.{key}" if dotted else f"$.tools[{key}]" if isinstance(key, int) else path)
    assert locate({"tools": {key: 1}} if isinstance(key, str) else {"tools": [0, 1, 2, 3]}, path)[2]


def test_the_older_dotted_spellings_still_read() -> None:
    assert segments("$.a-b.~code.$ref[2]") == ["a-b", "~code", "$ref", 2]


def test_a_translation_note_names_a_dashed_key_in_brackets() -> None:
    payload = {"model": "m", "messages": [{"role": "user", "content": "hi", "x-custom": 1}], "x-top": 2}
    result = toolwire.translate_request(payload, source="openai-chat", target="anthropic")
    paths = {note.path for note in result.notes if note.kind == "dropped"}
    assert paths == {'$.messages[0]["x-custom"]', '$["x-top"]'}


def test_a_decode_error_a_validator_problem_and_a_schema_note_spell_it_alike() -> None:
    with pytest.raises(PayloadError) as caught:
        anthropic.decode_request({"model": "m", "max_tokens": 1, "messages": "x"}, Notes())
    assert caught.value.path == "$.messages"
    payload = {"model": "m", "messages": [{"role": "user", "content": "x"}], "metadata": {"a-b": 1}}
    assert [problem.path for problem in validate(payload, format="openai-chat")] == ['$.metadata["a-b"]']
    notes = Notes()
    to_anthropic({"properties": {"a-b": {"type": "string"}}}, notes)
    assert [note.path for note in notes] == ["$.type"]
