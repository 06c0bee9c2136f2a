"""Response readers' typed schemas (``toolwire._plain._response_wire``) against their own checks.

A reader tries its schema (msgspec's checks, in C) before its own Python checks: on every
response of the corpora, the one-spot changes of the reader's tests and every one-spot type
substitution of them, the reader makes the same :class:`PlainResponse` (or ``None``) as its own
checks alone do; and the schema takes the common shapes (the benchmark response among them), so
that a schema grown too strict (taking nothing) fails here too.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
import orjson
import pytest
from benchmarks.bench_pairs import _responses_in_each_format

from tests.corpus import samples
from tests.plain import test_response_anthropic, test_response_lane, test_response_lane_gemini
from toolwire._plain import _response_wire, anthropic_response, chat_response, gemini_response

Reader = Callable[[Any], Any]

READERS: dict[str, tuple[Any, Any, Any, str]] = {
    "openai-chat": (chat_response, _response_wire.ChatCompletion, test_response_lane, "usage"),
    "anthropic": (anthropic_response, _response_wire.AnthropicMessage, test_response_anthropic, "usage"),
    "gemini": (gemini_response, _response_wire.GeminiResponse, test_response_lane_gemini, "usageMetadata"),
}
"""Each source with a schema: its reader module (``read_response`` and ``_checked``, the
reader's own checks), its schema, its reader's tests (``plain``, ``TAKEN``, ``FALLS_BACK``) and
its usage's key."""

_OTHERS: tuple[Any, ...] = (None, True, 0, 7, -1, 1.5, "", "x", [], {}, [1], {"a": 1})


def _paths(value: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if type(value) is dict:
        for key, inner in value.items():
            yield from _paths(inner, (*at, key))
    elif type(value) is list:
        for index, inner in enumerate(value):
            yield from _paths(inner, (*at, index))


def _set(payload: Any, at: tuple[Any, ...], value: Any) -> Any:
    out = copy.deepcopy(payload)
    where = out
    for key in at[:-1]:
        where = where[key]
    where[at[-1]] = value
    return out


def _variants(source: str) -> list[Any]:
    """The corpus, the benchmark response and the reader tests' one-spot changes of its plain
    response, each also with a usage of counts only, and every one-spot type substitution of
    the benchmark response and of the plain response."""
    _, _, tests, usage = READERS[source]
    bench = orjson.loads(_responses_in_each_format()[source])
    out: list[Any] = [s.payload for s in samples(source, "response")]
    out.append(bench)
    for change in (*tests.TAKEN.values(), *tests.FALLS_BACK.values()):
        payload = tests.plain()
        change(payload)
        out.append(payload)
    out += [{**p, usage: bench[usage]} for p in list(out) if type(p) is dict and usage in p]
    for base in (bench, tests.plain(), {**tests.plain(), usage: bench[usage]}):
        for at in list(_paths(base))[1:]:
            out += [_set(base, at, other) for other in _OTHERS]
    return out


@pytest.mark.parametrize("source", READERS)
def test_the_schema_reads_what_the_reader_s_own_checks_read(source: str) -> None:
    module, schema, _, _ = READERS[source]
    taken = 0
    for payload in _variants(source):
        got = module.read_response(copy.deepcopy(payload))
        assert got == module._checked(copy.deepcopy(payload)), payload
        try:
            msgspec.convert(payload, schema)
        except msgspec.ValidationError:
            continue
        taken += 1
    assert taken > 50


@pytest.mark.parametrize("source", READERS)
def test_the_schema_takes_the_benchmark_response(source: str) -> None:
    module, schema, _, _ = READERS[source]
    bench = orjson.loads(_responses_in_each_format()[source])
    msgspec.convert(bench, schema)  # taken: no ValidationError
    assert module.read_response(bench) == module._checked(bench) is not None
