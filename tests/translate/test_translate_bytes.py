"""``translate_request_bytes`` / ``translate_response_bytes``: JSON bytes in, JSON bytes out.

Every recorded request and response of the corpus, to every other format: the bytes API writes
exactly the JSON of the dict API's payload, with the same notes; bad bodies are typed errors.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests import corpus
from toolwire import (
    ConversionError,
    Note,
    PayloadError,
    translate_request,
    translate_request_bytes,
    translate_response,
    translate_response_bytes,
)

FORMATS = corpus.FORMATS


def _same(bytes_api: Any, dict_api: Any, sample: corpus.Sample, target: str, **kw: Any) -> None:
    raw = json.dumps(sample.payload).encode()
    try:
        expected = dict_api(sample.payload, source=sample.format, target=target, policy="drop", **kw)
    except ConversionError as exc:  # the dict API refuses: the bytes API refuses alike
        with pytest.raises(type(exc)) as caught:
            bytes_api(raw, source=sample.format, target=target, policy="drop", **kw)
        assert str(caught.value) == str(exc)
        return
    notes: list[Note] = []
    out = bytes_api(raw, source=sample.format, target=target, policy="drop", notes=notes, **kw)
    assert type(out) is bytes
    assert json.loads(out) == json.loads(json.dumps(expected.payload))
    assert tuple(notes) == expected.notes


@pytest.mark.parametrize("target", FORMATS)
@pytest.mark.parametrize("sample", corpus.params(kind="request"))
def test_request_bytes_equal_the_dict_api(sample: corpus.Sample, target: str) -> None:
    _same(translate_request_bytes, translate_request, sample, target, model=sample.model)


@pytest.mark.parametrize("target", FORMATS)
@pytest.mark.parametrize("sample", corpus.params(kind="response"))
def test_response_bytes_equal_the_dict_api(sample: corpus.Sample, target: str) -> None:
    _same(translate_response_bytes, translate_response, sample, target)


CHAT = {
    "model": "gpt-4o",
    "messages": [{"role": "user", "content": "Wetter in Köln? ☀"}],
    "tools": [{"type": "function", "function": {"name": "weather.get", "parameters": {"type": "object"}}}],
}


def test_request_bytes_exact_output_and_str_input() -> None:
    out = translate_request_bytes(json.dumps(CHAT), source="openai-chat", target="anthropic", policy="drop")
    assert out == (
        b'{"model":"gpt-4o","messages":[{"role":"user","content":[{"type":"text",'
        b'"text":"Wetter in K\xc3\xb6ln? \xe2\x98\x80"}]}],"max_tokens":4096,'
        b'"tools":[{"name":"weather_get","input_schema":{"type":"object"}}]}'
    )


def test_notes_are_appended_to_the_given_list() -> None:
    earlier = translate_request(CHAT, source="openai-chat", target="anthropic", policy="drop").notes[0]
    notes: list[Note] = [earlier]
    translate_request_bytes(
        json.dumps(CHAT).encode(), source="openai-chat", target="anthropic", policy="drop", notes=notes
    )
    assert notes[0] is earlier
    added = [(n.kind, n.message) for n in notes[1:]]
    assert added == [
        ("renamed", "tool 'weather.get' sent as 'weather_get'"),
        ("synthesized", "max_tokens is required; sent 4096"),
    ]


def test_strict_policy_raises_like_the_dict_api() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "logprobs": True}
    with pytest.raises(ConversionError, match=r"^\$\.logprobs: dropped: field 'logprobs' has no equivalent"):
        translate_request_bytes(json.dumps(body), source="openai-chat", target="anthropic", policy="strict")


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b'{"model": "gpt-4o", "messages": [', "invalid JSON"),
        (b"[1, 2]", "must be a JSON object, not list"),
        (b'"text"', "must be a JSON object, not str"),
        (b"\xff\xfe", "invalid JSON"),
    ],
)
@pytest.mark.parametrize("translate", [translate_request_bytes, translate_response_bytes])
def test_bad_bodies_are_payload_errors_at_the_root(translate: Any, body: bytes, message: str) -> None:
    with pytest.raises(PayloadError, match=message) as caught:
        translate(body, source="openai-chat", target="anthropic")
    assert caught.value.path == "$"


def test_response_bytes_exact_output() -> None:
    body = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-x",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "get", "input": {"q": "ö"}}],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 3, "output_tokens": 4},
    }
    out = json.loads(translate_response_bytes(json.dumps(body), source="anthropic", target="gemini"))
    assert out["candidates"][0]["content"]["parts"][0]["functionCall"] == {
        "name": "get",
        "args": {"q": "ö"},
        "id": "toolu_1",
    }
    assert out["usageMetadata"]["promptTokenCount"] == 3
