"""Malformed input gives a ToolwireError naming the JSON path, never KeyError/TypeError/AttributeError."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from tests.corpus import samples
from toolwire.errors import PayloadError, ToolwireError
from toolwire.formats import openai_responses as resp
from toolwire.ir import Notes


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ([], "$"),
        ({"input": {"role": "user"}}, "$.input"),
        ({"input": [None]}, "$.input[0]"),
        ({"input": [{"content": "x"}]}, "$.input[0].type"),
        ({"input": [{"role": "robot", "content": "x"}]}, "$.input[0].role"),
        ({"input": [{"role": "user"}]}, "$.input[0].content"),
        ({"input": [{"role": "user", "content": 3}]}, "$.input[0].content"),
        ({"input": [{"role": "user", "content": [{"type": "input_text"}]}]}, "$.input[0].content[0].text"),
        ({"input": [{"role": "user", "content": [{"text": "x"}]}]}, "$.input[0].content[0].type"),
        (
            {"input": [{"role": "user", "content": [{"type": "input_image", "image_url": 1}]}]},
            "$.input[0].content[0].image_url",
        ),
        (
            {"input": [{"type": "function_call", "name": "f", "arguments": "{}"}]},
            "$.input[1 - 1].call_id".replace("1 - 1", "0"),
        ),
        (
            {"input": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}]},
            "$.input[0].arguments",
        ),
        ({"input": [{"type": "function_call_output", "call_id": "c"}]}, "$.input[0].output"),
        (
            {"input": [{"type": "function_call_output", "call_id": "c", "output": [1]}]},
            "$.input[0].output[0]",
        ),
        ({"input": [{"type": "reasoning", "id": 5, "summary": []}]}, "$.input[0].id"),
        ({"input": [{"type": 7}]}, "$.input[0].type"),
        ({"temperature": "hot"}, "$.temperature"),
        ({"max_output_tokens": 1.5}, "$.max_output_tokens"),
        ({"text": []}, "$.text"),
        ({"reasoning": {"effort": 3}}, "$.reasoning.effort"),
        ({"metadata": "x"}, "$.metadata"),
        ({"parallel_tool_calls": "yes"}, "$.parallel_tool_calls"),
    ],
)
def test_broken_requests_name_the_path(payload: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        resp.decode_request(payload, Notes())
    assert info.value.path == path


@pytest.mark.parametrize(
    ("payload", "path"),
    [
        ("nope", "$"),
        ({"output": {}}, "$.output"),
        (
            {"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text"}]}]},
            "$.output[0].content[0].text",
        ),
        (
            {"output": [{"type": "function_call", "call_id": "c", "name": 1, "arguments": ""}]},
            "$.output[0].name",
        ),
        ({"output": [], "usage": {"input_tokens": "many"}}, "$.usage.input_tokens"),
        ({"output": [], "usage": {"output_tokens_details": []}}, "$.usage.output_tokens_details"),
        ({"output": [], "error": "boom"}, "$.error"),
        ({"output": [], "status": 1}, "$.status"),
    ],
)
def test_broken_responses_name_the_path(payload: Any, path: str) -> None:
    with pytest.raises(PayloadError) as info:
        resp.decode_response(payload, Notes())
    assert info.value.path == path


def test_deep_nesting_is_carried_not_crashed() -> None:
    deep: Any = {"type": "object"}
    for _ in range(500):
        deep = {"type": "object", "properties": {"x": deep}}
    payload = {
        "model": "m",
        "input": "x",
        "tools": [{"type": "function", "name": "f", "parameters": deep, "strict": True}],
    }
    notes = Notes("strict")
    assert resp.encode_request(resp.decode_request(payload, notes), notes) == payload


_JUNK: list[Any] = [None, 0, 1.5, "x", True, [], {}, [None], {"type": None}, {"type": "message"}]


def _mutations(value: Any, rng: random.Random) -> Any:
    """A copy of ``value`` with one randomly chosen node replaced by junk or removed."""
    value = copy.deepcopy(value)
    nodes: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in list(node):
                nodes.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index in range(len(node)):
                nodes.append((node, index))
                walk(node[index])

    walk(value)
    if not nodes:
        return value
    parent, key = rng.choice(nodes)
    if isinstance(parent, dict) and rng.random() < 0.3:
        del parent[key]
    else:
        parent[key] = rng.choice(_JUNK)
    return value


def _round_trip(kind: str, payload: Any, status: int | None, notes: Notes) -> Any:
    if kind == "request":
        return resp.encode_request(resp.decode_request(payload, notes), notes)
    if kind == "response":
        return resp.encode_response(resp.decode_response(payload, notes), notes)
    return resp.encode_error(resp.decode_error(payload, status, notes), notes)


@pytest.mark.parametrize("kind", ["request", "response", "error"])
def test_mutated_corpus_payloads_fail_only_with_toolwire_errors(kind: str) -> None:
    rng = random.Random(20240601)
    for sample in samples(format="openai-responses", kind=kind):
        for _ in range(8):
            broken = _mutations(sample.payload, rng)
            for policy in ("strict", "drop"):
                try:
                    _round_trip(kind, broken, sample.status, Notes(policy))
                except ToolwireError as exc:
                    assert exc.path is None or exc.path.startswith("$")
