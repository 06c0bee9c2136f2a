"""A stream's notes name the event that started the part they are about, as ``Where.map`` maps
them, without building a ``Where`` (``stream_path``: the six notes of a Responses target's end)."""

from __future__ import annotations

import pytest

from toolwire.ir._where import STREAM, Where, stream_path
from toolwire.ir.notes import Notes

_ORIGINS = {("parts", 0): (3,), ("parts", 2): (17,), ("parts", 2, "x"): (9, "y")}
_PATHS = [
    "$.parts[0]",
    "$.parts[0].arguments",
    "$.parts[2].x.y",
    "$.parts[2].z",
    "$.parts[1]",
    "$.parts",
    "$.usage.input_tokens_details.cached_tokens",
    "$.output",
    '$.tools[0]["a-b"]',
    "not a path",
    "$",
]


@pytest.mark.parametrize("path", _PATHS)
@pytest.mark.parametrize("policy", ["drop", "warn"])
def test_stream_notes_map_as_where_does(path: str, policy: str) -> None:
    notes = Notes(policy)  # type: ignore[arg-type]
    notes.decoded(STREAM)
    notes.origins.update(_ORIGINS)
    notes.info(path, "synthesized", "x", target="$.t")
    notes.add(path, "dropped", "y")
    expected = Where(STREAM, None, None).map(path, _ORIGINS)[0] if path != "$" else "$"
    assert [(n.path, n.target) for n in notes.items] == [(expected, "$.t"), (expected, None)]
    assert notes.where is None  # no Where built for a stream
    assert stream_path(path, {}) == path


def test_stream_path_takes_the_longest_recorded_prefix() -> None:
    assert stream_path("$.parts[2].x.y", _ORIGINS) == "$[9].y"
    assert stream_path("$.parts[2].z", _ORIGINS) == "$[17]"
    assert stream_path("$.parts[1]", _ORIGINS) == "$.parts[1]"
