"""What the fuzz suite found, each pinned by the smallest input that showed it (issue 19)."""

from __future__ import annotations

import pytest

from toolwire.errors import PayloadError, SchemaError
from toolwire.framing.jsonarray import JSONArrayDecoder
from toolwire.runner import Toolbox
from toolwire.streaming import WireReader


@pytest.mark.parametrize(
    "data",
    [b'[{"a": "\xff"}]', b'[{"text": "caf\xe9"}]', b'[{"a": "\xc3"}'],
    ids=["invalid-byte", "latin-1", "cut-sequence"],
)
@pytest.mark.parametrize("split", [None, 1])
def test_a_gemini_array_element_that_is_not_utf8_is_a_payload_error(data: bytes, split: int | None) -> None:
    """Before: UnicodeDecodeError escaped from msgspec through ``WireReader``."""
    reader = WireReader()
    chunks = [data] if split is None else [data[i : i + split] for i in range(len(data))]
    with pytest.raises(PayloadError, match=r"^\$\[0\]: JSON array element is not UTF-8 \(") as info:
        for chunk in chunks:
            reader.feed(chunk)
        reader.close()
    assert info.value.path == "$[0]"


def test_the_decoder_names_the_element_that_is_not_utf8() -> None:
    decoder = JSONArrayDecoder()
    assert decoder.feed(b'[{"a": 1},') == [{"a": 1}]
    with pytest.raises(PayloadError) as info:
        decoder.feed(b'{"b": "\xff"}]')
    assert info.value.path == "$[1]"


def _nested(depth: int) -> list[object]:
    value: list[object] = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_schema_nested_too_deeply_for_the_validator_is_a_schema_error() -> None:
    """Before: ``ValueError: Recursion limit reached`` from jsonschema-rs at registration."""
    schema = {"type": "object", "properties": _nested(300), "required": ["name"]}
    with pytest.raises(SchemaError) as info:
        Toolbox().register_schema("deep", schema, dict)
    assert info.value.path == "$"
    assert str(info.value) == "$: the JSON Schema cannot be checked (Recursion limit reached)"
