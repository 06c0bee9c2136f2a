"""``toolwire.store.pages``: the OpenAI list shape and its query rules, shared by gateway and emulator."""

from __future__ import annotations

import pytest

from toolwire.errors import PayloadError
from toolwire.store import ItemPage, PageQuery, list_page, page_query
from toolwire.store.pages import page_of

ITEMS = [{"id": f"i{n}"} for n in range(5)]


@pytest.mark.parametrize(
    ("after", "limit", "order", "ids", "more"),
    [
        (None, 20, "desc", ["i4", "i3", "i2", "i1", "i0"], False),
        (None, 2, "desc", ["i4", "i3"], True),
        ("i3", 2, "desc", ["i2", "i1"], True),
        ("i1", 2, "desc", ["i0"], False),
        ("i0", 2, "desc", [], False),
        (None, 2, "asc", ["i0", "i1"], True),
        ("i2", 5, "asc", ["i3", "i4"], False),
        ("i4", 5, "asc", [], False),
        ("nope", 5, "asc", [], False),
        (None, 5, "asc", ["i0", "i1", "i2", "i3", "i4"], False),
    ],
)
def test_pages(after: str | None, limit: int, order: str, ids: list[str], more: bool) -> None:
    page = list_page(ITEMS, after=after, limit=limit, order=order)  # type: ignore[arg-type]
    assert page == {
        "object": "list",
        "data": [{"id": i} for i in ids],
        "first_id": ids[0] if ids else None,
        "last_id": ids[-1] if ids else None,
        "has_more": more,
    }


def test_page_of_an_empty_list() -> None:
    assert page_of([]) == ItemPage(items=[], has_more=False, first_id=None, last_id=None)


def test_queries() -> None:
    assert page_query({}) == PageQuery(after=None, limit=20, order="desc")
    assert page_query({}, order="asc").order == "asc"
    assert page_query({"after": "i1", "limit": "100", "order": "asc"}) == PageQuery("i1", 100, "asc")
    assert page_query({"after": ""}).after is None


@pytest.mark.parametrize(
    ("query", "path", "message"),
    [
        ({"limit": "0"}, "limit", "Invalid 'limit': expected an integer from 1 to 100, got '0'."),
        ({"limit": "-3"}, "limit", "Invalid 'limit': expected an integer from 1 to 100, got '-3'."),
        ({"limit": "1.5"}, "limit", "Invalid 'limit': expected an integer from 1 to 100, got '1.5'."),
        ({"limit": "٣"}, "limit", "Invalid 'limit': expected an integer from 1 to 100, got '٣'."),
        ({"order": "ASC"}, "order", "Invalid 'order': expected 'asc' or 'desc', got 'ASC'."),
    ],
)
def test_bad_queries(query: dict[str, str], path: str, message: str) -> None:
    with pytest.raises(PayloadError) as info:
        page_query(query)
    assert (info.value.path, info.value.message) == (path, message)
