from __future__ import annotations

import pytest

from toolwire.pytools import Docstring, parse_docstring

GOOGLE = """Get the weather
for a city.

Uses the forecast service.

Args:
    city (str): The city
        name, wrapped.
    units: One of:
        - celsius
        - fahrenheit
    days (dict(str, int), optional): Days ahead.
    *extra: Ignored by tools.

Returns:
    str: the forecast.
        city: not a parameter.

Raises:
    ValueError: never.
"""

NUMPY = """Get the weather for a city.

Parameters
----------
city : str
    The city
    name.
lat, lon : float
    Coordinates.
flag
    A flag without a type.

Returns
-------
city : str
    Not a parameter.
"""

SPHINX = """Get the weather for a city.

:param city: The city
    name.
:type city: str
:param int days: Days ahead.
:param Optional[str] units: Units.
:returns: the forecast.
:rtype: str
"""


def test_google() -> None:
    assert parse_docstring(GOOGLE) == Docstring(
        summary="Get the weather for a city.",
        description="Get the weather for a city.\n\nUses the forecast service.",
        params={
            "city": "The city name, wrapped.",
            "units": "One of:\n- celsius\n- fahrenheit",
            "days": "Days ahead.",
            "extra": "Ignored by tools.",
        },
    )


def test_numpy() -> None:
    assert parse_docstring(NUMPY) == Docstring(
        summary="Get the weather for a city.",
        description="Get the weather for a city.",
        params={
            "city": "The city name.",
            "lat": "Coordinates.",
            "lon": "Coordinates.",
            "flag": "A flag without a type.",
        },
    )


def test_sphinx() -> None:
    assert parse_docstring(SPHINX) == Docstring(
        summary="Get the weather for a city.",
        description="Get the weather for a city.",
        params={"city": "The city name.", "days": "Days ahead.", "units": "Units."},
    )


def test_indented_docstring_as_written_in_a_function() -> None:
    def fn() -> None:
        """Summary on the first line.

        Args:
            x: The x.
        """

    assert parse_docstring(fn.__doc__) == Docstring(
        "Summary on the first line.", "Summary on the first line.", {"x": "The x."}
    )


@pytest.mark.parametrize("doc", [None, "", "   \n  "])
def test_empty(doc: str | None) -> None:
    assert parse_docstring(doc) == Docstring()


def test_only_sections_no_prose() -> None:
    assert parse_docstring("Args:\n    x: The x.") == Docstring(None, None, {"x": "The x."})


def test_section_header_without_blank_line_and_other_header_names() -> None:
    doc = "Summary.\nArguments:\n    a: A.\nKeyword Args:\n    b: B.\nExample:\n    c: not a parameter."
    assert parse_docstring(doc) == Docstring("Summary.", "Summary.", {"a": "A.", "b": "B."})


def test_text_after_an_indented_section_is_not_a_parameter_description() -> None:
    doc = "Summary.\n\nArgs:\n    a: A.\n\nTrailing prose."
    assert parse_docstring(doc).params == {"a": "A."}
    assert parse_docstring(doc).description == "Summary."


def test_first_entry_wins_and_empty_entries_are_skipped() -> None:
    doc = "S.\n\nArgs:\n    a:\n    b: B.\n\n:param b: other B.\n:param a: A from sphinx."
    assert parse_docstring(doc).params == {"b": "B.", "a": "A from sphinx."}


def test_paragraphs_inside_a_parameter_description() -> None:
    doc = "S.\n\nArgs:\n    a: First\n        line.\n\n        Second paragraph."
    assert parse_docstring(doc).params == {"a": "First line.\n\nSecond paragraph."}


def test_prose_words_ending_in_colon_are_not_sections() -> None:
    doc = "Summary.\n\nUsage:\n    call it.\n\nArgs:\n    a: A."
    parsed = parse_docstring(doc)
    assert parsed.description == "Summary.\n\nUsage: call it."
    assert parsed.params == {"a": "A."}
