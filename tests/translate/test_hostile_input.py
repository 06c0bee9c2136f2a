"""Malformed and hostile input, every format to every format: a toolwire error with a JSON path,
never another exception.

Covered for requests and responses of all four formats: missing fields and wrong types (random
mutations of real recorded payloads), invalid JSON argument strings, 10 MB strings and
10,000-deep nesting. Deep values the codecs must look into (tool arguments, tool results) raise
:class:`LimitError`; deep values carried opaquely (a tool's JSON Schema) pass through unchanged,
and toolwire's own JSON serializer refuses them with a :class:`LimitError` too.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from typing import Any

import pytest

from tests.corpus import samples
from toolwire._json import dumps, loads
from toolwire.errors import ConversionError, LimitError, PayloadError, ToolwireError
from toolwire.ir import FORMATS
from toolwire.translate import Translation, translate_request, translate_response

BIG = "x" * (10 * 1024 * 1024)
DEPTH = 10_000


def _deep_object(depth: int = DEPTH) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def _deep_array(depth: int = DEPTH) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


DEEP_OBJECT = _deep_object()
DEEP_ARRAY = _deep_array()
DEEP_TEXT = '{"a":' * DEPTH + "1" + "}" * DEPTH


def _translate(kind: str, payload: Any, source: str, target: str, policy: str) -> Translation:
    if kind == "request":
        return translate_request(payload, source=source, target=target, policy=policy, model="m")  # type: ignore[arg-type]
    return translate_response(payload, source=source, target=target, policy=policy)  # type: ignore[arg-type]


def _outcome(kind: str, payload: Any, source: str, target: str, policy: str) -> Translation | ToolwireError:
    """The translation, or the toolwire error it raised (any other exception fails the test)."""
    try:
        return _translate(kind, payload, source, target, policy)
    except ToolwireError as exc:
        assert exc.path is None or exc.path.startswith("$"), exc
        return exc


def _every_way(kind: str, payload: Any, source: str) -> list[Translation | ToolwireError]:
    return [
        _outcome(kind, payload, source, target, policy) for target in FORMATS for policy in ("strict", "drop")
    ]


# ---------------------------------------------------------------- 10k-deep nesting


# Each request is a whole tool loop (a user turn, the call, its result): a call without its
# result, or a call turn first, is refused for every other format (formats/_sendable).


def _chat_call(arguments: Any) -> dict[str, Any]:
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": arguments}}
    return {
        "model": "m",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
    }


def _responses_call(arguments: Any) -> dict[str, Any]:
    return {
        "model": "m",
        "input": [
            {"role": "user", "content": "go"},
            {"type": "function_call", "call_id": "call_1", "name": "f", "arguments": arguments},
            {"type": "function_call_output", "call_id": "call_1", "output": "ok"},
        ],
    }


def _anthropic_call(arguments: Any) -> dict[str, Any]:
    block = {"type": "tool_use", "id": "toolu_1", "name": "f", "input": arguments}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}
    return {
        "model": "m",
        "max_tokens": 9,
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [block]},
            {"role": "user", "content": [result]},
        ],
    }


def _gemini_call(arguments: Any) -> dict[str, Any]:
    return {
        "contents": [
            {"role": "user", "parts": [{"text": "go"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "f", "args": arguments}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"r": "ok"}}}]},
        ]
    }


def _gemini_result(response: Any) -> dict[str, Any]:
    part = {"functionResponse": {"name": "f", "response": response}}
    return {"contents": [{"role": "user", "parts": [part]}]}


DEEP_STRUCTURED: list[tuple[str, str, dict[str, Any], str]] = [
    ("anthropic", "request", _anthropic_call(DEEP_OBJECT), "$.messages[1].content[0].input"),
    ("gemini", "request", _gemini_call(DEEP_OBJECT), "$.contents[1].parts[0].functionCall.args"),
    ("gemini", "request", _gemini_result(DEEP_OBJECT), "$.contents[0].parts[0].functionResponse.response"),
    (
        "anthropic",
        "response",
        {"content": [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": DEEP_OBJECT}]},
        "$.content[0].input",
    ),
    (
        "gemini",
        "response",
        {
            "candidates": [
                {"content": {"role": "model", "parts": _gemini_call(DEEP_OBJECT)["contents"][1]["parts"]}}
            ]
        },
        "$.candidates[0].content.parts[0].functionCall.args",
    ),
]


@pytest.mark.parametrize(
    ("source", "kind", "payload", "path"),
    DEEP_STRUCTURED,
    ids=[f"{s}-{k}-{p}" for s, k, _, p in DEEP_STRUCTURED],
)
def test_deep_structured_arguments_raise_a_limit_error_at_their_path(
    source: str, kind: str, payload: dict[str, Any], path: str
) -> None:
    for outcome in _every_way(kind, payload, source):
        assert isinstance(outcome, LimitError)
        assert outcome.path == path


_CALL_PATHS = {
    "openai-chat": "$.messages[1].tool_calls[0].function.arguments",
    "openai-responses": "$.input[1].arguments",
}


@pytest.mark.parametrize("source", ["openai-chat", "openai-responses"])
def test_deep_argument_text_is_kept_as_text_or_refused_where_an_object_is_needed(source: str) -> None:
    payload = (_chat_call if source == "openai-chat" else _responses_call)(DEEP_TEXT)
    for target in FORMATS:
        kept = _translate("request", payload, source, target, "drop")
        if target in ("openai-chat", "openai-responses"):
            assert DEEP_TEXT in dumps(kept.payload).decode("unicode_escape")
        else:  # Anthropic input / Gemini args are objects: an empty one, noted
            assert [n.kind for n in kept.notes if n.path.endswith(("arguments", "args"))] == ["approximated"]
            with pytest.raises(ConversionError) as info:
                _translate("request", payload, source, target, "strict")
            assert info.value.path == _CALL_PATHS[source], "the call in the payload passed in"


def test_deep_json_text_is_refused_by_the_parser() -> None:
    for text in (DEEP_TEXT, "[" * DEPTH + "]" * DEPTH):
        with pytest.raises(LimitError) as info:
            loads(text)
        assert info.value.path == "$"


@pytest.mark.parametrize("data", [b'{"a": "\xff"}', b"\xc3", b'{"a": "\xed\xa0\x80"}'])
def test_bytes_that_are_not_utf8_are_a_payload_error(data: bytes) -> None:
    """Invalid UTF-8 is a PayloadError at the given path, never a UnicodeDecodeError."""
    with pytest.raises(PayloadError) as info:
        loads(data, path="$.body")
    assert info.value.path == "$.body"
    assert info.value.message.startswith("invalid JSON")


OPAQUE_DEEP: list[tuple[str, dict[str, Any]]] = [
    (
        "openai-chat",
        {
            "model": "m",
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"type": "function", "function": {"name": "f", "parameters": DEEP_OBJECT}}],
        },
    ),
    (
        "anthropic",
        {
            "model": "m",
            "max_tokens": 9,
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": "f", "input_schema": {"type": "object", "properties": {"x": DEEP_OBJECT}}}],
        },
    ),
    ("openai-responses", {"model": "m", "input": "hi", "metadata": {"deep": DEEP_ARRAY}}),
    ("gemini", {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "cachedContent": DEEP_ARRAY}),
]


@pytest.mark.parametrize(("source", "payload"), OPAQUE_DEEP, ids=[s for s, _ in OPAQUE_DEEP])
def test_deep_opaque_values_pass_through_or_fail_as_toolwire_errors(
    source: str, payload: dict[str, Any]
) -> None:
    for outcome in _every_way("request", payload, source):
        if isinstance(outcome, Translation):
            try:
                dumps(outcome.payload)
            except LimitError as exc:  # carried unchanged: toolwire's serializer refuses it
                assert exc.path == "$"
            else:  # not carried: dropped with a note
                assert outcome.notes


# ---------------------------------------------------------------- 10 MB strings


_BIG_REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("openai-chat", {"model": "m", "messages": [{"role": "user", "content": BIG}]}),
    ("openai-responses", {"model": "m", "input": BIG}),
    ("anthropic", {"model": "m", "max_tokens": 9, "messages": [{"role": "user", "content": BIG}]}),
    ("gemini", {"contents": [{"role": "user", "parts": [{"text": BIG}]}]}),
    ("openai-chat", _chat_call('{"a": "' + BIG + '"}')),
    ("anthropic", _anthropic_call({"a": BIG})),
]


@pytest.mark.parametrize(("source", "payload"), _BIG_REQUESTS, ids=[s for s, _ in _BIG_REQUESTS])
def test_ten_megabyte_strings_are_carried_whole(source: str, payload: dict[str, Any]) -> None:
    for target in FORMATS:
        out = _translate("request", payload, source, target, "drop").payload
        assert len(dumps(out)) > len(BIG)


def test_ten_megabyte_strings_in_responses_and_wrong_places() -> None:
    responses = {
        "openai-chat": {"choices": [{"index": 0, "message": {"role": "assistant", "content": BIG}}]},
        "openai-responses": {
            "output": [
                {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": BIG}]}
            ]
        },
        "anthropic": {"content": [{"type": "text", "text": BIG}]},
        "gemini": {"candidates": [{"content": {"role": "model", "parts": [{"text": BIG}]}}]},
    }
    for source, payload in responses.items():
        for target in FORMATS:
            out = _translate("response", payload, source, target, "drop").payload
            assert len(dumps(out)) > len(BIG)
    wrong = {"model": "m", "messages": [{"role": BIG, "content": "x"}]}
    with pytest.raises(PayloadError) as info:
        translate_request(wrong, source="openai-chat", target="anthropic")
    assert info.value.path == "$.messages[0].role"
    assert len(str(info.value)) < 200, "error messages quote at most a short prefix of bad values"


# ---------------------------------------------------------------- invalid JSON argument strings


@pytest.mark.parametrize("arguments", ['{"a":', "[1, 2]", "nope", '{"a": 1}}', "42"])
@pytest.mark.parametrize("source", ["openai-chat", "openai-responses"])
def test_invalid_argument_strings_are_kept_or_noted(arguments: str, source: str) -> None:
    payload = (_chat_call if source == "openai-chat" else _responses_call)(arguments)
    for target in ("openai-chat", "openai-responses"):
        out = _translate("request", payload, source, target, "strict").payload
        assert arguments in str(out), "kept byte-exact where the target takes a string"
    for target in ("anthropic", "gemini"):
        with pytest.raises(ConversionError) as info:
            _translate("request", payload, source, target, "strict")
        assert info.value.path == _CALL_PATHS[source], "the call in the payload passed in"
        dropped = _translate("request", payload, source, target, "drop")
        assert any(n.kind == "approximated" and "not a JSON object" in n.message for n in dropped.notes)


# ---------------------------------------------------------------- missing fields, wrong types

_JUNK: list[Any] = [None, 0, 1.5, "", "x", True, [], {}, [None], {"type": None}, BIG, DEEP_OBJECT, DEEP_ARRAY]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_nodes(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.extend(_nodes(item, (*path, index)))
    return out


def _mutate(value: Any, path: tuple[Any, ...], junk: Any, delete: bool) -> Any:
    if not path:
        return junk
    copied = copy.deepcopy(value)
    parent = copied
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = junk
    return copied


_Check = Callable[[Any], None]


@pytest.mark.parametrize("kind", ["request", "response"])
@pytest.mark.parametrize("source", FORMATS)
def test_mutated_real_payloads_fail_only_with_toolwire_errors(source: str, kind: str) -> None:
    """Random nodes of real recorded payloads replaced by junk or removed, then translated to
    every format under both policies: success or a ToolwireError with a JSON path."""
    rng = random.Random(f"{source}/{kind}")
    pool = samples(source, kind)
    if not pool:
        pytest.skip("fixture corpus not found")
    outcomes = {"ok": 0, "error": 0}
    for sample in rng.sample(pool, min(12, len(pool))):
        nodes = _nodes(sample.payload)
        for path in rng.sample(nodes, min(5, len(nodes))):
            broken = _mutate(sample.payload, path, rng.choice(_JUNK), delete=rng.random() < 0.25)
            for target in rng.sample(FORMATS, 2):
                outcome = _outcome(kind, broken, source, target, rng.choice(["strict", "drop"]))
                outcomes["ok" if isinstance(outcome, Translation) else "error"] += 1
    assert outcomes["ok"] and outcomes["error"], outcomes
