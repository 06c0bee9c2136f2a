"""Malformed Gemini payloads give a ToolwireError naming the JSON path, never a KeyError/TypeError."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from tests.corpus import samples
from toolwire.errors import ConversionError, LimitError, PayloadError, ToolwireError
from toolwire.formats import gemini
from toolwire.ir import Notes

_USER = {"role": "user", "parts": [{"text": "hi"}]}


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ([], "$"),
        ({"contents": "hi"}, "$.contents"),
        ({"contents": [3]}, "$.contents[0]"),
        ({"contents": [{"role": 1, "parts": []}]}, "$.contents[0].role"),
        ({"contents": [{"role": "user", "parts": "hi"}]}, "$.contents[0].parts"),
        ({"contents": [{"role": "user", "parts": [{"text": 5}]}]}, "$.contents[0].parts[0].text"),
        (
            {"contents": [{"role": "user", "parts": [{"text": "a", "thought": "yes"}]}]},
            "$.contents[0].parts[0].thought",
        ),
        (
            {"contents": [_USER, {"role": "model", "parts": [{"functionCall": {"args": {}}}]}]},
            "$.contents[1].parts[0].functionCall.name",
        ),
        (
            {"contents": [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": []}}]}]},
            "$.contents[0].parts[0].functionCall.args",
        ),
        (  # a call to a tool without a name (the plain shape the fast lane takes, and with an id)
            {"contents": [_USER, {"role": "model", "parts": [{"functionCall": {"name": "", "args": {}}}]}]},
            "$.contents[1].parts[0].functionCall.name",
        ),
        (
            {"contents": [{"role": "model", "parts": [{"functionCall": {"name": "", "id": "c1"}}]}]},
            "$.contents[0].parts[0].functionCall.name",
        ),
        (
            {"contents": [{"parts": [{"functionResponse": {"name": "f", "response": "ok"}}]}]},
            "$.contents[0].parts[0].functionResponse.response",
        ),
        (
            {
                "contents": [
                    {"parts": [{"functionResponse": {"name": "f", "response": {}, "parts": [{"text": "x"}]}}]}
                ]
            },
            "$.contents[0].parts[0].functionResponse.parts[0]",
        ),
        (
            {"contents": [{"parts": [{"inlineData": {"mimeType": "image/png"}}]}]},
            "$.contents[0].parts[0].inlineData.data",
        ),
        (
            {"contents": [{"parts": [{"fileData": {"mimeType": "image/png", "fileUri": 7}}]}]},
            "$.contents[0].parts[0].fileData.fileUri",
        ),
        ({"contents": [_USER], "systemInstruction": "be nice"}, "$.systemInstruction"),
        ({"contents": [_USER], "tools": "x"}, "$.tools"),
        (
            {"contents": [_USER], "toolConfig": {"functionCallingConfig": {"mode": 1}}},
            "$.toolConfig.functionCallingConfig.mode",
        ),
        (
            {"contents": [_USER], "toolConfig": {"functionCallingConfig": {"allowedFunctionNames": [1]}}},
            "$.toolConfig.functionCallingConfig.allowedFunctionNames[0]",
        ),
        (
            {"contents": [_USER], "generationConfig": {"maxOutputTokens": "10"}},
            "$.generationConfig.maxOutputTokens",
        ),
        (
            {"contents": [_USER], "generationConfig": {"stopSequences": ["a", 2]}},
            "$.generationConfig.stopSequences[1]",
        ),
        (
            {"contents": [_USER], "generationConfig": {"thinkingConfig": {"thinkingBudget": "lots"}}},
            "$.generationConfig.thinkingConfig.thinkingBudget",
        ),
    ],
)
def test_bad_request_names_the_path(payload: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        gemini.decode_request(payload, Notes("warn"))
    assert info.value.path == path


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ("nope", "$"),
        ({"candidates": {}}, "$.candidates"),
        ({"candidates": [None]}, "$.candidates[0]"),
        ({"candidates": [{"content": {"parts": [{"text": None}]}}]}, "$.candidates[0].content.parts[0].text"),
        ({"candidates": [{"finishReason": 3}]}, "$.candidates[0].finishReason"),
        ({"candidates": [], "usageMetadata": {"promptTokenCount": "9"}}, "$.usageMetadata.promptTokenCount"),
        ({"promptFeedback": []}, "$.promptFeedback"),
    ],
)
def test_bad_response_names_the_path(payload: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        gemini.decode_response(payload, Notes("warn"))
    assert info.value.path == path


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ("Service Unavailable", "$"),
        ({"message": "x"}, "$.error"),
        ({"error": {"code": "400", "message": "x"}}, "$.error.code"),
        ([{"error": {"code": 400}}, {}], "$"),
        ([{"error": {"code": 400, "message": 3}}], "$[0].error.message"),
    ],
)
def test_bad_error_names_the_path(body: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        gemini.decode_error(body, 400, Notes("warn"))
    assert info.value.path == path


def test_invalid_tool_entries_are_skipped_or_refused() -> None:
    payload = {
        "contents": [_USER],
        "tools": [
            None,
            {
                "functionDeclarations": [
                    {"description": "no name"},
                    {"name": "ok"},
                    {"name": "p", "parameters": []},
                ]
            },
        ],
    }
    notes = Notes("warn")
    ir = gemini.decode_request(payload, notes)
    assert [t.name for t in ir.tools] == ["ok"]  # type: ignore[union-attr]
    assert [(n.path, n.kind) for n in notes] == [
        ("$.tools[0]", "skipped"),
        ("$.tools[1].functionDeclarations[0].name", "skipped"),
        ("$.tools[1].functionDeclarations[2].parameters", "skipped"),
    ]
    with pytest.raises(ConversionError) as info:
        gemini.decode_request(payload, Notes("strict"))
    assert info.value.path == "$.tools[0]"


def test_deeply_nested_arguments_raise_a_limit_error() -> None:
    args: Any = {}
    for _ in range(5000):
        args = {"a": args}
    payload = {"contents": [{"role": "model", "parts": [{"functionCall": {"name": "f", "args": args}}]}]}
    with pytest.raises(LimitError) as info:
        gemini.decode_request(payload, Notes("warn"))
    assert info.value.path == "$.contents[0].parts[0].functionCall.args"


_JUNK: list[Any] = [None, 1, "x", [], {}, [1], {"x": 1}, True]


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out.extend(_nodes(item, (*path, key)))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out.extend(_nodes(item, (*path, index)))
    return out


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    copied = copy.deepcopy(value)
    target = copied
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = new
    return copied


_CODECS: dict[str, tuple[Any, Any]] = {
    "request": (lambda p, n: gemini.decode_request(p, n), gemini.encode_request),
    "response": (gemini.decode_response, gemini.encode_response),
    "error": (lambda p, n: gemini.decode_error(p, None, n), lambda e, n: gemini.encode_error(e, n)[1]),
}


@pytest.mark.parametrize("kind", ["request", "response", "error"])
def test_mutated_corpus_payloads(kind: str) -> None:
    """Replace random nodes of real payloads with junk values.

    Decoding either raises a ToolwireError or succeeds; when it succeeds without
    skipping an invalid entry, the same-format round trip is still exact.
    """
    rng = random.Random(20240601)
    decode, encode = _CODECS[kind]
    tried = 0
    for sample in samples(format="gemini", kind=kind):
        nodes = _nodes(sample.payload)
        for path in rng.sample(nodes, min(8, len(nodes))):
            mutated = _replace(sample.payload, path, rng.choice(_JUNK))
            notes = Notes("drop")
            try:
                ir = decode(mutated, notes)
            except ToolwireError:
                continue
            tried += 1
            if not any(note.kind == "skipped" for note in notes):
                assert encode(ir, notes) == mutated, (sample.id, path)
    assert tried > 50
