"""Response readers' typed schemas (``toolwire._plain._response_wire``) against their own checks.

A JSON body of a source with a schema is decoded by it (msgspec's checks, in C) and read by
``read_typed``: on the JSON text of every response of the corpora, the one-spot changes of the
reader's tests and every one-spot type substitution of them, that makes the same
:class:`PlainResponse` as the reader of the dict, when it makes one; and the schema takes the
common shapes (the benchmark response among them), so that a schema grown too strict (taking
nothing) fails here too. The public API's differential (``same_both_ways``) runs the bytes too.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any

import msgspec
import orjson
import pytest
from benchmarks.bench_pairs import _responses_in_each_format

from tests.corpus import samples
from tests.plain import (
    test_response_anthropic,
    test_response_lane,
    test_response_lane_bedrock,
    test_response_lane_gemini,
    test_response_lane_responses,
)
from tests.plain.harness import outcome
from toolwire import translate_response_bytes
from toolwire._json import dumps, loads
from toolwire._plain import (
    _response_wire,
    anthropic_response,
    bedrock_response,
    chat_response,
    gemini_response,
    responses_response,
)
from toolwire._plain._response_lane import (
    OBJECT_READERS,
    RESPONSE_LANES,
    TYPED_READERS,
    typed_response_lane,
)
from toolwire.translate import _general_response

Reader = Callable[[Any], Any]

READERS: dict[str, tuple[Any, Any, Any, str]] = {
    "openai-chat": (chat_response, _response_wire.ChatCompletion, test_response_lane, "usage"),
    "anthropic": (anthropic_response, _response_wire.AnthropicMessage, test_response_anthropic, "usage"),
    "gemini": (gemini_response, _response_wire.GeminiResponse, test_response_lane_gemini, "usageMetadata"),
    "openai-responses": (
        responses_response,
        _response_wire.ResponsesResponse,
        test_response_lane_responses,
        "usage",
    ),
    "bedrock-converse": (
        bedrock_response,
        _response_wire.BedrockResponse,
        SimpleNamespace(
            plain=test_response_lane_bedrock.bedrock_plain,
            TAKEN=test_response_lane_bedrock.READ,
            FALLS_BACK=test_response_lane_bedrock.NOT_READ,
        ),
        "usage",
    ),
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


def _typed(source: str, payload: Any) -> Any:
    """What the source's schema and ``read_typed`` make of ``payload``'s JSON text; ``False``
    when the schema refuses it."""
    decoder, read_typed = TYPED_READERS[source]
    try:
        value = decoder.decode(orjson.dumps(payload))
    except msgspec.DecodeError:
        return False
    return read_typed(value)


@pytest.mark.parametrize("source", READERS)
def test_the_schema_reads_what_the_reader_s_own_checks_read(source: str) -> None:
    module = READERS[source][0]
    taken = 0
    for payload in _variants(source):
        got = _typed(source, payload)
        if got is False:
            continue
        taken += 1
        if got is not None:  # None: the caller reads the dict (an empty usage details object)
            assert got == module.read_response(copy.deepcopy(payload)), payload
    assert taken > 50


@pytest.mark.parametrize("source", READERS)
def test_the_schema_takes_the_benchmark_response(source: str) -> None:
    module = READERS[source][0]
    bench = orjson.loads(_responses_in_each_format()[source])
    assert _typed(source, bench) == module.read_response(bench) is not None


def test_every_source_with_a_schema_is_tested() -> None:
    assert set(TYPED_READERS) == set(READERS)


@pytest.mark.parametrize("body", [b"[]", b"{", b'{"id": 1}', '{"x": "\ud800"}', b"\xff", b"[" * 5000])
@pytest.mark.parametrize(("source", "target"), list(RESPONSE_LANES))
def test_a_body_the_schema_refuses_goes_the_dict_s_way(body: Any, source: str, target: str) -> None:
    assert typed_response_lane(body, source, target, "drop") is None
    got = outcome(lambda: translate_response_bytes(body, source=source, target=target, policy="drop"))  # type: ignore[arg-type]
    payload = outcome(lambda: loads(body))
    if type(payload) is not dict:
        assert type(got) is tuple  # an error: (kind, message, path)
        return
    want = outcome(lambda: _general_response(payload, source, target, "drop", None))  # type: ignore[arg-type]
    assert got == (want if type(want) is tuple else dumps(want.payload))


def _raised(call: Callable[[], Any]) -> tuple[str, str]:
    try:
        call()
    except Exception as exc:  # any error: which one is the point
        return type(exc).__name__, str(exc)
    raise AssertionError("no error")


def test_arguments_of_other_types_go_the_dict_s_way() -> None:
    """A body or a format name of the wrong type: the error of the dict's way, which reads the
    body first."""
    for body, source in ((b"{", ["anthropic"]), (12, "anthropic"), (b"{", "anthropic")):
        assert typed_response_lane(body, source, "openai-chat", "drop") is None  # type: ignore[arg-type]
        got = _raised(lambda b=body, s=source: translate_response_bytes(b, source=s, target="openai-chat"))  # type: ignore[misc]
        assert got == _raised(lambda b=body: loads(b))  # type: ignore[misc]


_OBJECTS = {
    "gemini": gemini_response.read_typed_objects,
    "bedrock-converse": bedrock_response.read_typed_objects,
}


def test_every_object_reader_is_tested() -> None:
    assert {source for source, _ in OBJECT_READERS} == set(_OBJECTS)
    assert all(reader is _OBJECTS[source] for (source, _), reader in OBJECT_READERS.items())


@pytest.mark.parametrize("source", _OBJECTS)
def test_objects_for_an_object_target_are_what_the_text_parses_to(source: str) -> None:
    """``read_typed_objects`` (Gemini into Anthropic and Bedrock, Bedrock into Anthropic: the
    bytes API) makes ``read_typed``'s response, a call's arguments the object its text parses
    to, or that text when it holds a ``null``; over every variant of the reader's tests."""
    decoder, read_typed = TYPED_READERS[source]
    read_objects = _OBJECTS[source]
    kept = 0
    for payload in _variants(source):
        try:
            value = decoder.decode(orjson.dumps(payload))
        except msgspec.DecodeError:
            continue
        want, got = read_typed(value), read_objects(value)
        if want is None:
            assert got is None
            continue
        assert got is not None
        for (i, n, text), (j, m, arguments) in zip(want.calls, got.calls, strict=True):
            assert (i, n) == (j, m)
            if "null" in text:
                assert arguments == text
            else:
                assert type(arguments) is dict and arguments == loads(text)
                kept += 1
        got.calls = want.calls
        assert got == want
    assert kept > 10


_ARGS = [
    b'{"a":null}',
    b'{"a":1e400}',
    b'{"a":-1e400,"b":"x"}',
    b'{"a":"nullable"}',
    b'{"a":123456789012345678901234567890}',
    b'{"a":-0.0,"b":1.5e300,"c":[true,false,{}]}',
    b'{"s":"\\ud83d\\ude00 \\u00e9"}',
    b'{"s":"\\ud800"}',
    b'{"a":{"b":{"c":[1,2.5,"z"]}}}',
]


@pytest.mark.parametrize("args", _ARGS)
def test_gemini_arguments_into_anthropic_as_the_general_path_writes_them(args: bytes) -> None:
    body = (
        b'{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"f","args":'
        + args
        + b',"id":"c1"}}]},"finishReason":"STOP"}],"modelVersion":"m","responseId":"r"}'
    )
    general = outcome(
        lambda: dumps(_general_response(loads(body), "gemini", "anthropic", "drop", None).payload)
    )
    got = outcome(lambda: translate_response_bytes(body, source="gemini", target="anthropic", policy="drop"))
    assert got == general
