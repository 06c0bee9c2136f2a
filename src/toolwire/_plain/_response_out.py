"""Typed shapes of the Responses response a lane writes, for the bytes API (issue 18).

``translate_response_bytes`` into Responses encodes the lane's response straight from these
msgspec Structs (:func:`toolwire._plain.responses_response.write_wire`): msgspec writes a
Struct's fields in their order with its keys encoded once, faster than building the dict and
encoding its keys, and a Struct is made in C. The bytes are those of the dict
:func:`~toolwire._plain.responses_response.write_response` writes (the same keys in the same
order, the same values: ``tests/plain/test_response_lane_responses_writer.py``).

The request echo fields are the top-level Structs' defaults, taken from ``echo_defaults`` (the
general encoder's one definition): a lane passes the fields before them only. Kept Python
(``pyproject``'s mypyc ``exclude``): msgspec Structs are not mypyc classes.
"""

from __future__ import annotations

from typing import Any

from msgspec import Struct, defstruct

from toolwire.formats.openai_responses.response import echo_defaults

__all__ = ["OutputCall", "OutputMessage", "OutputText", "ResponseOut", "ResponseOutBare"]


class OutputText(Struct):
    """An ``output_text`` part: ``type``, ``text``, empty ``annotations`` and ``logprobs``."""

    type: str
    text: str
    annotations: list[Any]
    logprobs: list[Any]


class OutputMessage(Struct):
    """An assistant ``message`` item, its fields in the encoder's order."""

    id: str
    type: str
    status: str
    role: str
    content: list[OutputText]


class OutputCall(Struct):
    """A ``function_call`` item, its fields in the encoder's order."""

    type: str
    call_id: str
    name: str
    arguments: str
    id: str
    status: str


_HEAD: list[tuple[str, Any]] = [
    ("id", str),
    ("object", str),
    ("created_at", int),
    ("status", str),
    ("incomplete_details", Any),
    ("error", None),
    ("model", str),
    ("output", list[Any]),
]
_ECHO: list[tuple[str, Any, Any]] = [(name, Any, value) for name, value in echo_defaults().items()]

ResponseOut: Any = defstruct("ResponseOut", [*_HEAD, ("usage", Any), *_ECHO])
"""A ``response`` with a usage: ``ResponseOut(id, "response", created_at, status,
incomplete_details, None, model, output, usage)``, the echo fields after."""

ResponseOutBare: Any = defstruct("ResponseOutBare", [*_HEAD, *_ECHO])
"""A ``response`` without a usage (none written): :data:`ResponseOut` less ``usage``."""
