"""The JSON path -> printed-text span mapper of the trace page."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwire.gateway._ui._jsonspan import MAX_SPAN_DEPTH, locate, parse_path, pretty_spans

PAYLOAD = {
    "model": "gpt-5",
    "messages": [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image_url", "image_url": {}}]},
    ],
    "odd key.[x]": {"a-b": [1, 2.5, None, True]},
    "ünï": "çødé",
    "empty": [],
}


@pytest.mark.parametrize(
    ("path", "keys"),
    [
        ("$", ()),
        ("$.model", ("model",)),
        ("$.messages[2].content[0].text", ("messages", 2, "content", 0, "text")),
        ('$["odd key.[x]"].a-b[3]', ("odd key.[x]", "a-b", 3)),
        ("$['odd key']", ("odd key",)),
        ('$["quote \\" and ]"]', ('quote " and ]',)),
        ("$.ünï", ("ünï",)),
    ],
)
def test_parse_path_reads_each_step(path: str, keys: tuple[Any, ...]) -> None:
    assert parse_path(path) == keys


MALFORMED = ["", "messages[0]", "$.", "$[", "$[x]", "$[1", '$["open]', "$..a", "$['a]", "$a"]


@pytest.mark.parametrize("path", MALFORMED)
def test_parse_path_refuses_malformed_paths(path: str) -> None:
    assert parse_path(path) is None


def test_printed_text_is_json_dumps_indent_2() -> None:
    assert pretty_spans(PAYLOAD).text == json.dumps(PAYLOAD, indent=2, ensure_ascii=False)


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        ("$.model", '"model": "gpt-5"'),
        ("$.messages[1].content[0].text", '"text": "hi"'),
        ("$.messages[0].content", '"content": "Be brief."'),
        ("$.messages[1].content[1].image_url", '"image_url": {}'),
        ('$["odd key.[x]"].a-b[1]', "2.5"),
        ('$["odd key.[x]"].a-b[2]', "null"),
        ("$.ünï", '"ünï": "çødé"'),
        ("$.empty", '"empty": []'),
    ],
)
def test_locate_maps_a_path_to_its_member_text(path: str, shown: str) -> None:
    doc = pretty_spans(PAYLOAD)
    found = locate(doc, path)
    assert found is not None and found.exact
    assert doc.text[found.start : found.end] == shown


def test_locate_a_container_spans_its_whole_printed_value() -> None:
    doc = pretty_spans(PAYLOAD)
    found = locate(doc, "$.messages[0]")
    assert found is not None
    assert json.loads(doc.text[found.start : found.end]) == PAYLOAD["messages"][0]
    whole = locate(doc, "$")
    assert whole is not None and (whole.start, whole.end) == (0, len(doc.text))


def test_a_missing_value_is_located_at_its_deepest_ancestor() -> None:
    doc = pretty_spans(PAYLOAD)
    found = locate(doc, "$.messages[1].content[0].cache_control.type")
    assert found is not None and not found.exact
    assert json.loads(doc.text[found.start : found.end]) == {"type": "text", "text": "hi"}
    outside = locate(doc, "$.messages[7]")
    assert outside is not None and not outside.exact
    assert doc.text[outside.start : outside.end].startswith('"messages": [')


def test_locate_refuses_a_malformed_path() -> None:
    assert locate(pretty_spans(PAYLOAD), "messages[0]") is None


def test_a_scalar_root_is_its_own_span() -> None:
    doc = pretty_spans("plain")
    assert doc.text == '"plain"' and doc.spans == {(): (0, 7)}


def test_deep_nesting_is_printed_without_spans_below_the_limit() -> None:
    value: Any = "leaf"
    for _ in range(MAX_SPAN_DEPTH + 10):
        value = [value]
    doc = pretty_spans(value)
    assert json.loads(doc.text) == value
    assert max(len(k) for k in doc.spans) == MAX_SPAN_DEPTH + 1
    found = locate(doc, "$" + "[0]" * (MAX_SPAN_DEPTH + 10))
    assert found is not None and not found.exact


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=30,
)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    found = [(path, value)]
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found += _paths(item, (*path, key))
    return found


def _written(keys: tuple[Any, ...]) -> str:
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f"[{json.dumps(k)}]" for k in keys)


@settings(max_examples=150, deadline=None)
@given(_json)
def test_every_value_is_located_at_its_own_text(value: Any) -> None:
    doc = pretty_spans(value)
    assert doc.text == json.dumps(value, indent=2, ensure_ascii=False)
    for keys, item in _paths(value):
        found = locate(doc, _written(keys))
        assert found is not None and found.exact
        text = doc.text[found.start : found.end]
        if keys and isinstance(keys[-1], str):  # a member: "key": value
            head = json.dumps(keys[-1], ensure_ascii=False) + ": "
            assert text.startswith(head)
            text = text[len(head) :]
        assert json.loads(text) == item
