"""A number keeps its JSON type through every translation: an integer ``temperature``, ``top_p`` or
token limit is sent as an integer (``1``, never ``1.0``), a fraction as a fraction.

The IR holds the number the wire gave (``Request.temperature: int | float | None``). These cases
also pin the opt-in mypyc build (``make compiled``), where a value read as ``float`` would be
converted, and an integer limit raised to a target's bound must stay an integer.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolwire.errors import PayloadError
from toolwire.ir.base import FORMATS
from toolwire.translate import translate_request

PAIRS = [(source, target) for source in FORMATS for target in FORMATS if source != target]


def _chat(**fields: Any) -> dict[str, Any]:
    return {"model": "m", "messages": [{"role": "user", "content": "hi"}], **fields}


def _numbers(value: Any, path: str = "$") -> list[tuple[str, Any]]:
    """Every number of a payload with its path (booleans are not numbers)."""
    if type(value) is dict:
        return [n for key, item in value.items() for n in _numbers(item, f"{path}.{key}")]
    if type(value) is list:
        return [n for index, item in enumerate(value) for n in _numbers(item, f"{path}[{index}]")]
    return [(path, value)] if type(value) in (int, float) else []


def _in(source: str, **fields: Any) -> dict[str, Any]:
    """The Chat request with ``fields``, written in ``source`` format by toolwire."""
    return translate_request(_chat(**fields), source="openai-chat", target=source, policy="drop").payload  # type: ignore[arg-type]


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_integer_sampling_values_stay_integers(source: str, target: str) -> None:
    payload = _in(source, temperature=1, top_p=1, max_completion_tokens=64)
    out = translate_request(payload, source=source, target=target, policy="drop", model="m").payload  # type: ignore[arg-type]
    numbers = _numbers(out)
    assert sorted(value for _, value in numbers) == [1, 1, 64]
    assert [(path, value) for path, value in numbers if type(value) is not int] == []


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_fractional_sampling_values_stay_fractions(source: str, target: str) -> None:
    payload = _in(source, temperature=0.5, top_p=0.25, max_completion_tokens=64)
    out = translate_request(payload, source=source, target=target, policy="drop", model="m").payload  # type: ignore[arg-type]
    assert sorted((type(value).__name__, value) for _, value in _numbers(out)) == [
        ("float", 0.25),
        ("float", 0.5),
        ("int", 64),
    ]


@pytest.mark.parametrize("source", [f for f in FORMATS if f != "openai-responses"])
def test_a_limit_raised_to_the_responses_minimum_is_an_integer(source: str) -> None:
    payload = _in(source, max_completion_tokens=5)
    out = translate_request(payload, source=source, target="openai-responses", policy="drop", model="m")  # type: ignore[arg-type]
    assert type(out.payload["max_output_tokens"]) is int
    assert out.payload["max_output_tokens"] == 16
    assert [n.message for n in out.notes] == ["max_tokens 5 is outside openai-responses's range; sent 16"]


@pytest.mark.parametrize("source", FORMATS)
@pytest.mark.parametrize("payload", [[], "body", 1.5, None])
def test_a_payload_that_is_not_an_object_is_refused_at_the_root(source: str, payload: Any) -> None:
    with pytest.raises(PayloadError) as raised:
        translate_request(payload, source=source, target="openai-chat", model="m")  # type: ignore[arg-type]
    assert raised.value.path == "$"
